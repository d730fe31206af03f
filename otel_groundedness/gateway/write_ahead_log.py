"""The write-ahead log: every accepted request on local disk before it is acknowledged, released once
what came of it was accepted downstream, and replayed at the next start (docs/gateway.md).

SQLite in WAL mode from the standard library. Group commit: a request thread that finds no commit
running commits every request waiting then, and the others wait for it; releases ride along in the
next commit (a background thread commits them within ``RELEASE_DELAY_S`` when no request comes). A
request is acknowledged once its commit has returned: it is then in the operating system's hands and
survives the gateway's death (SIGKILL, OOM kill). The fsync that makes it survive the machine's too
is batched: the background thread checkpoints the log on its own connection at most every
``fsync_interval_s`` after a commit, which syncs the WAL file and then the database (``0``: every
commit is synced before it returns, SQLite's ``synchronous=FULL``; each costs one disk flush, 4 ms
on the test machine, which a request then waits for). Checkpoints never run on a request's commit.
Live request bodies are bounded in bytes: a full log refuses new requests, which the sender retries.

A request has parts that leave separately: what is forwarded at once (``FORWARDED``) and the spans
and content records held per trace (keyed by trace id). Each part is released once what came of it
was delivered (a scored trace leaves as spans and evaluation records: both), and a part released
while others are not is noted in the row, so that a replay sends only what had not left. The row is
released with its last part.

A row keeps its request's span ids after its release (the body emptied) for the duplicate window:
a span id among the last ``window_spans`` accepted is a duplicate, a sender's retry of a request
whose answer it never got, also across a restart. The window is rebuilt from the rows at start.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TypeVar

from otel_groundedness.gateway.otlp_env import Signal

_logger = logging.getLogger(__name__)

_FILE = "requests.sqlite3"
_LOCK = "lock"
SPAN_ID_BYTES = 8
TRACE_ID_BYTES = 16
# The part of a request forwarded at once; no trace id is all zeros (the OTLP specification).
FORWARDED = bytes(TRACE_ID_BYTES)
Part = tuple[int, bytes]  # entry, FORWARDED or a trace id
# Releases wait at most this long for a request's commit to ride along with; also how often the
# background thread looks for an fsync due, and retries a failed commit (disk full, I/O error).
RELEASE_DELAY_S = 0.1
# With every commit synced, checkpoints (which keep the WAL file short) run this often.
_SYNCED_CHECKPOINT_S = 1.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS requests (
    id INTEGER PRIMARY KEY,
    signal TEXT NOT NULL,
    body BLOB,             -- NULL once released
    span_ids BLOB NOT NULL, -- 8 bytes per span, for the duplicate window
    done BLOB NOT NULL,     -- 16 bytes per part already delivered (FORWARDED, a trace id, a peer)
    from_peer INTEGER NOT NULL -- sent by another gateway (log records to their owner): not sent on
)
"""


class LogInUse(OSError):
    """Another gateway holds the directory's lock."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A row not released before the last stop: to be replayed."""

    entry: int
    signal: Signal
    body: bytes
    done: frozenset[bytes]  # parts delivered before the stop
    from_peer: bool


@dataclass(slots=True)
class _Write:
    entry: int
    signal: Signal
    body: bytes
    span_ids: bytes
    from_peer: bool


class WriteAheadLog:
    """Thread-safe: request threads append and discard, the scorer and exporters release.

    ``OSError`` (``LogInUse`` for a directory another process holds) or ``sqlite3.Error`` at open.
    """

    def __init__(
        self, directory: Path, *, max_bytes: int, window_spans: int, fsync_interval_s: float = 1.0
    ) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self._lock_file: IO[bytes] = (directory / _LOCK).open("ab")
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock_file.close()
            raise LogInUse(f"{directory} is in use by another gateway") from None
        self._max_bytes = max_bytes
        self._window_spans = window_spans
        self._db = sqlite3.connect(directory / _FILE, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._fsync_interval_s = fsync_interval_s
        # NORMAL in WAL mode: a commit is written, not synced; a checkpoint syncs.
        self._db.execute("PRAGMA synchronous=FULL" if fsync_interval_s == 0 else "PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA wal_autocheckpoint=0")  # the background thread checkpoints
        self._unsynced_since: float | None = None
        self._db.execute(_SCHEMA)
        # One lock; the background thread waits for its timer, appenders for their commit.
        lock = threading.Lock()
        self._changed = threading.Condition(lock)
        self._committed_cv = threading.Condition(lock)
        self._bytes = 0  # live bodies
        self._sizes: dict[int, int] = {}  # live entry -> body bytes
        # live entry -> its parts not yet delivered -> outputs of that part not yet delivered
        self._parts: dict[int, dict[bytes, int]] = {}
        self._writes: list[_Write] = []
        self._done: list[Part] = []
        self._released: list[int] = []
        self._forgotten: list[int] = []  # rows out of the window, or refused after all
        self._committed = 0  # every entry up to this one is on disk (or failed)
        self._committing = False  # one commit at a time: the connection is not shared concurrently
        self._batches_taken = self._batches_committed = 0
        self._failed: set[int] = set()
        self._seen: set[bytes] = set()
        self._window: deque[tuple[int, list[bytes]]] = deque()
        self._windowed: set[int] = set()  # entries whose span ids are in the window
        self._window_size = 0
        self.pending = self._load()
        self._next = self._committed + 1
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="groundedness-wal", daemon=True)
        self._thread.start()

    @property
    def byte_count(self) -> int:
        return self._bytes

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    # --- the duplicate window ---

    def duplicates(self, span_ids: Sequence[bytes]) -> list[int]:
        """Positions of ``span_ids`` already accepted within the window."""
        seen = self._seen
        if seen.isdisjoint(span_ids):  # the usual request: one pass in C
            return []
        return [index for index, span_id in enumerate(span_ids) if span_id in seen]

    # --- rows ---

    def append(
        self, signal: Signal, body: bytes, span_ids: list[bytes], parts: list[bytes], from_peer: bool = False
    ) -> int | None:
        """Write a request and wait until it is on disk; its id, or None when the log is full or the
        write failed. ``parts``: what must be delivered before the row is released (at least one).
        Its span ids join the duplicate window at once (``discard`` takes them out again)."""
        with self._changed:
            if self._closed or (self._bytes and self._bytes + len(body) > self._max_bytes):
                return None
            entry = self._next
            self._next += 1
            self._bytes += len(body)
            self._sizes[entry] = len(body)
            self._parts[entry] = dict.fromkeys(parts, 1)
            self._writes.append(_Write(entry, signal, body, b"".join(span_ids), from_peer))
            if span_ids:
                self._add_to_window(entry, span_ids)
                self._trim_window()
            while self._committed < entry:
                if self._committing:
                    self._committed_cv.wait()
                else:
                    self._commit_waiting()
            if entry in self._failed:
                self._failed.discard(entry)
                self._free(entry)
                self._unwindow(entry)
                return None
        return entry

    def hold(self, entry: int, parts: list[bytes]) -> None:
        """The parts of a replayed row still to be delivered (none: the row is released)."""
        with self._changed:
            self._parts[entry] = dict.fromkeys(parts, 1)
            if not parts:
                self._finish(entry)

    def retain(self, parts: Iterable[Part]) -> None:
        """Each part leaves in one more output (a scored trace leaves as spans and as records)."""
        with self._changed:
            for entry, key in parts:
                outputs = self._parts.get(entry)
                if outputs is not None and key in outputs:
                    outputs[key] += 1

    def release(self, parts: Iterable[Part], *, wait: bool = False) -> None:
        """An output carrying these parts was delivered (or given up for good). ``wait``: return once
        that is committed (scored output: a replay after a kill must not score it again), instead of
        letting it ride along with the next commit."""
        with self._changed:
            for entry, key in parts:
                outputs = self._parts.get(entry)
                if outputs is None or key not in outputs:
                    continue
                if outputs[key] > 1:
                    outputs[key] -= 1
                    continue
                del outputs[key]
                if outputs:
                    self._done.append((entry, key))
                else:
                    self._finish(entry)
            if wait:
                # Noted now: the first batch taken from here on holds it.
                needed = self._batches_taken + 1
                while self._batches_committed < needed and not self._closed:
                    if self._committing:
                        self._committed_cv.wait()
                    else:
                        self._commit_waiting()

    def discard(self, entry: int) -> None:
        """The request was refused after all: its row goes, and its span ids leave the window."""
        with self._changed:
            self._free(entry)
            self._unwindow(entry)
            self._forgotten.append(entry)

    def close(self) -> None:
        """Commit what is waiting and close; rows not released stay for the next start."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._thread.join()
        self._db.close()
        self._lock_file.close()

    # --- internals ---

    def _free(self, entry: int) -> None:
        self._bytes -= self._sizes.pop(entry, 0)
        self._parts.pop(entry, None)

    def _finish(self, entry: int) -> None:
        self._free(entry)
        # A row in the window keeps its span ids (body emptied); any other row goes.
        (self._released if entry in self._windowed else self._forgotten).append(entry)

    def _add_to_window(self, entry: int, span_ids: list[bytes]) -> None:
        self._seen.update(span_ids)
        self._window.append((entry, span_ids))
        self._windowed.add(entry)
        self._window_size += len(span_ids)

    def _unwindow(self, entry: int) -> None:
        if entry not in self._windowed:
            return
        self._windowed.discard(entry)
        for index, (windowed, span_ids) in enumerate(self._window):
            if windowed == entry:
                del self._window[index]
                self._window_size -= len(span_ids)
                self._seen.difference_update(span_ids)
                return

    def _trim_window(self) -> None:
        while self._window_size > self._window_spans and len(self._window) > 1:
            entry, span_ids = self._window.popleft()
            self._window_size -= len(span_ids)
            self._seen.difference_update(span_ids)
            self._windowed.discard(entry)
            if entry not in self._parts:
                self._forgotten.append(entry)  # released: nothing else keeps the row

    def _load(self) -> list[Pending]:
        pending: list[Pending] = []
        last = 0
        for entry, signal, body, span_ids, done, from_peer in self._db.execute(
            "SELECT id, signal, body, span_ids, done, from_peer FROM requests ORDER BY id"
        ):
            last = entry
            ids = [span_ids[i : i + SPAN_ID_BYTES] for i in range(0, len(span_ids), SPAN_ID_BYTES)]
            if body is not None:
                parts = frozenset(done[i : i + TRACE_ID_BYTES] for i in range(0, len(done), TRACE_ID_BYTES))
                pending.append(Pending(entry, signal, body, parts, bool(from_peer)))
                self._sizes[entry] = len(body)
                self._bytes += len(body)
                self._parts[entry] = {}  # until ``hold`` names its parts
            if ids:
                self._add_to_window(entry, ids)
            elif body is None:
                self._forgotten.append(entry)
        self._trim_window()
        self._committed = last
        return pending

    def _run(self) -> None:
        """Commit releases no request took along, checkpoint (and so sync) what was committed, and
        finish at close."""
        checkpointer = sqlite3.connect(self.directory / _FILE, isolation_level=None)
        try:
            self._serve(checkpointer)
        finally:
            checkpointer.close()

    def _serve(self, checkpointer: sqlite3.Connection) -> None:
        while True:
            with self._changed:
                if not self._closed:
                    self._changed.wait(RELEASE_DELAY_S)
                closing = self._closed
                while self._committing:
                    self._committed_cv.wait()
                if self._writes or self._done or self._released or self._forgotten:
                    self._commit_waiting()
            self._checkpoint(checkpointer, closing)
            if closing:
                return

    def _commit_waiting(self) -> None:
        """Commit everything waiting; called with the lock held, which it lets go meanwhile."""
        self._committing = True
        self._batches_taken += 1
        batch = self._batches_taken
        writes, self._writes = self._writes, []
        done, self._done = self._done, []
        released, self._released = self._released, []
        forgotten, self._forgotten = self._forgotten, []
        self._changed.release()
        try:
            ok = self._commit(writes, done, released, forgotten)
        finally:
            self._changed.acquire()
        if not ok:  # the requests are refused; the releases are tried again with the next commit
            self._done[:0] = done
            self._released[:0] = released
            self._forgotten[:0] = forgotten
            self._failed.update(w.entry for w in writes)
        if writes:
            self._committed = writes[-1].entry
            if self._unsynced_since is None:
                self._unsynced_since = time.monotonic()
        self._batches_committed = batch
        self._committing = False
        self._committed_cv.notify_all()

    def _insert(self, rows: list[_Write]) -> None:
        if rows:
            self._db.execute(
                "INSERT INTO requests (id, signal, body, span_ids, done, from_peer) VALUES "
                + ", ".join(["(?, ?, ?, ?, x'', ?)"] * len(rows)),
                [v for w in rows for v in (w.entry, w.signal, w.body, w.span_ids, w.from_peer)],
            )

    def _checkpoint(self, checkpointer: sqlite3.Connection, closing: bool) -> None:
        """At most every ``fsync_interval_s`` after a commit, and at close: a passive checkpoint, which
        syncs the WAL file (everything committed is then on disk) and copies it into the database
        without blocking commits."""
        since = self._unsynced_since
        interval = self._fsync_interval_s or _SYNCED_CHECKPOINT_S
        if since is None or (not closing and time.monotonic() - since < interval):
            return
        self._unsynced_since = None  # a commit from now on is synced by the next checkpoint
        try:
            checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as error:
            self._unsynced_since = since
            _logger.warning("write-ahead log checkpoint failed", extra={"error": str(error)})

    def _commit(
        self, writes: list[_Write], done: list[Part], released: list[int], forgotten: list[int]
    ) -> bool:
        """One transaction; False when it failed (the senders of ``writes`` are refused)."""
        # Few statements, each over many rows: every statement gives the interpreter lock up and
        # waits to get it back, which under load costs more than the statement.
        try:
            if len(writes) <= _ROWS_PER_STATEMENT and not (done or released or forgotten):
                self._insert(writes)  # one statement is its own transaction
                return True
            self._db.execute("BEGIN")
            for rows in _chunks(writes):
                self._insert(rows)
            noted: dict[int, bytes] = {}
            for entry, key in done:
                noted[entry] = noted.get(entry, b"") + key
            for items in _chunks(list(noted.items())):
                self._db.execute(
                    "WITH noted(id, keys) AS (VALUES " + ", ".join(["(?, ?)"] * len(items)) + ") "
                    "UPDATE requests SET done = CAST(done || (SELECT keys FROM noted WHERE id = requests.id)"
                    " AS BLOB) WHERE id IN (SELECT id FROM noted)",
                    [v for item in items for v in item],
                )
            for ids in _chunks(released):
                self._db.execute(
                    f"UPDATE requests SET body = NULL WHERE id IN ({', '.join('?' * len(ids))})", ids
                )
            for ids in _chunks(forgotten):
                self._db.execute(f"DELETE FROM requests WHERE id IN ({', '.join('?' * len(ids))})", ids)
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            _logger.error(
                "write-ahead log commit failed; its requests are refused",
                extra={"error": str(error), "requests": len(writes), "directory": os.fspath(self.directory)},
            )
            return False
        return True


T = TypeVar("T")
# Rows per statement: SQLite allows 32,766 parameters; five a row.
_ROWS_PER_STATEMENT = 500


def _chunks(items: list[T]) -> Iterator[list[T]]:
    for start in range(0, len(items), _ROWS_PER_STATEMENT):
        yield items[start : start + _ROWS_PER_STATEMENT]
