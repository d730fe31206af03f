"""The atom kinds: the kinds of hard fact the engine extracts from answers and evidence (the
native engine's `AtomKind`, member for member: `tests/native/test_vocabulary.py`)."""

from __future__ import annotations

from typing import Literal, TypeAlias

AtomKind: TypeAlias = Literal["money", "percent", "number", "date", "identifier", "time"]
ATOM_KINDS: tuple[AtomKind, ...] = ("money", "percent", "number", "date", "identifier", "time")
NUMERIC_KINDS: frozenset[AtomKind] = frozenset({"money", "percent", "number"})
