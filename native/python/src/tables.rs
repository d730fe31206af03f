//! Text tables and scale notes as the engine reads them, in plain Python data for the tests.

use groundedness_engine::offsets::CharOffsets;
use groundedness_engine::{table_text, tables};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

#[pyfunction]
fn scale_note(text: &str) -> Option<(i32, Option<&'static str>)> {
    tables::scale_note(text)
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
    module.add_function(wrap_pyfunction!(scale_note, module)?)?;
    module.add_function(wrap_pyfunction!(text_tables, module)?)?;
    Ok(())
}
