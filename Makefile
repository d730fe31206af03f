# Two commands matter: `make demo` (the main job) and `make test` (the full suite).
# Both create their own virtual environment first; nothing depends on what is installed.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench fuzz collector system-deps node-agent venv clean

demo: $(STAMP)
	$(BIN)/otel-groundedness demo $(DEMO_ARGS)

test: system-deps node-agent $(STAMP) collector lint typecheck
	$(BIN)/python -m pytest $(PYTEST_ARGS)

unit: $(STAMP)
	$(BIN)/python -m pytest -m "not e2e and not instrumentation" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check otel_groundedness tests benchmarks dashboards agents
	$(BIN)/ruff format --check otel_groundedness tests benchmarks dashboards agents

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

# The long hostile-traffic run (200,000 spans); a short one is part of `make test`.
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzz $(FUZZ_ARGS)

# Debian packages the end-to-end tests start (prometheus, alertmanager, chromium); idempotent.
system-deps:
	bash scripts/install-system-deps.sh

# The Node agent's pinned npm dependencies (agents/vercel-ai, `npm ci` from its lockfile); idempotent.
node-agent:
	bash scripts/install-node-agent.sh

# Custom OpenTelemetry Collector built from the official modules; cached in collector-config/bin.
collector:
	bash collector-config/build.sh

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	bash scripts/install-compat-venvs.sh
	touch $(STAMP)

clean:
	rm -rf $(VENV) .venv-* .pytest_cache .mypy_cache .ruff_cache collector-config/bin agents/vercel-ai/node_modules
