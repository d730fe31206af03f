"""A previous replay JSON report, indexed so this run's turns can be matched to it (``--baseline``).

The report is read once, streaming (``json_stream``): every turn entry is checked, then indexed by its
ids and by its answer and evidence digests, with where it lies in the file; a matched turn is read
again from there. Memory: about 250 bytes per baseline turn, never the turns themselves.

Matching: by trace and span id first. A turn of a trace the baseline does not have (re-generated
traffic) falls back to the digests of its answer and evidence, and only baseline turns of traces this
run does not have are candidates, so a content match never takes a turn an id would match later.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from otel_groundedness.otlp.files import InvalidInputError
from otel_groundedness.replay.json_stream import JsonStreamError, iter_items
from otel_groundedness.replay.summary import REPORT_VERSION
from otel_groundedness.replay.turn_result import AtomOutcome, atoms_of

EVALUATOR_KEYS = ("id", "version", "type", "policy_fingerprint")
_HEX = {16: re.compile(r"[0-9a-f]{16}"), 32: re.compile(r"[0-9a-f]{32}")}
_NONE = -1

Match = Literal["id", "content"]


class BaselineError(InvalidInputError):
    """The baseline is missing, unreadable, not a replay JSON report, or of another report version."""


@dataclass(frozen=True, slots=True)
class BaselineTurn:
    """A turn of the baseline report, as the comparison reads it."""

    trace_id: str
    span_id: str
    span_name: str | None
    agent: str | None
    model: str | None
    label: str
    score: float | None
    answer_digest: str
    evidence_digest: str
    atoms: tuple[AtomOutcome, ...]

    @classmethod
    def of(cls, entry: Mapping[str, Any]) -> BaselineTurn:
        return cls(
            entry["trace_id"],
            entry["span_id"],
            entry.get("span_name"),
            entry.get("agent"),
            entry.get("model"),
            entry["label"],
            entry["score"],
            entry["answer_digest"],
            entry["evidence_digest"],
            atoms_of(entry["report"]),
        )

    def removed_entry(self) -> dict[str, Any]:
        """What the diff says of a baseline turn this run does not have."""
        return {
            "trace_id": self.trace_id,
            "span_id": self.span_id,
            "span_name": self.span_name,
            "agent": self.agent,
            "model": self.model,
            "label": self.label,
            "score": self.score,
        }


def content_key(answer_digest: str, evidence_digest: str) -> bytes:
    return bytes.fromhex(answer_digest + evidence_digest)


class Baseline:
    """The turns of a baseline report, matched at most once each."""

    def __init__(self, path: Path) -> None:
        """Read and index the report at ``path`` (``BaselineError`` if it is not a usable one)."""
        self.path = path
        self.evaluator: dict[str, str] = {}
        self._ids: dict[int, int] = {}  # trace id << 64 | span id -> turn number
        self._id_keys: list[int] = []
        self._content_keys: list[bytes] = []
        self._contents: dict[bytes, int] = {}  # -> first candidate; the others chained in _next
        self._next: array[int] = array("q")
        self._starts: array[int] = array("Q")
        self._ends: array[int] = array("Q")
        self._matched = bytearray()
        try:
            self._stream = path.open("rb")
        except OSError as error:
            reason = "no such file" if isinstance(error, FileNotFoundError) else error.strerror or error
            raise BaselineError(f"{path}: cannot read the baseline: {reason}") from None
        try:
            self._index()
        except BaseException:
            self._stream.close()
            raise

    @property
    def turns(self) -> int:
        return len(self._id_keys)

    def allow_content_matches(self, present_traces: Container[int]) -> None:
        """Make the turns of traces not in ``present_traces`` (this run's) candidates by content."""
        self._contents.clear()
        self._next = array("q", [_NONE]) * self.turns
        for number in reversed(range(self.turns)):  # chained in report order, first match first
            if self._id_keys[number] >> 64 not in present_traces:
                key = self._content_keys[number]
                self._next[number] = self._contents.get(key, _NONE)
                self._contents[key] = number

    def match(self, trace_id: int, span_id: int, key: bytes) -> tuple[int, Match] | None:
        """The baseline turn for a turn of this run, claimed so nothing else matches it, and how."""
        number = self._ids.get(trace_id << 64 | span_id)
        if number is not None and not self._matched[number]:
            self._matched[number] = 1
            return number, "id"
        number = self._contents.get(key)
        if number is None:
            return None
        following = self._next[number]
        if following == _NONE:
            del self._contents[key]
        else:
            self._contents[key] = following
        self._matched[number] = 1
        return number, "content"

    def turn(self, number: int) -> BaselineTurn:
        self._stream.seek(self._starts[number])
        raw = self._stream.read(self._ends[number] - self._starts[number])
        try:
            return BaselineTurn.of(json.loads(raw))
        except (OSError, ValueError) as error:
            raise BaselineError(f"{self.path}: the baseline changed while it was read ({error})") from None

    def unmatched(self) -> Iterator[BaselineTurn]:
        """The baseline turns no turn of this run matched, in report order."""
        for number, matched in enumerate(self._matched):
            if not matched:
                yield self.turn(number)

    def close(self) -> None:
        self._stream.close()

    def _index(self) -> None:
        version: object = None
        turn_error: str | None = None
        try:
            for item in iter_items(self._stream):
                where = item.path[:1]
                if where == ("report_version",) and len(item.path) == 1:
                    version = item.value
                elif where == ("evaluator",) and len(item.path) == 2:  # decoded as UTF-8, unlike item.value
                    self.evaluator[str(item.path[1])] = json.loads(self._raw(item.start, item.end))
                elif where == ("turns",) and len(item.path) == 2 and turn_error is None:
                    turn_error = self._add(item.value, item.start, item.end)
        except JsonStreamError as error:
            raise self._not_a_report(str(error)) from None
        if version is None:
            raise self._not_a_report("no report_version; reports made before version 2 have none")
        if version != REPORT_VERSION:
            raise BaselineError(
                f"{self.path}: replay JSON report version {version!r}; this replay compares with version "
                f"{REPORT_VERSION} only (replay the baseline's recording again to make one)"
            )
        if any(not isinstance(self.evaluator.get(key), str) for key in EVALUATOR_KEYS):
            raise self._not_a_report(f"evaluator: expected {', '.join(EVALUATOR_KEYS)} as strings")
        if turn_error is not None:
            raise self._not_a_report(turn_error)
        self._next = array("q", [_NONE]) * self.turns

    def _add(self, entry: Any, start: int, end: int) -> str | None:
        """Index one turn entry; what is wrong with it, if something is."""
        number = self.turns
        problem = _turn_problem(entry)
        if problem is not None:
            return f"turn {number}: {problem}"
        id_key = int(entry["trace_id"], 16) << 64 | int(entry["span_id"], 16)
        self._ids.setdefault(id_key, number)
        self._id_keys.append(id_key)
        self._content_keys.append(content_key(entry["answer_digest"], entry["evidence_digest"]))
        self._starts.append(start)
        self._ends.append(end)
        self._matched.append(0)
        return None

    def _raw(self, start: int, end: int) -> bytes:
        """The bytes at ``start:end``, read so that the walk reading the stream goes on where it was."""
        position = self._stream.tell()
        self._stream.seek(start)
        raw = self._stream.read(end - start)
        self._stream.seek(position)
        return raw

    def _not_a_report(self, reason: str) -> BaselineError:
        return BaselineError(f"{self.path}: not a replay JSON report ({reason})")


def _turn_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return "not an object"
    for key, width in (("trace_id", 32), ("span_id", 16), ("answer_digest", 32), ("evidence_digest", 32)):
        value = entry.get(key)
        if not isinstance(value, str) or not _HEX[width].fullmatch(value):
            return f"{key} is not {width} lowercase hex digits"
    if not isinstance(entry.get("label"), str):
        return "label is not a string"
    score = entry.get("score")
    if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
        return "score is not a number or null"
    for key in ("span_name", "agent", "model"):
        if not isinstance(entry.get(key), str | None):
            return f"{key} is not a string or null"
    report = entry.get("report")
    if not isinstance(report, dict):
        return "report is not an object"
    for verdict in ("supported", "contradicted", "unsupported"):
        atoms = report.get(verdict)
        if not isinstance(atoms, list) or not all(_is_atom(atom) for atom in atoms):
            return f"report.{verdict} is not a list of atoms (kind, text, verdict, reason, start)"
    return None


def _is_atom(atom: Any) -> bool:
    return (
        isinstance(atom, dict)
        and all(isinstance(atom.get(key), str) for key in ("kind", "text", "verdict", "reason"))
        and isinstance(atom.get("start"), int)
    )
