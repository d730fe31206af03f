//! The text-table leaves of the engine with plain Python data in and out, for the differential
//! tests against `scoring/tables.py` and `scoring/table_text.py`.

use std::collections::HashSet;

use groundedness_engine::tables;
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;

#[pyfunction]
fn table_figure(text: &str) -> Option<(f64, bool, Option<&'static str>)> {
    tables::figure(text).map(|found| (found.value, found.percent, found.currency))
}

/// `scale_note`, raising `KeyError` where Python's does.
#[pyfunction]
fn scale_note(text: &str) -> PyResult<Option<(i32, Option<&'static str>)>> {
    tables::scale_note(text).map_err(|unknown| PyKeyError::new_err(unknown.0))
}

#[pyfunction]
fn table_tokens(text: &str) -> HashSet<String> {
    tables::tokens(text)
}

#[pyfunction]
fn acronyms(text: &str) -> HashSet<String> {
    tables::acronyms(text)
}

#[pyfunction]
fn is_header_text(text: &str) -> bool {
    tables::is_header_text(text)
}

#[pyfunction]
fn spanned(texts: Vec<String>, width: usize) -> Vec<String> {
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    tables::spanned(&texts, width)
}

#[pyfunction]
fn row_label(texts: Vec<String>) -> (Option<String>, usize) {
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    tables::label(&texts)
}

#[pyfunction]
fn is_total(label: &str) -> bool {
    tables::total(label)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(table_figure, module)?)?;
    module.add_function(wrap_pyfunction!(scale_note, module)?)?;
    module.add_function(wrap_pyfunction!(table_tokens, module)?)?;
    module.add_function(wrap_pyfunction!(acronyms, module)?)?;
    module.add_function(wrap_pyfunction!(is_header_text, module)?)?;
    module.add_function(wrap_pyfunction!(spanned, module)?)?;
    module.add_function(wrap_pyfunction!(row_label, module)?)?;
    module.add_function(wrap_pyfunction!(is_total, module)?)?;
    Ok(())
}
