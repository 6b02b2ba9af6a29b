"""The kernel's random legal bot: it plays only what ``legal_commands`` offers, within each template's parameters,
and the same seed plays the same way."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.kernel import Command, CommandTemplate, IntParam, Seat, SubsetParam
from domain.kernel.bots import ChanceDraws, RandomLegal, instantiate


class Bid(Command, frozen=True, tag="toy.bid"):
    amount: int = 2


class Keep(Command, frozen=True, tag="toy.keep"):
    dice: tuple[int, ...] = ()


class Pass(Command, frozen=True, tag="toy.pass"):
    pass


def legal(state: int, seat: Seat) -> list[CommandTemplate]:
    """Seat 0 may bid 2, 4 .. 2 + 2 * state, keep up to two of five dice or pass; seat 1 may only pass."""
    if seat == 1:
        return [CommandTemplate(Pass())]
    return [CommandTemplate(Bid(), (IntParam("amount", 2, 2 + 2 * state, 2),)),
            CommandTemplate(Keep(), (SubsetParam("dice", 5, 2),)), CommandTemplate(Pass())]


def is_legal(state: int, seat: Seat, command: Command) -> bool:
    if isinstance(command, Bid):
        return seat == 0 and 2 <= command.amount <= 2 + 2 * state and command.amount % 2 == 0
    if isinstance(command, Keep):
        dice = command.dice
        return seat == 0 and len(dice) <= 2 and list(dice) == sorted(set(dice)) and all(0 <= d < 5 for d in dice)
    return isinstance(command, Pass)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 10_000), state=st.integers(0, 20), by_kind=st.booleans())
def test_the_random_bot_plays_only_legal_commands(seed: int, state: int, by_kind: bool) -> None:
    bot = RandomLegal(legal, ChanceDraws.seeded(f"toy-random:{seed}"), by_kind=by_kind)
    for _ in range(20):
        for seat in (Seat(0), Seat(1)):
            assert is_legal(state, seat, bot(state, seat))


def test_the_same_seed_plays_the_same_way_and_every_kind_comes_up() -> None:
    def moves(seed: int) -> list[Command]:
        bot = RandomLegal(legal, ChanceDraws.seeded(f"toy-random:{seed}"))
        return [bot(3, Seat(0)) for _ in range(60)]

    assert moves(1) == moves(1)
    assert moves(1) != moves(2)
    assert {type(m) for m in moves(1)} == {Bid, Keep, Pass}
    assert {m.amount for m in moves(1) if isinstance(m, Bid)} == {2, 4, 6, 8}


def test_a_template_without_parameters_is_its_own_command() -> None:
    assert instantiate(CommandTemplate(Pass()), ChanceDraws.seeded("x")) == Pass()
