"""Ratings per game type (issue #29): openskill's Plackett-Luce ratings (:mod:`.skill`), settled once per rated game
(:mod:`.service`)."""

from .service import RatingService, Settled
from .skill import FRESH, MODEL, rate, rate_teams, shown

__all__ = ["FRESH", "MODEL", "RatingService", "Settled", "rate", "rate_teams", "shown"]
