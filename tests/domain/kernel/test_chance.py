"""The chance source (STYLE §E): deterministic, documented, and re-derivable by an auditor.

The derivation is re-implemented here from the docstring of ``domain/kernel/chance.py`` (and
docs/RANDOMNESS.md) without importing any of its code, so a change to the algorithm fails here.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.kernel import Chance, commitment_of

from .reference_chance import RANDOMNESS_DOC, documented_draws


def reference_blocks(seed: bytes, version: int) -> Iterator[int]:
    """Block i = first 8 bytes (big-endian) of HMAC-SHA256(key=seed, msg=ASCII(f"{version}:{i}"))."""
    i = 0
    while True:
        digest = hmac.new(seed, f"{version}:{i}".encode("ascii"), hashlib.sha256).digest()
        yield int.from_bytes(digest[:8], "big")
        i += 1


def reference_below(blocks: Iterator[int], n: int) -> int:
    """Reject x >= 2**64 - (2**64 mod n), else x mod n."""
    limit = 2**64 - (2**64 % n)
    for x in blocks:
        if x < limit:
            return int(x % n)
    raise AssertionError("unreachable")


def test_the_audit_test_vector() -> None:
    """Seed b"audit", version 7: the first d6 face index, derived by hand, is the one Chance draws."""
    digest = hmac.new(b"audit", b"7:0", hashlib.sha256).digest()
    x = int.from_bytes(digest[:8], "big")
    limit = 2**64 - (2**64 % 6)
    # a rejected block (vanishingly rare for n = 6, but it is the rule) hands the draw to the next block
    expected = x % 6 if x < limit else reference_below(reference_blocks(b"audit", 7), 6)
    assert Chance(b"audit", 7).below(6) == expected == 0
    assert Chance(b"audit", 7).roll(10) == (1, 2, 5, 2, 2, 4, 5, 3, 5, 3)


def test_rejection_sampling_takes_the_next_block() -> None:
    """With n just above 2**63 about half of all blocks are rejected: the reference and Chance agree
    draw for draw, including the number of blocks consumed."""
    n = 2**63 + 1
    rejected = 0
    for version in range(64):
        blocks = reference_blocks(b"audit", version)
        used = 0

        def counted(source: Iterator[int] = blocks) -> Iterator[int]:
            nonlocal used
            for x in source:
                used += 1
                yield x

        chance = Chance(b"audit", version)
        assert chance.below(n) == reference_below(counted(), n)
        assert chance.draws == used
        rejected += used > 1
    assert rejected > 10


def test_a_bound_of_two_to_the_64_takes_the_whole_block() -> None:
    assert Chance(b"audit", 7).below(2**64) == next(reference_blocks(b"audit", 7))


def test_the_same_seed_and_version_give_the_same_draws() -> None:
    a, b = Chance(b"seed", 12), Chance(b"seed", 12)
    assert [a.below(1000) for _ in range(50)] == [b.below(1000) for _ in range(50)]
    assert Chance(b"seed", 12).shuffle(range(30)) == Chance(b"seed", 12).shuffle(range(30))


def test_different_versions_and_seeds_give_different_draws() -> None:
    def first(seed: bytes, version: int) -> list[int]:
        chance = Chance(seed, version)
        return [chance.below(2**32) for _ in range(8)]

    by_version = {tuple(first(b"seed", v)) for v in range(1, 101)}
    assert len(by_version) == 100
    assert first(b"seed", 1) != first(b"seed2", 1)


def test_sixty_thousand_dice_are_roughly_uniform() -> None:
    faces = Counter(Chance(b"uniformity", 1).roll(60_000))
    assert sorted(faces) == [1, 2, 3, 4, 5, 6]
    for face, count in faces.items():
        assert 9_500 <= count <= 10_500, f"face {face} came up {count} times"


@settings(max_examples=200, deadline=None)
@given(seed=st.binary(min_size=1, max_size=32), version=st.integers(0, 10**9), n=st.integers(1, 2**64))
def test_below_is_always_in_range_and_matches_the_reference(seed: bytes, version: int, n: int) -> None:
    chance = Chance(seed, version)
    reference = reference_blocks(seed, version)
    for _ in range(5):
        value = chance.below(n)
        assert 0 <= value < n
        assert value == reference_below(reference, n)


@settings(max_examples=100, deadline=None)
@given(
    seed=st.binary(min_size=1, max_size=32), version=st.integers(0, 10**6), items=st.lists(st.integers(), max_size=40)
)
def test_shuffle_is_a_permutation_and_leaves_its_input_alone(seed: bytes, version: int, items: list[int]) -> None:
    before = list(items)
    shuffled = Chance(seed, version).shuffle(items)
    assert sorted(shuffled) == sorted(items)
    assert items == before


def test_shuffle_is_fisher_yates_from_the_last_index() -> None:
    items = list("abcdefgh")
    reference = reference_blocks(b"shuffle", 3)
    expected = list(items)
    for i in range(len(expected) - 1, 0, -1):
        j = reference_below(reference, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert Chance(b"shuffle", 3).shuffle(items) == expected


def test_pick_and_roll_follow_below() -> None:
    items = ["a", "b", "c", "d", "e"]
    reference = reference_blocks(b"pick", 9)
    chance = Chance(b"pick", 9)
    assert chance.pick(items) == items[reference_below(reference, 5)]
    assert chance.roll(3, sides=8) == tuple(reference_below(reference, 8) + 1 for _ in range(3))


def test_pick_weighted_never_picks_a_zero_weight() -> None:
    weights = [0, 3, 0, 1, 0]
    picked = Counter(Chance(b"weights", v).pick_weighted(weights) for v in range(2_000))
    assert set(picked) == {1, 3}
    assert picked[1] > picked[3]


def test_pick_weighted_takes_the_first_index_whose_running_total_exceeds_the_draw() -> None:
    weights = [2, 0, 5, 1]
    for version in range(50):
        r = reference_below(reference_blocks(b"weights", version), sum(weights))
        expected = next(i for i in range(len(weights)) if r < sum(weights[: i + 1]))
        assert Chance(b"weights", version).pick_weighted(weights) == expected


@pytest.mark.parametrize("n", [0, -1, -6, 2**64 + 1, 2**70])
def test_below_rejects_a_bound_outside_one_to_two_to_the_64(n: int) -> None:
    """Zero or negative bounds have no outcome; above 2**64 every 64-bit block would be rejected."""
    with pytest.raises(ValueError):
        Chance(b"seed", 1).below(n)


def test_an_empty_seed_is_refused() -> None:
    with pytest.raises(ValueError):
        Chance(b"", 1)


def test_the_commitment_is_the_sha256_hex_of_the_seed() -> None:
    assert commitment_of(b"audit") == hashlib.sha256(b"audit").hexdigest()
    assert commitment_of(b"audit") == "b81f37a043a6f767e7c94d105f4bd31282f3ecc20680bb9d09bd93461cf4c863"


def test_the_re_implementation_in_the_docs_agrees_with_chance() -> None:
    draws = documented_draws()
    for version in range(40):
        seed = f"doc-{version}".encode()
        mine, theirs = Chance(seed, version), draws(seed, version)
        assert mine.below(6) == theirs.below(6)
        assert mine.below(2**63 + 1) == theirs.below(2**63 + 1)  # about half of these reject a block
        assert list(mine.roll(3)) == theirs.roll(3)
        assert mine.pick("abcdefg") == theirs.pick("abcdefg")
        assert mine.pick_weighted([0, 2, 0, 5, 1]) == theirs.pick_weighted([0, 2, 0, 5, 1])
        assert mine.shuffle(range(12)) == theirs.shuffle(range(12))
        assert mine.below(2**64) == theirs.below(2**64)


def test_the_test_vector_printed_in_the_docs() -> None:
    text = RANDOMNESS_DOC.read_text(encoding="utf-8")
    block = hmac.new(b"audit", b"7:0", hashlib.sha256).digest()
    assert block.hex() in text
    assert f"`0x{block[:8].hex()}` = {int.from_bytes(block[:8], 'big')}" in text
    assert "1, 2, 5, 2, 2, 4, 5, 3, 5, 3" in text
    assert commitment_of(b"audit") in text
