"""The records of Master of Economy's data files (spec §15), one struct per table; each carries the provenance of
its values (``source``). :mod:`.catalog` loads and validates them."""

from __future__ import annotations

import msgspec

ZERO_ONE = "0/1"


class _Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    source: dict[str, str]
    """Provenance per field name ("*" = every field)."""


class Corporation(_Record, frozen=True, kw_only=True):
    key: str
    name: str
    colour: str


class Commodity(_Record, frozen=True, kw_only=True):
    """A commodity and its row of the market board."""

    key: str
    name: str
    colour: str
    cubes: int
    usable: int
    import_price: int
    fields: tuple[str, ...]
    demand_start: int

    @property
    def exports(self) -> tuple[int, ...]:
        """What the bank pays for an export from each field (0 on a 0/1 field, ME-T-3)."""
        return tuple(0 if f == ZERO_ONE else int(f) for f in self.fields)

    @property
    def locals(self) -> tuple[int, ...]:
        """What a buyer pays the seller on the local market at each field (1 on a 0/1 field, ME-T-3)."""
        return tuple(1 if f == ZERO_ONE else int(f) for f in self.fields)


class Factory(_Record, frozen=True, kw_only=True):
    key: str
    name: str
    colour: str
    produces: str
    output: int
    inputs: dict[str, int]
    build_cash: int
    build_materials: int
    markers: int
    places: int


class Game(_Record, frozen=True, kw_only=True):
    min_players: int
    max_players: int
    stages: int
    end_points: int
    min_points: int
    max_points: int


class Start(_Record, frozen=True, kw_only=True):
    corporation_cash: int
    corporation_materials: int
    player_cash: int
    receipts: int
    manager_packet: int
    bank_packets: tuple[int, ...]
    ac_bank_packets: tuple[int, ...]
    max_start_bid: int


class Shares(_Record, frozen=True, kw_only=True):
    packets: int
    purchase_bonus: int
    redemption_bonus: int
    corporation_rounds: int
    corporation_buys: int
    corporation_sales: int


class PlayerTrade(_Record, frozen=True, kw_only=True):
    rounds: int
    manager_transactions: int
    manager_buys: int
    manager_sales: int
    free_transactions: int
    free_buys: int
    free_sales: int


class Investments(_Record, frozen=True, kw_only=True):
    max_builds: int
    max_builds_per_type: int
    max_sales: int
    sale_value: int


class Shortfall(_Record, frozen=True, kw_only=True):
    forced_sale_value: int
    forced_sales_per_event: int


class Warehouse(_Record, frozen=True, kw_only=True):
    capacity: int


class Trade(_Record, frozen=True, kw_only=True):
    basic_bids: int
    max_bids: int
    fine: int
    export_points: int
    highlighted_field: int


class Credits(_Record, frozen=True, kw_only=True):
    cash: int
    max_held: int
    per_phase: int
    interest: int
    repayment: int
    reserve: int
    settlement: int
    tokens: int


class Embezzlement(_Record, frozen=True, kw_only=True):
    points_per_euro: int


class Dividends(_Record, frozen=True, kw_only=True):
    min_per_share: int


class Receipts(_Record, frozen=True, kw_only=True):
    per_stage: int
    last_extra: int


class PriceBand(_Record, frozen=True, kw_only=True):
    points: int
    price: int


class BonusTier(_Record, frozen=True, kw_only=True):
    factories: int
    bonus: int


class AdditionalCorporation(_Record, frozen=True, kw_only=True):
    schedule: tuple[str, ...]
    tokens_two: tuple[int, ...]
    tokens_three: tuple[int, ...]


class Special(_Record, frozen=True, kw_only=True):
    building: str
    perishable: str


class Rules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    game: Game
    start: Start
    shares: Shares
    player_trade: PlayerTrade
    investments: Investments
    shortfall: Shortfall
    warehouse: Warehouse
    trade: Trade
    credits: Credits
    embezzlement: Embezzlement
    dividends: Dividends
    receipts: Receipts
    price: tuple[PriceBand, ...]
    bonus: tuple[BonusTier, ...]
    ac: AdditionalCorporation
    commodities: Special
