"""Magnate's rule errors, each with a stable code (the kernel's tree in domain/kernel/errors.py).

RuleViolation
├── InsufficientFunds        "rule/insufficient_funds"     the seat cannot pay
├── BidTooLow                "rule/bid_too_low"            not above the highest bid / below the minimum
├── PlotUnavailable          "rule/plot_unavailable"       the plot cannot be bought
├── NotOwner                 "rule/not_owner"              the seat does not own the plot
├── NoBuilding               "rule/no_building"            the plot has no building to attract to
├── AlreadyAttracted         "rule/already_attracted"      this building was attracted to this round
├── OverCapacity             "rule/over_capacity"          the building is full / too many tenants chosen
├── NotEnoughAdvertising     "rule/not_enough_advertising" more tokens committed or used than held
├── InfeasibleTenants        "rule/infeasible_tenants"     the dice cannot form the chosen sets
├── TenantsUnavailable       "rule/tenants_unavailable"    the chosen tenants are not in the available area
├── SameBuilding             "rule/same_building"          rebuilding the identical building
└── BadReturnedTenants       "rule/bad_returned_tenants"   the tenants to return do not fit the rebuild
"""

from __future__ import annotations

from domain.kernel import RuleViolation


class InsufficientFunds(RuleViolation):
    """The seat's cash does not cover the payment."""

    code = "rule/insufficient_funds"


class BidTooLow(RuleViolation):
    """A bid is not above the current highest bid, or below the minimum bid."""

    code = "rule/bid_too_low"


class PlotUnavailable(RuleViolation):
    """The plot cannot be bought (feature, centre, owned, built, or neither for sale nor adjacent)."""

    code = "rule/plot_unavailable"


class NotOwner(RuleViolation):
    """The seat does not own the plot it wants to use."""

    code = "rule/not_owner"


class NoBuilding(RuleViolation):
    """The plot has no building."""

    code = "rule/no_building"


class AlreadyAttracted(RuleViolation):
    """Tenants were already attracted to this building this round."""

    code = "rule/already_attracted"


class OverCapacity(RuleViolation):
    """The building is full, or more tenants were chosen than it has room for."""

    code = "rule/over_capacity"


class NotEnoughAdvertising(RuleViolation):
    """More advertising tokens committed (or used) than the seat holds (or committed)."""

    code = "rule/not_enough_advertising"


class InfeasibleTenants(RuleViolation):
    """The final dice cannot form the sets the chosen tenants require."""

    code = "rule/infeasible_tenants"


class TenantsUnavailable(RuleViolation):
    """A chosen tenant is not in the available area (or not of the building's type)."""

    code = "rule/tenants_unavailable"


class SameBuilding(RuleViolation):
    """The plot already holds this very building; rebuilding it would only burn money."""

    code = "rule/same_building"


class BadReturnedTenants(RuleViolation):
    """The tenants named to return on a rebuild are not the building's or not the right number."""

    code = "rule/bad_returned_tenants"
