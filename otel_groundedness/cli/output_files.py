"""Output files opened before any work, written beside their path, and moved into place when complete.

Opening up front finds an unusable path (a directory, a parent that cannot be created) before a long
replay; writing beside the path means a failed or interrupted run leaves a previous file untouched.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import stat
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from otel_groundedness.cli.errors import CliError

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
    """A JSON report whose ``turns`` stream in, laid out exactly as ``json.dumps(report, indent=2)``.

    Turns are spooled to an unnamed temporary file beside the output; ``finish`` writes the head
    (known only at the end, and first in the document) and copies the turns after it.
    """

    _EMPTY_TAIL = "[]\n}"

    def __init__(self, output: OutputFile) -> None:
        self._output = output
        try:
            # Closed in finish(), or with the process: it has no name to leave behind.
            self._spool = tempfile.TemporaryFile(dir=output.path.parent)  # noqa: SIM115
        except OSError as error:
            raise CliError(f"cannot write {output.path}: {error.strerror or error}") from None
        self._turns = 0

    def add_turn(self, entry: dict[str, Any]) -> None:
        # A turn is an item of a list two levels down: its lines indented by four spaces.
        separator = ",\n" if self._turns else ""
        text = separator + textwrap.indent(json.dumps(entry, indent=2), "    ")
        try:
            self._spool.write(text.encode())
        except OSError as error:
            raise CliError(f"cannot write {self._output.path}: {error.strerror or error}") from None
        self._turns += 1

    def finish(self, head: dict[str, Any]) -> None:
        """Write ``head`` with the spooled turns as its last key, ``turns``."""
        text = json.dumps({**head, "turns": []}, indent=2)
        output = self._output
        if not self._turns:
            output.write(text.encode())
        else:
            output.write(text[: -len(self._EMPTY_TAIL)].encode() + b"[\n")
            self._spool.seek(0)
            shutil.copyfileobj(self._spool, output)
            output.write(b"\n  ]\n}")
        self._spool.close()
