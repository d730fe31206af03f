"""Exit codes of the command line, and the error a subcommand raises for input or output it cannot use."""

from __future__ import annotations

EXIT_GATE_FAILED = 1
EXIT_INVALID = 2  # invalid input, or an output that cannot be written
EXIT_INTERNAL = 3  # a bug: never to be read as a verdict
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
DEBUG_VARIABLE = "OTEL_GROUNDEDNESS_DEBUG"


class CliError(Exception):
    """Input or output the command cannot use; ``main`` prints the message as one line and exits 2."""
