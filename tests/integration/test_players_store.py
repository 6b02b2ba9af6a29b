"""The players' contract (:class:`infra.accounts.Players`), run against the REAL PostgreSQL
(:class:`~infra.accounts.PlayerStore`) and the in-memory twin (:class:`~infra.accounts.InMemoryPlayerStore`): links
sign in once, spend their address's other links, expire, and are rationed per address."""

from __future__ import annotations

import uuid

import pytest

from infra.accounts import (
    InMemoryPlayerStore,
    LinkExpired,
    LinkInvalid,
    LinkUsed,
    Players,
    PlayerStore,
    TooManyLinks,
)
from infra.accounts.players import LINKS_PER_WINDOW

pytestmark = pytest.mark.integration


@pytest.fixture(params=["memory", "postgres"])
def players(request: pytest.FixtureRequest) -> Players:
    if request.param == "memory":
        return InMemoryPlayerStore()
    return PlayerStore(request.getfixturevalue("pg_pool"))


def address() -> str:
    return f"ada-{uuid.uuid4().hex[:8]}@example.org"


async def test_a_link_signs_its_address_in_once_and_makes_the_account_the_first_time(players: Players) -> None:
    email = address()
    first = await players.issue_link(email, "/play/g1", 15)
    player, next_path = await players.redeem(first.token)
    assert (player.email, player.name, next_path) == (email, email.split("@")[0], "/play/g1")
    assert await players.get(player.player_id) == player
    with pytest.raises(LinkUsed):
        await players.redeem(first.token)
    again, _ = await players.redeem((await players.issue_link(email, "/", 15)).token)
    assert again == player


async def test_signing_in_spends_the_address_s_other_links(players: Players) -> None:
    email = address()
    older = await players.issue_link(email, "/", 15)
    newer = await players.issue_link(email, "/", 15)
    await players.redeem(newer.token)
    with pytest.raises(LinkUsed):
        await players.redeem(older.token)


async def test_an_unknown_or_expired_link_signs_nobody_in(players: Players) -> None:
    with pytest.raises(LinkInvalid):
        await players.redeem("no-such-link")
    expired = await players.issue_link(address(), "/", 0)
    with pytest.raises(LinkExpired):
        await players.redeem(expired.token)


async def test_links_are_rationed_per_address_unless_unlimited(players: Players) -> None:
    email = address()
    for _ in range(LINKS_PER_WINDOW):
        await players.issue_link(email, "/", 15)
    with pytest.raises(TooManyLinks):
        await players.issue_link(email, "/", 15)
    await players.issue_link(email, "/", 15, limited=False)


async def test_a_player_renames_and_an_unknown_one_is_none(players: Players) -> None:
    player, _ = await players.redeem((await players.issue_link(address(), "/", 15)).token)
    renamed = await players.rename(player.player_id, "Ada L.")
    assert renamed is not None and renamed.name == "Ada L." and await players.get(player.player_id) == renamed
    assert await players.rename("p-nobody", "x") is None
    assert await players.get("p-nobody") is None


async def test_a_player_keeps_the_language_chosen_and_may_drop_it(players: Players) -> None:
    player, _ = await players.redeem((await players.issue_link(address(), "/", 15)).token)
    assert player.language is None
    chosen = await players.choose_language(player.player_id, "de")
    assert chosen is not None and chosen.language == "de" and await players.get(player.player_id) == chosen
    again, _ = await players.redeem((await players.issue_link(player.email, "/", 15)).token)
    assert again.language == "de"  # signing in again keeps it
    dropped = await players.choose_language(player.player_id, None)
    assert dropped is not None and dropped.language is None
    assert await players.choose_language("p-nobody", "ru") is None
