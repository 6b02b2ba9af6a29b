"""What must hold after every event of a started game of Decktet Magnate (the property tests)."""

from __future__ import annotations

from collections import Counter
from functools import cache

from domain.decktet.catalog import catalog
from domain.decktet.scoring import standings
from domain.decktet.state import DecktetState, Phase
from domain.decktet.variant import Variant, crowns, district_candidates, property_decks


def card_places(state: DecktetState) -> Counter[str]:
    """How many places each property card is in: piles, hands, columns, discard."""
    places: Counter[str] = Counter()
    for pile in state.piles:
        places.update(pile)
    places.update(state.discard)
    for held in state.seats:
        places.update(held.hand)
        places.update(p.card for col in held.columns for p in col)
    return places


@cache
def _components(variant: Variant) -> tuple[Counter[str], frozenset[str], str, list[str]]:
    """What a variant's game holds: the property cards, the possible districts, the Excuse, the Crowns."""
    cat = catalog(variant.dataset)
    candidates, excuse = district_candidates(cat, variant)
    deck = Counter(c for pile in property_decks(cat, variant) for c in pile)
    return deck, frozenset(candidates), excuse, sorted(crowns(cat, variant))


def assert_invariants(state: DecktetState, where: str) -> None:
    if state.phase == Phase.SETUP:
        return
    deck, candidates, excuse, all_crowns = _components(state.variant)
    places = card_places(state)
    assert places == deck, f"{where}: cards not conserved: {places - deck} / {deck - places}"
    assert excuse in state.districts and set(state.districts) <= {*candidates, excuse}, where
    assert len(set(state.districts)) == len(state.districts), where
    dealt = [c for held in state.seats for c in held.crowns]
    assert sorted(dealt) == all_crowns, f"{where}: Crowns"
    for seat, held in enumerate(state.seats):
        assert all(n >= 0 for n in held.supply), f"{where}: seat {seat} supply {held.supply}"
        for d, col in enumerate(held.columns):
            assert not col or seat in state.builders[d], f"{where}: seat {seat} built outside its districts"
            assert sum(p.deed for p in col) <= 1, f"{where}: two deeds in one district (R5.4)"
            for p in col:
                assert all(n >= 0 for n in p.tokens), where
                assert p.deed or not any(p.tokens), f"{where}: tokens on a developed card"
    assert state.plays >= 0 and state.reshuffles >= 0, where
    if state.phase == Phase.ENDED:
        assert state.scores == standings(state)[0], f"{where}: the final scores are not the recomputation"
