"""Setup (R1): the districts, the Crowns and their tokens, the property deck and the hands, the first player.

Random draws happen in this order (an audit re-derives them the same way): the district cards (a shuffle of the
candidates, the first ones laid out left to right around the Excuse), the Crowns (a shuffle, dealt in turns of
``crowns_each``), each pile's shuffle (hands dealt from its top, seat by seat), the first player (R1.6, D10).
The rest of a pile keeps no order: later draws pick uniformly from it when they happen (:mod:`.drawing`).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.kernel import Chance, InvalidValue
from domain.kernel.datafiles import DataError

from .board import dealt
from .cards import info
from .catalog import catalog
from .commands import StartGame
from .economy import tokens
from .events import GameStarted, HandDealt
from .state import DecktetState, Phase, SeatState
from .variant import crowns, district_candidates, mode, property_decks, resolve


def start(command: StartGame, chance: Chance) -> list[GameStarted | HandDealt]:
    """Decide the whole setup; InvalidValue for options that break §2.10's validity rules."""
    variant = resolve(command.options)
    try:
        cat = catalog(variant.dataset)
    except DataError as exc:
        raise InvalidValue(f"unknown dataset {variant.dataset!r}", dataset=variant.dataset) from exc
    m = mode(cat, variant)
    candidates, excuse = district_candidates(cat, variant)
    laid = chance.shuffle(candidates)[: m.districts - 1]
    districts = (*laid[: m.excuse], excuse, *laid[m.excuse:])
    dealt = chance.shuffle(crowns(cat, variant))
    seat_crowns = tuple(tuple(sorted(dealt[i * m.crowns_each:(i + 1) * m.crowns_each])) for i in range(m.players))
    supplies = tuple(_crown_tokens(variant.dataset, c) for c in seat_crowns)
    piles = property_decks(cat, variant)
    hands: list[HandDealt] = []
    for p, pile in enumerate(piles):
        order = chance.shuffle(pile)
        takers = [p] if len(piles) > 1 else list(range(m.players))
        for k, seat in enumerate(takers):
            cards = tuple(sorted(order[k * m.hand:(k + 1) * m.hand]))
            hands.append(HandDealt(seat=seat, cards=cards, count=len(cards), pile=p))
    first = chance.below(m.players)
    builders = m.builders or tuple(tuple(range(m.players)) for _ in districts)
    started = GameStarted(variant=variant, dataset=cat.dataset, districts=districts, builders=builders,
                          crowns=seat_crowns, supplies=supplies, piles=piles, reshuffles=m.reshuffles, first=first,
                          seed_commitment=command.seed_commitment)
    return [started, *hands]


def _crown_tokens(dataset: str, crowns_held: tuple[str, ...]) -> tuple[int, ...]:
    """R1.3, V2.3: one token of the suit of each Crown."""
    counts: dict[int, int] = {}
    for crown in crowns_held:
        suit = info(dataset, crown).suits[0]
        counts[suit] = counts.get(suit, 0) + 1
    return tokens(counts)


def apply_game_started(state: DecktetState, event: GameStarted) -> DecktetState:
    empty = tuple(() for _ in event.districts)
    return replace(
        state, phase=Phase.PLAYING, variant=event.variant, seed_commitment=event.seed_commitment,
        districts=event.districts, builders=event.builders,
        seats=tuple(SeatState(crowns=c, supply=s, columns=empty)
                    for c, s in zip(event.crowns, event.supplies, strict=True)),
        piles=event.piles, reshuffles=event.reshuffles, first=event.first, active=event.first,
    )


def apply_hand_dealt(state: DecktetState, event: HandDealt) -> DecktetState:
    return dealt(state, event.seat, event.pile, event.cards, event.count)
