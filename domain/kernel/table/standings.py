"""The standings as the table tells them: the game's own ranking, with the seats that resigned or forfeited moved
below every seat that played on, and each seat's mark (timed out, left, resigned, forfeited) beside its score."""

from __future__ import annotations

from ..game import Outcome, Standing
from .facts import TableFacts

CONCEDED = frozenset({"resigned", "forfeited"})


def table_outcome(outcome: Outcome, facts: TableFacts) -> Outcome:
    """``outcome`` re-ranked: conceding seats last (in the game's order among themselves), ties kept."""
    played = [s for s in outcome.standings if facts.mark(s.seat) not in CONCEDED]
    conceded = [s for s in outcome.standings if facts.mark(s.seat) in CONCEDED]
    ranked: list[Standing] = []
    for group, offset in ((played, 0), (conceded, len(played))):
        for index, standing in enumerate(group):
            tied = index > 0 and group[index - 1].rank == standing.rank
            rank = ranked[-1].rank if tied else offset + index + 1
            ranked.append(Standing(standing.seat, rank, standing.score, facts.mark(standing.seat)))
    return Outcome(tuple(ranked), outcome.rounds)
