"""Reading ``OTEL_GROUNDEDNESS_*`` variables, with the one failure rule every setting follows.

A variable that is unset or blank is not given. A variable whose value does not parse, or is out of
range, is an ``EnvProblem`` naming the variable and its value, and that variable keeps its default;
every other variable still applies. The host decides what a problem means: in-process (the span
processor, ``GroundednessPolicy.from_env``) it is a logged warning, so a typo in the environment
never stops an application; the ``gateway`` service refuses to start on it (docs/decisions.md).

Stdlib only: ``scoring.policy`` reads its variables through this module.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

_T = TypeVar("_T")
_logger = logging.getLogger("otel_groundedness.config")
_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})


@dataclass(frozen=True, slots=True)
class EnvProblem:
    """A variable whose value could not be used; its setting kept the default."""

    variable: str
    raw: str
    message: str

    def __str__(self) -> str:
        return f"{self.variable}={self.raw!r}: {self.message}"


class EnvReader:
    """Reads variables from one environment and collects the problems found along the way."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ
        self.problems: list[EnvProblem] = []

    def get(self, variable: str, parse: Callable[[str], _T], default: _T) -> _T:
        """The parsed value of ``variable``, or ``default`` when it is not given or not usable."""
        raw = self._environ.get(variable, "")
        if not raw.strip():
            return default
        try:
            return parse(raw.strip())
        except (ValueError, TypeError, OverflowError) as error:
            self.problems.append(EnvProblem(variable, raw, str(error) or "invalid value"))
            return default

    def warn(self) -> None:
        """Log each problem once, as a warning that names the variable and says the default is kept."""
        for problem in self.problems:
            _logger.warning("otel-groundedness: ignoring %s; using the default.", problem)


def parse_bool(raw: str) -> bool:
    lowered = raw.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError("expected true or false")


def parse_int(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ValueError("expected an integer") from None


def parse_positive_int(raw: str) -> int:
    value = parse_int(raw)
    if value <= 0:
        raise ValueError("expected a positive integer")
    return value


def parse_float(raw: str) -> float:
    try:
        return float(raw)
    except ValueError:
        raise ValueError("expected a number") from None


def parse_positive_float(raw: str) -> float:
    value = parse_float(raw)
    if not 0 < value < float("inf"):
        raise ValueError("expected a positive, finite number")
    return value
