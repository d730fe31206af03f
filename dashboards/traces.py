"""What the dashboard searches the trace store for: the turns labelled ``ungrounded``.

Jaeger, the stack's trace store, matches span attributes exactly, so the search is on the label the
scorer writes on the scored span (a contradicted figure, or a score below ``min_alert_score``: the
same turns the Collector's tail sampling always keeps) rather than on a score comparison. Tempo, the
documented alternative, finds the same spans with TraceQL (docs/dashboards.md).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from grafana_foundation_sdk.cog import builder, variants

from dashboards.promql import LABEL_UNGROUNDED, TRACE_SERVICE_VAR, TRACES_DATASOURCE_VAR
from otel_groundedness.telemetry import names

# Span attributes (exact values) of a flagged turn's scored span.
UNGROUNDED_TAGS = {names.ATTR_LABEL: LABEL_UNGROUNDED}
# Traces per search: Jaeger returns the most recent ones first.
SEARCH_LIMIT = 100

_TRACES = {"type": "jaeger", "uid": f"${TRACES_DATASOURCE_VAR}"}


def jaeger_search(ref_id: str = "A") -> dict[str, Any]:
    """The Grafana Jaeger query for the ungrounded turns of the chosen trace service (Jaeger requires
    a service); Grafana sends ``tags`` (logfmt) to Jaeger's search API as its JSON ``tags`` parameter."""
    return {
        "refId": ref_id,
        "datasource": _TRACES,
        "queryType": "search",
        "service": f"${TRACE_SERVICE_VAR}",
        "tags": " ".join(f"{key}={value}" for key, value in UNGROUNDED_TAGS.items()),
        "limit": SEARCH_LIMIT,
    }


class JaegerSearch(variants.Dataquery):
    """A panel target for the Jaeger data source, which the Grafana SDK does not type."""

    def __init__(self, ref_id: str) -> None:
        self.query = jaeger_search(ref_id)

    def to_json(self) -> dict[str, Any]:
        return dict(self.query)


class JaegerSearchBuilder(builder.Builder[variants.Dataquery]):
    def __init__(self, ref_id: str = "A") -> None:
        self._ref_id = ref_id

    def build(self) -> variants.Dataquery:
        return JaegerSearch(self._ref_id)


def explore_url() -> str:
    """Grafana Explore URL running the ungrounded-turn search over the panel's time range.

    Grafana interpolates ``$traces``, ``$trace_service``, ``$__from`` and ``$__to`` when the link is
    clicked; they are written without braces so that URL-encoding the pane JSON leaves them intact.
    """
    pane = {
        "datasource": f"${TRACES_DATASOURCE_VAR}",
        "queries": [jaeger_search()],
        "range": {"from": "$__from", "to": "$__to"},
    }
    panes = json.dumps({"traces": pane}, separators=(",", ":"))
    return f"/explore?schemaVersion=1&orgId=1&panes={quote(panes, safe='$')}"
