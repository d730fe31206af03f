"""The processor scores a table answer with the turn's question: "It is 38.57%." over a markdown
table tool result, the question only in the user prompt, through the official OpenAI
instrumentation (its own interpreter, see ``table_question_runner``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from otel_groundedness.telemetry import names

pytestmark = pytest.mark.instrumentation

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("table_question_runner.py")


@pytest.fixture(scope="module")
def runs() -> dict[str, list[dict[str, Any]]]:
    done = subprocess.run(
        [sys.executable, str(RUNNER)], capture_output=True, text=True, timeout=180, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, list[dict[str, Any]]] = json.loads(done.stdout)
    return result


def test_the_answer_computed_from_the_table_is_supported(runs: dict[str, list[dict[str, Any]]]) -> None:
    (span,) = runs["correct"]
    assert span[names.ATTR_ATOMS_SUPPORTED] == 1
    assert span[names.ATTR_ATOMS_CONTRADICTED] == 0
    assert span[names.ATTR_LABEL] == "grounded"


def test_a_corrupted_figure_is_not(runs: dict[str, list[dict[str, Any]]]) -> None:
    (span,) = runs["corrupted"]
    assert span[names.ATTR_ATOMS_SUPPORTED] == 0
    assert span[names.ATTR_LABEL] != "grounded"
