# Development commands. Every target installs what it needs on first use:
# .venv from requirements-dev.txt, node_modules (the MicroPython VM) from package-lock.json.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: test test-fast lint bench soak sim pull flash repl hardware emu emu-port

test: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m pytest -ra

# The tests on CPython alone: the rules, the arbiter, the controls, the table, the screens,
# the controller and the like; none of these markers (pyproject.toml says what each holds).
FAST := not soak and not slow and not micropython_vm and not emulated_pico and not person_path
test-fast: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m pytest -ra -m "$(FAST)"

lint: $(VENV_STAMP)
	$(PY) -m ruff check .

bench: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m host_sim.bench

soak: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m pytest -ra -m soak

sim: $(VENV_STAMP)
	$(PY) -m host_sim $(ARGS)

# The firmware on an emulated Pico (rp2040js) with its USB console here; its last screen
# goes to screenshots/emu.png (--screen PNG: another file). It needs MicroPython's RPI_PICO
# UF2 and the RP2040 boot ROM: PICO_UF2=... PICO_BOOTROM=... (default: ../shared/pico/).
# ARGS="--script presses.json --ms 3000 --png 1500".
emu: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m host_sim.emu $(ARGS)

# The emulated Pico behind a serial port until Ctrl-C: it prints the port, for make flash,
# make repl and make pull PORT=...; its flash is kept in .emu/board.img, so stopping and
# starting it is a power cycle. ARGS="--fresh": a board fresh from the UF2; "--flash FILE".
emu-port: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m host_sim.emu.port $(ARGS)

# The finished games' transcripts on the board (/transcripts) into ./transcripts, never over
# another file, then the board restarts. PORT=... names the port; with no board it says so
# and exits 2; with no finished game yet it says so and exits 0.
pull: $(VENV_STAMP)
	PORT="$(PORT)" $(PY) -m host_sim.board pull

# The firmware onto a Pico over USB: .mpy files (MPY=0: plain .py), verified on the board
# before they replace the old ones. PORT=/dev/ttyACM0 names the port; else the first found.
MPY ?= 1
flash: $(VENV_STAMP)
	PORT="$(PORT)" MPY="$(MPY)" $(PY) -m host_sim.board flash

# The board's REPL; the game stays stopped until Ctrl-D, machine.reset() or a power cycle.
repl: $(VENV_STAMP)
	PORT="$(PORT)" $(PY) -m host_sim.board repl

# hardware/ (README, wiring and panel SVGs, Wokwi diagram.json) from the firmware's pin map.
hardware: $(VENV_STAMP)
	$(PY) -m host_sim.hardware.documents

$(VENV_STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@
