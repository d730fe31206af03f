"""Reads the committed dashboard JSON the way Grafana would: panels, their queries, their variables."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from dashboards.generate import DASHBOARD_JSON

# A metric selector: a series name directly followed by its label matchers or a range.
_SELECTED_SERIES = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{\[]")
_LABEL_VALUES_SERIES = re.compile(r"label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)")
# A series name with its label matchers: ``name{matchers}``.
_SELECTOR = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}")


@dataclass(frozen=True)
class Target:
    """One Prometheus query of one panel."""

    panel: str
    ref_id: str
    expr: str
    instant: bool

    @property
    def name(self) -> str:
        return f"{self.panel} [{self.ref_id}]"


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DASHBOARD_JSON.read_text(encoding="utf-8"))
    return data


def panels(board: dict[str, Any]) -> list[dict[str, Any]]:
    """Every panel that is not a row."""
    return [panel for panel in board["panels"] if panel["type"] != "row"]


def prometheus_targets(board: dict[str, Any]) -> list[Target]:
    return [
        Target(panel["title"], target["refId"], target["expr"], bool(target.get("instant")))
        for panel in panels(board)
        for target in panel.get("targets", [])
        if "expr" in target
    ]


def prometheus_annotations(board: dict[str, Any]) -> list[dict[str, Any]]:
    """The dashboard's annotation queries on a Prometheus data source (the built-in one is added by
    Grafana at load time and is not in the JSON)."""
    return [
        annotation
        for annotation in board.get("annotations", {}).get("list", [])
        if annotation["datasource"]["type"] == "prometheus"
    ]


def selectors(expr: str) -> list[tuple[str, str]]:
    """Every ``series{matchers}`` in a PromQL expression, as (series, matchers)."""
    return _SELECTOR.findall(expr)


def series_in(expr: str) -> set[str]:
    """Series names a PromQL expression (or a Grafana ``label_values`` query) selects."""
    return set(_SELECTED_SERIES.findall(expr)) | set(_LABEL_VALUES_SERIES.findall(expr))


def variables(board: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {variable["name"]: variable for variable in board["templating"]["list"]}
