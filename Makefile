# tapmat — every target bootstraps the virtual environment it needs.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
MP      := $(BIN)/micropython
PORT    ?=

.PHONY: help venv test soak demo bench flash check mpy size clean firmware micropython32

help:
	@echo "make test   - create .venv and run every test (CPython + MicroPython), in parallel [TEST_WORKERS=3]"
	@echo "make soak   - the long soaks at full length (2000 Skull, 200 Dead Man's Draw games, every bit flip)"
	@echo "make demo   - a simulated game on the virtual board with the live scoreboard"
	@echo "             [GAME=deadmans PLAYERS=6 OPTIONS='decks=2'] or [HEADER='{\"game\": \"skull\", \"players\": 5}']"
	@echo "make bench  - measure heap, state, speed, sizes; writes bench/results.json"
	@echo "make flash PORT=/dev/ttyACM0 [GAME=skull PLAYERS=4] [OPTIONS='k=v ...'] [HEADER=json] [MODULES=a,b] [DECK=deck.bin] [PROFILE=deck.json] [LINE_NUMBERS=1] - install firmware on a board (or the virtual board)"
	@echo "make check  - static type checks (firmware against the MicroPython rp2 stubs, host)"
	@echo "make mpy    - compile shared_rules/ and firmware/ to .mpy in build/"
	@echo "make size   - .mpy sizes per module"
	@echo "make firmware MICROPY_DIR=~/micropython [BOARD=RPI_PICO] - a MicroPython firmware image with tapmat frozen in (manifest.py)"
	@echo "make micropython32 MICROPY_DIR=~/micropython - the unix port at a Pico's word size, for bench.quick --micropython"

venv: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q -r requirements.txt
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Every test, in parallel (pytest-xdist: a file per worker, so a dual module runs once and a
# module's boards are shared, but the long independent tests of tests/conftest.py SPREAD one by
# one); the 15 slowest are listed (docs/interpreters.md). TEST_WORKERS=1: one process.
TEST_WORKERS ?= 3
TEST_ARGS    = $(if $(filter 1,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadgroup) --durations=15
test: $(STAMP)
	$(BIN)/python -m pytest $(TEST_ARGS)

# The long soaks at full length (TAPMAT_SOAK=1: 2000 Skull and 200 Dead Man's Draw random games,
# every bit flip of the journal files), on both interpreters, where make test takes a sample
# (docs/interpreters.md).
SOAK_TESTS = tests/dual/dual_skull_playout.py tests/dual/dual_deadmans_playout.py tests/dual/dual_persist.py
soak: $(STAMP)
	TAPMAT_SOAK=1 $(BIN)/python -m pytest $(TEST_ARGS) $(SOAK_TESTS)

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build .pytest_cache

mpy size: $(STAMP)
	$(BIN)/python -m host.board.build build/mpy

# Game header for make demo and make flash: GAME and PLAYERS plus OPTIONS (space-separated
# KEY=VALUE, VALUE as JSON: OPTIONS='decks=2'), or the whole header as JSON in HEADER.
GAME    ?=
PLAYERS ?=
OPTIONS ?=
HEADER  ?=
HEADER_ARGS = $(if $(HEADER),--header '$(HEADER)') $(foreach o,$(OPTIONS),--option '$(o)')

# make flash PORT=/dev/ttyACM0 [GAME=skull PLAYERS=4] [OPTIONS=...] [HEADER=...] [DECK=deck.bin]  (docs/flashing.md)
DECK    ?=
PROFILE ?=
flash: $(STAMP)
	@test -n "$(PORT)" || { echo "usage: make flash PORT=/dev/ttyACM0 [GAME=skull PLAYERS=4] [DECK=deck.bin]" >&2; exit 2; }
	$(BIN)/tapmat flash --port "$(PORT)" $(if $(GAME),--game "$(GAME)") $(if $(PLAYERS),--players "$(PLAYERS)") $(HEADER_ARGS) $(if $(MODULES),--modules "$(MODULES)") $(if $(DECK),--deck "$(DECK)") $(if $(PROFILE),--profile "$(PROFILE)") $(if $(LINE_NUMBERS),--line-numbers)

# Static checks alone; `make test` runs them too (tests/test_static.py is part of pytest).
check: $(STAMP)
	$(BIN)/python -m pytest tests/test_static.py

# make demo [GAME=sheriff PLAYERS=4 SPEED=2 SEED=7] [OPTIONS=...] [HEADER=...]: simulated players
# on a virtual board, live scoreboard; MODULES=deputies,black_market,laws,special_orders,merry_men
# (any of them; deputies: PLAYERS=6) for Sheriff's expansion, PROFILE=deck.json (default: the sample)
demo: $(STAMP)
	$(BIN)/tapmat demo $(if $(GAME),--game "$(GAME)") $(if $(PLAYERS),--players "$(PLAYERS)") $(HEADER_ARGS) $(if $(SPEED),--speed "$(SPEED)") $(if $(SEED),--seed "$(SEED)") $(if $(MODULES),--modules "$(MODULES)") $(if $(PROFILE),--profile "$(PROFILE)")

# make firmware MICROPY_DIR=/path/to/micropython [BOARD=RPI_PICO]: MicroPython for the board with
# shared_rules/ and firmware/ frozen in (manifest.py), so the modules run from flash and take no
# heap for their code (docs/flashing.md, "A frozen firmware"; figures: docs/performance.md).
MICROPY_DIR ?=
BOARD       ?= RPI_PICO
FW_BUILD    := $(CURDIR)/build/firmware-$(BOARD)
ifeq ($(MICROPY_DIR),)
firmware:
	@echo "make firmware: skipped: no MicroPython source tree. Give one: make firmware MICROPY_DIR=/path/to/micropython"
	@echo "  (MicroPython v1.28 with its rp2 submodules: make -C ports/rp2 BOARD=$(BOARD) submodules; arm-none-eabi-gcc; docs/flashing.md)"
else
firmware:
	@test -f "$(MICROPY_DIR)/ports/rp2/Makefile" || { echo "make firmware: $(MICROPY_DIR) is not a MicroPython source tree (no ports/rp2/Makefile)" >&2; exit 2; }
	@echo "make firmware: mpy-cross, then MicroPython for $(BOARD) with tapmat frozen in, in $(FW_BUILD)"
	$(MAKE) -C "$(MICROPY_DIR)/mpy-cross"
	$(MAKE) -C "$(MICROPY_DIR)/ports/rp2" BOARD=$(BOARD) BUILD="$(FW_BUILD)" FROZEN_MANIFEST="$(CURDIR)/manifest.py"
	cp "$(FW_BUILD)/firmware.uf2" build/tapmat-$(BOARD).uf2
	@echo "make firmware: build/tapmat-$(BOARD).uf2 ($$(stat -c %s build/tapmat-$(BOARD).uf2) bytes); flash it: hold BOOTSEL while plugging the board in, copy it to the RPI-RP2 drive"
endif

# make micropython32 MICROPY_DIR=/path/to/micropython: the unix port built 32-bit (a Pico's word
# size; gcc-multilib), for heap figures as a Pico would hold them:
# python -m bench.quick CASE --mat --mpy --micropython build/micropython32 (docs/performance.md,
# round 14). Not part of make bench: its budgets are defined on the 64-bit port.
UNIX32_BUILD := $(CURDIR)/build/unix32
ifeq ($(MICROPY_DIR),)
micropython32:
	@echo "make micropython32: skipped: no MicroPython source tree. Give one: make micropython32 MICROPY_DIR=/path/to/micropython"
else
micropython32:
	@test -f "$(MICROPY_DIR)/ports/unix/Makefile" || { echo "make micropython32: $(MICROPY_DIR) is not a MicroPython source tree (no ports/unix/Makefile)" >&2; exit 2; }
	@echo "make micropython32: the unix port, 32-bit, in $(UNIX32_BUILD) (needs gcc-multilib)"
	$(MAKE) -C "$(MICROPY_DIR)/ports/unix" VARIANT=standard MICROPY_FORCE_32BIT=1 MICROPY_PY_FFI=0 MICROPY_PY_BTREE=0 \
		MICROPY_SSL_MBEDTLS=0 MICROPY_PY_SSL=0 MICROPY_USE_READLINE=0 BUILD="$(UNIX32_BUILD)" PROG=micropython32
	cp "$(UNIX32_BUILD)/micropython32" build/micropython32
	@echo "make micropython32: build/micropython32; python -m bench.quick sheriff-6-all-five --mat --mpy --micropython build/micropython32"
endif
