"""Links from low-score panels to the traces behind them (Tempo search in Grafana Explore)."""

from __future__ import annotations

import json
from urllib.parse import quote

from dashboards.promql import TRACES_DATASOURCE_VAR
from otel_groundedness.telemetry import names

# Turns scoring below this are "low score" on the dashboard, in the trace search and in alerts.
LOW_SCORE = 0.5

LOW_SCORE_TRACEQL = f'{{ span."{names.ATTR_SCORE}" < {LOW_SCORE} }}'
CONTRADICTED_TRACEQL = f'{{ span."{names.ATTR_ATOMS_CONTRADICTED}" > 0 }}'


def explore_url(traceql: str) -> str:
    """Grafana Explore URL running ``traceql`` on the traces data source over the panel's time range.

    Grafana interpolates ``$traces``, ``$__from`` and ``$__to`` when the link is clicked; they are
    written without braces so that URL-encoding the pane JSON leaves them intact.
    """
    datasource = f"${TRACES_DATASOURCE_VAR}"
    pane = {
        "datasource": datasource,
        "queries": [
            {
                "refId": "A",
                "datasource": {"type": "tempo", "uid": datasource},
                "queryType": "traceql",
                "query": traceql,
                "tableType": "traces",
            }
        ],
        "range": {"from": "$__from", "to": "$__to"},
    }
    panes = json.dumps({"traces": pane}, separators=(",", ":"))
    return f"/explore?schemaVersion=1&orgId=1&panes={quote(panes, safe='$')}"
