//! Range queries of one sorted group at the boundary, for the differential test against
//! `_NumericGroup` of `scoring/index.py`: each query's positions (in the caller's order) as far
//! as the caller reads them, and the budget left after it.

use groundedness_engine::budget::WorkBudget;
use groundedness_engine::digits::{Centers, VariantWindows, WindowRun};
use groundedness_engine::numeric_group::NumericGroup;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// One query: `("within", low, high, take)`, `("nearest", target, low, high, limit)`,
/// `("count", low, high)` or `("windows", runs, firsts, lasts, negative, take)`.
#[derive(FromPyObject)]
enum Query {
    Within(String, f64, f64, usize),
    Nearest(String, f64, f64, f64, usize),
    Count(String, f64, f64),
    Windows(
        String,
        Vec<(Vec<i64>, f64, f64)>,
        Vec<f64>,
        Vec<f64>,
        bool,
        usize,
    ),
}

/// The answers of `queries` on one group of `values`, all charged to one budget of `units`.
#[pyfunction]
fn numeric_group_queries(
    values: Vec<f64>,
    queries: Vec<Query>,
    units: i64,
) -> PyResult<Vec<(Vec<usize>, i64)>> {
    let group = NumericGroup::new(&values);
    let mut budget = WorkBudget::new(units);
    let original = |positions: Vec<usize>| positions.iter().map(|p| group.order[*p]).collect();
    let mut answers = Vec::with_capacity(queries.len());
    for query in queries {
        let positions: Vec<usize> = match query {
            Query::Within(name, low, high, take) if name == "within" => {
                group.within(low, high, &mut budget).take(take).collect()
            }
            Query::Nearest(name, target, low, high, limit) if name == "nearest" => {
                group.nearest(target, low, high, limit, &mut budget)
            }
            Query::Count(name, low, high) if name == "count" => {
                answers.push((vec![group.count(low, high)], budget.left));
                continue;
            }
            Query::Windows(name, runs, firsts, lasts, negative, take) if name == "windows" => {
                let windows = VariantWindows {
                    runs: runs
                        .into_iter()
                        .map(|(centers, unit, reach)| WindowRun {
                            centers: Centers::List(centers),
                            unit,
                            reach,
                        })
                        .collect(),
                    firsts,
                    lasts,
                };
                group
                    .in_windows(&windows, negative, &mut budget)
                    .take(take)
                    .collect()
            }
            _ => return Err(PyValueError::new_err("unknown query")),
        };
        answers.push((original(positions), budget.left));
    }
    Ok(answers)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(numeric_group_queries, module)?)
}
