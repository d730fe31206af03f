//! The date index at the boundary, for the differential test against `EvidenceIndex.dates`.

use groundedness_engine::budget::WorkBudget;
use groundedness_engine::date_index::{DateEntry, DateIndex, RawYear, Reading};
use pyo3::prelude::*;

/// One lookup's entries (`("atom" | "scalar", position)` with the matched reading) and the budget
/// left after it.
type Answer = (Vec<((&'static str, usize), Reading)>, i64);

/// The answers of `queries` `(mask, reading)`: per query, its entries (`("atom" | "scalar",
/// position)` with the matched reading) and the budget left after it.
#[pyfunction]
fn date_queries(
    atoms: Vec<Vec<Reading>>,
    scalars: Vec<(f64, bool)>,
    queries: Vec<(u8, Reading)>,
    units: i64,
) -> Vec<Answer> {
    let scalars = scalars
        .into_iter()
        .map(|(value, float_literal)| RawYear {
            value,
            float_literal,
        })
        .collect();
    let mut index = DateIndex::new(&atoms, scalars);
    let mut budget = WorkBudget::new(units);
    queries
        .iter()
        .map(|(mask, reading)| {
            let found = index
                .dates(*mask, reading, &mut budget)
                .iter()
                .map(|&(entry, matched)| match entry {
                    DateEntry::Atom(position) => (("atom", position), matched),
                    DateEntry::Scalar(position) => (("scalar", position), matched),
                })
                .collect();
            (found, budget.left)
        })
        .collect()
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(date_queries, module)?)
}
