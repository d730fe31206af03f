"""Turn entries as the replay and the demo write them, for report tests."""

from __future__ import annotations

from typing import Any


def atom(kind: str, text: str, answer: str, verdict: str, reason: str, path: str | None) -> dict[str, Any]:
    start = answer.index(text)
    citation = (
        None
        if path is None
        else {
            "evidence_index": 0,
            "source_id": "call_1",
            "source_kind": "tool_result",
            "name": "get_invoice",
            "path": path,
            "start": None,
            "end": None,
            "text": "1243500.0",
        }
    )
    return {
        "kind": kind,
        "text": text,
        "value": None,
        "start": start,
        "end": start + len(text),
        "verdict": verdict,
        "reason": reason,
        "citation": citation,
        "nearest_evidence": None,
    }


def sample_turns(scores: list[float], labels: list[str] | None = None) -> list[dict[str, Any]]:
    """One turn per score, labelled ``grounded`` at 1.0 and ``ungrounded`` below unless ``labels`` says
    otherwise; an ``ungrounded`` turn carries a contradicted amount, a ``partially_grounded`` one an
    unsupported amount."""
    turns = []
    for i, value in enumerate(scores):
        label = labels[i] if labels else "grounded" if value == 1.0 else "ungrounded"
        answer = f"Invoice INV-{2210 + i} totals $1,423,500 and is due on March 3, 2025."
        supported = [atom("identifier", f"INV-{2210 + i}", answer, "supported", "exact", "$.invoice_id")]
        contradicted = (
            [atom("money", "$1,423,500", answer, "contradicted", "digit_transposition", "$.total")]
            if label == "ungrounded"
            else []
        )
        unsupported = (
            [atom("money", "$1,423,500", answer, "unsupported", "not_found", None)]
            if label == "partially_grounded"
            else []
        )
        turns.append(
            {
                "trace_id": f"{i + 1:032x}",
                "span_id": f"{i + 1:016x}",
                "agent": "billing-agent",
                "model": "gpt-4o-mini",
                "label": label,
                "score": value,
                "answer": answer,
                "report": {"supported": supported, "contradicted": contradicted, "unsupported": unsupported},
            }
        )
    return turns
