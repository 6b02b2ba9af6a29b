"""The standings as the table tells them: the game's own ranking, with the seats that resigned or forfeited moved
below every seat that played on, and each seat's mark (timed out, left, resigned, forfeited) beside its score.

Rank 1 is a win, so it belongs only to a seat that played on: when every seat conceded (both players of a duel
resigned, whoever resigned last), nobody wins and every seat shares rank 2 (its score still shows how its stand-in
played it out)."""

from __future__ import annotations

from ..game import Outcome, Standing
from .facts import TableFacts

CONCEDED = frozenset({"resigned", "forfeited"})


def table_outcome(outcome: Outcome, facts: TableFacts) -> Outcome:
    """``outcome`` re-ranked: conceding seats last (in the game's order among themselves), ties kept; when no seat
    played on, all share rank 2."""
    played = [s for s in outcome.standings if facts.mark(s.seat) not in CONCEDED]
    conceded = [s for s in outcome.standings if facts.mark(s.seat) in CONCEDED]
    if not played:
        return Outcome(tuple(Standing(s.seat, 2, s.score, facts.mark(s.seat)) for s in conceded), outcome.rounds)
    ranked: list[Standing] = []
    for group, offset in ((played, 0), (conceded, len(played))):
        for index, standing in enumerate(group):
            tied = index > 0 and group[index - 1].rank == standing.rank
            rank = ranked[-1].rank if tied else offset + index + 1
            ranked.append(Standing(standing.seat, rank, standing.score, facts.mark(standing.seat)))
    return Outcome(tuple(ranked), outcome.rounds)
