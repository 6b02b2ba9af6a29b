"""Master of Economy's computer players against each other and against the bots: win rates and decision times.

    python -m bench.moe_ai --games 2000 --write docs/AI.md     # every pairing, the table into docs/AI.md
    python -m bench.moe_ai --games 200 --pairing basic:greedy  # one pairing

Every game is two players with the additional corporation (§12, the manual's recommendation for two; the other
options at their defaults: corporations picked in seat order, a random first action sequence, open cash, a finite
supply). In a pairing ``a:b``, game ``i`` uses the seed ``moe-ai:a-b:i``; ``a`` sits in seat ``i % 2`` and ``b`` in
the other, so each picks first in half of the games. A computer seat is the computer at its level, deciding through
the system command ``TakeAiTurn`` exactly as in the service (``domain.kernel.driver.play``); a bot seat
(``random``, ``greedy``) is a person's seat played by the bot of that name, seeded with ``2 i`` or ``2 i + 1``. ``a``
scores 1 for a win, 1/2 for a shared win (equal final results, ME-E-8) and 0 for a loss; the table gives that rate
with its 95% Wilson score interval, and the shared wins apart (bench/ai_match.py runs it).

The decision time of a level is the wall time of each ``TakeAiTurn`` it makes (deciding, then playing its moves and
the automatic steps that follow), over all its games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel import Outcome

from .ai_match import Match
from .ai_match import main as match_main

PAIRINGS = (
    ("random", "greedy"),
    ("basic", "greedy"),
    ("shrewd", "basic"),
    ("shrewd", "greedy"),
)
"""The default pairings: the bots, each level against the one below, the strongest against the greedy bot."""
BEGIN, END = "<!-- moe-ai:begin -->", "<!-- moe-ai:end -->"


def _options(seats: list[dict[str, Any]]) -> dict[str, Any]:
    return {"players": len(seats), "additional_corporation": True, "seats": seats}


def _seat(state: Any, command: Any) -> int:
    return int(command.seat)


def _stages(state: Any, outcome: Outcome) -> int:
    return int(outcome.rounds)


MATCH = Match(game="master_of_economy", prefix="moe-ai", markers=(BEGIN, END),
              ai_turn="master_of_economy.take_ai_turn", options=_options, decider=_seat, length=_stages,
              length_header="stages a game", label="Master of Economy")
"""Master of Economy as the service runs it (through the registry): two players with the AC; the computer's
decision ``master_of_economy.take_ai_turn`` names its seat."""


def main(argv: Sequence[str] | None = None) -> int:
    return match_main(MATCH, PAIRINGS, __doc__, "bench.moe_ai", argv)


if __name__ == "__main__":
    raise SystemExit(main())
