"""The rules computed over one answer's verdicts, side by side, and the label rule.

``atom_ratio`` (the main ``score``): supported atoms / all atoms. ``strict``: passes only when every
atom is supported. ``sentence``: share of sentences with atoms whose atoms are all supported.
Label (rule R's figure ``s``): ``grounded`` when s == 1; ``ungrounded`` when any atom is
contradicted or s < ``min_alert_score``; ``partially_grounded`` otherwise. Under ``strict`` the
label is ``grounded`` or ``ungrounded``.
"""

from __future__ import annotations

from collections.abc import Sequence

from otel_groundedness.scoring.policy import LabelRule
from otel_groundedness.scoring.results import Label, Verdict


def atom_ratio(verdicts: Sequence[Verdict]) -> float:
    return sum(1 for verdict in verdicts if verdict == "supported") / len(verdicts)


def strict_pass(verdicts: Sequence[Verdict]) -> bool:
    return all(verdict == "supported" for verdict in verdicts)


def sentence_score(verdicts: Sequence[Verdict], sentence_of: Sequence[int]) -> float:
    """``sentence_of[i]`` is the sentence number of the i-th atom."""
    failed: set[int] = set()
    for verdict, sentence in zip(verdicts, sentence_of, strict=True):
        if verdict != "supported":
            failed.add(sentence)
    sentences = set(sentence_of)
    return (len(sentences) - len(failed)) / len(sentences)


def label(
    rule: LabelRule, ratio: float, sentences: float, strict: bool, contradicted: int, min_alert_score: float
) -> Label:
    if rule == "strict":
        return "grounded" if strict else "ungrounded"
    figure = ratio if rule == "atom_ratio" else sentences
    if figure >= 1.0:
        return "grounded"
    if contradicted or figure < min_alert_score:
        return "ungrounded"
    return "partially_grounded"
