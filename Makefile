# Two set-up commands, both bootstrapping a local virtualenv with pinned versions:
#   make run    open the inspector on the bundled fixture suites
#   make test   run every test
# `make test PYTHON=/path/to/python3.13` runs them on another Python, in a virtualenv of
# its own (.venv-3.13), so switching versions never reuses one built for another.
PYTHON ?= python3
ifeq ($(origin PYTHON),command line)
PYTHON_VERSION := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
$(if $(PYTHON_VERSION),,$(error PYTHON=$(PYTHON) does not run))
VENV := .venv-$(PYTHON_VERSION)
else
VENV := .venv
endif
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip --disable-pip-version-check -q
# pytest-xdist workers for make test
WORKERS ?= 4

.PHONY: run audit test bench screenshots web-screenshots docs clean

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -r requirements.lock
	@# a virtualenv made before the distribution was renamed claim-inspector holds both
	$(PIP) uninstall -y inspector 2>/dev/null || true
	$(PIP) install --no-deps -e .
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/inspector

audit: $(STAMP)
	$(BIN)/inspector audit

# The package compiled first, and bytecode written during the run: where the
# environment says not to (PYTHONDONTWRITEBYTECODE, as on the machine the figures
# are measured on), every `python -m inspector` the tests start would compile the
# package again, and every worker would rewrite every test module's assertions.
test: $(STAMP)
	$(BIN)/python -m compileall -q inspector tests/support
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n $(WORKERS)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_verify.py
	$(BIN)/python benchmarks/bench_tui.py
	$(BIN)/python benchmarks/bench_load.py
	$(BIN)/python benchmarks/bench_render.py
	$(BIN)/python benchmarks/bench_mutate.py
	$(BIN)/python benchmarks/bench_mutation_report.py
	$(BIN)/python benchmarks/bench_triage.py
	$(BIN)/python benchmarks/bench_triage_stages.py
	$(BIN)/python benchmarks/bench_triage_tui.py
	$(BIN)/python benchmarks/bench_triage_reread.py
	$(BIN)/python benchmarks/bench_triage_dask.py
	$(BIN)/python benchmarks/bench_serve.py

screenshots: $(STAMP)
	$(BIN)/inspector screenshots --overwrite

# The browser screenshots (docs/serve.md): the served inspector and the HTML reports, in
# a headless Chromium (tests/support/chromium.py finds it; INSPECTOR_CHROMIUM names one).
web-screenshots: $(STAMP)
	$(BIN)/python tests/support/web_screenshots.py

# docs/keys.md is generated from the key declaration (tests/test_readme.py checks it).
docs: $(STAMP)
	$(BIN)/python -c "from inspector.tui.keys import keys_markdown; print(keys_markdown(), end='')" > docs/keys.md

clean:
	rm -rf .venv .venv-* .pytest_cache .hypothesis
