"""What must hold after every event of a started game of Decktet Magnate (the property tests)."""

from __future__ import annotations

from collections import Counter

from domain.decktet.catalog import catalog
from domain.decktet.scoring import standings
from domain.decktet.state import DecktetState, Phase
from domain.decktet.variant import crowns, district_candidates, property_decks


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


def assert_invariants(state: DecktetState, where: str) -> None:
    if state.phase == Phase.SETUP:
        return
    cat = catalog(state.variant.dataset)
    deck = [c for pile in property_decks(cat, state.variant) for c in pile]
    places = card_places(state)
    assert places == Counter(deck), f"{where}: cards not conserved: {places - Counter(deck)} / {Counter(deck) - places}"
    candidates, excuse = district_candidates(cat, state.variant)
    assert excuse in state.districts and set(state.districts) <= {*candidates, excuse}, where
    assert len(set(state.districts)) == len(state.districts), where
    dealt = [c for held in state.seats for c in held.crowns]
    assert sorted(dealt) == sorted(crowns(cat, state.variant)), f"{where}: Crowns"
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
