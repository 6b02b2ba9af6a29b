"""Every rule of the spec (§0.4-§14) has a test that cites its id, and every worked example of §16 has one."""

from __future__ import annotations

import re
from pathlib import Path

RULES = [
    "ME-G-1", "ME-G-2", "ME-G-3", "ME-G-4", "ME-S-1", "ME-S-2", "ME-S-3", "ME-S-4", "ME-S-5", "ME-S-6", "ME-S-7",
    "ME-S-8", "ME-S-9", "ME-S-10", "ME-S-11", "ME-G-5", "ME-G-6", "ME-G-7", "ME-G-8", "ME-G-9", "ME-G-10", "ME-I-1",
    "ME-I-2", "ME-I-3", "ME-I-4", "ME-I-5", "ME-I-6", "ME-P-1", "ME-P-2", "ME-P-3", "ME-P-4", "ME-R-1", "ME-R-2",
    "ME-R-3", "ME-R-4", "ME-R-5", "ME-T-1", "ME-T-2", "ME-T-3", "ME-T-4", "ME-T-5", "ME-T-6", "ME-T-7", "ME-T-8",
    "ME-T-9", "ME-T-10", "ME-T-11", "ME-T-12", "ME-T-13", "ME-T-14", "ME-T-15", "ME-T-16", "ME-F-1", "ME-F-2",
    "ME-F-3", "ME-H-1", "ME-H-2", "ME-H-3", "ME-H-4", "ME-H-5", "ME-H-6", "ME-H-7", "ME-N-1", "ME-N-2", "ME-N-3",
    "ME-N-4", "ME-N-5", "ME-E-1", "ME-E-2", "ME-E-3", "ME-E-4", "ME-E-5", "ME-E-6", "ME-E-7", "ME-E-8", "ME-V-1",
    "ME-V-2", "ME-V-3", "ME-V-4", "ME-V-5", "ME-V-6", "ME-V-7", "ME-V-8", "ME-V-9", "ME-V-10", "ME-V-11", "ME-V-12",
    "ME-W-1", "ME-W-2", "ME-W-3", "ME-X-1", "ME-X-2", "ME-X-3", "ME-X-4"
]
EXAMPLES = [f"16.{n}" for n in range(1, 14)]


def _tests() -> str:
    here = Path(__file__).parent
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(here.glob("test_*.py")) if p.name != Path(
        __file__).name)


def test_every_rule_is_cited_by_a_test() -> None:
    text = _tests()
    cited = set(re.findall(r"ME-[A-Z]-\d+", text))
    spans = re.findall(r"ME-([A-Z])-(\d+)\.\.(\d+)", text)
    cited |= {f"ME-{k}-{n}" for k, a, b in spans for n in range(int(a), int(b) + 1)}
    spans = re.findall(r"ME-([A-Z])-(\d+) to ([A-Z])-(\d+)", text)
    cited |= {f"ME-{k}-{n}" for k, a, _, b in spans for n in range(int(a), int(b) + 1)}
    spans = re.findall(r"ME-([A-Z])-(\d+) and ([A-Z])-(\d+)", text)
    cited |= {f"ME-{k}-{b}" for k, _, _, b in spans}
    missing = [r for r in RULES if r not in cited]
    assert not missing, f"rules without a test citing them: {missing}"


def test_every_worked_example_has_a_test() -> None:
    names = re.findall(r"def test_16_(\d+)_", _tests())
    assert sorted(f"16.{n}" for n in names) == sorted(EXAMPLES)
