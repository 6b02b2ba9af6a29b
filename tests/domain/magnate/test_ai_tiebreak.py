"""The AI's tie-break die (spec §11.7, A18, C8): which face picks which of the tied candidates, rerolls, and
the record of every face."""

from __future__ import annotations

import pytest

from domain.magnate.ai.tiebreak import break_tie, face_to_candidate


class ScriptedDie:
    """A chance source whose die shows the given faces in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def roll(self, count: int, sides: int = 6) -> tuple[int, ...]:
        assert (count, sides) == (1, 6)
        return (self.faces.pop(0),)

    def below(self, n: int) -> int:
        return n - 1


def test_two_candidates_faces_1_to_3_pick_the_first_4_to_6_the_second() -> None:
    assert [face_to_candidate(face, 2) for face in range(1, 7)] == [0, 0, 0, 1, 1, 1]


def test_three_candidates_faces_1_2_first_3_4_second_5_6_third_resolving_the_misprint() -> None:
    """§11.7, §14 A18, §16 C8: the rulebooks print "2-4" for the second candidate; face 3 picks the second."""
    assert [face_to_candidate(face, 3) for face in range(1, 7)] == [0, 0, 1, 1, 2, 2]
    assert face_to_candidate(3, 3) == 1


def test_four_candidates_faces_1_to_4_pick_that_candidate_5_and_6_reroll() -> None:
    assert [face_to_candidate(face, 4) for face in range(1, 7)] == [0, 1, 2, 3, None, None]


def test_five_and_six_candidates_extensions() -> None:
    """§11.7 extensions: 5 -> faces 1-5, 6 rerolls; 6 -> the face itself."""
    assert [face_to_candidate(face, 5) for face in range(1, 7)] == [0, 1, 2, 3, 4, None]
    assert [face_to_candidate(face, 6) for face in range(1, 7)] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("count", [0, 1, 7])
def test_no_face_mapping_exists_for_one_or_more_than_six_candidates(count: int) -> None:
    with pytest.raises(ValueError, match="no die mapping"):
        face_to_candidate(1, count)


def test_break_tie_rerolls_and_records_every_face() -> None:
    """§11.7 "each roll is an event": the faces in order, rerolls included."""
    assert break_tie(ScriptedDie(5, 6, 3), 4) == (2, (5, 6, 3))  # type: ignore[arg-type]
    assert break_tie(ScriptedDie(3), 3) == (1, (3,))  # type: ignore[arg-type]
    assert break_tie(ScriptedDie(4), 2) == (1, (4,))  # type: ignore[arg-type]
    assert break_tie(ScriptedDie(), 1) == (0, ())  # type: ignore[arg-type]
    assert break_tie(ScriptedDie(), 9) == (8, (0,))  # type: ignore[arg-type]
