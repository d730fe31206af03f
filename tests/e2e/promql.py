"""Read Prometheus: instant queries over the HTTP API and series names of a /metrics exposition."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .services import http_get, http_get_json

APP_JOB = "agent-apps"
# Our metrics and the GenAI instrumentation's semantic-convention metrics.
OUR_PREFIXES = ("gen_ai_", "groundedness_")


def query(prometheus_url: str, expr: str) -> list[dict[str, Any]]:
    """Instant vector result of ``expr`` (raises when Prometheus rejects the query)."""
    body = http_get_json(f"{prometheus_url}/api/v1/query?query={quote(expr, safe='')}")
    if body.get("status") != "success":
        raise ValueError(f"query {expr!r} failed: {body}")
    result: list[dict[str, Any]] = body["data"]["result"]
    return result


def exposed_series(metrics_url: str) -> set[str]:
    """Names of the GenAI and groundedness series in a text exposition (not process_*, python_*, ...)."""
    names = set()
    for line in http_get(metrics_url).splitlines():
        if line.startswith(OUR_PREFIXES):
            names.add(line.split("{", 1)[0].split(" ", 1)[0])
    return names


def scraped_series_by_job(prometheus_url: str) -> dict[str, set[str]]:
    """Our and the GenAI instrumentation's series names that Prometheus holds, by ``job`` label."""
    by_job: dict[str, set[str]] = {}
    for sample in query(prometheus_url, 'group by (__name__, job) ({__name__=~"gen_ai_.+|groundedness_.+"})'):
        by_job.setdefault(sample["metric"].get("job", ""), set()).add(sample["metric"]["__name__"])
    return by_job
