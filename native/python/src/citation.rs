//! A hit's citation as Python objects: its fields, or the report's plain tuple of them
//! (`scoring/engine.py` builds a derived figure's `Citation` from its operands' tuples).

use groundedness_engine::fxhash::FxHashMap as HashMap;
use groundedness_engine::hit::Citation;
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

/// The vocabulary names and source kinds one report repeats on every verdict, each made once.
pub(crate) struct Names<'py> {
    py: Python<'py>,
    names: HashMap<&'static str, Bound<'py, PyString>>,
    /// The source kind cited last (nearly every citation cites the same one).
    kind: Option<(Vec<u8>, Bound<'py, PyAny>)>,
}

impl<'py> Names<'py> {
    pub(crate) fn new(py: Python<'py>) -> Self {
        Names {
            py,
            names: HashMap::default(),
            kind: None,
        }
    }

    pub(crate) fn get(&mut self, name: &'static str) -> Bound<'py, PyString> {
        let py = self.py;
        self.names
            .entry(name)
            .or_insert_with(|| PyString::new(py, name))
            .clone()
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
