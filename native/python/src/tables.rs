//! The text-table leaves of the engine with plain Python data in and out, for the differential
//! tests against `scoring/tables.py` and `scoring/table_text.py`.

use groundedness_engine::fxhash::FxHashSet as HashSet;
use groundedness_engine::offsets::CharOffsets;
use groundedness_engine::{table_text, tables};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

#[pyfunction]
fn table_figure(text: &str) -> Option<(f64, bool, Option<&'static str>)> {
    tables::figure(text).map(|found| (found.value, found.percent, found.currency))
}

#[pyfunction]
fn scale_note(text: &str) -> Option<(i32, Option<&'static str>)> {
    tables::scale_note(text)
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

#[pyfunction]
fn may_hold_table(text: &str) -> bool {
    table_text::may_hold_table(text)
}

type PyCell = (String, usize, usize);

/// Every table in `text`: (rows of (cell text, start, end), caption), offsets in code points;
/// `ValueError` where Python's `html.unescape` raises.
#[pyfunction]
fn text_tables(text: &str) -> PyResult<Vec<(Vec<Vec<PyCell>>, String)>> {
    let found = table_text::text_tables(text).map_err(|_| {
        PyValueError::new_err("Exceeds the limit (4300 digits) for integer string conversion")
    })?;
    let mut offsets = CharOffsets::new(text);
    let tables = found.into_iter().map(|table| {
        let rows = table.grid.into_iter().map(|row| {
            row.into_iter()
                .map(|cell| {
                    let (start, end) = (offsets.of(cell.start), offsets.of(cell.end));
                    (cell.text.into_owned(), start, end)
                })
                .collect()
        });
        (rows.collect(), table.caption.into_owned())
    });
    Ok(tables.collect())
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
    module.add_function(wrap_pyfunction!(may_hold_table, module)?)?;
    module.add_function(wrap_pyfunction!(text_tables, module)?)?;
    Ok(())
}
