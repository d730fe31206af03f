//! `_native.score`: the whole `score()` pipeline. The evidence is converted into the engine's
//! arena (with the GIL: it reads Python objects); the walk, the scoring and everything the
//! report's objects are made of (offsets, values, citations) are computed with the GIL released,
//! in one stretch; only the objects themselves are made with it held, and
//! `scoring/engine.py` turns them into a `GroundednessReport`.

use groundedness_engine::corpus;
use groundedness_engine::offsets::CharOffsets;
use groundedness_engine::pytext::lossy;
use groundedness_engine::scorer::{self, normalized, Normalized, Scored};
use groundedness_engine::vocabulary::{AtomKind, DerivedOperation, Reason, Verdict};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice, PyString, PyTuple, PyType};

use crate::boundary::{detached, NativeEngineError};
use crate::citation::{citation_fields, Cite, Names, Texts};
use crate::evidence::{convert, py_text, text_of, SourceLabels};
use crate::policy::policy_of;
use crate::report::Slots;

/// The report types `verdicts` makes directly: `AtomVerdict` and `Citation`.
type ReportTypes<'py> = (Bound<'py, PyType>, Bound<'py, PyType>);

/// One judged atom as plain data: everything its verdict object is made of.
struct Row {
    kind: AtomKind,
    /// In code points.
    start: usize,
    end: usize,
    /// The atom's bytes in the engine's answer text (None: sliced from the Python string).
    text: Option<(usize, usize)>,
    value: Value,
    verdict: Verdict,
    reason: Reason,
    cited: Cited,
}

/// An atom's normalized value, a text in `Texts`.
enum Value {
    Number(Option<f64>),
    Text((usize, usize)),
}

enum Cited {
    /// A directly cited value (or none: no hit, or nothing indexed).
    Value(Option<Cite>),
    /// A derived figure: its operation and its operands' citations (None: nothing indexed).
    Derived(DerivedOperation, Vec<Option<Cite>>),
}

/// What one call found, computed without the GIL.
struct Found {
    rows: Vec<Row>,
    texts: Texts,
    no_evidence: bool,
    reasons: Vec<&'static str>,
    answer_truncated: bool,
    unchecked: usize,
    figures: Option<(f64, f64, bool)>,
    label: &'static str,
}

/// Why a call stopped before scoring: an exception already known to the caller is raised.
enum Stop {
    /// The walk reached a value whose reading raised.
    Raised,
    /// The user prompt is not a `str`.
    Prompt,
    Refused(&'static str),
}

impl Found {
    /// The report's data of `scored` (the engine's state it reads is freed by the caller).
    fn of(scored: &Scored<'_>) -> Found {
        let mut offsets = CharOffsets::new(scored.text);
        let corpus = scored.corpus();
        let mut texts = Texts::default();
        let cite = |hit: &groundedness_engine::hit::Hit, texts: &mut Texts| {
            corpus.map(|corpus| Cite::new(&hit.citation(corpus), texts))
        };
        let rows = scored
            .atoms
            .iter()
            .zip(&scored.judged)
            .map(|(atom, judgement)| Row {
                kind: atom.kind,
                start: offsets.of(atom.start),
                end: offsets.of(atom.end),
                text: scored
                    .text
                    .get(atom.start..atom.end)
                    .map(|_| (atom.start, atom.end)),
                value: match normalized(atom, judgement.reading.as_ref()) {
                    Normalized::Number(number) => Value::Number(number),
                    Normalized::Text(text) => Value::Text(texts.push(text.as_bytes())),
                },
                verdict: judgement.verdict,
                reason: judgement.reason,
                cited: match &judgement.derivation {
                    Some(derivation) => Cited::Derived(
                        derivation.operation,
                        derivation
                            .operands
                            .iter()
                            .map(|hit| cite(hit, &mut texts))
                            .collect(),
                    ),
                    None => {
                        Cited::Value(judgement.hit.as_ref().and_then(|hit| cite(hit, &mut texts)))
                    }
                },
            })
            .collect();
        Found {
            rows,
            texts,
            no_evidence: scored.no_evidence,
            reasons: scored.truncation.iter().map(|r| r.as_str()).collect(),
            answer_truncated: scored.answer_truncated,
            unchecked: scored.atoms.len() - scored.judged.len(),
            figures: scored.figures.map(|f| (f.ratio, f.sentences, f.strict)),
            label: scored.label.as_str(),
        }
    }
}

/// `AtomVerdict`'s fields, in the order `verdicts` gives them.
fn verdict_slots<'py>(class: &Bound<'py, PyType>) -> PyResult<Slots<'py, 9>> {
    let py = class.py();
    Slots::probe(
        class,
        [
            intern!(py, "kind"),
            intern!(py, "text"),
            intern!(py, "value"),
            intern!(py, "start"),
            intern!(py, "end"),
            intern!(py, "verdict"),
            intern!(py, "reason"),
            intern!(py, "citation"),
            intern!(py, "nearest_evidence"),
        ],
    )
}

/// `Citation`'s fields: `citation_fields`' order, then `operation` and `operands`.
fn citation_slots<'py>(class: &Bound<'py, PyType>) -> PyResult<Slots<'py, 11>> {
    let py = class.py();
    Slots::probe(
        class,
        [
            intern!(py, "evidence_index"),
            intern!(py, "source_id"),
            intern!(py, "source_kind"),
            intern!(py, "name"),
            intern!(py, "path"),
            intern!(py, "start"),
            intern!(py, "end"),
            intern!(py, "text"),
            intern!(py, "cell"),
            intern!(py, "operation"),
            intern!(py, "operands"),
        ],
    )
}

/// A `Citation` of a directly cited value (no operation, no operands).
fn citation_object<'py>(
    slots: &Slots<'py, 11>,
    fields: &[Bound<'py, PyAny>; 9],
) -> PyResult<Bound<'py, PyAny>> {
    let [evidence_index, source_id, source_kind, name, path, start, end, text, cell] = fields;
    let py = evidence_index.py();
    let none = py.None().into_bound(py);
    let empty = PyTuple::empty(py).into_any();
    slots.instance([
        evidence_index,
        source_id,
        source_kind,
        name,
        path,
        start,
        end,
        text,
        cell,
        &none,
        &empty,
    ])
}

fn value_object<'py>(py: Python<'py>, value: &Value, texts: &Texts) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Number(number) => number.into_pyobject(py)?.into_any(),
        Value::Text(run) => py_text(py, texts.get(*run))?,
    })
}

/// The verdicts by verdict (supported, contradicted, unsupported), each in the answer's order,
/// and where the derived figures are among them as `(group, position)`: each an `AtomVerdict`
/// made here but a derived figure's, whose citation `engine.py` builds (its text is
/// `derivation_formula`'s), given as `(kind, start, end, normalized, verdict, reason, None,
/// operation, operands' citations)` (offsets in code points).
fn verdicts<'py>(
    py: Python<'py>,
    found: &Found,
    text: &str,
    labels: &SourceLabels<'py>,
    answer: &Bound<'py, PyString>,
    types: &ReportTypes<'py>,
) -> PyResult<Bound<'py, PyTuple>> {
    let (verdict_slots, citation_slots) = (verdict_slots(&types.0)?, citation_slots(&types.1)?);
    let texts = &found.texts;
    let mut names = Names::new(py);
    let groups = [PyList::empty(py), PyList::empty(py), PyList::empty(py)];
    let derived = PyList::empty(py);
    for row in &found.rows {
        let group = match row.verdict {
            Verdict::Supported => 0,
            Verdict::Contradicted => 1,
            Verdict::Unsupported => 2,
        };
        let Some(list) = groups.get(group) else {
            continue;
        };
        let (start, end) = (row.start.into_pyobject(py)?, row.end.into_pyobject(py)?);
        let cited = match &row.cited {
            Cited::Value(cited) => cited,
            Cited::Derived(operation, operands) => {
                let operands = operands
                    .iter()
                    .map(|cited| match cited {
                        Some(cited) => {
                            let fields =
                                citation_fields(py, labels, cited, texts, &mut names, None)?;
                            PyTuple::new(py, fields).map(Bound::into_any)
                        }
                        None => Ok(py.None().into_bound(py)),
                    })
                    .collect::<PyResult<Vec<_>>>()?;
                derived.append((group, list.len()))?;
                list.append((
                    names.kind(row.kind),
                    start,
                    end,
                    value_object(py, &row.value, texts)?,
                    names.verdict(row.verdict),
                    names.reason(row.reason),
                    py.None(),
                    names.operation(*operation),
                    operands,
                ))?;
                continue;
            }
        };
        let quoted = row.text.and_then(|(from, to)| text.get(from..to));
        let atom_text = match quoted {
            Some(quoted) => PyString::new(py, quoted).into_any(),
            None => answer.get_item(PySlice::new(
                py,
                isize::try_from(row.start).unwrap_or(isize::MAX),
                isize::try_from(row.end).unwrap_or(isize::MAX),
                1,
            ))?,
        };
        // The atom's text, when its value or its citation quotes it, is the same object.
        let quoted = quoted.map(|quoted| (quoted.as_bytes(), &atom_text));
        let value = match (&row.value, quoted) {
            (Value::Text(run), Some((quoted, object))) if texts.get(*run) == quoted => {
                object.clone()
            }
            (value, _) => value_object(py, value, texts)?,
        };
        let (citation, nearest) = match cited {
            Some(cited) => {
                let fields = citation_fields(py, labels, cited, texts, &mut names, quoted)?;
                let [_, _, _, _, _, _, _, cited_text, _] = &fields;
                let nearest = match row.verdict {
                    Verdict::Contradicted => cited_text.clone(),
                    _ => py.None().into_bound(py),
                };
                (citation_object(&citation_slots, &fields)?, nearest)
            }
            None => (py.None().into_bound(py), py.None().into_bound(py)),
        };
        list.append(verdict_slots.instance([
            names.kind(row.kind).as_any(),
            &atom_text,
            &value,
            start.as_any(),
            end.as_any(),
            names.verdict(row.verdict).as_any(),
            names.reason(row.reason).as_any(),
            &citation,
            &nearest,
        ])?)?;
    }
    let [supported, contradicted, unsupported] = groups;
    PyTuple::new(py, [supported, contradicted, unsupported, derived])
}

/// Scores `answer` against `items` (an iterable of evidence items) under `policy` (a
/// `GroundednessPolicy`). Returns `((supported, contradicted, unsupported, derived),
/// no_evidence, truncation reasons, answer_truncated, unchecked, (ratio, sentence_score, strict)
/// or None, label)`; `types` = `(AtomVerdict, Citation)`: see `verdicts`.
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
    let converted = convert(py, items, prompt, max_bytes, policy.anchor_date.is_some())?;
    let (evidence, settings) = (converted.evidence, converted.settings);
    let may_raise = converted.raised.is_some();
    // The texts are borrowed from the `str` objects, which the caller keeps alive (and a `str`
    // never changes): read without the GIL, as a lone surrogate's U+FFFD (same byte and
    // code-point length; the report's texts are sliced from the Python string, so it is kept
    // there).
    let answer_bytes = text_of(answer)?;
    let question = user_prompt.map(|prompt| prompt.cast::<PyString>().map_err(PyErr::from));
    let question_bytes = match &question {
        Some(Ok(prompt)) => Some(Ok(text_of(prompt)?)),
        Some(Err(_)) => Some(Err(())),
        None => None,
    };
    let outcome = detached(py, || {
        let corpus = corpus::collect(evidence, settings);
        if corpus.raised && may_raise {
            return Err(Stop::Raised);
        }
        let question = match &question_bytes {
            Some(Ok(bytes)) => Some(lossy(bytes)),
            Some(Err(())) => return Err(Stop::Prompt),
            None => None,
        };
        let text = lossy(&answer_bytes);
        let found = scorer::score(&text, corpus, question.as_deref(), &policy)
            .map(|scored| Found::of(&scored))
            .map_err(Stop::Refused)?;
        Ok((found, text))
    })?;
    let (found, text) = match outcome {
        Ok(found) => found,
        Err(Stop::Raised) => {
            return Err(converted
                .raised
                .unwrap_or_else(|| NativeEngineError::new_err("the walk raised")))
        }
        Err(Stop::Prompt) => {
            return match question {
                Some(Err(error)) => Err(error),
                _ => Err(NativeEngineError::new_err("the user prompt is not a str")),
            }
        }
        Err(Stop::Refused(why)) => {
            return Err(NativeEngineError::new_err(format!(
                "native engine refused the input: {why}"
            )))
        }
    };
    let verdicts = verdicts(py, &found, &text, &converted.labels, answer, &types)?;
    (
        verdicts,
        found.no_evidence,
        found.reasons,
        found.answer_truncated,
        found.unchecked,
        found.figures,
        found.label,
    )
        .into_pyobject(py)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(score, module)?)
}
