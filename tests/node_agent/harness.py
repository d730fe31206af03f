"""Run the Node agent (agents/vercel-ai) against the fake model server, with a recording Collector.

Everything here starts real processes: the pinned Node runtime with the real AI SDK and OpenTelemetry
JS SDK, and the project's custom Collector with the `file` exporter config the docs use.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.e2e.services import Service, start_service
from tests.free_ports import free_port

REPO = Path(__file__).resolve().parents[2]
AGENT_DIR = REPO / "agents" / "vercel-ai"
INSTALL_SCRIPT = REPO / "scripts" / "install-node-agent.sh"
RECORD_CONFIG = AGENT_DIR / "otelcol-record.yaml"
AGENT_NAME = "invoice-agent"
MODEL = "gpt-4o-mini"


def load_fake_model() -> ModuleType:
    """``agents/vercel-ai/fake_model.py``: the model script the docs run, shared with the tests."""
    spec = importlib.util.spec_from_file_location("vercel_ai_fake_model", AGENT_DIR / "fake_model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def install_node_agent() -> Path:
    """Run the project's install script (a no-op when up to date); return the Node binary to use."""
    subprocess.run(["bash", str(INSTALL_SCRIPT)], check=True, timeout=900)
    pinned = AGENT_DIR / "node_modules" / ".bin" / "node"
    if pinned.exists():
        return pinned
    system = shutil.which("node")
    assert system is not None, "install-node-agent.sh passed but no node binary was found"
    return Path(system)


@dataclass(frozen=True)
class AgentTurn:
    turn: int
    prompt: str
    stream: bool
    trace_id: str
    answer: str


@dataclass(frozen=True)
class AgentRun:
    """What the agent printed: one line per turn, then what its OTLP exporter delivered."""

    turns: list[AgentTurn]
    span_ids: list[str]
    failed_spans: int
    stderr: str


def run_agent(
    node: Path,
    *,
    model_url: str,
    otlp_endpoint: str,
    turns: Sequence[tuple[str, bool]],
    service_name: str,
    legacy_spans: bool = False,
) -> AgentRun:
    """Feed ``(prompt, stream)`` turns to ``agent.mjs`` as JSON lines on stdin; fail on a non-zero exit."""
    stdin = "".join(json.dumps({"prompt": prompt, "stream": stream}) + "\n" for prompt, stream in turns)
    env = {
        **os.environ,
        "OPENAI_BASE_URL": model_url,
        "OPENAI_API_KEY": "test-key",
        "OTEL_EXPORTER_OTLP_ENDPOINT": otlp_endpoint,
        "OTEL_SERVICE_NAME": service_name,
    }
    for variable in ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_RESOURCE_ATTRIBUTES"):
        env.pop(variable, None)
    argv = [str(node), str(AGENT_DIR / "agent.mjs"), "--model", MODEL, "--agent", AGENT_NAME]
    if legacy_spans:
        argv.append("--legacy-spans")
    completed = subprocess.run(
        argv, input=stdin, capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert completed.returncode == 0, f"agent exited {completed.returncode}:\n{completed.stderr[-3000:]}"
    lines = [json.loads(line) for line in completed.stdout.splitlines() if line.strip()]
    *turn_lines, summary = lines
    return AgentRun(
        turns=[
            AgentTurn(line["turn"], line["prompt"], line["stream"], line["trace_id"], line["answer"])
            for line in turn_lines
        ],
        span_ids=summary["span_ids"],
        failed_spans=summary["failed_spans"],
        stderr=completed.stderr,
    )


@dataclass
class Recorder:
    """The custom Collector with agents/vercel-ai/otelcol-record.yaml: OTLP in, JSON lines file out."""

    service: Service
    otlp_http_endpoint: str
    path: Path

    def stop(self) -> None:
        self.service.stop()


def start_recorder(collector_binary: Path, workdir: Path) -> Recorder:
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / "recording.jsonl"
    http = f"127.0.0.1:{free_port()}"
    env = {"OTLP_HTTP_LISTEN": http, "OTLP_GRPC_LISTEN": f"127.0.0.1:{free_port()}", "RECORDING": str(path)}
    service = start_service(
        "otelcol-record", [str(collector_binary), "--config", str(RECORD_CONFIG)], workdir, env
    )

    def ready() -> bool | None:
        return True if "Everything is ready" in service.log_path.read_text(errors="replace") else None

    service.wait_ready("its ready log line", ready, timeout=30)
    return Recorder(service, f"http://{http}", path)


@dataclass(frozen=True)
class RecordedSpan:
    trace_id: str
    span_id: str
    name: str
    attributes: dict[str, Any]
    resource: dict[str, Any]


def _value(value: dict[str, Any]) -> Any:
    if "arrayValue" in value:
        return [_value(item) for item in value["arrayValue"].get("values", [])]
    if "intValue" in value:
        return int(value["intValue"])
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in value:
            return value[key]
    return value


def _attributes(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {item["key"]: _value(item.get("value", {})) for item in items}


def recorded_spans(path: Path) -> Iterator[RecordedSpan]:
    """Every span in an OTLP JSON lines file, in file order (duplicates included)."""
    if not path.exists():
        return
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        for resource_spans in json.loads(line).get("resourceSpans", []):
            resource = _attributes(resource_spans.get("resource", {}).get("attributes", []))
            for scope_spans in resource_spans.get("scopeSpans", []):
                for span in scope_spans.get("spans", []):
                    attributes = _attributes(span.get("attributes", []))
                    yield RecordedSpan(span["traceId"], span["spanId"], span["name"], attributes, resource)


def replay_report(recording: Path, workdir: Path) -> dict[str, Any]:
    """``otel-groundedness replay RECORDING --json``, run as the CLI; its JSON report."""
    report = workdir / "replay.json"
    completed = subprocess.run(
        [sys.executable, "-m", "otel_groundedness", "replay", str(recording), "--json", str(report),
         "--no-progress"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-2000:]
    result: dict[str, Any] = json.loads(report.read_text())
    return result
