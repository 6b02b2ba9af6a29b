# Magnate Server — every task a newcomer needs. The virtualenv is (re)built from pyproject.toml when
# that file changes, so `make test` on a fresh clone needs nothing but Python 3.11+.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
CHROMIUM ?= /usr/bin/chromium
HAPROXY ?= /usr/sbin/haproxy
NGINX ?= /usr/sbin/nginx
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))
# two test processes per core: the browser and service tests spend much of their time waiting (on pages, timers,
# other processes), so two per core keep the cores busy (9 min against 12.5 on a 2-core box, run one after the other;
# README's "make test" has the times measured since)

.PHONY: test lint bench bench-full run clean chromium haproxy nginx chaos catalogs

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

chromium: ## the system Chromium the browser tests drive, from the OS packages (never a downloaded browser)
	@test -x $(CHROMIUM) || { echo "installing Chromium from the OS packages (browser tests)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

haproxy: ## the load balancer of the two-API-process test and benchmark (docs/SCALING.md), from the OS packages
	@test -x $(HAPROXY) || { echo "installing HAProxy from the OS packages (load-balancer test)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy; }

nginx: ## the push server (nginx with nchan) of the push test and benchmark (docs/SCALING.md), from the OS packages
	@{ test -x $(NGINX) && test -e /usr/lib/nginx/modules/ngx_nchan_module.so; } || { \
	  echo "installing nginx and nchan from the OS packages (push-server test)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq \
	  --no-install-recommends nginx libnginx-mod-nchan; }

test: $(STAMP) chromium haproxy nginx ## the suite (unit, property, integration and browser tests) on every core; the fault suite is `make chaos`
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not chaos"

lint: $(STAMP) ## ruff over everything, mypy --strict over domain/ infra/ services/ bench/
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict domain/ infra/ services/ bench/

catalogs: $(STAMP) ## re-extract every domain's words (Babel) and merge them into each language's .po (docs/I18N.md)
	$(PY) -m services.language.maintain update

bench: $(STAMP) ## short benchmark run (< 5 min: engine, store, arq, service K=100/1,000); writes docs/BENCHMARKS.md
	$(PY) -m bench --write docs/BENCHMARKS.md

bench-full: $(STAMP) nginx ## the short run plus K=1,000 games to the crash, 1,000-10,000 open streams (Python and nginx+nchan) and the capacity run; writes docs/BENCHMARKS.md and docs/images/capacity.svg
	$(PY) -m bench --full --write docs/BENCHMARKS.md
	$(PY) -m bench.streams_nchan --write docs/BENCHMARKS.md
	$(PY) -m bench.pusher_cost --write docs/BENCHMARKS.md

chaos: $(STAMP) ## the full fault suite (< 15 min): 150 games of the three games through 40 worker kills, Redis (30 s, then 120 s) and PostgreSQL outages, and schemathesis; writes docs/RELIABILITY.md
	MAGNATE_CHAOS=full $(PY) -m pytest tests/chaos -m chaos -s -p no:cacheprovider

run: $(STAMP) ## API server + one worker on http://127.0.0.1:8000 (embedded PostgreSQL/Redis when no URLs are set; mail at /dev/mail)
	$(PY) -m services.cli run --dev-mailbox

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
