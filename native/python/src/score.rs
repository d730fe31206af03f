//! `_native.score`: the whole `score()` pipeline. The evidence is walked into the engine's corpus
//! (with the GIL: it reads Python objects), everything after runs with the GIL released, and the
//! result comes back as plain data `scoring/scorer.py` turns into a `GroundednessReport`.

use std::borrow::Cow;

use groundedness_engine::offsets::CharOffsets;
use groundedness_engine::pytext::lossy;
use groundedness_engine::scorer::{self, normalized, Normalized, Scored};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::boundary::{detached, NativeEngineError};
use crate::citation::citation_tuple;
use crate::evidence::{text_of, walk, SourceLabels};
use crate::policy::policy_of;

/// A Python `str` as the engine reads it: UTF-8, a lone surrogate as U+FFFD (same byte and
/// code-point length; the report's texts are sliced from the Python string, so it is kept there).
fn engine_text(text: &Bound<'_, PyString>) -> PyResult<String> {
    Ok(match text_of(text)? {
        Cow::Borrowed(bytes) => lossy(bytes).into_owned(),
        Cow::Owned(bytes) => lossy(&bytes).into_owned(),
    })
}

/// `(kind, start, end, normalized, verdict, reason, citation, operation, operands)` per judged atom
/// (offsets in code points; a derived figure has no citation of its own, its operation and its
/// operands' citations instead).
fn verdicts<'py>(
    py: Python<'py>,
    scored: &Scored<'_>,
    labels: &SourceLabels<'py>,
) -> PyResult<Bound<'py, PyList>> {
    let mut offsets = CharOffsets::new(scored.text);
    let corpus = scored.corpus();
    let mut out = Vec::with_capacity(scored.judged.len());
    for (atom, judgement) in scored.atoms.iter().zip(&scored.judged) {
        let value = match normalized(atom, judgement.reading.as_ref()) {
            Normalized::Number(number) => number.into_pyobject(py)?.into_any(),
            Normalized::Text(text) => text.into_pyobject(py)?.into_any(),
        };
        let cite = |hit: &groundedness_engine::hit::Hit| match corpus {
            Some(corpus) => citation_tuple(py, labels, &hit.citation(corpus)).map(Some),
            None => Ok(None),
        };
        let citation = match &judgement.hit {
            Some(hit) => cite(hit)?,
            None => None,
        };
        let (operation, operands) = match &judgement.derivation {
            Some(derivation) => (
                Some(derivation.operation.as_str()),
                derivation
                    .operands
                    .iter()
                    .map(|hit| cite(hit))
                    .collect::<PyResult<Vec<_>>>()?,
            ),
            None => (None, Vec::new()),
        };
        out.push(
            (
                atom.kind.as_str(),
                offsets.of(atom.start),
                offsets.of(atom.end),
                value,
                judgement.verdict.as_str(),
                judgement.reason.as_str(),
                citation,
                operation,
                operands,
            )
                .into_pyobject(py)?,
        );
    }
    PyList::new(py, out)
}

/// Scores `answer` against `items` (an iterable of evidence items) under `policy` (a
/// `GroundednessPolicy`). Returns `(verdicts, no_evidence, truncation reasons,
/// answer_truncated, unchecked, (ratio, sentence_score, strict) or None, label)`.
#[pyfunction]
#[pyo3(signature = (answer, items, user_prompt, policy))]
fn score<'py>(
    py: Python<'py>,
    answer: &Bound<'py, PyString>,
    items: &Bound<'py, PyAny>,
    user_prompt: Option<&Bound<'py, PyAny>>,
    policy: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyTuple>> {
    let policy = policy_of(policy)?;
    let prompt = user_prompt.filter(|_| policy.include_user_prompt_as_evidence);
    let max_bytes = i64::try_from(policy.max_evidence_bytes).unwrap_or(i64::MAX);
    let (corpus, labels) = walk(py, items, prompt, max_bytes, policy.anchor_date.is_some())?;
    let text = engine_text(answer)?;
    let question = match user_prompt {
        Some(prompt) => Some(engine_text(prompt.cast::<PyString>()?)?),
        None => None,
    };
    let scored = detached(py, || {
        scorer::score(&text, corpus, question.as_deref(), &policy)
    })?
    .map_err(|why| NativeEngineError::new_err(format!("native engine refused the input: {why}")))?;
    let reasons: Vec<&str> = scored.truncation.iter().map(|r| r.as_str()).collect();
    let figures = scored.figures.map(|f| (f.ratio, f.sentences, f.strict));
    (
        verdicts(py, &scored, &labels)?,
        scored.no_evidence,
        reasons,
        scored.answer_truncated,
        scored.atoms.len() - scored.judged.len(),
        figures,
        scored.label.as_str(),
    )
        .into_pyobject(py)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(score, module)?)
}
