"""Operand families: the evidence figures a derivation may combine, grouped by how they relate.

A family is the numbers of one JSON object or array (a row, a list), the values under one key
across the records of one list (a column), or the money and number atoms of one sentence of
text. Identifiers, years, dates and minor-unit amounts never join (their keys say so: ``id``,
``year``, ``zip``, ``amount_cents``), and neither do percents: a percent is derived, never an
operand. Built once per ``score`` call, on the first figure that asks, in one pass over the
evidence figures. Each step is paid for before it starts and the build stops at the first the
work budget cannot cover (``BudgetSpent``): the raw JSON figures at a candidate each (an evidence
value read and placed in its row and column), the figures of text at a candidate and an atom's
context each (their label words are read from the text around them), each family at a candidate
(its label words).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from otel_groundedness.scoring.budget import ATOM, CANDIDATE
from otel_groundedness.scoring.corpus import Fragment, Path, RawScalar
from otel_groundedness.scoring.index import EvidenceIndex, Hit
from otel_groundedness.scoring.label_words import json_words, words
from otel_groundedness.scoring.sentences import sentence_spans

# Key words that name what is not a quantity: a sum of two order ids or two years means nothing.
NOT_QUANTITIES = frozenset(
    {
        "id",
        "ids",
        "uuid",
        "guid",
        "year",
        "years",
        "yr",
        "date",
        "dates",
        "zip",
        "postcode",
        "postal",
        "phone",
        "code",
        "version",
        "timestamp",
        "ts",
        "epoch",
        "cent",
        "cents",
        "minor",
    }
)
_KEY_TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_CONTAINER_KEYS = 3  # string keys above a family read for its label words ($.invoices[3].total: "invoices")


def names_no_quantity(name: str) -> bool:
    """Whether a key or header names identifiers, years, dates or minor units (``employee_id``)."""
    return not {token.lower() for token in _KEY_TOKEN.findall(name)}.isdisjoint(NOT_QUANTITIES)


class Operands:
    """Every evidence figure that may be an operand, columnar: ``values[i]`` is operand i's value.

    ``refs[i]`` is the corpus position of a raw scalar or the ``Hit`` of a text atom; ``kinds[i]``
    is ``raw``, ``money`` or ``number``; ``key_words[i]`` the label words of its own key (of its
    atom's surroundings for text). ``families`` lists member operands in document order, and
    ``family_words[f]`` the label words of family f: its container's keys and label siblings and
    its members' keys. ``by_word`` maps a label word to the families holding it.
    """

    def __init__(self, index: EvidenceIndex) -> None:
        self._index = index
        self.values: list[float] = []
        self.currencies: list[str | None] = []
        self.units: list[str | None] = []
        self.kinds: list[str] = []
        self.refs: list[int | Hit] = []
        self.key_words: list[frozenset[str]] = []
        self.families: list[list[int]] = []
        self.family_words: list[frozenset[str]] = []
        self.by_word: dict[str, list[int]] = defaultdict(list)
        # Families by the id of the JSON object holding them, and operands by the id of a raw
        # scalar's path or of a text atom's hit: how evidence cited for other answer figures
        # leads back to its record and to itself.
        self.by_container: dict[int, list[int]] = defaultdict(list)
        self.by_origin: dict[int, int] = {}
        self.by_key_word: dict[str, list[int]] = defaultdict(list)  # operands by their own key's words
        self.plain: list[bool] = []  # family f holds only JSON numbers without a currency
        self._word_cache: dict[str, frozenset[str]] = {}
        self._excluded_cache: dict[str, bool] = {}
        self._build()

    def hit(self, operand: int) -> Hit:
        ref = self.refs[operand]
        if isinstance(ref, Hit):
            return ref
        return Hit("raw", self._index.corpus.scalar(ref), None, self.values[operand])

    # --- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        structural: dict[tuple[object, ...], list[int]] = {}
        containers: dict[tuple[object, ...], tuple[Path, Mapping[Any, Any] | None]] = {}
        corpus = self._index.corpus
        values = corpus.scalar_values
        budget = self._index.budget
        budget.pay(CANDIDATE * len(values))
        for position, row in enumerate(corpus.scalar_rows):
            source, path, _, currency, siblings, _, _ = row
            if path is None:
                continue  # a bare number as a whole evidence item: nothing relates to it
            name = self._name(path)
            if name is not None and self._excluded(name):
                continue
            operand = self._add(values[position], currency, None, "raw", position, self._key_words(name))
            self.by_origin[id(path)] = operand
            self._place(structural, containers, id(source), path, siblings, operand)
        text_hits = [hit for kind in ("money", "number") for hit in self._index.numeric_hits(kind)]
        budget.pay((CANDIDATE + ATOM) * len(text_hits))
        by_fragment: dict[int, list[int]] = defaultdict(list)
        for hit in text_hits:
            origin = hit.origin
            assert isinstance(origin, Fragment)  # extracted atoms come from text fragments
            operand = self._add(hit.number, hit.currency, hit.unit, hit.kind, hit, frozenset(hit.words()))
            self.by_origin[id(hit)] = operand
            by_fragment[id(origin)].append(operand)
            if origin.path is not None:
                self._place(structural, containers, id(origin.source), origin.path, origin.siblings, operand)
        for key, members in structural.items():
            path, siblings = containers[key]
            if siblings is not None and key[0] == "row":
                self.by_container[id(siblings)].append(len(self.families))
            self._family(members, self._container_words(path, siblings))
        for members in by_fragment.values():
            self._sentences(members)

    def _add(
        self,
        value: float,
        currency: str | None,
        unit: str | None,
        kind: str,
        ref: int | Hit,
        key: frozenset[str],
    ) -> int:
        self.values.append(value)
        self.currencies.append(currency)
        self.units.append(unit)
        self.kinds.append(kind)
        self.refs.append(ref)
        self.key_words.append(key)
        operand = len(self.values) - 1
        for word in key:
            self.by_key_word[word].append(operand)
        return operand

    @staticmethod
    def _place(
        structural: dict[tuple[object, ...], list[int]],
        containers: dict[tuple[object, ...], tuple[Path, Mapping[Any, Any] | None]],
        source: int,
        path: tuple[Path, object],
        siblings: Mapping[Any, Any] | None,
        operand: int,
    ) -> None:
        """Put the operand in its container's family and, for a member of a list element, in the
        column of its key across that list."""
        parent, key = path
        row = ("row", source, id(parent))
        members = structural.get(row)
        if members is None:
            structural[row] = [operand]
            containers[row] = (parent, siblings)
        else:
            members.append(operand)
        if parent is not None and isinstance(parent[1], int):
            column = ("column", source, id(parent[0]), key)
            members = structural.get(column)
            if members is None:
                structural[column] = [operand]
                containers[column] = (parent[0], None)
            else:
                members.append(operand)

    def _sentences(self, members: list[int]) -> None:
        """The text atoms of one fragment, one family per sentence holding two or more."""
        if len(members) < 2:
            return
        first = self.refs[members[0]]
        assert isinstance(first, Hit) and isinstance(first.origin, Fragment)
        spans = sentence_spans(first.origin.text)
        by_sentence: dict[int, list[int]] = defaultdict(list)
        number = 0
        for operand in sorted(members, key=lambda m: self._start(m)):
            start = self._start(operand)
            while number + 1 < len(spans) and spans[number][1] <= start:
                number += 1
            by_sentence[number].append(operand)
        for sentence in by_sentence.values():
            self._family(sentence, frozenset())

    def _start(self, operand: int) -> int:
        ref = self.refs[operand]
        assert isinstance(ref, Hit) and ref.start is not None
        return ref.start

    def _family(self, members: list[int], container: frozenset[str]) -> None:
        """Record a family; a lone figure is kept too, for the family of figures the answer's label
        words pick out (``Deriver``), but is never combined on its own."""
        self._index.budget.pay(CANDIDATE)
        family = len(self.families)
        found = set(container)
        for member in members:
            found |= self.key_words[member]
        self.families.append(members)
        self.plain.append(all(self.kinds[m] == "raw" and self.currencies[m] is None for m in members))
        self.family_words.append(frozenset(found))
        for word in found:
            self.by_word[word].append(family)

    # --- label words ---------------------------------------------------------------------------

    @staticmethod
    def _name(path: tuple[Path, object]) -> str | None:
        """The nearest string key: its own, or for a list element the list's."""
        parent, key = path
        if isinstance(key, str):
            return key
        if parent is not None and isinstance(parent[1], str):
            return parent[1]
        return None

    def _excluded(self, name: str) -> bool:
        known = self._excluded_cache.get(name)
        if known is None:
            known = self._excluded_cache[name] = names_no_quantity(name)
        return known

    def _key_words(self, name: str | None) -> frozenset[str]:
        if name is None:
            return frozenset()
        known = self._word_cache.get(name)
        if known is None:
            known = self._word_cache[name] = frozenset(words(name))
        return known

    def _container_words(self, path: Path, siblings: Mapping[Any, Any] | None) -> frozenset[str]:
        """Label words of the first ``_CONTAINER_KEYS`` string keys above the family and of its
        label siblings (``"name": "Revenue"``)."""
        found: set[str] = set()
        keys: list[str] = []
        link = path
        while link is not None and len(keys) < _CONTAINER_KEYS:
            link, key = link
            if isinstance(key, str):
                keys.append(key)
        for key in keys:
            found |= self._key_words(key)
        return frozenset(found | json_words((), siblings))


def anchored(operands: Operands, cited: Iterable[Hit]) -> tuple[list[int], list[int]]:
    """The families whose record holds evidence cited for other figures of the answer's sentence
    (the row of the ``INV-2210`` the sentence names), and the cited figures themselves as operands
    (``from 150,891 to 915,035, a change of +506.4%``)."""
    families: set[int] = set()
    members: dict[int, None] = {}
    for hit in cited:
        origin = hit.origin
        if origin.siblings is not None:
            families.update(operands.by_container.get(id(origin.siblings), ()))
        key = id(origin.path) if isinstance(origin, RawScalar) else id(hit)
        operand = operands.by_origin.get(key)
        if operand is not None and hit.kind in ("raw", "money", "number"):
            members[operand] = None
    return sorted(families), list(members)


def tied_families(operands: Operands, answer_words: Iterable[str]) -> list[int]:
    """Families sharing a label word with the answer figure, in document order."""
    found: set[int] = set()
    for word in answer_words:
        found.update(operands.by_word.get(word, ()))
    return sorted(found)
