//! Label words, units and digit variants as the engine reads them, in plain Python data for the
//! tests (`tests/scoring`). Offsets in and out are code points.

use groundedness_engine::digits::{self, Centers, Mantissa, Overflow};
use groundedness_engine::fxhash::FxHashSet as HashSet;
use groundedness_engine::label_words::{self, AtomContext};
use groundedness_engine::units;
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;

/// The byte offset of code point `offset` of `text` (the end when past it).
pub(crate) fn byte_offset(text: &str, offset: usize) -> usize {
    if text.is_ascii() {
        return offset.min(text.len());
    }
    text.char_indices()
        .nth(offset)
        .map_or(text.len(), |(at, _)| at)
}

#[pyfunction]
fn words(text: &str) -> HashSet<String> {
    label_words::words(text)
}

#[pyfunction]
fn singular(word: &str) -> String {
    label_words::singular(word).into_owned()
}

#[pyfunction]
#[pyo3(signature = (text, start, end, lower=0, upper=None))]
fn window_words(
    text: &str,
    start: usize,
    end: usize,
    lower: usize,
    upper: Option<usize>,
) -> HashSet<String> {
    let at = |offset| byte_offset(text, offset);
    let upper = upper.map_or(text.len(), at);
    label_words::window_words(text, at(start), at(end), at(lower), upper)
}

#[pyfunction]
#[pyo3(signature = (keys, siblings=None))]
fn json_words(keys: Vec<String>, siblings: Option<Vec<(String, String)>>) -> HashSet<String> {
    let siblings = siblings.unwrap_or_default();
    let pairs = siblings
        .iter()
        .map(|(key, value)| (key.as_bytes(), value.as_bytes()));
    label_words::json_words(keys.iter().map(String::as_str), pairs)
}

type Window = (String, String);
type ContextReading = (
    String,
    bool,
    String,
    String,
    HashSet<String>,
    Window,
    Window,
    bool,
    bool,
);

/// The `AtomContext` the former Python engine built from these code-point offsets.
fn context<'t>(
    text: &'t str,
    (start, end): (usize, usize),
    sentence: (usize, usize),
    neighbours: (usize, usize),
    previous: Option<(usize, usize)>,
) -> AtomContext<'t> {
    let at = |offset| byte_offset(text, offset);
    let span = |(low, high): (usize, usize)| (at(low), at(high));
    AtomContext::new(
        text,
        span((start, end)),
        span(sentence),
        span(neighbours),
        previous.map(span),
    )
}

/// Every reading of an `AtomContext`: sentence_text, beyond_window, previous_text,
/// previous_question, words, window_text(True), window_text(False), states_decrease, names_decrease.
#[pyfunction]
#[pyo3(signature = (text, start, end, sentence, neighbours, previous=None))]
fn atom_context(
    text: &str,
    start: usize,
    end: usize,
    sentence: (usize, usize),
    neighbours: (usize, usize),
    previous: Option<(usize, usize)>,
) -> ContextReading {
    let context = context(text, (start, end), sentence, neighbours, previous);
    let owned = |(before, after): (&str, &str)| (before.to_owned(), after.to_owned());
    (
        context.sentence_text().to_owned(),
        context.beyond_window(),
        context.previous_text().to_owned(),
        context.previous_question().to_owned(),
        context.words().clone(),
        owned(context.window_text(true)),
        owned(context.window_text(false)),
        context.states_decrease(),
        context.names_decrease(),
    )
}

#[pyfunction]
fn unit_dimension(unit: Option<&str>) -> Option<&'static str> {
    units::dimension(unit?)
}

#[pyfunction]
fn key_unit(key: &str) -> Option<&'static str> {
    units::key_unit(key)
}

#[pyfunction]
fn key_magnitude(key: &str) -> Option<i32> {
    units::key_magnitude(key)
}

#[pyfunction]
fn in_unit(value: f64, unit: &str, target: &str) -> Vec<f64> {
    units::in_unit(value, unit, target)
}

/// A mantissa of the former Python engine: `digits` must be ASCII digits (as `mantissa` gives them).
fn reduced(digits: &str, exponent: i32) -> PyResult<Mantissa> {
    if digits.is_empty() || !digits.bytes().all(|d| d.is_ascii_digit()) {
        return Err(PyValueError::new_err(
            "a mantissa's digits are ASCII digits",
        ));
    }
    Ok(Mantissa {
        digits: digits.to_owned(),
        exponent,
    })
}

fn overflow(_: Overflow) -> PyErr {
    PyOverflowError::new_err("Numerical result out of range")
}

#[pyfunction]
fn mantissa(value: f64) -> Option<(String, i32)> {
    digits::mantissa(value).map(|found| (found.digits, found.exponent))
}

#[pyfunction]
fn digit_variants(digits: &str, exponent: i32) -> PyResult<Vec<(String, &'static str, Vec<i32>)>> {
    let found = digits::variants(&reduced(digits, exponent)?);
    Ok(found
        .into_iter()
        .map(|variant| {
            let (first, second) = variant.exponents;
            let exponents = std::iter::once(first).chain(second).collect();
            (variant.digits, variant.reason.as_str(), exponents)
        })
        .collect())
}

/// A run's centres as Python's `range(start, stop, step)` (a 3-tuple) or list.
#[derive(IntoPyObject)]
enum PyCenters {
    Range((i64, i64, i64)),
    List(Vec<i64>),
}

type Windows = (Vec<(PyCenters, f64, f64)>, Vec<f64>, Vec<f64>);

#[pyfunction]
fn variant_windows(digits: &str, exponent: i32) -> PyResult<Windows> {
    let found = digits::variant_windows(&reduced(digits, exponent)?).map_err(overflow)?;
    let runs = found.runs.into_iter().map(|run| {
        let centers = match run.centers {
            Centers::Range { start, stop, step } => PyCenters::Range((start, stop, step)),
            Centers::List(list) => PyCenters::List(list),
        };
        (centers, run.unit, run.reach)
    });
    Ok((runs.collect(), found.firsts, found.lasts))
}

#[pyfunction]
fn value_of(digits: &str, exponent: i32, negative: bool) -> PyResult<f64> {
    reduced(digits, exponent)?;
    digits::value_of(digits, exponent, negative).map_err(overflow)
}

#[pyfunction]
fn half_unit(digits: &str, exponent: i32) -> PyResult<f64> {
    digits::half_unit(digits, exponent).map_err(overflow)
}

#[pyfunction]
fn digit_relation(digits: &str, exponent: i32, other: f64) -> PyResult<Option<&'static str>> {
    let answer = reduced(digits, exponent)?;
    Ok(digits::relation(&answer, other).map(|reason| reason.as_str()))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(words, module)?)?;
    module.add_function(wrap_pyfunction!(singular, module)?)?;
    module.add_function(wrap_pyfunction!(window_words, module)?)?;
    module.add_function(wrap_pyfunction!(json_words, module)?)?;
    module.add_function(wrap_pyfunction!(atom_context, module)?)?;
    module.add_function(wrap_pyfunction!(unit_dimension, module)?)?;
    module.add_function(wrap_pyfunction!(key_unit, module)?)?;
    module.add_function(wrap_pyfunction!(key_magnitude, module)?)?;
    module.add_function(wrap_pyfunction!(in_unit, module)?)?;
    module.add_function(wrap_pyfunction!(mantissa, module)?)?;
    module.add_function(wrap_pyfunction!(digit_variants, module)?)?;
    module.add_function(wrap_pyfunction!(variant_windows, module)?)?;
    module.add_function(wrap_pyfunction!(value_of, module)?)?;
    module.add_function(wrap_pyfunction!(half_unit, module)?)?;
    module.add_function(wrap_pyfunction!(digit_relation, module)?)?;
    Ok(())
}
