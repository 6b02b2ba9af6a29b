"""``python -m bench``: every benchmark, written to docs/BENCHMARKS.md (see :mod:`bench.report`)."""

import sys

from .report import main

sys.exit(main())
