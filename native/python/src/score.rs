//! `_native.score`: the whole `score()` pipeline. The evidence is walked into the engine's corpus
//! (with the GIL: it reads Python objects), everything after runs with the GIL released, and the
//! result comes back as plain data `scoring/scorer.py` turns into a `GroundednessReport`.

use std::borrow::Cow;

use groundedness_engine::offsets::CharOffsets;
use groundedness_engine::pytext::lossy;
use groundedness_engine::scorer::{self, normalized, Normalized, Scored};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple, PyType};

use crate::boundary::{detached, NativeEngineError};
use crate::citation::{citation_fields, citation_tuple};
use crate::evidence::{text_of, walk, SourceLabels};
use crate::policy::policy_of;
use crate::report::instance;

/// A Python `str` as the engine reads it: UTF-8, a lone surrogate as U+FFFD (same byte and
/// code-point length; the report's texts are sliced from the Python string, so it is kept there).
fn engine_text(text: &Bound<'_, PyString>) -> PyResult<String> {
    Ok(match text_of(text)? {
        Cow::Borrowed(bytes) => lossy(bytes).into_owned(),
        Cow::Owned(bytes) => lossy(&bytes).into_owned(),
    })
}

/// The report types `verdicts` makes directly: `AtomVerdict` and `Citation`.
type ReportTypes<'py> = (Bound<'py, PyType>, Bound<'py, PyType>);

/// A `Citation` of a directly cited value (no operation, no operands).
fn citation_object<'py>(
    class: &Bound<'py, PyType>,
    fields: &[Bound<'py, PyAny>; 9],
) -> PyResult<Bound<'py, PyAny>> {
    let py = class.py();
    let [evidence_index, source_id, source_kind, name, path, start, end, text, cell] = fields;
    let none = py.None().into_bound(py);
    let empty = PyTuple::empty(py).into_any();
    instance(
        class,
        &[
            (intern!(py, "evidence_index"), evidence_index),
            (intern!(py, "source_id"), source_id),
            (intern!(py, "source_kind"), source_kind),
            (intern!(py, "name"), name),
            (intern!(py, "path"), path),
            (intern!(py, "start"), start),
            (intern!(py, "end"), end),
            (intern!(py, "text"), text),
            (intern!(py, "operation"), &none),
            (intern!(py, "operands"), &empty),
            (intern!(py, "cell"), cell),
        ],
    )
}

/// Per judged atom: an `AtomVerdict`, made here; for a derived figure, whose citation
/// `engine.py` builds (its text is `derivation_formula`'s), `(kind, start, end, normalized,
/// verdict, reason, None, operation, operands' citations)` (offsets in code points).
fn verdicts<'py>(
    py: Python<'py>,
    scored: &Scored<'_>,
    labels: &SourceLabels<'py>,
    answer: &Bound<'py, PyString>,
    types: &ReportTypes<'py>,
) -> PyResult<Bound<'py, PyList>> {
    let (verdict_type, citation_type) = types;
    let mut offsets = CharOffsets::new(scored.text);
    let corpus = scored.corpus();
    let mut out = Vec::with_capacity(scored.judged.len());
    for (atom, judgement) in scored.atoms.iter().zip(&scored.judged) {
        let value = match normalized(atom, judgement.reading.as_ref()) {
            Normalized::Number(number) => number.into_pyobject(py)?.into_any(),
            Normalized::Text(text) => text.into_pyobject(py)?.into_any(),
        };
        if judgement.derivation.is_none() {
            let citation = match (&judgement.hit, corpus) {
                (Some(hit), Some(corpus)) => Some(citation_object(
                    citation_type,
                    &citation_fields(py, labels, &hit.citation(corpus))?,
                )?),
                _ => None,
            };
            let (start, end) = (offsets.of(atom.start), offsets.of(atom.end));
            let text = match scored.text.get(atom.start..atom.end) {
                Some(text) => PyString::new(py, text).into_any(),
                None => answer.get_item(pyo3::types::PySlice::new(
                    py,
                    isize::try_from(start).unwrap_or(isize::MAX),
                    isize::try_from(end).unwrap_or(isize::MAX),
                    1,
                ))?,
            };
            let verdict = judgement.verdict.as_str();
            let nearest = match &citation {
                Some(citation) if verdict == "contradicted" => {
                    citation.getattr(intern!(py, "text"))?
                }
                _ => py.None().into_bound(py),
            };
            let citation = citation.unwrap_or_else(|| py.None().into_bound(py));
            out.push(instance(
                verdict_type,
                &[
                    (
                        intern!(py, "kind"),
                        &PyString::new(py, atom.kind.as_str()).into_any(),
                    ),
                    (intern!(py, "text"), &text),
                    (intern!(py, "value"), &value),
                    (intern!(py, "start"), &start.into_pyobject(py)?.into_any()),
                    (intern!(py, "end"), &end.into_pyobject(py)?.into_any()),
                    (
                        intern!(py, "verdict"),
                        &PyString::new(py, verdict).into_any(),
                    ),
                    (
                        intern!(py, "reason"),
                        &PyString::new(py, judgement.reason.as_str()).into_any(),
                    ),
                    (intern!(py, "citation"), &citation),
                    (intern!(py, "nearest_evidence"), &nearest),
                ],
            )?);
            continue;
        }
        let cite = |hit: &groundedness_engine::hit::Hit| match corpus {
            Some(corpus) => citation_tuple(py, labels, &hit.citation(corpus)).map(Some),
            None => Ok(None),
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
                py.None(),
                operation,
                operands,
            )
                .into_pyobject(py)?
                .into_any(),
        );
    }
    PyList::new(py, out)
}

/// Scores `answer` against `items` (an iterable of evidence items) under `policy` (a
/// `GroundednessPolicy`). Returns `(verdicts, no_evidence, truncation reasons,
/// answer_truncated, unchecked, (ratio, sentence_score, strict) or None, label)`; `types` =
/// `(AtomVerdict, Citation)`: every verdict but a derived figure's is made as an `AtomVerdict`
/// (see `verdicts`).
#[pyfunction]
#[pyo3(signature = (answer, items, user_prompt, policy, types))]
fn score<'py>(
    py: Python<'py>,
    answer: &Bound<'py, PyString>,
    items: &Bound<'py, PyAny>,
    user_prompt: Option<&Bound<'py, PyAny>>,
    policy: &Bound<'py, PyAny>,
    types: ReportTypes<'py>,
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
    let found = verdicts(py, &scored, &labels, answer, &types)?;
    let (no_evidence, answer_truncated, label) = (
        scored.no_evidence,
        scored.answer_truncated,
        scored.label.as_str(),
    );
    let unchecked = scored.atoms.len() - scored.judged.len();
    // The engine's index and atoms are freed without the GIL (other threads score meanwhile).
    py.detach(move || drop(scored));
    (
        found,
        no_evidence,
        reasons,
        answer_truncated,
        unchecked,
        figures,
        label,
    )
        .into_pyobject(py)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(score, module)?)
}
