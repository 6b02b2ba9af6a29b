"""The re-implementation of the chance source that docs/RANDOMNESS.md prints for auditors, loaded from the page
itself, so the tests that compare it with :class:`domain.kernel.Chance` test the page an auditor ports from."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

RANDOMNESS_DOC = Path(__file__).resolve().parents[3] / "docs" / "RANDOMNESS.md"


def documented_draws() -> Any:
    """The ``Draws`` class of the re-implementation printed in docs/RANDOMNESS.md, so the page an
    auditor ports from is itself tested."""
    text = RANDOMNESS_DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) == 1, "docs/RANDOMNESS.md should hold exactly one Python block"
    namespace: dict[str, Any] = {}
    exec(compile(blocks[0], str(RANDOMNESS_DOC), "exec"), namespace)
    return namespace["Draws"]
