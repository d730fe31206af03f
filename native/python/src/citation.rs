//! A hit's citation as the report's plain tuple (`scoring/engine.py` builds the `Citation`).

use groundedness_engine::hit::Citation;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::evidence::{py_text, SourceLabels};

fn optional<'py>(py: Python<'py>, text: Option<&[u8]>) -> PyResult<Bound<'py, PyAny>> {
    match text {
        Some(text) => py_text(py, text),
        None => Ok(py.None().into_bound(py)),
    }
}

/// A citation as `(evidence_index, source_id, source_kind, name, path, start, end, text, cell)`;
/// an `Evidence` item's labels are cited as the caller gave them.
pub(crate) fn citation_tuple<'py>(
    py: Python<'py>,
    labels: &SourceLabels<'py>,
    cited: &Citation,
) -> PyResult<Bound<'py, PyTuple>> {
    let given = cited
        .evidence_index
        .and_then(|index| labels.get(index))
        .and_then(Option::as_ref);
    let [source_id, source_kind, name] = match given {
        Some(given) => given.clone(),
        None => [
            optional(py, cited.source_id.as_deref())?,
            py_text(py, &cited.source_kind)?,
            optional(py, cited.name.as_deref())?,
        ],
    };
    (
        cited.evidence_index,
        source_id,
        source_kind,
        name,
        optional(py, cited.path.as_deref())?,
        cited.start,
        cited.end,
        py_text(py, &cited.text)?,
        optional(py, cited.cell.as_deref())?,
    )
        .into_pyobject(py)
}
