"""Output files opened before any work, written beside their path, and moved into place when complete.

Opening up front finds an unusable path (a directory, a parent that cannot be created) before a long
replay; writing beside the path means a failed or interrupted run leaves a previous file untouched.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
import textwrap
from pathlib import Path
from typing import IO, Any

from otel_groundedness.cli.errors import CliError


class OutputFile:
    """A binary output for ``path``: ``commit`` moves it into place, ``discard`` removes it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if path.is_dir():
            raise CliError(f"cannot write {path}: it is a directory")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise CliError(f"cannot write {path}: {path.parent} is not a directory") from None
        except OSError as error:
            raise CliError(f"cannot write {path}: {error.strerror or error}") from None
        self._partial = path.with_name(f".{path.name}.{secrets.token_hex(4)}.partial")
        try:
            # Mode 0o666 less the umask, as the file itself would get (mkstemp would make it 0o600).
            descriptor = os.open(self._partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except OSError as error:
            raise CliError(f"cannot write {path}: {error.strerror or error}") from None
        self.stream: IO[bytes] = os.fdopen(descriptor, "wb")

    def commit(self) -> None:
        try:
            self.stream.close()
            os.replace(self._partial, self.path)
        except OSError as error:
            self.discard()
            raise CliError(f"cannot write {self.path}: {error.strerror or error}") from None

    def discard(self) -> None:
        self.stream.close()
        self._partial.unlink(missing_ok=True)


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
        self._spool.write((separator + textwrap.indent(json.dumps(entry, indent=2), "    ")).encode())
        self._turns += 1

    def finish(self, head: dict[str, Any]) -> None:
        """Write ``head`` with the spooled turns as its last key, ``turns``."""
        text = json.dumps({**head, "turns": []}, indent=2)
        stream = self._output.stream
        if not self._turns:
            stream.write(text.encode())
        else:
            stream.write(text[: -len(self._EMPTY_TAIL)].encode() + b"[\n")
            self._spool.seek(0)
            shutil.copyfileobj(self._spool, stream)
            stream.write(b"\n  ]\n}")
        self._spool.close()
