//! One-edit relations of identifiers and digit strings, for the tests (`tests/scoring`).

use groundedness_engine::identifier_index;
use pyo3::prelude::*;

#[pyfunction]
fn one_edit_apart(first: &str, second: &str) -> bool {
    identifier_index::one_edit_apart(first, second)
}

#[pyfunction]
fn one_edit_numbers(digits: &str) -> Vec<f64> {
    identifier_index::one_edit_numbers(digits)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(one_edit_apart, module)?)?;
    module.add_function(wrap_pyfunction!(one_edit_numbers, module)?)
}
