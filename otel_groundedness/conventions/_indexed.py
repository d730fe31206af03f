"""Regrouping of flattened, indexed attributes (``prefix.N.field...``) into per-index dicts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def group_indexed(attributes: Mapping[str, Any], prefix: str) -> dict[int, dict[str, Any]]:
    """``{N: {"rest.of.key": value}}`` for every key ``prefix + "N." + rest``, sorted by N.

    Indices may have gaps: the SDK evicts the oldest attributes once a span holds 128.
    """
    groups: dict[int, dict[str, Any]] = {}
    for key, value in attributes.items():
        if not key.startswith(prefix):
            continue
        index, dot, rest = key[len(prefix) :].partition(".")
        if dot and index.isdigit():
            groups.setdefault(int(index), {})[rest] = value
    return dict(sorted(groups.items()))


def has_gaps(groups: Mapping[int, Any]) -> bool:
    """True when index 0 or an index in between is missing (evicted messages)."""
    return bool(groups) and list(groups) != list(range(len(groups)))
