"""§11.7: breaking the AI's ties with a die, exactly as the rulebook maps faces to candidates."""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel import Chance

DIE = 6


def face_to_candidate(face: int, count: int) -> int | None:
    """The 0-based candidate a face picks among ``count`` tied candidates, or None for "roll again".

    2: 1-3 first, 4-6 second; 3: 1-2, 3-4, 5-6 (the rulebooks' "2-4" is a misprint); 4: faces 1-4
    pick that candidate, 5-6 reroll; 5 (extension): 1-5, 6 rerolls; 6 (extension): the face itself.
    """
    if count == 2:
        return 0 if face <= 3 else 1
    if count == 3:
        return (face - 1) // 2
    if count in (4, 5):
        return face - 1 if face <= count else None
    if count == DIE:
        return face - 1
    raise ValueError(f"no die mapping for {count} candidates")


def break_tie(chance: Chance, count: int) -> tuple[int, tuple[int, ...]]:
    """Choose among ``count`` ordered candidates; returns (index, faces rolled). One candidate rolls
    nothing; more than six use a uniform draw from the chance source (recorded as face 0)."""
    if count == 1:
        return 0, ()
    if count > DIE:
        return chance.below(count), (0,)
    faces: list[int] = []
    while True:
        face = chance.roll(1, DIE)[0]
        faces.append(face)
        chosen = face_to_candidate(face, count)
        if chosen is not None:
            return chosen, tuple(faces)


def pick(chance: Chance, candidates: Sequence[str]) -> tuple[str, tuple[int, ...]]:
    index, faces = break_tie(chance, len(candidates))
    return candidates[index], faces
