# Magnate Server — every task a newcomer needs. The virtualenv is (re)built from pyproject.toml when
# that file changes, so `make test` on a fresh clone needs nothing but Python 3.11+.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: test lint bench run clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

test: $(STAMP) ## run the whole suite (unit, property and integration tests)
	$(PY) -m pytest

lint: $(STAMP) ## ruff over everything, mypy --strict over domain/
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict domain/ infra/ services/ bench/

bench: $(STAMP) ## short benchmark run; writes docs/BENCHMARKS.md
	$(PY) -m bench.engine --write docs/BENCHMARKS.md

run: $(STAMP) ## API server + one worker on http://127.0.0.1:8000 (embedded PostgreSQL/Redis when no URLs are set)
	$(PY) -m services.cli run

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
