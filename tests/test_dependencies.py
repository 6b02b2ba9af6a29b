"""The dependency rule (STYLE §A, §E, K3), enforced mechanically by reading every import in ``domain/``.

* ``domain/`` imports only the standard library, msgspec and itself;
* ``domain/kernel`` never imports a game (``domain.magnate``);
* nothing in ``domain/`` draws from ``random`` except the test bots in ``domain/magnate/bots.py``
  (every rule draws from the seeded, auditable ``Chance``);
* nothing in ``domain/`` touches ``secrets``, the clock (``time``, ``datetime``), ``uuid`` or ``os``.

Imports inside functions and ``if TYPE_CHECKING:`` blocks count too.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = ROOT / "domain"

THIRD_PARTY_ALLOWED = {"msgspec"}
FORBIDDEN_EVERYWHERE = {"secrets", "time", "datetime", "uuid", "os"}
RANDOM_ALLOWED_IN = {"domain/magnate/bots.py"}


def imported_modules(path: Path, source: str) -> list[tuple[int, str]]:
    """(line, absolute dotted module) for every import in a file under ``ROOT``; relative imports are
    resolved against the file's package."""
    package = list(path.relative_to(ROOT).parent.parts)  # a module's package, or an __init__'s own
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                assert node.module is not None
                found.append((node.lineno, node.module))
                continue
            base = package[: len(package) - (node.level - 1)]
            if node.module:
                found.append((node.lineno, ".".join([*base, node.module])))
            else:  # ``from . import pool``: each name may be a submodule
                found.extend((node.lineno, ".".join([*base, alias.name])) for alias in node.names)
    return found


def violations(path: Path, source: str) -> list[str]:
    """Every broken rule in one file, as ``file:line: reason``."""
    where = path.relative_to(ROOT).as_posix()
    out: list[str] = []
    for line, module in imported_modules(path, source):
        top = module.split(".")[0]
        at = f"{where}:{line}: import {module}"
        if top == "domain":
            if where.startswith("domain/kernel/") and module.startswith("domain.magnate"):
                out.append(f"{at} (the kernel must not import a game)")
            continue
        if top not in sys.stdlib_module_names and top not in THIRD_PARTY_ALLOWED:
            out.append(f"{at} (domain/ may import only the standard library, msgspec and domain)")
        if top in FORBIDDEN_EVERYWHERE:
            out.append(f"{at} (no {top} in domain/: no clock, no environment, no unseeded identifiers)")
        if top == "random" and where not in RANDOM_ALLOWED_IN:
            out.append(f"{at} (draw from the seeded Chance, never from random)")
    return out


def domain_files() -> list[Path]:
    return sorted(DOMAIN.rglob("*.py"))


def test_domain_has_python_files_to_check() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in domain_files()}
    assert {"domain/kernel/chance.py", "domain/magnate/decider.py", "domain/magnate/bots.py"} <= files


def test_domain_imports_only_the_standard_library_msgspec_and_itself() -> None:
    found = [v for path in domain_files() for v in violations(path, path.read_text(encoding="utf-8"))]
    assert not found, "forbidden imports in domain/:\n" + "\n".join(found)


def test_the_checker_catches_every_kind_of_forbidden_import() -> None:
    """The rules above are only as good as the checker: feed it one bad import of each kind."""
    kernel = DOMAIN / "kernel" / "example.py"
    rules = DOMAIN / "magnate" / "rules" / "example.py"
    cases = {
        (kernel, "from domain.magnate import GAME\n"): "the kernel must not import a game",
        (kernel, "from ..magnate.events import GameEnded\n"): "the kernel must not import a game",
        (rules, "import redis\n"): "only the standard library",
        (rules, "from litestar import get\n"): "only the standard library",
        (rules, "import random\n"): "seeded Chance",
        (rules, "def f():\n    from random import randint\n"): "seeded Chance",
        (rules, "import secrets\n"): "no secrets",
        (rules, "from datetime import datetime\n"): "no datetime",
        (rules, "import time\n"): "no time",
        (rules, "import uuid\n"): "no uuid",
        (rules, "import os.path\n"): "no os",
    }
    for (path, source), reason in cases.items():
        found = violations(path, source)
        assert len(found) == 1 and reason in found[0], (source, found)
        assert found[0].startswith(path.relative_to(ROOT).as_posix() + ":"), found
    assert violations(DOMAIN / "magnate" / "bots.py", "import random\n") == []
    assert violations(rules, "from ... import kernel\nfrom ..city import plot_at\nimport msgspec\n") == []
    assert violations(DOMAIN / "magnate" / "__init__.py", "from .events import MagnateEvent\n") == []


def test_relative_imports_resolve_against_the_package() -> None:
    assert imported_modules(DOMAIN / "magnate" / "rules" / "market.py", "from ..city import x\n") == [
        (1, "domain.magnate.city")
    ]
    assert imported_modules(DOMAIN / "magnate" / "__init__.py", "from .catalog import Catalog\n") == [
        (1, "domain.magnate.catalog")
    ]
    assert imported_modules(DOMAIN / "kernel" / "game.py", "from . import seats\n") == [(1, "domain.kernel.seats")]
