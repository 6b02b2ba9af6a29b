"""The ratings' arithmetic, pure: openskill's Plackett-Luce model with the library's defaults (mu 25, sigma 25/3,
beta 25/6, tau 25/300), one team per seat (or several seats per team, for games played by teams), ties by equal
rank. Plackett-Luce ranks any number of teams at once (2 to 5 seats here, and 2 vs. 2) from the order they
finished in, which is all a board game's end tells; Elo and Glicko-2 rate pairs only.

The rating pages show is a display scale of openskill's ordinal (mu - 3 sigma, the skill the player very likely has
at least): ``1000 + 20 * (mu - 3 sigma)``, rounded. A newcomer shows 1000; it grows as the player wins and as
sigma (the uncertainty) shrinks with games played."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

from infra.ratings import Skill

MODEL = PlackettLuce()
"""The library's model with its documented defaults."""
SHOWN_TARGET = 1000
SHOWN_SCALE = 20


def shown(mu: float, sigma: float) -> int:
    """The rating shown for (mu, sigma): openskill's ordinal on the display scale."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=SHOWN_SCALE, target=SHOWN_TARGET))


FRESH = Skill(MODEL.mu, MODEL.sigma, 0, shown(MODEL.mu, MODEL.sigma))
"""A player's rating before their first rated game of a type."""


def rate_teams(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """Every team's players' ratings after a game the teams finished in ``ranks`` (1 first; equal ranks tie),
    each player's games counted one more."""
    if len(teams) != len(ranks) or len(teams) < 2:
        raise ValueError("a rated game needs two teams or more, each with a rank")
    before = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams]
    after: list[list[PlackettLuceRating]] = MODEL.rate(before, ranks=[float(r) for r in ranks])
    return [[Skill(r.mu, r.sigma, s.games + 1, shown(r.mu, r.sigma)) for s, r in zip(team, rated, strict=True)]
            for team, rated in zip(teams, after, strict=True)]


def rate(players: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Each player's rating after a game where each played alone and finished at ``ranks`` (1 first)."""
    return [team[0] for team in rate_teams([[p] for p in players], ranks)]
