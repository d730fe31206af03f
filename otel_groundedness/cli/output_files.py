"""Output files opened before any work, written beside their path, and moved into place when complete.

Opening up front finds an unusable path (a directory, a parent that cannot be created) before a long
replay; writing beside the path means a failed or interrupted run leaves a previous file untouched.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from otel_groundedness.cli.errors import CliError
from otel_groundedness.replay.json_layout import list_item

_T = TypeVar("_T")


class OutputFile:
    """A binary output for ``path``: ``commit`` moves it into place, ``discard`` removes it.

    A path that names a device or a pipe (``/dev/stdout``, a FIFO) is written in place instead; a
    symbolic link is followed, so the file it points to is the one replaced.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._partial: Path | None = None
        mode = self._guard(lambda: _mode(path))
        if stat.S_ISDIR(mode):
            raise CliError(f"cannot write {path}: it is a directory")
        if mode and not stat.S_ISREG(mode):
            self._stream = self._guard(lambda: path.open("wb"))
            return
        self._target = target = path.resolve()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise CliError(f"cannot write {path}: {target.parent} is not a directory") from None
        except OSError as error:
            raise CliError(f"cannot write {path}: {error.strerror or error}") from None
        partial = target.with_name(f".{target.name}.{secrets.token_hex(4)}.partial")
        # Mode 0o666 less the umask, as the file itself would get (mkstemp would make it 0o600).
        descriptor = self._guard(lambda: os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        self._partial = partial
        self._stream = os.fdopen(descriptor, "wb")

    def write(self, data: bytes) -> None:
        self._guard(lambda: self._stream.write(data))

    def commit(self) -> None:
        partial = self._partial
        try:
            self._guard(self._stream.close)
            if partial is not None:
                self._guard(lambda: os.replace(partial, self._target))
        except CliError:
            self.discard()
            raise

    def discard(self) -> None:
        with contextlib.suppress(OSError):  # a full disk fails the close too; the partial goes anyway
            self._stream.close()
        if self._partial is not None:
            self._partial.unlink(missing_ok=True)

    def _guard(self, action: Callable[[], _T]) -> _T:
        # Every failure to write is the same one line for the user, naming the path they gave.
        try:
            return action()
        except OSError as error:
            raise CliError(f"cannot write {self.path}: {error.strerror or error}") from None


def _mode(path: Path) -> int:
    """The file type bits of what ``path`` names (links followed), 0 when it does not exist yet."""
    try:
        return path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return 0


class JsonReport:
    """A JSON report whose long lists stream in, laid out exactly as ``json.dumps(report, indent=2)``.

    The items of each list named in ``lists`` (by its path of keys) are spooled to an unnamed temporary
    file beside the output; ``finish`` writes the head (known only at the end, and first in the
    document) with each list copied into its place.
    """

    def __init__(self, output: OutputFile, lists: Sequence[tuple[str, ...]]) -> None:
        self._output = output
        self._spools: dict[tuple[str, ...], _Spool] = {}
        # A list's place in the rendered head: a string no input can hold by chance.
        self._placeholder = f"\0{secrets.token_hex(8)} "
        try:
            for path in lists:
                self._spools[path] = _Spool(path, output.path.parent)
        except OSError as error:
            self.close()
            raise CliError(f"cannot write {output.path}: {error.strerror or error}") from None

    def add(self, path: tuple[str, ...], item: Any) -> None:
        """Append ``item`` to the list at ``path``."""
        self.add_laid_out(path, list_item(item, len(path)))

    def add_laid_out(self, path: tuple[str, ...], text: str) -> None:
        """Append an item laid out already (``json_layout.list_item`` at the list's depth)."""
        try:
            self._spools[path].add(text)
        except OSError as error:
            raise CliError(f"cannot write {self._output.path}: {error.strerror or error}") from None

    def finish(self, head: dict[str, Any]) -> None:
        """Write ``head`` (completed in place) with every spooled list at its path."""
        for number, path in enumerate(self._spools):
            parent = head
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = f"{self._placeholder}{number}"
        text = json.dumps(head, indent=2)
        spools = list(self._spools.values())
        done = 0
        placeholders = re.compile(re.escape(json.dumps(self._placeholder)[:-1]) + r'(\d+)"')
        for found in placeholders.finditer(text):
            self._output.write(text[done : found.start()].encode())
            spools[int(found.group(1))].copy_to(self._output)
            done = found.end()
        self._output.write(text[done:].encode())
        self.close()

    def close(self) -> None:
        for spool in self._spools.values():
            spool.close()


class _Spool:
    """The items of one list, laid out at the list's depth, in a temporary file."""

    def __init__(self, path: tuple[str, ...], directory: Path) -> None:
        # Closed in JsonReport.finish/close, or with the process: it has no name to leave behind.
        self._file = tempfile.TemporaryFile(dir=directory)  # noqa: SIM115
        self._close_indent = "  " * len(path)
        self._items = 0

    def add(self, text: str) -> None:
        self._file.write(((",\n" if self._items else "") + text).encode())
        self._items += 1

    def copy_to(self, output: OutputFile) -> None:
        if not self._items:
            output.write(b"[]")
            return
        output.write(b"[\n")
        self._file.seek(0)
        shutil.copyfileobj(self._file, output)
        output.write(f"\n{self._close_indent}]".encode())

    def close(self) -> None:
        self._file.close()
