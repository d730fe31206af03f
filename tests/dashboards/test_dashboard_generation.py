"""The committed Grafana files are exactly what the generator produces, and survive the SDK models."""

from __future__ import annotations

import copy
import json
from typing import Any

from dashboard_json import load
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.cog.plugins import register_default_plugins
from grafana_foundation_sdk.models.dashboard import Dashboard

from dashboards import generate


def _round_trip(data: dict[str, Any]) -> Any:
    # Without the panel and query plugins the decoder keeps targets and options as opaque bags.
    register_default_plugins()
    return json.loads(json.dumps(Dashboard.from_json(data), cls=JSONEncoder))


def _differences(committed: Any, decoded: Any, path: str = "") -> list[str]:
    """Where re-encoding lost or changed something; the decoder may only add empty objects
    (it materialises ``fieldConfig.defaults.custom`` as ``{}``)."""
    if isinstance(committed, dict) and isinstance(decoded, dict):
        found = [f"{path}/{key}: dropped" for key in committed.keys() - decoded.keys()]
        found += [f"{path}/{key}: added" for key in decoded.keys() - committed.keys() if decoded[key] != {}]
        for key in committed.keys() & decoded.keys():
            found += _differences(committed[key], decoded[key], f"{path}/{key}")
        return found
    if isinstance(committed, list) and isinstance(decoded, list) and len(committed) == len(decoded):
        return [
            diff
            for i, pair in enumerate(zip(committed, decoded, strict=True))
            for diff in _differences(*pair, f"{path}[{i}]")
        ]
    return [] if committed == decoded else [f"{path}: {committed!r} became {decoded!r}"]


# Keys Grafana's Prometheus data source reads from a dashboard annotation (step, title and text
# templates, label names that become tags) which the 11.6 schema's AnnotationQuery does not model: it
# types only the keys every annotation has, plus `expr`. The decoder drops them, and only them.
_PROMETHEUS_ANNOTATION_KEYS = ("step", "titleFormat", "textFormat", "tagKeys")


def _schema_gaps(committed: dict[str, Any]) -> set[str]:
    return {
        f"/annotations/list[{index}]/{key}: dropped"
        for index, annotation in enumerate(committed.get("annotations", {}).get("list", []))
        if annotation["datasource"]["type"] == "prometheus"
        for key in _PROMETHEUS_ANNOTATION_KEYS
        if key in annotation
    }


def _unexpected_differences(committed: dict[str, Any]) -> list[str]:
    return sorted(set(_differences(committed, _round_trip(committed))) - _schema_gaps(committed))


def test_committed_files_equal_generator_output() -> None:
    stale = generate.stale_files(generate.render())
    assert not stale, "run `python -m dashboards.generate`:\n" + "\n".join(stale)


def test_check_mode_fails_on_a_hand_edited_file(tmp_path: Any, monkeypatch: Any) -> None:
    edited = tmp_path / "dashboard.json"
    edited.write_text(
        generate.DASHBOARD_JSON.read_text(encoding="utf-8").replace("LLM groundedness", "edited")
    )
    monkeypatch.setattr(generate, "DASHBOARD_JSON", edited)
    monkeypatch.setattr(generate, "ROOT", tmp_path)
    assert generate.main(["--check"]) == 1
    monkeypatch.undo()
    assert generate.main(["--check"]) == 0


def test_dashboard_round_trips_through_the_sdk_models_unchanged() -> None:
    committed = load()
    assert _schema_gaps(committed), "the dashboard has a Prometheus annotation with its title and text"
    assert set(_differences(committed, _round_trip(committed))) == _schema_gaps(committed)


def test_round_trip_detects_unknown_keys() -> None:
    # The decoder keeps only the keys the Grafana 11.6 schema knows, so a stray key must show up
    # as a difference; otherwise the round-trip test above would prove nothing.
    committed = load()
    probes = (
        ("unknownTop",),
        ("panels", 1, "unknownPanelKey"),
        ("panels", 1, "targets", 0, "exprr"),
        ("panels", 1, "options", "graphModee"),
        ("templating", "list", 2, "refreshh"),
        ("annotations", "list", 0, "titleFormatt"),
    )
    for path in probes:
        tampered = copy.deepcopy(committed)
        node: Any = tampered
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = "x"
        (difference,) = _unexpected_differences(tampered)
        assert difference.endswith(f"/{path[-1]}: dropped"), difference
