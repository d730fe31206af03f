"""The Python engine of ``score()``, kept as the oracle of the native one (``scoring.engine``, which
``scoring.score`` is) until the differential fuzz retires it: extract the answer's atoms, index the
evidence, judge each atom, apply the rules."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

from otel_groundedness.scoring import rules
from otel_groundedness.scoring.atoms import Atom, CalendarDate, Quantity
from otel_groundedness.scoring.budget import ATOM, BudgetSpent, WorkBudget
from otel_groundedness.scoring.corpus import collect
from otel_groundedness.scoring.derivations import Deriver, derivation_needs
from otel_groundedness.scoring.engine import readable
from otel_groundedness.scoring.evidence import Evidence
from otel_groundedness.scoring.extract import extract_atoms
from otel_groundedness.scoring.index import DateReading, EvidenceIndex
from otel_groundedness.scoring.label_words import AtomContext
from otel_groundedness.scoring.policy import GroundednessPolicy
from otel_groundedness.scoring.results import (
    AtomVerdict,
    GroundednessReport,
    Label,
    NormalizedValue,
    TruncationReason,
    ordered_reasons,
)
from otel_groundedness.scoring.sentences import sentence_spans
from otel_groundedness.scoring.stated_figures import stated_figures
from otel_groundedness.scoring.verdicts import Judgement, evidence_needs, judge

DEFAULT_POLICY = GroundednessPolicy()


def score(
    answer: str,
    evidence: Iterable[Any] | Evidence | Mapping[str, Any] | str | None,
    *,
    user_prompt: str | None = None,
    policy: GroundednessPolicy | None = None,
) -> GroundednessReport:
    """Check the hard facts of ``answer`` against ``evidence`` (the tool results of the same turn).

    ``evidence`` is an iterable of items (str, JSON-like values, JSON documents as str, or
    ``Evidence``); a single str, bytes, mapping, ``Evidence`` or other non-iterable value counts as
    one item and ``None`` as none. Never raises because of what the answer or the evidence holds;
    its work is bounded by the policy's caps and ``work_budget``.
    """
    if not isinstance(answer, str):
        raise TypeError(f"answer must be a str, got {type(answer).__name__}")
    policy = policy or DEFAULT_POLICY
    extract_plain = partial(
        extract_atoms,
        locale=policy.locale,
        min_number_digits=policy.min_number_digits,
        kinds=policy.enabled_kinds,
        anchor=policy.anchor_date,
    )

    def extract(source: str) -> list[Atom]:
        # Both sides state short answers alike: "It is 3.85." in a tool's text supports it too.
        source = readable(source)  # a lone surrogate is U+FFFD (citations quote the original)
        found = extract_plain(source)
        atoms = stated_figures(source, found, policy.min_number_digits)
        return found if atoms is found else [atom for atom in atoms if atom.kind in policy.enabled_kinds]

    prompt = user_prompt if policy.include_user_prompt_as_evidence else None
    corpus = collect(
        _items(evidence), prompt, policy.max_evidence_bytes, every_string=policy.anchor_date is not None
    )
    # The answer is bounded like the evidence: the worker's CPU per turn must not grow without limit.
    text = readable(answer[: policy.max_answer_chars])
    answer_truncated = len(text) < len(answer)
    atoms = extract(text)
    no_evidence = not corpus.has_tool_evidence
    if not atoms:
        return _report(policy, [], [], no_evidence, corpus.reasons, answer_truncated, 0)
    budget = WorkBudget(policy.work_budget)
    needs = evidence_needs(atoms)
    deriver = None
    if policy.derived_values:
        needs = derivation_needs(atoms, needs)
    index = EvidenceIndex(corpus, extract, needs, budget)
    if policy.derived_values:
        # The question is read for what it asks (a computation, the rows and columns it names)
        # whether or not the policy lets its figures count as evidence.
        deriver = Deriver(
            index, policy.max_derivation_operands, policy.max_derivation_candidates, user_prompt
        )
    spans = sentence_spans(text, atoms)
    sentence_of = _sentence_numbers(atoms, spans)
    judged = _judge_atoms(text, atoms, spans, sentence_of, index, policy.contradicted_band, deriver)
    verdicts = [_verdict(atom, judgement) for atom, _, judgement in judged]
    checked = len(verdicts)
    return _report(
        policy,
        verdicts,
        sentence_of[:checked],
        no_evidence,
        corpus.reasons,
        answer_truncated,
        len(atoms) - checked,
    )


def _judge_atoms(
    text: str,
    atoms: list[Atom],
    spans: list[tuple[int, int]],
    sentence_of: list[int],
    index: EvidenceIndex,
    band: float,
    deriver: Deriver | None,
) -> list[tuple[Atom, AtomContext, Judgement]]:
    """The atoms judged, in order, until the work budget is spent; the rest are unchecked. A
    sentence's second derivation searches run once its last atom is judged, so the budget pays for
    them before the next sentence's atoms."""
    budget = index.budget
    judged: list[tuple[Atom, AtomContext, Judgement]] = []
    sentence_first = 0  # where in ``judged`` the sentence being judged starts
    for position, (atom, sentence) in enumerate(zip(atoms, sentence_of, strict=True)):
        if position and sentence != sentence_of[position - 1]:
            if not _search_again(judged, sentence_first, deriver, atom.start):
                return judged
            sentence_first = position
        if budget.spent:
            break  # the rest are reported unchecked: no verdict ever comes from a cut-short search
        budget.left -= ATOM
        previous_end = atoms[position - 1].end if position else 0
        next_start = atoms[position + 1].start if position + 1 < len(atoms) else len(text)
        previous = spans[sentence - 1] if sentence else None
        around = AtomContext(
            text, atom.start, atom.end, spans[sentence], (previous_end, next_start), previous
        )
        try:
            judgement = judge(atom, index, around, band, deriver)
        except BudgetSpent:
            break  # its derivation search could not be paid for: unchecked too
        if deriver is not None and judgement.verdict == "supported":
            deriver.note(atom, judgement.hit)
        judged.append((atom, around, judgement))
    unjudged_from = atoms[len(judged)].start if len(judged) < len(atoms) else len(text)
    _search_again(judged, sentence_first, deriver, unjudged_from)
    return judged


def _search_again(
    judged: list[tuple[Atom, AtomContext, Judgement]], first: int, deriver: Deriver | None, unjudged_from: int
) -> bool:
    """Second searches for the sentence ``judged[first:]``, in place; the first one the budget
    cannot give drops its atom and the rest (unchecked, as in the first pass) and returns False."""
    if deriver is None:
        return True
    for position in range(first, len(judged)):
        atom, around, judgement = judged[position]
        try:
            judged[position] = (atom, around, _rederived(atom, around, judgement, deriver, unjudged_from))
        except BudgetSpent:
            del judged[position:]
            return False
    return True


def _rederived(
    atom: Atom, around: AtomContext, judgement: Judgement, deriver: Deriver, unjudged_from: int
) -> Judgement:
    """A figure not supported at first, searched again once the figures after it in its sentence
    have their evidence ("up 25% to $1.25M from $1.0M" cites its operands after the percent).
    Figures of its sentence from ``unjudged_from`` on were never judged (the budget ran out): their
    evidence could derive it, so a worded figure gets no verdict then."""
    value = atom.value
    if judgement.verdict == "supported" or not isinstance(value, Quantity):
        return judgement
    if around.upper > unjudged_from and deriver.operations(atom, value, around):
        raise BudgetSpent
    if not deriver.cited_after(atom, around):
        return judgement
    derived = deriver.derive(atom, value, around)
    return judgement if derived is None else Judgement("supported", derived.reason, derivation=derived)


def _items(evidence: Iterable[Any] | Evidence | Mapping[str, Any] | str | None) -> Iterable[Any]:
    if evidence is None:
        return ()
    if isinstance(evidence, str | bytes | Mapping | Evidence) or not isinstance(evidence, Iterable):
        return (evidence,)
    return evidence


def _sentence_numbers(atoms: list[Atom], spans: list[tuple[int, int]]) -> list[int]:
    numbers = []
    current = 0
    for atom in atoms:
        while current + 1 < len(spans) and spans[current][1] <= atom.start:
            current += 1
        numbers.append(current)
    return numbers


def _verdict(atom: Atom, judgement: Judgement) -> AtomVerdict:
    hit, derivation = judgement.hit, judgement.derivation
    citation = derivation.citation() if derivation is not None else None if hit is None else hit.citation()
    return AtomVerdict(
        kind=atom.kind,
        text=atom.text,
        value=_normalized(atom, judgement.reading),
        start=atom.start,
        end=atom.end,
        verdict=judgement.verdict,
        reason=judgement.reason,
        citation=citation,
        nearest_evidence=citation.text
        if citation is not None and judgement.verdict == "contradicted"
        else None,
    )


def _normalized(atom: Atom, reading: DateReading | None) -> NormalizedValue:
    value = atom.value
    if isinstance(value, Quantity):
        return value.value if math.isfinite(value.value) else None
    if isinstance(value, CalendarDate):
        readings = (reading,) if reading is not None else value.readings
        return "|".join(_iso(r) for r in readings)
    return value.normalized


def _iso(reading: DateReading) -> str:
    year, month, day = reading
    text = f"{year:04d}" if year is not None else "-"
    if month is not None:
        text += f"-{month:02d}"
        if day is not None:
            text += f"-{day:02d}"
    return text


def _report(
    policy: GroundednessPolicy,
    verdicts: list[AtomVerdict],
    sentence_of: list[int],
    no_evidence: bool,
    truncation: set[TruncationReason],
    answer_truncated: bool,
    unchecked: int,
) -> GroundednessReport:
    outcome = [verdict.verdict for verdict in verdicts]
    supported = tuple(v for v in verdicts if v.verdict == "supported")
    contradicted = tuple(v for v in verdicts if v.verdict == "contradicted")
    unsupported = tuple(v for v in verdicts if v.verdict == "unsupported")
    ratio: float | None = None
    sentences: float | None = None
    strict: bool | None = None
    label: Label = "no_evidence" if no_evidence else "no_factual_content"
    if verdicts and not no_evidence:
        ratio = rules.atom_ratio(outcome)
        sentences = rules.sentence_score(outcome, sentence_of)
        strict = rules.strict_pass(outcome)
        label = rules.label(
            policy.label_rule, ratio, sentences, strict, len(contradicted), policy.min_alert_score
        )
    return GroundednessReport(
        score=ratio,
        total_atoms=len(verdicts),
        supported=supported,
        contradicted=contradicted,
        unsupported=unsupported,
        no_factual_content=not verdicts,
        no_evidence=no_evidence,
        evidence_truncated=bool(truncation),
        label=label,
        strict_pass=strict,
        sentence_score=sentences,
        rule=policy.label_rule,
        answer_truncated=answer_truncated,
        evidence_truncation_reasons=ordered_reasons(truncation),
        budget_exceeded=unchecked > 0,
        atoms_unchecked=unchecked,
    )
