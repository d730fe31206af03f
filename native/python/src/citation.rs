//! A hit's citation as Python objects: its fields, or the report's plain tuple of them
//! (`scoring/engine.py` builds a derived figure's `Citation` from its operands' tuples).

use groundedness_engine::fxhash::FxHashMap as HashMap;
use groundedness_engine::hit::Citation;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::evidence::{py_text, SourceLabels};

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

fn optional<'py>(py: Python<'py>, text: Option<&[u8]>) -> PyResult<Bound<'py, PyAny>> {
    match text {
        Some(text) => py_text(py, text),
        None => Ok(py.None().into_bound(py)),
    }
}

/// A citation's fields: `(evidence_index, source_id, source_kind, name, path, start, end, text,
/// cell)`; an `Evidence` item's labels are cited as the caller gave them. `quoted`: a text
/// already made (the atom's), reused when the citation's text is the same.
pub(crate) fn citation_fields<'py>(
    py: Python<'py>,
    labels: &SourceLabels<'py>,
    cited: &Citation,
    names: &mut Names<'py>,
    quoted: Option<(&[u8], &Bound<'py, PyAny>)>,
) -> PyResult<[Bound<'py, PyAny>; 9]> {
    let text = match quoted {
        Some((quoted, object)) if quoted == cited.text.as_slice() => object.clone(),
        _ => py_text(py, &cited.text)?,
    };
    let given = cited
        .evidence_index
        .and_then(|index| labels.get(index))
        .and_then(Option::as_ref);
    let [source_id, source_kind, name] = match given {
        Some(given) => given.clone(),
        None => [
            optional(py, cited.source_id.as_deref())?,
            names.source_kind(&cited.source_kind)?,
            optional(py, cited.name.as_deref())?,
        ],
    };
    Ok([
        cited.evidence_index.into_pyobject(py)?.into_any(),
        source_id,
        source_kind,
        name,
        optional(py, cited.path.as_deref())?,
        cited.start.into_pyobject(py)?.into_any(),
        cited.end.into_pyobject(py)?.into_any(),
        text,
        optional(py, cited.cell.as_deref())?,
    ])
}
