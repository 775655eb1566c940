# Three commands on a fresh machine:  make play,  make run  and  make test
# (README.md, Quick start). Each makes .venv and installs what it needs.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

# System packages the tests need (Debian names): a browser for the page tests,
# PostgreSQL for the several-processes tests. `make test` installs them when
# missing and run as root; otherwise it says what to install and goes on.
SYSTEM_PACKAGES = chromium fonts-liberation postgresql
SYSDEPS_STAMP   = $(VENV)/.sysdeps-ok
# The compiled solver, playouts and search (euchre._csolver, _cplayout, _csearch): the editable install builds them in
# place, so a change to these reinstalls (the install goes on without a compiler).
BUILD_INPUTS    = setup.py src/euchre/_solver.c src/euchre/_playout.c src/euchre/_csearch.c \
                  src/euchre/_core.h src/euchre/_rng.h src/euchre/_rule.h

.PHONY: play run test lint typecheck unit bench clean sysdeps

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.tui-installed: pyproject.toml $(BUILD_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[tui]'
	touch $@

$(VENV)/.web-installed: pyproject.toml $(BUILD_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web]'
	touch $@

$(VENV)/.dev-installed: pyproject.toml $(BUILD_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

## Play Cutthroat against two computer opponents in the terminal.
play: $(VENV)/.tui-installed
	$(BIN)/euchre play $(ARGS)

## Serve the web table (SQLite in ./euchre-data); prints the address to open.
## ARGS passes options, e.g. make run ARGS="--port 8080 --host 0.0.0.0".
run: $(VENV)/.web-installed
	$(BIN)/euchre serve $(ARGS)

## Every check: lint, strict type check, the test suite (about 15–20 minutes on 2 cores; run as
## root, it first installs the missing SYSTEM_PACKAGES with apt-get).
test: $(VENV)/.dev-installed $(SYSDEPS_STAMP) lint typecheck unit

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests bench setup.py
	$(BIN)/ruff format --check src tests bench setup.py

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy --strict src

## The suite (on the compiled solver and search when built), then the solver's and the search's
## tests again on the pure-Python path (the search bot's own tests then run the Python search).
unit: $(VENV)/.dev-installed $(SYSDEPS_STAMP)
	$(BIN)/pytest -q
	EUCHRE_PURE=1 $(BIN)/pytest -q tests/test_solver.py tests/test_csolver.py tests/test_search_bot.py tests/test_csearch.py

## The system packages of the tests (Debian's apt-get, as root; once: a stamp file).
sysdeps: $(SYSDEPS_STAMP)

$(SYSDEPS_STAMP): | $(BIN)/python
	@missing=""; \
	have_pg() { { command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } && { [ "$$(id -u)" != 0 ] || id postgres >/dev/null 2>&1; }; }; \
	for pkg in $(SYSTEM_PACKAGES); do \
	  case $$pkg in \
	    postgresql) have_pg || missing="$$missing $$pkg" ;; \
	    fonts-liberation) ls /usr/share/fonts/truetype/liberation* >/dev/null 2>&1 || missing="$$missing $$pkg" ;; \
	    *) command -v $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg" ;; \
	  esac; \
	done; \
	if [ -z "$$missing" ]; then touch $@; exit 0; fi; \
	if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then \
	  echo "make: the tests need these system packages:$$missing"; \
	  echo "make: install them as root: apt-get install -y --no-install-recommends$$missing"; \
	  exit 0; \
	fi; \
	echo "make: installing system packages:$$missing (apt-get)"; \
	log=$(VENV)/apt-get.log; \
	export DEBIAN_FRONTEND=noninteractive; \
	install() { apt-get install -y -q --no-install-recommends $$missing >>$$log 2>&1; }; \
	if ! ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1; then apt-get update -q >>$$log 2>&1; fi; \
	if ! install; then apt-get update -q >>$$log 2>&1 && install || { tail -n 30 $$log; echo "make: apt-get failed (log: $$log)"; exit 1; }; fi; \
	touch $@

## Random-playout benchmark against OpenSpiel (prints a table).
bench: $(VENV)/.dev-installed
	$(BIN)/python bench/playouts.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis build src/euchre/*.so
