"""Run instrumentation scenarios through ``scenario_runner`` in their own interpreters, once per session."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("scenario_runner.py")
LEGACY_PYTHON = ROOT / ".venv-openllmetry-legacy" / "bin" / "python"
# Scenarios whose libraries conflict with the main venv, and the venv scripts/install-compat-venvs.sh
# makes for them.
COMPAT_VENVS = {
    "strands": ".venv-strands",
    "strands_latest": ".venv-strands",
    "genai_openai_span": ".venv-genai-openai",
    "genai_openai_event": ".venv-genai-openai",
    "openai_agents_official": ".venv-genai-openai",
    "adk": ".venv-adk",
    "adk_legacy": ".venv-adk",
}


@functools.cache
def scenario(name: str, python: str = sys.executable) -> dict[str, Any]:
    """The runner's report for one scenario, run once per session with the processor registered.

    Scored spans are exported as enriched copies that keep every original attribute, so one run serves
    both the adapter assertions (test_real_instrumentation) and the scoring ones (test_scored_...).
    """
    command = [python, str(RUNNER), name, "--score"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def ensure_legacy_venv() -> None:
    if not LEGACY_PYTHON.exists():  # normally made by `make test` (compat-venvs); the script is idempotent
        subprocess.run(["bash", str(ROOT / "scripts" / "install-compat-venvs.sh")], check=True, cwd=ROOT)


def live(name: str) -> dict[str, Any]:
    """The scenario's report, from its own venv when it has one."""
    venv = COMPAT_VENVS.get(name)
    if venv is None:
        return scenario(name)
    python = ROOT / venv / "bin" / "python"
    if not python.exists():  # normally made by `make test` (compat-venvs); the script is idempotent
        subprocess.run(["bash", str(ROOT / "scripts" / "install-compat-venvs.sh")], check=True, cwd=ROOT)
    return scenario(name, str(python))


def legacy_openllmetry() -> dict[str, Any]:
    ensure_legacy_venv()
    return scenario("openllmetry", str(LEGACY_PYTHON))
