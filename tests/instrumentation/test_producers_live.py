"""Producers beyond the OpenAI client instrumentations, live: real frameworks against the fake model
server, each in its own interpreter (``scenario_runner``), with the processor in front of the exporter.

Every scenario: the clean answer scores 1.0, the transposed total ($1,234,500 for $1,243,500) is
contradicted, and every span the application ended is exported exactly once.
"""

from __future__ import annotations

from typing import Any

import pytest

from otel_groundedness.telemetry import names
from tests.instrumentation.conversation import ANSWER
from tests.instrumentation.frameworks import DOCUMENTS, RAG_QUESTION
from tests.instrumentation.scenarios import scenario

pytestmark = pytest.mark.instrumentation

SCENARIOS = ("openinference_langchain_rag",)


def scored_spans(run: dict[str, Any]) -> list[dict[str, Any]]:
    return [span for span in run["spans"] if names.ATTR_SCORE in span["groundedness"]]


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("mode", ["nonstream", "stream"])
def test_clean_answer_scores_one_and_every_span_is_exported_once(name: str, mode: str) -> None:
    run = scenario(name)["runs"][mode]
    assert run["exchange"]["answer"] == ANSWER
    assert len(run["spans"]) == run["ended"] > 0
    assert len({span["span_id"] for span in run["spans"]}) == run["ended"]
    (span,) = scored_spans(run)
    attributes = span["groundedness"]
    assert attributes[names.ATTR_SCORE] == 1.0 and attributes[names.ATTR_LABEL] == "grounded"
    assert attributes[names.ATTR_ATOMS_SUPPORTED] >= 3


@pytest.mark.parametrize("name", SCENARIOS)
def test_transposed_total_is_contradicted(name: str) -> None:
    run = scenario(name)["runs"]["corrupted"]
    assert len(run["spans"]) == run["ended"]
    (span,) = scored_spans(run)
    attributes = span["groundedness"]
    assert attributes[names.ATTR_ATOMS_CONTRADICTED] >= 1 and attributes[names.ATTR_LABEL] == "ungrounded"


def test_rag_only_flow_is_grounded_in_the_retrieved_documents_alone() -> None:
    result = scenario("openinference_langchain_rag")
    assert result["versions"]["openinference-instrumentation-langchain"] == "0.1.80"
    run = result["runs"]["nonstream"]
    facts = [span["facts"] for span in run["spans"] if span["facts"]]
    (retriever,) = [f for f in facts if f["context"]["operation"] == "retrieval"]
    evidence = retriever["evidence"]
    assert [(e["content"], e["kind"], e["name"]) for e in evidence] == [
        (text, "retrieval", metadata["source"]) for text, metadata in DOCUMENTS
    ]
    (llm,) = scored_spans(run)
    # The chat span carries no tool results and a prompt without figures: the documents are the evidence.
    assert llm["facts"]["evidence"] == [] and llm["facts"]["user_prompt"] == RAG_QUESTION
