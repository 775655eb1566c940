# Two commands on a fresh machine:  make play   and   make test
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: play test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.tui-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[tui]'
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,tui]'
	touch $@

## Play Cutthroat against two computer opponents in the terminal.
play: $(VENV)/.tui-installed
	$(BIN)/euchre play $(ARGS)

## Every check: lint, strict type check, the test suite.
test: $(VENV)/.dev-installed lint typecheck unit

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy --strict src

unit: $(VENV)/.dev-installed
	$(BIN)/pytest -q

## Random-playout benchmark against OpenSpiel (prints a table).
bench: $(VENV)/.dev-installed
	$(BIN)/python bench/playouts.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
