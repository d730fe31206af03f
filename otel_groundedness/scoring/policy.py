"""``GroundednessPolicy``: every knob that tunes classification, validated once at construction.

A policy is built directly, from a dict (``from_dict``), from a JSON file (``from_file``, what every
``--policy`` flag reads) or from ``OTEL_GROUNDEDNESS_*`` environment variables (``from_env``). A bad
field or file raises ``ValueError`` naming it; a bad variable follows the rule of ``env_config``: it
keeps its own default and is reported, the other variables still apply.
"""

from __future__ import annotations

import datetime
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, TypeAlias, cast, get_args

from otel_groundedness.env_config import EnvProblem, EnvReader, parse_bool, parse_float, parse_int
from otel_groundedness.scoring.atoms import ATOM_KINDS, AtomKind

# The locales whose number and date conventions the engine knows (its `extract::locales`).
SUPPORTED_LOCALES: tuple[str, ...] = ("en-US", "en-GB", "de-DE", "fr-FR")

LabelRule: TypeAlias = Literal["atom_ratio", "strict", "sentence"]
LABEL_RULES: tuple[LabelRule, ...] = get_args(LabelRule)

ENV_PREFIX = "OTEL_GROUNDEDNESS_"


class PolicyFileError(ValueError):
    """A policy file that cannot be read or used; the message names the file and the problem."""


@dataclass(frozen=True, slots=True)
class GroundednessPolicy:
    """Classification knobs; none of them mutates, blocks or re-asks anything.

    ``enabled_kinds``: atom kinds extracted and scored. ``include_user_prompt_as_evidence``: the
    user's own words count as evidence. ``contradicted_band``: largest relative gap between an
    answer figure and a context-related evidence figure that still reads as a corruption
    (beyond it: unsupported). ``min_alert_score``: below it a turn is labelled ``ungrounded``.
    ``max_evidence_bytes``: evidence scanned per call; the rest is cut and flagged.
    ``max_answer_chars``: answer text checked per call; atoms past it are not checked (flagged).
    ``work_budget``: units of lookup work one call may spend judging atoms (see the engine's `budget.rs`);
    atoms left when it runs out get no verdict (flagged).
    ``min_number_digits``: bare numbers with fewer digits are ignored as noise. ``locale``: the
    date-order and separator pack. ``label_rule``: which rule drives ``label``. ``anchor_date``:
    resolves relative dates ("yesterday"); without it they are not extracted.
    ``derived_values``: an answer figure that matches no evidence value may be supported as a sum,
    difference, percentage change, ratio, average or product of related evidence figures (see
    the engine's `derivations.rs`). ``max_derivation_operands``: the most members of one array, column,
    row or sentence that derivations combine; larger ones are not used. ``max_derivation_candidates``:
    the most candidate results compared per answer figure.
    """

    enabled_kinds: tuple[AtomKind, ...] = ATOM_KINDS
    include_user_prompt_as_evidence: bool = True
    contradicted_band: float = 0.15
    min_alert_score: float = 0.8
    max_evidence_bytes: int = 262_144
    max_answer_chars: int = 32_768
    work_budget: int = 50_000
    min_number_digits: int = 4
    locale: str = "en-US"
    label_rule: LabelRule = "atom_ratio"
    anchor_date: datetime.date | None = field(default=None)
    derived_values: bool = True
    max_derivation_operands: int = 200
    max_derivation_candidates: int = 20_000

    def __post_init__(self) -> None:
        set_field = object.__setattr__
        set_field(self, "enabled_kinds", _kinds(self.enabled_kinds, "enabled_kinds"))
        _require(
            isinstance(self.include_user_prompt_as_evidence, bool),
            "include_user_prompt_as_evidence",
            self.include_user_prompt_as_evidence,
            "a bool",
        )
        set_field(self, "contradicted_band", _fraction(self.contradicted_band, "contradicted_band"))
        set_field(self, "min_alert_score", _fraction(self.min_alert_score, "min_alert_score"))
        _require(
            _is_int(self.max_evidence_bytes) and self.max_evidence_bytes > 0,
            "max_evidence_bytes",
            self.max_evidence_bytes,
            "a positive integer",
        )
        _require(
            _is_int(self.max_answer_chars) and self.max_answer_chars > 0,
            "max_answer_chars",
            self.max_answer_chars,
            "a positive integer",
        )
        _require(
            _is_int(self.work_budget) and self.work_budget > 0,
            "work_budget",
            self.work_budget,
            "a positive integer",
        )
        _require(
            _is_int(self.min_number_digits) and 1 <= self.min_number_digits <= 30,
            "min_number_digits",
            self.min_number_digits,
            "an integer from 1 to 30",
        )
        _require(self.locale in SUPPORTED_LOCALES, "locale", self.locale, f"one of {list(SUPPORTED_LOCALES)}")
        _require(self.label_rule in LABEL_RULES, "label_rule", self.label_rule, f"one of {list(LABEL_RULES)}")
        if isinstance(self.anchor_date, str):
            set_field(self, "anchor_date", _iso_date(self.anchor_date, "anchor_date"))
        _require(
            self.anchor_date is None or type(self.anchor_date) is datetime.date,
            "anchor_date",
            self.anchor_date,
            "an ISO date (YYYY-MM-DD) or None",
        )
        _require(isinstance(self.derived_values, bool), "derived_values", self.derived_values, "a bool")
        _require(
            _is_int(self.max_derivation_operands) and self.max_derivation_operands >= 2,
            "max_derivation_operands",
            self.max_derivation_operands,
            "an integer of at least 2",
        )
        _require(
            _is_int(self.max_derivation_candidates) and self.max_derivation_candidates > 0,
            "max_derivation_candidates",
            self.max_derivation_candidates,
            "a positive integer",
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GroundednessPolicy:
        """Build a policy from a plain mapping (e.g. parsed JSON); unknown keys are an error."""
        if not isinstance(data, Mapping):
            raise ValueError(f"policy must be a JSON object / mapping, got {type(data).__name__}")
        unknown = sorted(set(data) - _FIELD_NAMES)
        if unknown:
            raise ValueError(f"unknown policy field(s) {unknown}; known: {sorted(_FIELD_NAMES)}")
        return cls(**dict(data))

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> GroundednessPolicy:
        """A policy from a JSON file holding an object of policy fields; ``PolicyFileError`` if unusable."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise PolicyFileError(f"invalid policy file {path}: not UTF-8 (byte {error.start})") from None
        except OSError as error:
            raise PolicyFileError(f"cannot read policy file {path}: {error.strerror or error}") from None
        try:
            data = json.loads(text)
        except RecursionError:
            raise PolicyFileError(f"invalid policy file {path}: not valid JSON (nested too deeply)") from None
        except ValueError as error:  # also integers past Python's digit limit
            raise PolicyFileError(f"invalid policy file {path}: not valid JSON ({error})") from None
        try:
            return cls.from_dict(data)
        except (ValueError, TypeError, OverflowError) as error:  # a value of the wrong type, or too large
            raise PolicyFileError(f"invalid policy file {path}: {error}") from None

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] = os.environ, *, problems: list[EnvProblem] | None = None
    ) -> GroundednessPolicy:
        """A policy from ``OTEL_GROUNDEDNESS_<FIELD>`` variables; blank values mean unset.

        A variable that does not parse or validate keeps its field's default: it is appended to
        ``problems`` when a list is given, else logged as a warning (``env_config``).
        """
        reader = EnvReader(environ)
        values: dict[str, Any] = {}
        for name, parse in _ENV_PARSERS.items():
            value = reader.get(ENV_PREFIX + name.upper(), _validated(name, parse), _UNSET)
            if value is not _UNSET:
                values[name] = value
        if problems is None:
            reader.warn()
        else:
            problems.extend(reader.problems)
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; ``from_dict(policy.to_dict()) == policy``."""
        return {
            "enabled_kinds": list(self.enabled_kinds),
            "include_user_prompt_as_evidence": self.include_user_prompt_as_evidence,
            "contradicted_band": self.contradicted_band,
            "min_alert_score": self.min_alert_score,
            "max_evidence_bytes": self.max_evidence_bytes,
            "max_answer_chars": self.max_answer_chars,
            "work_budget": self.work_budget,
            "min_number_digits": self.min_number_digits,
            "locale": self.locale,
            "label_rule": self.label_rule,
            "anchor_date": None if self.anchor_date is None else self.anchor_date.isoformat(),
            "derived_values": self.derived_values,
            "max_derivation_operands": self.max_derivation_operands,
            "max_derivation_candidates": self.max_derivation_candidates,
        }


_FIELD_NAMES = frozenset(f.name for f in fields(GroundednessPolicy))


def _require(ok: bool, name: str, value: object, expected: str) -> None:
    if not ok:
        raise ValueError(f"{name} must be {expected}, got {value!r}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fraction(value: object, name: str) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and 0.0 <= float(value) <= 1.0
    _require(ok, name, value, "a number from 0 to 1")
    return float(cast(float, value))


def _kinds(value: object, name: str) -> tuple[AtomKind, ...]:
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    _require(isinstance(value, Iterable), name, value, f"a non-empty subset of {list(ATOM_KINDS)}")
    chosen = set(cast(Iterable[object], value))
    ok = bool(chosen) and chosen <= set(ATOM_KINDS)
    _require(ok, name, value, f"a non-empty subset of {list(ATOM_KINDS)}")
    return tuple(kind for kind in ATOM_KINDS if kind in chosen)


def _iso_date(value: str, name: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{name} must be an ISO date (YYYY-MM-DD), got {value!r}") from None


def _parse_kinds(raw: str) -> tuple[AtomKind, ...]:
    return _kinds(raw, "enabled_kinds")


def _parse_date(raw: str) -> datetime.date:
    return _iso_date(raw, "anchor_date")


_ENV_PARSERS: dict[str, Callable[[str], Any]] = {
    "enabled_kinds": _parse_kinds,
    "include_user_prompt_as_evidence": parse_bool,
    "contradicted_band": parse_float,
    "min_alert_score": parse_float,
    "max_evidence_bytes": parse_int,
    "max_answer_chars": parse_int,
    "work_budget": parse_int,
    "min_number_digits": parse_int,
    "locale": str,
    "label_rule": str,
    "anchor_date": _parse_date,
    "derived_values": parse_bool,
    "max_derivation_operands": parse_int,
    "max_derivation_candidates": parse_int,
}
_UNSET: Any = object()


def _validated(name: str, parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """``parse`` followed by the field's own validation, so a problem is found per variable."""

    def parse_and_validate(raw: str) -> Any:
        value = parse(raw)
        return getattr(GroundednessPolicy(**{name: value}), name)

    return parse_and_validate
