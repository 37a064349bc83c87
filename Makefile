# Development commands. Every target installs what it needs on first use:
# .venv from requirements-dev.txt, node_modules (the MicroPython VM) from package-lock.json.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: test lint bench soak sim

test: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m pytest -ra

lint: $(VENV_STAMP)
	$(PY) -m ruff check .

bench: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m host_sim.bench

soak: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m pytest -ra -m soak

sim: $(VENV_STAMP)
	$(PY) -m host_sim.sim $(ARGS)

$(VENV_STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@
