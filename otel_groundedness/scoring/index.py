"""``EvidenceIndex``: the evidence's atoms and raw scalars, indexed by kind and value.

Built once per ``score`` call; every lookup costs O(candidates), never evidence × answer, and
charges what it reads to the call's ``WorkBudget``. Each structure is built on first use, so an
answer without dates never pays for a date index.
"""

from __future__ import annotations

import bisect
import math
import operator
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from otel_groundedness.scoring import label_words, units
from otel_groundedness.scoring.atoms import ATOM_KINDS, Atom, CalendarDate, Identifier, Quantity
from otel_groundedness.scoring.budget import CANDIDATE, PROBE, WorkBudget
from otel_groundedness.scoring.corpus import Corpus, Fragment, RawScalar, ScalarRow, path_labels, render_path
from otel_groundedness.scoring.digits import VariantWindows
from otel_groundedness.scoring.results import Citation

if TYPE_CHECKING:
    from otel_groundedness.scoring.table_book import TableBook

# Fragments are scanned in one extraction pass over their concatenation; this separator matches
# nothing and stops every pattern, so no atom spans two fragments.
_SEPARATOR = "\n\x1e\n"
_EPSILON = 1e-9
UNIT_GROUP = "unit:"
_Said = TypeVar("_Said")
YEAR_RANGE = range(1000, 2100)  # raw JSON integers in this range also count as years ({"born": 1810})
# Lookups read a bounded number of equal or near-equal values: the first few decide a verdict,
# and evidence that repeats one value thousands of times must not make each lookup O(n).
PER_RANGE = 32
PER_WINDOW = 8
# Identifiers up to this length are near-matched (one edit); longer ones (hex runs, tails of
# thousands of characters) only exactly. A full SHA-256 hex digest is 64 characters.
NEAR_MAX_CHARS = 64

DateReading = tuple[int | None, int | None, int | None]
DateKey = tuple[int, int | None, int | None, int | None]  # (component mask, y, m, d projected)
# A date atom of a fragment, (fragment, value, start, end), or the corpus position of a raw integer
# read as a year: date evidence is repeated across records, and an entry costs less than a Hit.
_DateAtom: TypeAlias = "tuple[Fragment, CalendarDate, int, int]"
_DateEntry: TypeAlias = "_DateAtom | int"


class Hit:
    """One evidence value a lookup returned: an extracted atom or a raw scalar (``kind`` ``raw``).

    ``number`` is the value on the scale of its group (a fraction ``0.153`` reads ``15.3`` in the
    ``fraction`` group, matched against percents).
    """

    __slots__ = ("_words", "end", "kind", "number", "origin", "start", "tolerance", "value")

    def __init__(
        self,
        kind: str,
        origin: Fragment | RawScalar,
        value: Quantity | CalendarDate | Identifier | None,
        number: float = 0.0,
        tolerance: float = 0.0,
        start: int | None = None,
        end: int | None = None,
    ) -> None:
        self.kind = kind
        self.origin = origin
        self.value = value
        self.number = number
        self.tolerance = tolerance
        self.start = start
        self.end = end
        self._words: set[str] | None = None

    @property
    def text(self) -> str:
        origin = self.origin
        if isinstance(origin, RawScalar):
            return origin.text
        return origin.text[self.start : self.end]

    @property
    def currency(self) -> str | None:
        if isinstance(self.origin, RawScalar):
            return self.origin.currency
        return self.value.currency if isinstance(self.value, Quantity) else None

    @property
    def unit(self) -> str | None:
        return self.value.unit if isinstance(self.value, Quantity) else None

    def key_unit(self) -> str | None:
        """For a raw scalar, the unit its nearest key names (``{"weight_g": 2500}``: ``g``)."""
        origin = self.origin
        if not isinstance(origin, RawScalar):
            return None
        labels = path_labels(origin.path)
        return units.key_unit(labels[0]) if labels else None

    def words(self) -> set[str]:
        """Label words tied to this value: JSON keys, short sibling labels, text around it."""
        if self._words is None:
            origin = self.origin
            found = label_words.json_words(path_labels(origin.path), origin.siblings)
            if isinstance(origin, RawScalar) and origin.cell is not None:
                found |= label_words.words(origin.cell)
            if isinstance(origin, Fragment) and self.start is not None and self.end is not None:
                found |= label_words.window_words(origin.text, self.start, self.end)
            self._words = found
        return self._words

    def citation(self) -> Citation:
        origin = self.origin
        source = origin.source
        start, end = (origin.start, origin.end) if isinstance(origin, RawScalar) else (self.start, self.end)
        return Citation(
            evidence_index=source.index,
            source_id=source.source_id,
            source_kind=source.kind,
            name=source.name,
            path=render_path(origin.path),
            start=start,
            end=end,
            text=self.text,
            cell=origin.cell if isinstance(origin, RawScalar) else None,
        )


class _NumericGroup:
    """Values of one group sorted for range queries.

    Entries are extracted-atom hits or positions of raw scalars in the corpus; a raw scalar
    becomes a ``Hit`` only when a query returns it, so number-dense evidence costs one float per
    value until then.
    """

    __slots__ = ("budget", "corpus", "entries", "fenced", "name", "values")

    def __init__(
        self,
        name: str,
        values: list[float],
        entries: Sequence[Hit | int] | None,
        budget: WorkBudget,
        corpus: Corpus | None = None,
    ) -> None:
        """``entries[i]`` is what ``values[i]`` stands for; ``None``: the corpus scalar at position i."""
        order = sorted(range(len(values)), key=values.__getitem__)
        self.name = name
        self.budget = budget
        self.corpus = corpus
        self.values = [values[i] for i in order]
        self.entries: Sequence[Hit | int] = order if entries is None else [entries[i] for i in order]
        self.fenced: list[float] | None = None

    def _hit(self, position: int) -> Hit:
        self.budget.left -= CANDIDATE  # every candidate a lookup reads passes here
        entry = self.entries[position]
        if isinstance(entry, Hit):
            return entry
        assert self.corpus is not None  # scalar groups are built with their corpus
        return Hit(self.name, self.corpus.scalar(entry), None, self.values[position])

    def within(self, low: float, high: float) -> Iterator[Hit]:
        """Hits in [low, high], at most ``PER_RANGE`` of them (evidence repeating one value costs O(1))."""
        self.budget.left -= PROBE
        values = self.values
        position = bisect.bisect_left(values, low)
        end = min(len(values), position + PER_RANGE)
        while position < end and values[position] <= high:
            yield self._hit(position)
            position += 1

    def in_windows(self, windows: VariantWindows, negative: bool) -> Iterator[Hit]:
        """Hits inside any window of ``windows`` (``PER_WINDOW`` at most each), in window order;
        ``negative``: the windows mirrored below zero."""
        if self.fenced is None:
            self.fenced = [*self.values, math.inf]  # a fence: every window start can be read
        fenced = self.fenced
        runs, firsts, lasts = windows
        budget = self.budget
        budget.left -= PROBE * len(runs)
        if negative:
            firsts, lasts = list(map(operator.neg, lasts)), list(map(operator.neg, firsts))
        # Bisect every run's span, then every window of the runs holding a value, and keep those
        # whose first value lies inside, all in C: most hold nothing, and only the few that do
        # reach Python.
        first_values = map(fenced.__getitem__, map(bisect.bisect_left, repeat(fenced), firsts))
        for centers, unit, reach in compress(runs, map(operator.le, first_values, lasts)):
            budget.left -= PROBE * len(centers)
            scaled = [center * unit for center in centers]
            if negative:
                lows, highs = [-(at + reach) for at in scaled], [-(at - reach) for at in scaled]
            else:
                lows, highs = [at - reach for at in scaled], [at + reach for at in scaled]
            starts = list(map(bisect.bisect_left, repeat(fenced), lows))
            inside = map(operator.le, map(fenced.__getitem__, starts), highs)
            for start, high in compress(zip(starts, highs, strict=True), inside):
                position, end = start, min(start + PER_WINDOW, len(self.values))  # never the fence itself
                while position < end and fenced[position] <= high:
                    yield self._hit(position)
                    position += 1

    def count(self, low: float, high: float) -> int:
        return bisect.bisect_right(self.values, high) - bisect.bisect_left(self.values, low)

    def nearest(self, target: float, low: float, high: float, limit: int) -> list[Hit]:
        """Up to ``limit`` hits in [low, high], nearest to ``target`` first."""
        self.budget.left -= PROBE
        values = self.values
        right = bisect.bisect_left(values, target)
        left = right - 1
        found: list[Hit] = []
        while len(found) < limit:
            left_ok = left >= 0 and values[left] >= low
            right_ok = right < len(values) and values[right] <= high
            if not (left_ok or right_ok):
                break
            if right_ok and (not left_ok or values[right] - target <= target - values[left]):
                found.append(self._hit(right))
                right += 1
            else:
                found.append(self._hit(left))
                left -= 1
        return found


def unit_group(unit: str | None) -> str | None:
    """The group of evidence values read in ``unit`` (another unit of its dimension), if it converts."""
    return None if units.dimension(unit) is None else UNIT_GROUP + str(unit)


def _names_minor_units(key: str | int | object) -> bool:
    if not isinstance(key, str):
        return False
    lowered = key.lower()
    return "cent" in lowered or "minor" in lowered


# ISO 4217 currencies whose minor unit is not a hundredth (none: JPY, KRW; a thousandth: KWD, BHD).
_NOT_HUNDREDTHS = frozenset({
    "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV",
    "XAF", "XOF", "XPF", "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND",
})  # fmt: skip


def _in_minor_units(row: ScalarRow) -> bool:
    """A JSON integer in a record with a currency of hundredths, as payment APIs give amounts
    (Stripe's ``{"amount": 1999, "currency": "usd"}`` is $19.99)."""
    currency = row[3]
    return type(row[2]) is int and currency is not None and currency not in _NOT_HUNDREDTHS


@dataclass(frozen=True, slots=True)
class EvidenceNeeds:
    """Evidence atom kinds (``money``, ``percent``, ``number``, ``date``, ``identifier``) and
    identifier shapes (``None``: every shape) that lookups can return."""

    kinds: frozenset[str]
    shapes: frozenset[str] | None

    @classmethod
    def everything(cls) -> EvidenceNeeds:
        return cls(frozenset(ATOM_KINDS), None)


class EvidenceIndex:
    """Lookups over one call's evidence; see the module docstring."""

    def __init__(
        self,
        corpus: Corpus,
        extract: Callable[[str], list[Atom]],
        wanted: EvidenceNeeds | None = None,
        budget: WorkBudget | None = None,
    ) -> None:
        """``wanted`` names the evidence atoms the caller's lookups can return (``None``: all);
        the others are extracted (they still shadow overlapping figures) but not indexed.
        ``budget`` is charged by every lookup (``None``: a budget of its own that never stops
        anything, since only the caller decides what to do when it runs out)."""
        self._corpus = corpus
        self.budget = budget or WorkBudget(0)
        self._numeric_hits: dict[str, list[Hit]] = {"money": [], "percent": [], "number": []}
        self._date_atoms: list[_DateAtom] = []
        self._identifier_hits: list[Hit] = []
        self._extract_all(extract, wanted or EvidenceNeeds.everything())
        self._groups: dict[str, _NumericGroup] = {}
        self._nonempty: dict[tuple[str, ...], list[str]] = {}
        self._dates: dict[int, dict[DateKey, list[tuple[_DateEntry, DateReading]]]] = {}
        self._readings: list[tuple[_DateAtom, DateReading, int]] | None = None
        self._identifiers: dict[tuple[str, str], list[Hit]] | None = None
        self._identifier_forms: dict[str, list[str]] | None = None
        self._units_by_dimension: dict[str | None, list[tuple[int, str]]] | None = None
        self._scalar_keys: set[object] | None = None
        self._tables: TableBook | None = None

    @property
    def corpus(self) -> Corpus:
        return self._corpus

    def tables(self) -> TableBook:
        """The evidence's tables, read on first use (an answer whose figures all match directly
        never pays for them); raises ``BudgetSpent`` when the budget cannot pay for reading them."""
        if self._tables is None:
            # Imported here: the book's cells become ``Hit``s, defined in this module.
            from otel_groundedness.scoring.table_book import TableBook

            self._tables = TableBook(self._corpus, self.budget)
        return self._tables

    def numeric_hits(self, kind: str) -> list[Hit]:
        """The evidence atoms of ``kind`` (``money``, ``percent``, ``number``) in extraction order."""
        return self._numeric_hits[kind]

    def _extract_all(self, extract: Callable[[str], list[Atom]], wanted: EvidenceNeeds) -> None:
        occurrences: dict[str, list[Fragment]] = {}
        for fragment in self._corpus.fragments:
            text = fragment.text
            if text:
                found = occurrences.get(text)
                if found is None:
                    occurrences[text] = [fragment]
                else:
                    found.append(fragment)
        texts = list(occurrences)
        starts: list[int] = []
        offset = 0
        for text in texts:
            starts.append(offset)
            offset += len(text) + len(_SEPARATOR)
        kinds, shapes = wanted.kinds, wanted.shapes
        for atom in extract(_SEPARATOR.join(texts)):
            kind, value = atom.kind, atom.value
            if kind not in kinds or (
                shapes is not None and isinstance(value, Identifier) and value.shape not in shapes
            ):
                continue
            position = bisect.bisect_right(starts, atom.start) - 1
            text_start = starts[position]
            if atom.end > text_start + len(texts[position]):
                continue
            start, end = atom.start - text_start, atom.end - text_start
            fragments = occurrences[texts[position]]
            if isinstance(value, Quantity):
                number, tolerance = value.value, value.tolerance
                self._numeric_hits[kind].extend(
                    [Hit(kind, fragment, value, number, tolerance, start, end) for fragment in fragments]
                )
            elif isinstance(value, CalendarDate):
                self._date_atoms.extend([(fragment, value, start, end) for fragment in fragments])
            else:
                self._identifier_hits.extend(
                    [Hit(kind, fragment, value, 0.0, 0.0, start, end) for fragment in fragments]
                )

    # --- numbers -----------------------------------------------------------------------------

    def group(self, name: str) -> _NumericGroup:
        """Values of one group, built on first use (a ``unit:`` group raises ``BudgetSpent`` when
        the budget cannot pay for building it).

        ``money``/``percent``/``number``: extracted atoms. ``raw``: JSON scalars as they are.
        ``fraction``: raw scalars in [-1, 1] times 100 (``0.153`` supports ``15.3%``). ``minor``:
        raw integers under a key naming minor units (``amount_cents``) divided by 100. ``scaled``:
        raw scalars under a key naming a magnitude (``revenue_usd_millions``), at that magnitude.
        ``unit:<unit>`` (see ``unit_group``): values in another unit of that unit's dimension, read
        in it: raw scalars whose key names their unit, and number atoms with a unit.
        """
        built = self._groups.get(name)
        if built is None:
            corpus = self._corpus
            values = corpus.scalar_values
            budget = self.budget
            if name == "raw":
                built = _NumericGroup(name, values, None, budget, corpus)
            elif name == "fraction":
                fractions = [i for i, value in enumerate(values) if -1.0 <= value <= 1.0]
                built = _NumericGroup(name, [values[i] * 100.0 for i in fractions], fractions, budget, corpus)
            elif name == "minor":
                minor = self._minor_units()
                built = _NumericGroup(name, [values[i] / 100.0 for i in minor], minor, budget, corpus)
            elif name == "scaled":
                scaled = self._scaled()
                built = _NumericGroup(
                    name,
                    [values[i] * 10.0**power for i, power in scaled],
                    [i for i, _ in scaled],
                    budget,
                    corpus,
                )
            elif name.startswith(UNIT_GROUP):
                built = self._in_unit(name, name.removeprefix(UNIT_GROUP))
            else:
                hits = self._numeric_hits[name]
                built = _NumericGroup(name, [hit.number for hit in hits], hits, budget)
            self._groups[name] = built
        return built

    def nonempty(self, names: tuple[str, ...]) -> list[str]:
        """The groups among ``names`` that hold any value (asked once per answer figure)."""
        found = self._nonempty.get(names)
        if found is None:
            found = self._nonempty[names] = [name for name in names if self.group(name).values]
        return found

    def _minor_units(self) -> list[int]:
        """Positions of raw integers that may count minor units: under a key naming them
        ("amount_cents": 124350), or in a record with a currency of hundredths."""
        values, rows = self._corpus.scalar_values, self._corpus.scalar_rows
        # Records repeat their keys and currencies: decide once per distinct one, and mostly none
        # qualifies, so the rows are only walked when one does.
        minor_keys = {key for key in self._last_keys() if _names_minor_units(key)}
        currencies = {row[3] for row in rows} - {None} - _NOT_HUNDREDTHS
        if not minor_keys and not currencies:
            return []
        return [
            position
            for position, row in enumerate(rows)
            if values[position].is_integer()
            and ((row[1] is not None and row[1][1] in minor_keys) or _in_minor_units(row))
        ]

    def _scaled(self) -> list[tuple[int, int]]:
        """(position, power of ten) of raw scalars whose nearest key names a magnitude."""
        return self._keyed_rows(units.key_magnitude)

    def _last_keys(self) -> set[object]:
        """The distinct last path keys of the raw scalars (an int for a list item), read once."""
        if self._scalar_keys is None:
            self._scalar_keys = {row[1][1] for row in self._corpus.scalar_rows if row[1] is not None}
        return self._scalar_keys

    def _keyed_rows(self, read: Callable[[str], _Said | None]) -> list[tuple[int, _Said]]:
        """(position, what ``read`` finds in its nearest key) of the raw scalars whose key says
        something. Each distinct key is read once, and when none says anything (the usual case)
        the rows are not walked at all."""
        keys = self._last_keys()
        said_by_key: dict[str, _Said | None] = {key: read(key) for key in keys if type(key) is str}
        if len(said_by_key) == len(keys) and not any(said is not None for said in said_by_key.values()):
            return []  # no list items (whose key is further up) and no key that says anything
        found: list[tuple[int, _Said]] = []
        for position, row in enumerate(self._corpus.scalar_rows):
            labels = path_labels(row[1])
            if labels:
                key = labels[0]
                if key not in said_by_key:
                    said_by_key[key] = read(key)
                said = said_by_key[key]
                if said is not None:
                    found.append((position, said))
        return found

    def _in_unit(self, name: str, target: str) -> _NumericGroup:
        """Evidence values in another unit of ``target``'s dimension, converted into ``target``."""
        values = self._corpus.scalar_values
        rows = self._unit_rows().get(units.dimension(target), [])
        # One group per unit an answer writes, each reading its dimension's values: paid up front,
        # so an answer naming every unit cannot multiply the work past the budget.
        self.budget.pay(PROBE * (len(rows) + len(self._numeric_hits["number"])))
        converted: list[float] = []
        entries: list[Hit | int] = []
        for position, unit in rows:
            for reading in units.in_unit(values[position], unit, target):
                converted.append(reading)
                entries.append(position)
        for hit in self._numeric_hits["number"]:
            if hit.unit is not None:
                for reading in units.in_unit(hit.number, hit.unit, target):
                    scale = reading / hit.number if hit.number else 0.0
                    converted.append(reading)
                    entries.append(
                        Hit(name, hit.origin, None, reading, hit.tolerance * scale, hit.start, hit.end)
                    )
        return _NumericGroup(name, converted, entries, self.budget, self._corpus)

    def _unit_rows(self) -> dict[str | None, list[tuple[int, str]]]:
        """(position, unit) of the raw scalars whose nearest key names a unit, by dimension: read in
        one pass on first use, so each answer unit's group walks only its own dimension."""
        if self._units_by_dimension is None:
            found: dict[str | None, list[tuple[int, str]]] = defaultdict(list)
            for position, unit in self._keyed_rows(units.key_unit):
                found[units.dimension(unit)].append((position, unit))
            self._units_by_dimension = dict(found)
        return self._units_by_dimension

    # --- dates -------------------------------------------------------------------------------

    def dates(self, mask: int, reading: DateReading) -> list[tuple[Hit, DateReading]]:
        """Evidence readings that state every component in ``mask`` (bits y=4, m=2, d=1) with these values,
        the first ``PER_RANGE`` of them.

        One table per mask, built on first use: most answers only ever ask for full dates. Entries
        become hits only when returned.
        """
        table = self._dates.get(mask)
        if table is None:
            table = self._dates[mask] = self._date_table(mask)
        head = table.get(_date_key(mask, reading), ())[:PER_RANGE]
        self.budget.left -= PROBE + CANDIDATE * len(head)
        return [(self._date_hit(entry), matched) for entry, matched in head]

    def _date_hit(self, entry: _DateEntry) -> Hit:
        if isinstance(entry, int):  # a raw integer read as a year
            return Hit("raw", self._corpus.scalar(entry), None, self._corpus.scalar_values[entry])
        fragment, value, start, end = entry
        return Hit("date", fragment, value, 0.0, 0.0, start, end)

    def _date_table(self, mask: int) -> dict[DateKey, list[tuple[_DateEntry, DateReading]]]:
        table: dict[DateKey, list[tuple[_DateEntry, DateReading]]] = defaultdict(list)
        if mask == YEAR:
            rows = self._corpus.scalar_rows
            first, last = float(YEAR_RANGE.start), float(YEAR_RANGE.stop - 1)
            for position, year in enumerate(self._corpus.scalar_values):
                if first <= year <= last and year.is_integer() and not isinstance(rows[position][2], float):
                    table[(YEAR, int(year), None, None)].append((position, (int(year), None, None)))
        # Readings of exactly this granularity first: lookups read only the head of a bucket.
        coarser: list[tuple[DateKey, _DateAtom, DateReading]] = []
        for atom, reading, stated in self._date_readings():
            if stated == mask:
                table[(mask, *reading)].append((atom, reading))
            elif stated & mask == mask:
                coarser.append((_date_key(mask, reading), atom, reading))
        for key, atom, reading in coarser:
            table[key].append((atom, reading))
        return table

    def _date_readings(self) -> list[tuple[_DateAtom, DateReading, int]]:
        """Every (date atom, reading, mask of the components it states), computed once for all tables."""
        if self._readings is None:
            self._readings = [
                (atom, reading, date_mask(reading))
                for atom in self._date_atoms
                for reading in atom[1].readings
            ]
        return self._readings

    # --- identifiers -------------------------------------------------------------------------

    def identifiers(self, shape: str, normalized: str) -> list[Hit]:
        """Every occurrence of the identifier ``normalized`` of ``shape``, in document order."""
        self.budget.left -= PROBE
        return self._by_form().get((shape, normalized), [])

    def _by_form(self) -> dict[tuple[str, str], list[Hit]]:
        if self._identifiers is None:
            table: dict[tuple[str, str], list[Hit]] = defaultdict(list)
            for hit in self._identifier_hits:
                assert isinstance(hit.value, Identifier)
                table[(hit.value.shape, hit.value.normalized)].append(hit)
            self._identifiers = table
        return self._identifiers

    def identifiers_near(self, shape: str, normalized: str) -> list[Hit]:
        """Identifiers of ``shape`` one edit from ``normalized`` (a substitution, insertion, deletion
        or adjacent swap), the first occurrence of each; none when ``normalized`` is longer than
        ``NEAR_MAX_CHARS``.

        A deletion or a swap gives one string each, looked up as it is. A substituted or inserted
        character at position i can only be one that follows ``normalized[:i]`` in some evidence
        identifier: those are read off the sorted forms one jump per distinct character, so the
        cost is bounded by the length and the alphabet, never by how many similar identifiers the
        evidence holds, and no lookup builds a neighbourhood of every evidence identifier.
        """
        length = len(normalized)
        forms = self._sorted_forms().get(shape) if length <= NEAR_MAX_CHARS else None
        if not forms:
            return []
        variants: dict[str, None] = {}  # insertion-ordered: the citation never depends on the hash seed
        for i in range(length):
            variants[normalized[:i] + normalized[i + 1 :]] = None
            if i + 1 < length:
                variants[normalized[:i] + normalized[i + 1] + normalized[i] + normalized[i + 2 :]] = None
        jumps = 0
        for i in range(length + 1):
            head, rest, after = normalized[:i], normalized[i:], normalized[i + 1 :]
            position = bisect.bisect_left(forms, head)
            while position < len(forms) and forms[position].startswith(head):
                form = forms[position]
                if len(form) == i:  # ``head`` itself: no character follows
                    position += 1
                    continue
                char = form[i]
                variants[head + char + after] = None  # substituted
                variants[head + char + rest] = None  # inserted
                jumps += 1
                position = _past(forms, head + char, position)
        variants.pop(normalized, None)
        table = self._by_form()
        found = [table[(shape, variant)][0] for variant in variants if (shape, variant) in table]
        self.budget.left -= PROBE * (len(variants) + jumps) + CANDIDATE * len(found)
        return found

    def identifier_extending(self, shape: str, prefix: str) -> Hit | None:
        """The first occurrence of the smallest identifier of ``shape`` (of at most
        ``NEAR_MAX_CHARS + 1`` characters) that is ``prefix`` followed by more: the source of an
        abbreviated form."""
        self.budget.left -= PROBE
        forms = self._sorted_forms().get(shape)
        if not forms:
            return None
        position = bisect.bisect_right(forms, prefix)  # past ``prefix`` itself
        if position < len(forms) and forms[position].startswith(prefix):
            return self._by_form()[(shape, forms[position])][0]
        return None

    def _sorted_forms(self) -> dict[str, list[str]]:
        """Per shape, the distinct normalized forms one edit from a near-matched identifier can
        have (at most ``NEAR_MAX_CHARS + 1`` characters), sorted; built on first use."""
        if self._identifier_forms is None:
            forms: dict[str, set[str]] = defaultdict(set)
            for hit in self._identifier_hits:
                assert isinstance(hit.value, Identifier)
                if len(hit.value.normalized) <= NEAR_MAX_CHARS + 1:
                    forms[hit.value.shape].add(hit.value.normalized)
            self._identifier_forms = {shape: sorted(distinct) for shape, distinct in forms.items()}
        return self._identifier_forms


def _past(forms: list[str], prefix: str, position: int) -> int:
    """The first position at or after ``position`` whose form does not start with ``prefix``."""
    last = prefix[-1]
    if last < "\U0010ffff":  # every form starting with ``prefix`` sorts below its successor
        return bisect.bisect_left(forms, prefix[:-1] + chr(ord(last) + 1), position)
    while position < len(forms) and forms[position].startswith(prefix):
        position += 1
    return position


YEAR, MONTH, DAY = 4, 2, 1


def date_mask(reading: DateReading) -> int:
    year, month, day = reading
    return (
        (YEAR if year is not None else 0)
        | (MONTH if month is not None else 0)
        | (DAY if day is not None else 0)
    )


def _date_key(mask: int, reading: DateReading) -> DateKey:
    year, month, day = reading
    return (
        mask,
        year if mask & YEAR else None,
        month if mask & MONTH else None,
        day if mask & DAY else None,
    )
