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
# The scoring engine is Rust (native/), built by maturin into otel_groundedness/_native.abi3.so.
# rustup installs cargo in ~/.cargo/bin, which a fresh shell may not have on its PATH yet.
export PATH := $(HOME)/.cargo/bin:$(PATH)
NEEDS_CARGO := command -v cargo >/dev/null 2>&1 || { echo "otel-groundedness builds a Rust extension and cargo is not on PATH: install Rust with rustup (https://rustup.rs), then run make again" >&2; exit 1; }
NATIVE_SO := otel_groundedness/_native.abi3.so
NATIVE_SOURCES := $(shell find native -name '*.rs' -o -name 'Cargo.*' 2>/dev/null | grep -v '^native/target/')

.PHONY: demo stack test lint typecheck native-check wheel unit bench fuzz collector jaeger compat-venvs system-deps node-agent venv clean

demo: $(DEMO_STAMP) $(NATIVE_SO)
	$(BIN)/otel-groundedness demo $(DEMO_ARGS)

# Collector, Prometheus, Alertmanager and Jaeger on 127.0.0.1 with the demo's traffic; Ctrl-C stops them.
stack: system-deps $(STAMP) $(NATIVE_SO) collector jaeger
	$(BIN)/python scripts/stack.py

test: system-deps node-agent $(STAMP) $(NATIVE_SO) compat-venvs collector jaeger lint typecheck native-check
	$(BIN)/python -m pytest $(PYTEST_ARGS)

unit: $(STAMP) $(NATIVE_SO)
	$(BIN)/python -m pytest -m "not e2e and not instrumentation" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check otel_groundedness tests benchmarks dashboards agents scripts
	$(BIN)/ruff format --check otel_groundedness tests benchmarks dashboards agents scripts

typecheck: $(STAMP)
	$(BIN)/mypy

# The Rust side of the checks: formatting, clippy with warnings as errors, the engine's own tests.
native-check:
	@$(NEEDS_CARGO)
	cd native && cargo fmt --all --check
	cd native && cargo clippy --workspace --all-targets --locked -q -- -D warnings
	cd native && cargo test --workspace --locked -q

# An abi3 wheel (CPython >= 3.11) in dist/: installs and scores with no Rust toolchain.
wheel: $(STAMP)
	@$(NEEDS_CARGO)
	$(BIN)/maturin build --release --locked --out dist

# Rebuilds the extension in place after a change under native/ (pip's editable install built the first).
$(NATIVE_SO): $(NATIVE_SOURCES) | $(DEMO_STAMP)
	@$(NEEDS_CARGO)
	$(PIP) install --quiet --root-user-action=ignore --no-deps -e .
	touch $(NATIVE_SO)

bench: $(STAMP) $(NATIVE_SO)
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

# The long hostile-traffic run (200,000 spans; a short one is part of `make test`), then score() on
# FUZZ_PAIRS generated answer/evidence pairs (no exception, the report's invariants, the same report twice).
FUZZ_PAIRS ?= 1000000
fuzz: $(STAMP) $(NATIVE_SO)
	$(BIN)/python -m tests.fuzz $(FUZZ_ARGS)
	$(BIN)/python -m tests.native.score_cases --cases $(FUZZ_PAIRS) --workers 2

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
	@$(NEEDS_CARGO)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --root-user-action=ignore -e '.[demo]'
	touch $(DEMO_STAMP)

$(STAMP): pyproject.toml
	@$(NEEDS_CARGO)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --root-user-action=ignore --upgrade pip
	$(PIP) install --quiet --root-user-action=ignore -e '.[dev]'
	touch $(STAMP) $(DEMO_STAMP)

clean:
	rm -rf $(VENV) .venv-* native/target $(NATIVE_SO) .pytest_cache .mypy_cache .ruff_cache collector-config/bin agents/vercel-ai/node_modules
