"""Stored tags are contracts (STYLE §C, anti-pattern K5): every tag is written out here literally, so
renaming a class is free but renaming a stored tag fails loudly."""

from __future__ import annotations

import inspect
from typing import Any, get_args

import msgspec

from domain.kernel import Command, Event, SystemCommand, tag_of
from domain.magnate import MagnateEvent, MagnateSystemCommand, PlayerCommand
from domain.magnate import commands as commands_module
from domain.magnate import events as events_module

EVENT_TAGS = [
    "magnate.advertising_taken",
    "magnate.ai_advertised",
    "magnate.ai_card_drawn",
    "magnate.ai_card_resolved",
    "magnate.ai_decided",
    "magnate.ai_deck_reshuffled",
    "magnate.ai_die_rolled",
    "magnate.ai_holdings_changed",
    "magnate.ai_level_raised",
    "magnate.attraction_started",
    "magnate.bid_passed",
    "magnate.bid_placed",
    "magnate.building_built",
    "magnate.consulted",
    "magnate.dice_rolled",
    "magnate.dice_settled",
    "magnate.first_player_decided",
    "magnate.for_sale_marker_drawn",
    "magnate.game_ended",
    "magnate.game_started",
    "magnate.land_bought",
    "magnate.land_price_moved",
    "magnate.market_crashed",
    "magnate.new_tenants_arrived",
    "magnate.phase_started",
    "magnate.plot_liquidated",
    "magnate.plot_sold",
    "magnate.rent_collected",
    "magnate.risk_card_drawn",
    "magnate.round_started",
    "magnate.seed_revealed",
    "magnate.tenants_moved_in",
]

PLAYER_COMMAND_TAGS = [
    "magnate.advertise",
    "magnate.attract_tenants",
    "magnate.build",
    "magnate.buy_land",
    "magnate.choose_tenants",
    "magnate.consult",
    "magnate.finish_attracting",
    "magnate.pass_bid",
    "magnate.place_bid",
    "magnate.sell",
    "magnate.use_advertising",
]

SYSTEM_COMMAND_TAGS = [
    "magnate.ai_turn",
    "magnate.process_market",
    "magnate.reveal_seed",
    "magnate.roll_dice",
    "magnate.start_game",
]

BALANCE_NAMES = {"cash", "money", "balance", "balances", "wallet", "funds"}
PUBLISHED_CASH = {
    ("GameStarted", "cash"): "the opening grants from the bank (§3), fixed by the setup table and public",
    ("GameEnded", "cash"): "the final standings, published when the game ends and nothing is secret any more",
}
"""The only events allowed a cash field; a balance anywhere else would leak a secret wallet to the log."""


def members(union: Any) -> list[type[msgspec.Struct]]:
    return list(get_args(union))


def tags(union: Any) -> list[str]:
    return sorted(m.__struct_config__.tag for m in members(union))


def defined_in(module: Any, base: type) -> set[type]:
    return {c for _, c in inspect.getmembers(module, inspect.isclass) if issubclass(c, base) and c is not base}


def test_event_tags_are_exactly_the_stored_ones() -> None:
    assert tags(MagnateEvent) == EVENT_TAGS


def test_player_command_tags_are_exactly_the_published_ones() -> None:
    assert tags(PlayerCommand) == PLAYER_COMMAND_TAGS


def test_system_command_tags_are_exactly_the_published_ones() -> None:
    assert tags(MagnateSystemCommand) == SYSTEM_COMMAND_TAGS


def test_every_message_class_is_in_its_union() -> None:
    """A new event or command that is not in its union could never be decoded."""
    assert defined_in(events_module, Event) == set(members(MagnateEvent))
    assert defined_in(commands_module, Command) == set(members(PlayerCommand))
    assert defined_in(commands_module, SystemCommand) == set(members(MagnateSystemCommand))


def test_tags_are_namespaced_unique_and_on_the_type_field() -> None:
    everything = [*members(MagnateEvent), *members(PlayerCommand), *members(MagnateSystemCommand)]
    all_tags = [m.__struct_config__.tag for m in everything]
    assert len(set(all_tags)) == len(all_tags)
    for message in everything:
        config = message.__struct_config__
        assert isinstance(config.tag, str) and config.tag.startswith("magnate."), message
        assert config.tag_field == "type", message


def test_tag_of_reads_the_stored_tag() -> None:
    event = events_module.BidPassed(seat=1)
    assert tag_of(event) == "magnate.bid_passed"
    assert msgspec.json.encode(event) == b'{"type":"magnate.bid_passed","seat":1}'


def test_every_event_and_every_struct_it_carries_is_frozen() -> None:
    carried = {events_module.SeatSetup, events_module.CentreBuilding}
    for struct in [*members(MagnateEvent), *carried]:
        assert struct.__struct_config__.frozen, f"{struct.__name__} is not frozen"


def test_every_command_is_frozen_and_rejects_unknown_fields() -> None:
    for struct in [*members(PlayerCommand), *members(MagnateSystemCommand)]:
        assert struct.__struct_config__.frozen, f"{struct.__name__} is not frozen"
        assert struct.__struct_config__.forbid_unknown_fields, f"{struct.__name__} accepts unknown fields"


def test_events_never_carry_balances() -> None:
    found = {
        (event.__name__, field)
        for event in members(MagnateEvent)
        for field in event.__struct_fields__
        if field.lower() in BALANCE_NAMES
    }
    assert found == set(PUBLISHED_CASH), f"events carrying a balance-like field: {sorted(found - set(PUBLISHED_CASH))}"


def test_evolve_has_a_rule_for_every_event_in_the_union() -> None:
    from typing import get_args

    from domain.magnate.decider import HANDLED_EVENTS
    from domain.magnate.events import MagnateEvent

    assert set(get_args(MagnateEvent)) == set(HANDLED_EVENTS)
