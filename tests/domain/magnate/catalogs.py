"""Test catalogues: the v1 data with some records changed, built and validated like any dataset.

For rules the shipped data never reaches: no two v1 tenant subtypes of one type share a requirement, so the
AI's rent and die tie-breaks between subtypes (§11.4 step 4) need changed data. A test catalogue is handed
to a rule that takes one as an argument (e.g. :func:`domain.magnate.ai.attraction.hardest_first`); nothing
registers it or patches the game's own catalogue.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.magnate.catalog import Catalog, catalog

V1 = catalog("v1")


def v1_with_subtypes(**changes: dict[str, Any]) -> Catalog:
    """v1 with some tenant subtypes' fields changed, e.g. ``v1_with_subtypes(family={"rent": 300})``; the result
    passes the same validation as a shipped dataset."""
    unknown = set(changes) - set(V1.tenant_subtypes)
    assert not unknown, f"v1 has no tenant subtype {sorted(unknown)}"
    subtypes = tuple(replace(s, **changes.get(s.key, {})) for s in V1.files.tenant_subtypes)
    return Catalog(f"{V1.dataset} (changed for a test)", replace(V1.files, tenant_subtypes=subtypes))

