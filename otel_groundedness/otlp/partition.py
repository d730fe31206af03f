"""Which traces a replay worker owns, and an OTLP JSON request cut down to them before it is parsed.

``--jobs N`` splits traces by id: worker ``k`` owns the traces whose id is ``k`` modulo ``N``, so each
trace is paired whole by one worker. Every worker reads every request, but converts only its own
records: parsing OTLP JSON into protobuf is the costly half of a replay, and pruning the decoded JSON
first is what lets N workers share it instead of repeating it.

Resource and scope blocks are shared by records of several owners. Values cut in them (nested too
deeply) are counted by one worker only: the owner of the block's first record, or worker 0 for a block
without records (kept there so that it is still checked). The counts then add up to what one process
counts, whatever ``N``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# request key -> (key of its scope blocks, key of their records)
_LAYOUT = {
    "resourceSpans": ("scopeSpans", "spans"),
    "resourceLogs": ("scopeLogs", "logRecords"),
}


@dataclass(frozen=True, slots=True)
class Partition:
    """Worker ``number`` of ``count``."""

    number: int = 0
    count: int = 1

    def owns(self, trace_id: int) -> bool:
        return trace_id % self.count == self.number


EVERYTHING = Partition()


@dataclass(frozen=True, slots=True)
class Pruned:
    """A request cut down to one partition's records."""

    document: dict[str, Any]
    numbers: list[int]  # of the kept records, in the whole request's record order
    uncounted: list[dict[str, Any]]  # shared blocks' resource/scope objects another worker counts


def prune(document: dict[str, Any], partition: Partition) -> Pruned | None:
    """``document`` (an OTLP JSON traces or logs request, not modified) with only ``partition``'s records.

    ``None`` when its shape is not the one expected, for it to be parsed whole: parsing then fails the
    same way in every worker.
    """
    top = "resourceSpans" if "resourceSpans" in document else "resourceLogs"
    scopes_key, records_key = _LAYOUT[top]
    kept_resources: list[Any] = []
    numbers: list[int] = []
    uncounted: list[dict[str, Any]] = []
    number = 0
    resources = _list(document, top)
    if resources is None:
        return None
    for resource in resources:
        scopes = _list(resource, scopes_key)
        if scopes is None:
            return None
        kept_scopes: list[Any] = []
        resource_first: int | None = None  # owner of the resource block's first record
        for scope in scopes:
            records = _list(scope, records_key)
            if records is None:
                return None
            owners = [_owner(record, partition) for record in records]
            if None in owners:
                return None
            kept = [
                record for record, owner in zip(records, owners, strict=True) if owner == partition.number
            ]
            numbers += [number + i for i, owner in enumerate(owners) if owner == partition.number]
            number += len(records)
            first = owners[0] if owners else None
            resource_first = first if resource_first is None else resource_first
            if kept or _mine_if_empty(first, partition):
                kept_scopes.append({**scope, records_key: kept})
                _note_uncounted(scope, "scope", first, partition, uncounted)
        if kept_scopes or (not scopes and _mine_if_empty(None, partition)):
            kept_resources.append({**resource, scopes_key: kept_scopes})
            _note_uncounted(resource, "resource", resource_first, partition, uncounted)
    return Pruned({**document, top: kept_resources}, numbers, uncounted)


def _list(node: Any, key: str) -> list[Any] | None:
    """``node[key]`` as a list (missing or null: empty, as protobuf reads it), None if it is not one."""
    if not isinstance(node, dict):
        return None
    value = node.get(key)
    if value is None:
        return []
    return value if isinstance(value, list) else None


def _owner(record: Any, partition: Partition) -> int | None:
    """The partition owning ``record`` (no trace id: trace 0), or None for an id parsing will refuse."""
    if not isinstance(record, dict):
        return None
    trace_id = record.get("traceId", "")
    if not isinstance(trace_id, str):
        return None
    try:
        return (int(trace_id, 16) if trace_id else 0) % partition.count
    except ValueError:
        return None


def _mine_if_empty(first: int | None, partition: Partition) -> bool:
    """A block without records goes to worker 0 alone."""
    return first is None and partition.number == 0


def _note_uncounted(
    block: dict[str, Any], key: str, first: int | None, partition: Partition, uncounted: list[dict[str, Any]]
) -> None:
    shared = block.get(key)
    owner = 0 if first is None else first
    if isinstance(shared, dict) and owner != partition.number:
        uncounted.append(shared)
