"""The zero-code path, for real: ``opentelemetry-instrument python app.py`` with console exporters."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from otel_groundedness.telemetry import names
from tests.processor.conftest import CORRUPTED_ANSWER, chat_attributes

APP = textwrap.dedent(
    """
    import json, sys
    from opentelemetry import trace

    attributes = json.loads(sys.argv[1])
    tracer = trace.get_tracer("app")
    with tracer.start_as_current_span("invoke_agent invoice-agent"):
        with tracer.start_as_current_span("chat gpt-4o-mini", attributes=attributes):
            pass
    """
)


def run_instrumented(tmp_path: Path, enabled: str) -> subprocess.CompletedProcess[str]:
    app = tmp_path / "app.py"
    app.write_text(APP)
    attributes = {
        k: list(v) if isinstance(v, tuple) else v for k, v in chat_attributes(CORRUPTED_ANSWER).items()
    }
    env = {
        **os.environ,
        "OTEL_GROUNDEDNESS_ENABLED": enabled,
        "OTEL_TRACES_EXPORTER": "console",
        "OTEL_LOGS_EXPORTER": "console",
        "OTEL_METRICS_EXPORTER": "none",
        "OTEL_PYTHON_DISABLED_INSTRUMENTATIONS": "*",
        "OTEL_SERVICE_NAME": "zero-code-test",
    }
    env.pop("OTEL_PYTHON_CONFIGURATOR", None)
    instrument = Path(sys.executable).parent / "opentelemetry-instrument"
    return subprocess.run(
        [str(instrument), sys.executable, str(app), json.dumps(attributes)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def json_documents(text: str) -> list[dict[str, Any]]:
    """The console exporters print indented JSON objects back to back."""
    decoder = json.JSONDecoder()
    documents, index = [], 0
    while (start := text.find("{", index)) != -1:
        document, index = decoder.raw_decode(text, start)
        documents.append(document)
    return documents


def test_enabled_zero_code_path_scores_the_exported_span(tmp_path: Path) -> None:
    output = json_documents(run_instrumented(tmp_path, "true").stdout)
    spans = {doc["name"]: doc for doc in output if "span_id" in doc.get("context", {})}
    assert set(spans) == {"invoke_agent invoice-agent", "chat gpt-4o-mini"}
    chat = spans["chat gpt-4o-mini"]
    assert chat["attributes"][names.ATTR_ATOMS_CONTRADICTED] == 1
    assert chat["events"][0]["name"] == names.EVENT_EVALUATION_RESULT

    (record,) = [doc for doc in output if doc.get("event_name") == names.EVENT_EVALUATION_RESULT]
    assert record["span_id"] == chat["context"]["span_id"]
    assert record["attributes"][names.ATTR_EVALUATION_NAME] == "groundedness"


def test_disabled_zero_code_path_exports_spans_unchanged(tmp_path: Path) -> None:
    output = json_documents(run_instrumented(tmp_path, "false").stdout)
    spans = {doc["name"]: doc for doc in output if "span_id" in doc.get("context", {})}
    assert set(spans) == {"invoke_agent invoice-agent", "chat gpt-4o-mini"}
    assert not any(key.startswith(names.SPAN_PREFIX) for key in spans["chat gpt-4o-mini"]["attributes"])
