"""The ratings' arithmetic is openskill's (services/ratings/skill.py): a 2-player and a 3-player game rate exactly
as the library's documented API computes for the same ranks, the first update's numbers pinned by hand against the
library's own documentation, ties by equal rank, and the shown rating is the ordinal on the display scale."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from infra.ratings import Skill
from services.ratings import FRESH, rate, rate_teams, shown


def test_the_library_computes_what_its_documentation_shows() -> None:
    """openskill.py's README (6.x), "Limited Example": two teams of newcomers, the first wins."""
    model = PlackettLuce()
    r = model.rating
    [[a, b], [x, y]] = model.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == pytest.approx((26.964294621803063, 8.177962604389991), abs=1e-12)
    assert (x.mu, x.sigma) == pytest.approx((23.035705378196937, 8.177962604389991), abs=1e-12)
    assert (a == b) and (x == y)
    # the older README's example of two rated teams (without the dynamics factor tau, which it predates)
    still = PlackettLuce(tau=0)
    [[x1, x2], [y1, y2]] = still.rate([[still.rating(), still.rating(mu=32.444, sigma=5.123)],
                                       [still.rating(mu=43.381, sigma=2.421), still.rating(mu=25.188, sigma=6.211)]])
    assert (x1.mu, x1.sigma) == pytest.approx((28.669648436582808, 8.071520788025197), abs=1e-9)
    assert (x2.mu, x2.sigma) == pytest.approx((33.83086971107981, 5.062772998705765), abs=1e-9)
    assert (y1.mu, y1.sigma) == pytest.approx((43.071274808241974, 2.4166900452721256), abs=1e-9)
    assert (y2.mu, y2.sigma) == pytest.approx((23.149503312339064, 6.1378606973362135), abs=1e-9)


def test_a_two_player_game_rates_as_openskill_does() -> None:
    after = rate([FRESH, FRESH], [1, 2])
    model = PlackettLuce()
    [[win], [loss]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert [(s.mu, s.sigma) for s in after] == [(win.mu, win.sigma), (loss.mu, loss.sigma)]
    # By hand (Weng-Lin's Plackett-Luce with the library's defaults mu 25, sigma 25/3, beta 25/6, tau 25/300):
    # sigma^2 = (25/3)^2 + tau^2 = 69.4514; c^2 = 2 (sigma^2 + beta^2) = 173.625, c = 13.1767; each newcomer's
    # chance of finishing first is p = 1/2, so the winner's mu moves by sigma^2 / c * (1 - p) = 2.63539 and the
    # loser's by as much down; eta = sigma^2 / c^2 * p (1 - p) = 0.1, gamma = sigma / c = 0.632456, and
    # sigma' = sqrt(sigma^2 * (1 - gamma * eta)) = sqrt(65.0590) = 8.06590.
    assert after[0].mu == pytest.approx(27.635389493140497, abs=1e-12)
    assert after[1].mu == pytest.approx(22.364610506859503, abs=1e-12)
    assert after[0].sigma == after[1].sigma == pytest.approx(8.06590141354368, abs=1e-12)
    assert [s.games for s in after] == [1, 1]
    assert [s.shown for s in after] == [1069, 963]  # 1000 + 20 * (mu - 3 sigma), rounded


def test_a_three_player_game_with_a_tie_rates_as_openskill_does() -> None:
    ada, bob, cyd = Skill(30.0, 6.0, 4, shown(30.0, 6.0)), FRESH, Skill(22.0, 7.5, 2, shown(22.0, 7.5))
    after = rate([ada, bob, cyd], [2, 1, 2])
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=30.0, sigma=6.0)], [model.rating()], [model.rating(mu=22.0, sigma=7.5)]],
                          ranks=[2, 1, 2])
    assert [(s.mu, s.sigma) for s in after] == [(t[0].mu, t[0].sigma) for t in expected]
    assert after[1].mu > bob.mu and after[0].mu < ada.mu  # the newcomer won, the strongest did not
    assert [s.games for s in after] == [5, 1, 3]
    assert [s.shown for s in after] == [round(t[0].ordinal(alpha=20, target=1000)) for t in expected]
    tied = rate([FRESH, FRESH, FRESH], [1, 2, 2])
    assert tied[1] == tied[2]
    assert tied[0].mu == pytest.approx(27.869048680749426, abs=1e-12)
    assert tied[1].mu == pytest.approx(23.565475659625285, abs=1e-12)


def test_teams_of_two_rate_as_openskill_does() -> None:
    after = rate_teams([[FRESH, FRESH], [FRESH, FRESH]], [1, 2])
    assert after[0][0].mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert after[1][1].sigma == pytest.approx(8.177962604389991, abs=1e-12)


def test_a_newcomer_shows_1000_and_a_game_needs_two_sides() -> None:
    assert (FRESH.mu, FRESH.sigma, FRESH.games, FRESH.shown) == (25.0, 25 / 3, 0, 1000)
    assert shown(30.0, 2.0) == 1000 + 20 * 24
    with pytest.raises(ValueError):
        rate([FRESH], [1])
