"""§1: the Decktet as data (suits, codes, the basic and extended cards, §1.3's cross-checks) and §1.4's roles."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from domain.decktet.catalog import DataError, _check_source, card_id, catalog
from domain.decktet.variant import Variant, crowns, district_candidates, property_decks

DATA = Path(__file__).resolve().parents[3] / "domain" / "decktet" / "data" / "v1"


def test_s1_1_suits_are_in_printed_order_with_their_codes_and_tax_die_faces() -> None:
    cat = catalog()
    assert [(s.code, s.name, s.die) for s in cat.suits] == [
        ("M", "Moons", 1), ("S", "Suns", 2), ("V", "Waves", 3), ("L", "Leaves", 4), ("Y", "Wyrms", 5),
        ("K", "Knots", 6)]


def test_s1_1_a_code_is_the_rank_then_the_suits_and_two_decks_add_a_copy_digit() -> None:
    cat = catalog()
    assert cat.by_code["8MS"].name == "The Diplomat"
    assert cat.by_code["PMYK"].name == "The Watchman"
    assert card_id("8MS", 1, 2) == "8MS1" and card_id("8MS", 2, 2) == "8MS2" and card_id("8MS", 1, 1) == "8MS"


def test_s1_2_and_s1_3_the_card_table() -> None:
    cat = catalog()
    assert len([c for c in cat.cards if c.deck == "basic"]) == 36
    assert len([c for c in cat.cards if c.deck == "extended"]) == 9
    assert {c.code: c.name for c in cat.cards if c.rank == "T"} == {
        "TMVK": "The Consul", "TMLY": "The Rite", "TSLK": "The Window", "TSVY": "The Island"}
    assert cat.by_code["9VY"].suits == ("V", "Y") and cat.by_code["0"].suits == ()
    assert cat.by_code["NK"].name == "The Windfall"


def test_s1_3_structural_facts() -> None:
    """Three cards per number rank; each suit on 1 Ace, 1 Crown, 8 number cards, 2 Pawns and 2 Courts."""
    cat = catalog()
    ranks = Counter(c.rank for c in cat.cards)
    assert all(ranks[str(r)] == 3 for r in range(2, 10))
    for suit in cat.suit_codes:
        on = [c for c in cat.cards if suit in c.suits]
        assert Counter("n" if c.number else c.rank for c in on) == {"1": 1, "N": 1, "n": 8, "P": 2, "T": 2}


def test_s1_4_deck_sizes_30_34_60_68_and_what_is_never_in_the_deck() -> None:
    cat = catalog()
    sizes = {(courts, mega): len(property_decks(cat, Variant(courts=courts, mega=mega))[0])
             for courts in (False, True) for mega in (False, True)}
    assert sizes == {(False, False): 30, (True, False): 34, (False, True): 60, (True, True): 68}
    deck = property_decks(cat, Variant())[0]
    assert not any(c[0] in "PN0" for c in deck)  # Pawns, Crowns and the Excuse are never in the deck
    assert len(crowns(cat, Variant())) == 6 and len(crowns(cat, Variant(mega=True))) == 12
    assert len(district_candidates(cat, Variant())[0]) == 4


def test_every_value_is_tagged_with_its_provenance_and_reconstructed_values_say_why() -> None:
    text = (DATA / "rules.toml").read_text() + (DATA / "cards.toml").read_text()
    assert "RECONSTRUCTED: " in text
    cat = catalog()
    bad = cat.rules.ace.__class__(source={"price": "S1"}, price=3, deed_per_suit=1, sale=2)
    with pytest.raises(DataError, match="untagged"):
        _check_source(bad)
    with pytest.raises(DataError, match="unknown provenance"):
        _check_source(cat.rules.trade.__class__(source={"*": "folklore"}, give=3, take=1))
    with pytest.raises(DataError, match="says why"):
        _check_source(cat.rules.trade.__class__(source={"*": "RECONSTRUCTED"}, give=3, take=1))


def test_an_unknown_dataset_is_a_data_error() -> None:
    with pytest.raises(DataError):
        catalog("v999")
