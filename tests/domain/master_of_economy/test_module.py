"""The rest of the contract (domain/kernel/game.py): legal commands are exactly legal, the stored tags, the
separation of player and system commands, the narrator, the catalogue, seats, outcome, bots and sim options."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from domain.kernel import SYSTEM, Chance, CommandTemplate, IntParam, Seat, SubsetParam, tag_of
from domain.master_of_economy import GAME, GameOptions, MoeEvent, PlayerCommand, StartGame, SystemCommandType
from domain.master_of_economy.bots import RandomLegal
from domain.master_of_economy.commands import RevealSeed
from domain.master_of_economy.state import State

from .story import english
from .test_properties import play_checked

EVENT_TAGS = sorted([
    "ac_exported", "ac_marker_placed", "ac_scored", "ai_decided", "ballots_counted", "bid_placed", "board_bonus_paid",
    "candidacy_declared", "cash_distributed", "corporation_picked", "corporations_formed", "credit_taken",
    "credits_repaid", "credits_settled", "dividend_counted", "dividend_paid", "dividend_proposed",
    "dividend_vote_cast", "embezzled", "energy_spoiled", "export_failed", "exported", "exports_opened",
    "factories_supplied", "factory_built", "factory_sold", "game_ended", "game_started", "goods_produced",
    "holdings_sold", "import_bought", "interest_paid", "interest_unpaid", "local_deal", "manager_changed",
    "manager_elected", "manager_vote_cast", "market_closed", "order_set", "packet_bought", "packet_exchanged",
    "packet_sold", "phase_began", "purchase_deferred", "purchase_dropped", "receipts_discarded", "receipts_given",
    "receipts_placed", "redeemed", "row_closed", "row_opened", "sale_fined", "seed_revealed", "shortfall_arose",
    "shortfall_covered", "shortfall_preferences_cleared", "shortfall_preferences_set", "stage_began",
    "start_bid_sealed", "start_bids_revealed", "step_began", "token_committed", "turn_passed"
])
"""Stored forever: renaming or removing a tag breaks every game that recorded it."""


def test_the_event_tags_are_the_recorded_ones() -> None:
    tags = sorted(_tag(t).removeprefix("master_of_economy.") for t in MoeEvent.__args__)  # type: ignore[attr-defined]
    assert tags == EVENT_TAGS


def _tag(kind: type) -> str:
    return str(kind.__struct_config__.tag)  # type: ignore[attr-defined]


def test_a_client_cannot_send_a_system_command() -> None:
    """System commands are a separate union with their own tags: a player body never decodes as one."""
    player_tags = {_tag(t) for t in PlayerCommand.__args__}  # type: ignore[attr-defined]
    system_tags = {_tag(t) for t in SystemCommandType.__args__}  # type: ignore[attr-defined]
    assert not player_tags & system_tags
    assert all(tag.startswith("master_of_economy.") for tag in player_tags | system_tags)
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"type": "master_of_economy.resolve_market"}', type=PlayerCommand)
    state = GAME.step(State(), SYSTEM, StartGame(options=GameOptions(players=2), seed_commitment="c"),
                      Chance(b"x", 1))[1]
    from domain.kernel import ActorNotAllowed
    with pytest.raises(ActorNotAllowed):
        GAME.decide(state, Seat(0), StartGame(options=GameOptions(players=2), seed_commitment="c"), Chance(b"x", 2))


def _variants(template: CommandTemplate) -> list[object]:
    """The template's command with each parameter at its extremes."""
    out: list[object] = [template.command]
    for p in template.params:
        if isinstance(p, IntParam):
            out += [msgspec.structs.replace(template.command, **{p.field: v}) for v in (p.minimum, p.maximum)]
        elif isinstance(p, SubsetParam):
            out += [msgspec.structs.replace(template.command, **{p.field: v})
                    for v in ((), tuple(range(min(p.size, p.max_count))))]
    return out


@pytest.mark.parametrize("options", [{"players": 2, "additional_corporation": True},
                                     {"players": 4, "start_order": "auction", "player_cash_hidden": True}])
def test_every_legal_command_is_accepted(options: dict[str, object]) -> None:
    """legal_commands is the one source of legality: each template, at its parameters' extremes, is accepted."""
    state = GAME.initial_state()
    command: object = StartGame(options=GameOptions(**options), seed_commitment="c")  # type: ignore[arg-type]
    actor: object = SYSTEM
    bot = RandomLegal(3)
    for n in range(3000):
        state = GAME.step(state, actor, command, Chance(b"legal", n + 1))[1]  # type: ignore[arg-type]
        due = GAME.pending(state)
        if due.finished:
            return
        if due.system is not None:
            actor, command = SYSTEM, due.system
            continue
        for seat in due.seats:
            templates = GAME.legal_commands(state, seat)
            assert templates, f"seat {seat} is waited for but has nothing to do at {state.step}"
            for template in templates:
                for variant in _variants(template):
                    GAME.decide(state, seat, variant, Chance(b"probe", 1))
        for other in set(range(len(state.players))) - set(due.seats):
            assert GAME.legal_commands(state, Seat(other)) == []
        actor = due.seats[0]
        command = bot(state, Seat(due.seats[0]))
    raise AssertionError("the game did not finish")


def test_the_narrator_tells_every_event_and_names_seats() -> None:
    state, events = play_checked({"players": 3, "additional_corporation": True, "start_order": "auction"}, 0)
    narrator = GAME.narrator({0: "Ada", 1: "Bob", 2: "Cy"}) if GAME.narrator else None
    assert narrator is not None
    told = [line for v, e in enumerate(events, start=1) for line in narrator.tell(v, tag_of(e), e)]
    names = {0: "Ada", 1: "Bob", 2: "Cy"}
    rendered = [english(line, names) for line in told]
    assert told and all(said for said, _ in rendered)
    for said, seats in rendered:
        for named in seats:
            assert said[named.start:named.end] in {"Ada", "Bob", "Cy"}
        assert "{" not in said and ".." not in said
    assert any(said.endswith(" wins.") or said.endswith(" win.") for said, _ in rendered)
    assert GAME.outcome(state) is not None


def test_seats_outcome_and_the_seeds_reveal() -> None:
    seed = b"the seed"
    commitment = hashlib.sha256(seed).hexdigest()
    state = GAME.step(State(), SYSTEM, StartGame(options=GameOptions(players=2), seed_commitment=commitment),
                      Chance(seed, 1))[1]
    assert [s.label for s in GAME.seats(state)] == ["Player 1", "Player 2"]
    assert GAME.outcome(state) is None
    bots = [RandomLegal(1), RandomLegal(2)]
    n = 1
    while not GAME.pending(state).finished:
        due = GAME.pending(state)
        n += 1
        if due.system is not None:
            state = GAME.step(state, SYSTEM, due.system, Chance(seed, n))[1]
        else:
            state = GAME.step(state, due.seats[0], bots[due.seats[0]](state, due.seats[0]), Chance(seed, n))[1]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.rounds <= 4 and outcome.winners
    assert [s.rank for s in outcome.standings] == sorted(s.rank for s in outcome.standings)
    events = GAME.decide(state, SYSTEM, RevealSeed(seed=seed.hex()), Chance(seed, n + 1))
    assert GAME.evolve(state, events[0]).seed == seed.hex()


def test_catalog_and_sim_options() -> None:
    assert GAME.catalog is not None and GAME.sim_options is not None
    out = GAME.catalog(None)
    assert msgspec.json.decode(msgspec.json.encode(out))["game"] == "master_of_economy"
    with pytest.raises(KeyError):
        GAME.catalog("v99")
    two = GAME.sim_options(("human", "human"), None, frozenset())
    assert two.players == 2 and two.additional_corporation
    assert GAME.sim_options(("human",) * 3, None, frozenset({"noac"})).additional_corporation is False
    assert GAME.sim_options(("human",) * 4, None, frozenset({"teams"})).teams
    every = GAME.sim_options(("human", "human"), None, frozenset(GAME.sim_flags))
    assert isinstance(every, GameOptions) and not every.teams  # teams needs four: ignored, never an error
    assert GAME.title == "Master of Economy" and set(GAME.bots) == {"random", "greedy"}
