"""The rich consoles of the subcommands."""

from __future__ import annotations

import errno

from rich.console import Console

_PIPED_WIDTH = 132


class PipeSafeConsole(Console):
    """A console that lets a closed pipe reach ``main`` (exit 2, one line), where rich would exit 1.

    Exit 1 means "a gate failed": ``replay ... | head`` must not say that.
    """

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, "broken pipe")


def wide_console() -> Console:
    """Stdout console; when piped (CI logs) wide enough for the summary tables instead of 80 columns."""
    console = PipeSafeConsole()
    return console if console.is_terminal else PipeSafeConsole(width=_PIPED_WIDTH)
