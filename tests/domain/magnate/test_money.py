"""Money is written one way everywhere, the page's: whole $K, a comma between thousands, then K."""

from __future__ import annotations

import pytest

from domain.magnate.money import money


@pytest.mark.parametrize(
    ("amount_k", "text"),
    [(0, "0K"), (500, "500K"), (1000, "1,000K"), (49_160, "49,160K"), (1_234_567, "1,234,567K"),
     (-300, "-300K"), (-49_160, "-49,160K")],
)
def test_money_is_thousands_of_k_with_a_comma_and_a_minus_sign(amount_k: int, text: str) -> None:
    assert money(amount_k) == text
