//! A hit's citation as Python objects: its fields, or the report's plain tuple of them
//! (`scoring/engine.py` builds a derived figure's `Citation` from its operands' tuples).

use groundedness_engine::hit::Citation;
use groundedness_engine::vocabulary::{AtomKind, DerivedOperation, Reason, Verdict};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::evidence::{py_text, SourceLabels};

/// A run of `Texts`' bytes.
type Run = (usize, usize);

/// Every text of a report's citations and values in one buffer: made without the GIL, freed with
/// it held in one go.
#[derive(Default)]
pub(crate) struct Texts {
    bytes: Vec<u8>,
}

impl Texts {
    pub(crate) fn push(&mut self, text: &[u8]) -> Run {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(text);
        (start, self.bytes.len())
    }

    pub(crate) fn get(&self, (start, end): Run) -> &[u8] {
        self.bytes.get(start..end).unwrap_or_default()
    }
}

/// A hit's `Citation`, its texts in `Texts`.
pub(crate) struct Cite {
    evidence_index: Option<usize>,
    source_id: Option<Run>,
    source_kind: Run,
    name: Option<Run>,
    path: Option<Run>,
    start: Option<usize>,
    end: Option<usize>,
    text: Run,
    cell: Option<Run>,
}

impl Cite {
    pub(crate) fn new(cited: &Citation, texts: &mut Texts) -> Self {
        let mut optional = |text: &Option<Vec<u8>>| text.as_deref().map(|text| texts.push(text));
        let (source_id, name, path, cell) = (
            optional(&cited.source_id),
            optional(&cited.name),
            optional(&cited.path),
            optional(&cited.cell),
        );
        Cite {
            evidence_index: cited.evidence_index,
            source_id,
            source_kind: texts.push(&cited.source_kind),
            name,
            path,
            start: cited.start,
            end: cited.end,
            text: texts.push(&cited.text),
            cell,
        }
    }
}

/// The vocabulary names and source kinds one report repeats on every verdict, each made once
/// (vocabulary members by their position).
pub(crate) struct Names<'py> {
    py: Python<'py>,
    kinds: Vec<Option<Bound<'py, PyString>>>,
    verdicts: Vec<Option<Bound<'py, PyString>>>,
    reasons: Vec<Option<Bound<'py, PyString>>>,
    operations: Vec<Option<Bound<'py, PyString>>>,
    /// The source kind cited last (nearly every citation cites the same one).
    kind: Option<(Vec<u8>, Bound<'py, PyAny>)>,
}

/// The name at `at` of a vocabulary's names, made when first asked for.
fn made<'py>(
    py: Python<'py>,
    names: &mut [Option<Bound<'py, PyString>>],
    at: usize,
    name: &'static str,
) -> Bound<'py, PyString> {
    match names.get_mut(at) {
        Some(Some(made)) => made.clone(),
        Some(slot) => slot.insert(PyString::new(py, name)).clone(),
        None => PyString::new(py, name),
    }
}

impl<'py> Names<'py> {
    pub(crate) fn new(py: Python<'py>) -> Self {
        Names {
            py,
            kinds: vec![None; AtomKind::ALL.len()],
            verdicts: vec![None; Verdict::ALL.len()],
            reasons: vec![None; Reason::ALL.len()],
            operations: vec![None; DerivedOperation::ALL.len()],
            kind: None,
        }
    }

    pub(crate) fn kind(&mut self, kind: AtomKind) -> Bound<'py, PyString> {
        made(self.py, &mut self.kinds, kind as usize, kind.as_str())
    }

    pub(crate) fn verdict(&mut self, verdict: Verdict) -> Bound<'py, PyString> {
        made(
            self.py,
            &mut self.verdicts,
            verdict as usize,
            verdict.as_str(),
        )
    }

    pub(crate) fn reason(&mut self, reason: Reason) -> Bound<'py, PyString> {
        made(self.py, &mut self.reasons, reason as usize, reason.as_str())
    }

    pub(crate) fn operation(&mut self, operation: DerivedOperation) -> Bound<'py, PyString> {
        made(
            self.py,
            &mut self.operations,
            operation as usize,
            operation.as_str(),
        )
    }

    fn source_kind(&mut self, kind: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        if let Some((last, object)) = &self.kind {
            if last.as_slice() == kind {
                return Ok(object.clone());
            }
        }
        let object = py_text(self.py, kind)?;
        self.kind = Some((kind.to_vec(), object.clone()));
        Ok(object)
    }
}

fn optional<'py>(py: Python<'py>, texts: &Texts, run: Option<Run>) -> PyResult<Bound<'py, PyAny>> {
    match run {
        Some(run) => py_text(py, texts.get(run)),
        None => Ok(py.None().into_bound(py)),
    }
}

/// A citation's fields: `(evidence_index, source_id, source_kind, name, path, start, end, text,
/// cell)`; an `Evidence` item's labels are cited as the caller gave them. `quoted`: a text
/// already made (the atom's), reused when the citation's text is the same.
pub(crate) fn citation_fields<'py>(
    py: Python<'py>,
    labels: &SourceLabels<'py>,
    cited: &Cite,
    texts: &Texts,
    names: &mut Names<'py>,
    quoted: Option<(&[u8], &Bound<'py, PyAny>)>,
) -> PyResult<[Bound<'py, PyAny>; 9]> {
    let text = match quoted {
        Some((quoted, object)) if quoted == texts.get(cited.text) => object.clone(),
        _ => py_text(py, texts.get(cited.text))?,
    };
    let given = cited
        .evidence_index
        .and_then(|index| labels.get(index))
        .and_then(Option::as_ref);
    let [source_id, source_kind, name] = match given {
        Some(given) => given.clone(),
        None => [
            optional(py, texts, cited.source_id)?,
            names.source_kind(texts.get(cited.source_kind))?,
            optional(py, texts, cited.name)?,
        ],
    };
    Ok([
        cited.evidence_index.into_pyobject(py)?.into_any(),
        source_id,
        source_kind,
        name,
        optional(py, texts, cited.path)?,
        cited.start.into_pyobject(py)?.into_any(),
        cited.end.into_pyobject(py)?.into_any(),
        text,
        optional(py, texts, cited.cell)?,
    ])
}
