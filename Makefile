# Did search improve? -- the two commands are `make lab` and `make test`.
# Everything else here is for people who maintain the series.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8888
WORKSPACE ?= workspace
SITE   ?= site
ANSWERS ?= answer-key
# make test runs the test files in parallel, one file per worker at a time (pytest-xdist), the
# slowest first (conftest.py: SLOWEST_FIRST)
TEST_WORKERS ?= auto
# make lab serves your workspace copy once you have made one (make workspace)
LAB_ROOT = $(if $(wildcard $(WORKSPACE)/*.ipynb),$(WORKSPACE),notebooks)

# Find kernels and settings in .venv before any in your home folder, so that a
# python3 kernel you installed elsewhere never runs the series' notebooks.
export JUPYTER_PREFER_ENV_PATH := 1

.DEFAULT_GOAL := help
.PHONY: help env lab test lint test-browser test-portability test-arm64 bench execute lock clean workspace reset-workspace html answers docs

help: ## Show this help
	@echo "Did search improve? A notebook series on comparing two search systems."
	@echo
	@echo "Usage: make <target>"
	@echo
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_-]+:.*## / {printf "  %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): requirements.lock requirements-oracle.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed; found " + sys.version.split()[0] + ". Set PYTHON=/path/to/python3.11 and try again.")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check --only-binary :all: --no-deps \
		-r requirements-oracle.txt >/dev/null 2>&1 \
		|| echo "Note: no pytrec-eval-terrier wheel here; its test is skipped (nothing else needs it)."
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

env: $(STAMP) ## Build the pinned environment in .venv (done for you by lab and test)

lab: $(STAMP) ## Build the environment if needed and open the series (your workspace/ if you made one)
	@echo "Serving $(LAB_ROOT)/ -- open the http://127.0.0.1:$(PORT)/lab?token=... URL printed below."
	$(BIN)/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.port=$(PORT) \
		--ServerApp.open_browser=False --ServerApp.root_dir=$(LAB_ROOT) \
		$(if $(filter 0,$(shell id -u)),--allow-root,)

workspace: ## Copy the notebooks into workspace/ for you to edit (git ignores it; make lab then opens it)
	@if [ -e "$(WORKSPACE)" ]; then \
		echo "$(WORKSPACE)/ already exists; your edits are kept. To start over: make reset-workspace"; \
	else \
		mkdir -p "$(WORKSPACE)" && cp -R notebooks/. "$(WORKSPACE)/" && \
		rm -rf "$(WORKSPACE)/.ipynb_checkpoints" && \
		echo "Copied the notebooks into $(WORKSPACE)/. Edit freely: git pull never touches it."; \
	fi

reset-workspace: ## Replace workspace/ with a pristine copy (asks first; FORCE=1 skips the question)
	@if [ "$(FORCE)" != "1" ]; then \
		printf "This deletes every change in $(WORKSPACE)/ and copies the notebooks afresh. Type yes to go on: "; \
		read answer; \
		if [ "$$answer" != "yes" ]; then echo "Nothing changed."; exit 0; fi; \
	fi; \
	rm -rf "$(WORKSPACE)" && $(MAKE) --no-print-directory workspace WORKSPACE="$(WORKSPACE)"

# Python's bytecode caches are written during make test even where PYTHONDONTWRITEBYTECODE is set
# (git ignores them): each test worker imports every test module and each chapter's kernel
# imports helpers, and compiling them all afresh on every run made make test about 5 s slower.
test: export PYTHONDONTWRITEBYTECODE :=
test: $(STAMP) lint ## Build the environment if needed, lint, and run every test (notebooks under strict nbval)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

lint: $(STAMP) ## Check the code with ruff: helpers/, tests/, tools/ and the notebooks' code cells
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test-browser: $(STAMP) ## Run only the browser tests (needs Debian's chromium)
	$(BIN)/python -m pytest tests/browser --browser-required

test-portability: $(STAMP) ## Re-run the notebooks at every SIMD level this CPU has and on Python 3.11.2 (Debian 12), 3.12, 3.13
	$(BIN)/python tools/test_portability.py

test-arm64: ## Re-run the notebooks on emulated arm64 (Debian root + qemu, cached in ~/.cache; needs root)
	tools/test_arm64.sh

bench: $(STAMP) ## Time the helpers against the alternatives (BENCH_ARGS=--update-docs writes docs/benchmarks.md)
	$(BIN)/python tools/bench/run_bench.py $(BENCH_ARGS)

html: $(STAMP) ## Export every chapter as static pages in site/, offline-ready (open site/index.html)
	$(BIN)/python tools/notebook_tools.py --html $(SITE)

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
