"""Decktet Magnate's computer players against each other and against the bots: win rates and decision times.

    python -m bench.decktet_ai --games 2000 --write docs/AI.md    # every pairing, the table into docs/AI.md
    python -m bench.decktet_ai --games 200 --pairing easy:greedy  # one pairing
    python -m bench.decktet_ai --games 2000 --hard-games 500      # fewer games where the hard level plays

Every game is the base two-player game (Courts in, spec §2.10's defaults). In a pairing ``a:b``, game ``i`` uses
the seed ``decktet-ai:a-b:i``; ``a`` sits in seat ``i % 2`` and ``b`` in the other, so each plays first in half of
the games (seats alternate). A computer seat is the computer at its level, playing through the system command
``TakeAiTurn`` exactly as in the service (``domain.kernel.driver.play``); a bot seat (``random``, ``greedy``) is a
person's seat played by the bot of that name, seeded with ``2 i`` or ``2 i + 1``. ``a`` scores 1 for a win, 1/2
for a shared win (R7.5's full tie) and 0 for a loss; the table gives that rate with its 95% Wilson score interval
(the interval of the proportion ``(wins + ties / 2) / games``), and the ties apart.

The decision time of a level is the wall time of each ``TakeAiTurn`` decision it makes in these games (planning,
then applying the plan and ending the turn; the last two take well under a millisecond), over all its games, in
processes that share the machine's cores with each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel import Outcome

from .ai_match import Match
from .ai_match import main as match_main

PAIRINGS = (
    ("random", "greedy"),
    ("easy", "greedy"),
    ("medium", "easy"),
    ("hard", "medium"),
    ("hard", "greedy"),
)
"""The default pairings, each level against the one below (and the bots); others by ``--pairing``."""
BEGIN, END = "<!-- decktet-ai:begin -->", "<!-- decktet-ai:end -->"


def _options(seats: list[dict[str, Any]]) -> dict[str, Any]:
    return {"seats": seats}


def _on_turn(state: Any, command: Any) -> int:
    return int(state.active)


def _turns(state: Any, outcome: Outcome) -> int:
    return int(state.turn)


MATCH = Match(game="decktet", prefix="decktet-ai", markers=(BEGIN, END), ai_turn="decktet.take_ai_turn",
              options=_options, decider=_on_turn, length=_turns, length_header="turns a game", label="Decktet")
"""Decktet Magnate as the service runs it (through the registry, as everything outside domain/ reaches a game):
the base two-player game, the computer's turn ``decktet.take_ai_turn`` for the seat on turn."""


def main(argv: Sequence[str] | None = None) -> int:
    return match_main(MATCH, PAIRINGS, __doc__, "bench.decktet_ai", argv, heavy="hard")


if __name__ == "__main__":
    raise SystemExit(main())
