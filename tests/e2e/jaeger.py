"""Jaeger v2, the trace store of the live tests and of `make stack`: built by
``collector-config/build.sh jaeger`` and run with ``collector-config/jaeger/config.yaml`` on free
127.0.0.1 ports; read through its query API (the one Grafana's Jaeger data source uses)."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from tests.free_ports import free_port

from .services import COLLECTOR_DIR, Service, http_get_json, http_ok, start_service

JAEGER_BIN = COLLECTOR_DIR / "bin" / "jaeger"
JAEGER_CONFIG = COLLECTOR_DIR / "jaeger" / "config.yaml"


def build_jaeger() -> Path:
    """The Jaeger binary, built when missing or older than its go.mod (a no-op otherwise)."""
    subprocess.run(["bash", str(COLLECTOR_DIR / "build.sh"), "jaeger"], check=True, timeout=1200)
    return JAEGER_BIN


@dataclass
class Jaeger:
    service: Service
    query_url: str
    otlp_grpc_endpoint: str

    def trace(self, trace_id: str) -> dict[str, Any] | None:
        """One trace from ``/api/traces/{id}``: ``spans`` and ``processes``; None when unknown."""
        body = http_get_json(f"{self.query_url}/api/traces/{trace_id}")
        traces: list[dict[str, Any]] = body.get("data") or []
        return traces[0] if traces else None

    def search(self, params: dict[str, str | int]) -> list[dict[str, Any]]:
        """The traces ``/api/traces`` finds for ``params`` (service, tags, start, end, limit)."""
        body = http_get_json(f"{self.query_url}/api/traces?{urlencode(params)}")
        if body.get("errors"):
            raise ValueError(f"Jaeger rejected the search {params}: {body['errors']}")
        found: list[dict[str, Any]] = body.get("data") or []
        return found


def start_jaeger(workdir: Path) -> Jaeger:
    """The shipped config with every listener on a free loopback port, once its query API answers."""
    query_port, grpc_query_port, otlp_port, health_port = (free_port() for _ in range(4))
    env = {
        "JAEGER_QUERY_HTTP_LISTEN": f"127.0.0.1:{query_port}",
        "JAEGER_QUERY_GRPC_LISTEN": f"127.0.0.1:{grpc_query_port}",
        "JAEGER_OTLP_GRPC_LISTEN": f"127.0.0.1:{otlp_port}",
        "JAEGER_HEALTH_LISTEN": f"127.0.0.1:{health_port}",
    }
    service = start_service("jaeger", [str(JAEGER_BIN), "--config", str(JAEGER_CONFIG)], workdir, env)
    jaeger = Jaeger(service, f"http://127.0.0.1:{query_port}", f"127.0.0.1:{otlp_port}")
    service.wait_ready("query API", lambda: http_ok(f"{jaeger.query_url}/api/services"), timeout=30)
    return jaeger


def span_attributes(span: dict[str, Any]) -> dict[str, Any]:
    """A Jaeger JSON span's tags as a dict (OTLP attributes become tags)."""
    return {tag["key"]: tag["value"] for tag in span.get("tags", [])}


def tags_param(tags: dict[str, str]) -> str:
    """Jaeger's ``tags`` search parameter: a JSON object of exact attribute values."""
    return json.dumps(tags, separators=(",", ":"))
