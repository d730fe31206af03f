//! The identifier index and one-edit relations at the boundary, for the differential tests
//! against `EvidenceIndex` (`scoring/index.py`) and `scoring/verdicts.py`.

use groundedness_engine::budget::WorkBudget;
use groundedness_engine::identifier_index::{self, IdentifierIndex};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The answers of `queries` (`("exact" | "near" | "extending", shape, text)`) over the evidence
/// identifiers `(shape, normalized)`, each with the budget left after it.
#[pyfunction]
fn identifier_queries(
    identifiers: Vec<(String, String)>,
    queries: Vec<(String, String, String)>,
    units: i64,
) -> PyResult<Vec<(Vec<usize>, i64)>> {
    let index = IdentifierIndex::new(identifiers.iter().map(|(s, n)| (s.as_str(), n.as_str())));
    let mut budget = WorkBudget::new(units);
    queries
        .iter()
        .map(|(kind, shape, text)| {
            let found = match kind.as_str() {
                "exact" => index.identifiers(shape, text, &mut budget),
                "near" => index.near(shape, text, &mut budget),
                "extending" => index
                    .extending(shape, text, &mut budget)
                    .into_iter()
                    .collect(),
                _ => return Err(PyValueError::new_err(format!("unknown query {kind:?}"))),
            };
            Ok((found, budget.left))
        })
        .collect()
}

#[pyfunction]
fn one_edit_apart(first: &str, second: &str) -> bool {
    identifier_index::one_edit_apart(first, second)
}

#[pyfunction]
fn one_edit_numbers(digits: &str) -> Vec<f64> {
    identifier_index::one_edit_numbers(digits)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(identifier_queries, module)?)?;
    module.add_function(wrap_pyfunction!(one_edit_apart, module)?)?;
    module.add_function(wrap_pyfunction!(one_edit_numbers, module)?)
}
