//! The derivation kernels at the boundary, for the differential tests against
//! `scoring/derivations.py` (`math.fsum`, `_pairs`, `_candidates`).

use crate::boundary::detached;
use groundedness_engine::derivation_search::{self, Best, PairTarget};
use groundedness_engine::fsum::{fsum as exact_sum, FsumError};
use groundedness_engine::vocabulary::DerivedOperation;
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;

fn operation(name: &str) -> PyResult<DerivedOperation> {
    DerivedOperation::parse(name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown operation {name:?}")))
}

/// `math.fsum(values)`, raising what it raises.
#[pyfunction]
fn fsum(py: Python<'_>, values: Vec<f64>) -> PyResult<f64> {
    detached(py, move || exact_sum(values))?.map_err(|error| match error {
        FsumError::Overflow => PyOverflowError::new_err("intermediate overflow in fsum"),
        FsumError::OppositeInfinities => PyValueError::new_err("-inf + inf in fsum"),
    })
}

/// The best pair result of one family: (distance, operation or None, operands, value).
#[pyfunction]
#[allow(clippy::too_many_arguments)] // the kernel's inputs, flat for the test
fn derivation_pairs(
    name: &str,
    ordered: Vec<usize>,
    values: Vec<f64>,
    currencies: Vec<Option<String>>,
    value: f64,
    change: f64,
    reach: f64,
    percent: bool,
) -> PyResult<(f64, Option<&'static str>, Vec<usize>, f64)> {
    let target = PairTarget {
        value,
        change,
        reach,
        percent,
    };
    let mut best = Best::default();
    derivation_search::pairs(
        operation(name)?,
        &ordered,
        &values,
        &currencies,
        &target,
        &mut best,
    );
    Ok((
        best.distance,
        best.operation.map(DerivedOperation::as_str),
        best.operands,
        best.value,
    ))
}

/// Candidates a family of `size` offers for `operations`.
#[pyfunction]
fn derivation_candidates(size: usize, operations: Vec<String>, whole: bool) -> PyResult<usize> {
    let operations = operations
        .iter()
        .map(|name| operation(name))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(derivation_search::candidates(size, &operations, whole))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(fsum, module)?)?;
    module.add_function(wrap_pyfunction!(derivation_pairs, module)?)?;
    module.add_function(wrap_pyfunction!(derivation_candidates, module)?)
}
