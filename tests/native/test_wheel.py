"""``make wheel``'s abi3 wheel installs in a fresh venv and passes the scoring tests there, with no
Rust toolchain on PATH and no checkout on sys.path: what a user of the published wheel gets."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The test dependencies of the copied tests, at the versions of this venv.
_TEST_REQUIREMENTS = ("pytest", "hypothesis", "pytest-timeout")


def _version_of(distribution: str) -> str:
    from importlib.metadata import version

    return f"{distribution}=={version(distribution)}"


@pytest.mark.e2e
def test_the_wheel_scores_without_cargo_or_the_checkout(tmp_path: Path) -> None:
    cargo = shutil.which("cargo")
    assert cargo is not None, "building the wheel needs cargo (the Makefile puts ~/.cargo/bin on PATH)"
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "maturin",
            "build",
            "--release",
            "--locked",
            "--out",
            str(dist),
            "--quiet",
        ],
        cwd=ROOT,
        check=True,
        timeout=900,
    )
    (wheel,) = dist.glob("*.whl")
    assert "-cp311-abi3-" in wheel.name  # one wheel for every CPython >= 3.11
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "otel_groundedness/_native.abi3.so" in names
    assert "otel_groundedness/py.typed" in names

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    # PATH without the Rust toolchain: nothing may build from source.
    path = os.pathsep.join(
        part for part in os.environ["PATH"].split(os.pathsep) if not (Path(part) / "cargo").exists()
    )
    env = {"PATH": path, "HOME": str(tmp_path), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--only-binary", ":all:", str(wheel)]
        + [_version_of(name) for name in _TEST_REQUIREMENTS],
        env=env,
        check=True,
        timeout=600,
    )
    # The tests run from a copy, so `import otel_groundedness` can only find the installed wheel.
    work = tmp_path / "work"
    shutil.copytree(ROOT / "tests", work / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "benchmarks", work / "benchmarks", ignore=shutil.ignore_patterns("__pycache__"))
    probe = subprocess.run(
        [str(python), "-c", "import otel_groundedness, sys; print(otel_groundedness.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert str(venv) in probe.stdout
    run = subprocess.run(
        [
            str(python),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            # The scoring tests, and the extension's own: its vocabularies, its boundary.
            "tests/scoring",
            "tests/native/test_vocabulary.py",
            "tests/native/test_boundary.py",
        ],
        cwd=work,
        env=dict(env, PYTHONPATH=str(work)),
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
