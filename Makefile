# The commands that matter: `make demo` (the main job), `make stack` (the demo through a local Collector,
# Prometheus, Alertmanager and Jaeger) and `make test` (the full suite). Each creates its own virtual
# environment first (the demo only what it needs); nothing depends on what is installed.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# What the demo alone needs (the `demo` extra); the full STAMP (`dev`) includes it.
DEMO_STAMP := $(VENV)/.installed-demo
# pip's notices (a newer pip exists, running as root) and setuptools' "Editable installation" warning
# (raised in pip's build subprocess, which inherits PYTHONWARNINGS) are not for someone trying the demo.
PIP    := PYTHONWARNINGS='ignore:Editable installation' $(BIN)/python -m pip --disable-pip-version-check

.PHONY: demo stack test lint typecheck unit bench fuzz collector jaeger compat-venvs system-deps node-agent venv clean

demo: $(DEMO_STAMP)
	$(BIN)/otel-groundedness demo $(DEMO_ARGS)

# Collector, Prometheus, Alertmanager and Jaeger on 127.0.0.1 with the demo's traffic; Ctrl-C stops them.
stack: system-deps $(STAMP) collector jaeger
	$(BIN)/python scripts/stack.py

test: system-deps node-agent $(STAMP) compat-venvs collector jaeger lint typecheck
	$(BIN)/python -m pytest $(PYTEST_ARGS)

unit: $(STAMP)
	$(BIN)/python -m pytest -m "not e2e and not instrumentation" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check otel_groundedness tests benchmarks dashboards agents scripts
	$(BIN)/ruff format --check otel_groundedness tests benchmarks dashboards agents scripts

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

# Jaeger v2, the trace store of `make stack` and tests/e2e, built the same way; cached in collector-config/bin.
jaeger:
	bash collector-config/build.sh jaeger

# Virtual environments for instrumentation versions that cannot share .venv (tests/instrumentation).
compat-venvs:
	bash scripts/install-compat-venvs.sh

venv: $(STAMP)

$(DEMO_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --root-user-action=ignore -e '.[demo]'
	touch $(DEMO_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --root-user-action=ignore --upgrade pip
	$(PIP) install --quiet --root-user-action=ignore -e '.[dev]'
	touch $(STAMP) $(DEMO_STAMP)

clean:
	rm -rf $(VENV) .venv-* .pytest_cache .mypy_cache .ruff_cache collector-config/bin agents/vercel-ai/node_modules
