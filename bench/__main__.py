"""``python -m bench``: every benchmark, written to docs/BENCHMARKS.md (see :mod:`bench.report`); the full run
also measures the engine's advice into docs/AI.md (:mod:`bench.advice`)."""

import sys

from . import advice
from .report import main

code = main()
if code == 0 and "--full" in sys.argv:
    code = advice.main(["--games", "500", "--write", "docs/AI.md"])
sys.exit(code)
