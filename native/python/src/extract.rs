//! `_native.extract_atoms`: the engine's extraction, its atoms as tuples for the tests (offsets in
//! code points), and the sentence spans and slipped years the scorer reads with them.

use groundedness_engine::atoms::{Atom, AtomValue};
use groundedness_engine::bare_years as years;
use groundedness_engine::extract::calendar::Day;
use groundedness_engine::extract::{extract_atoms as extract, ExtractError};
use groundedness_engine::offsets::CharOffsets;
use groundedness_engine::sentences;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// `(kind, text, start, end, fields)`: `fields` are the value's dataclass fields in order
/// (`Quantity`: value, tolerance, digits, currency, unit, hedged; `CalendarDate`: readings;
/// `Identifier`: normalized, shape; `ClockTime`: hour, minute, second, zone, offsets).
fn atom_tuple<'py>(
    py: Python<'py>,
    text: &str,
    atom: &Atom,
    offsets: &mut CharOffsets<'_>,
) -> PyResult<Bound<'py, PyTuple>> {
    let written = text.get(atom.start..atom.end).unwrap_or_default();
    let start = offsets.of(atom.start);
    let end = offsets.of(atom.end);
    let fields = match &atom.value {
        AtomValue::Quantity(q) => (
            q.value,
            q.tolerance,
            q.digits.as_str(),
            q.currency,
            q.unit,
            q.hedged,
        )
            .into_pyobject(py)?
            .into_any(),
        AtomValue::Date(date) => (PyTuple::new(py, &date.readings)?,)
            .into_pyobject(py)?
            .into_any(),
        AtomValue::Identifier(id) => (id.normalized.as_str(), id.shape)
            .into_pyobject(py)?
            .into_any(),
        AtomValue::Time(clock) => (
            clock.hour,
            clock.minute,
            clock.second,
            clock.zone.as_ref().map(|zone| zone.label.as_str()),
            clock.zone.as_ref().map(|zone| zone.offsets),
        )
            .into_pyobject(py)?
            .into_any(),
    };
    (atom.kind.as_str(), written, start, end, fields).into_pyobject(py)
}

/// The digit floor as the former Python engine reads any Python int: a negative one is refused, a huge one is
/// as good as infinite.
pub(crate) fn digit_floor(value: &Bound<'_, PyAny>) -> PyResult<i64> {
    match value.extract::<i64>() {
        Ok(floor) => Ok(floor),
        Err(_) if value.lt(0)? => Ok(i64::MIN),
        Err(_) => Ok(i64::MAX),
    }
}

pub(crate) fn anchor_day(anchor: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Day>> {
    anchor
        .map(|date| {
            Ok(Day {
                year: date.getattr("year")?.extract()?,
                month: date.getattr("month")?.extract()?,
                day: date.getattr("day")?.extract()?,
            })
        })
        .transpose()
}

/// Atoms of `text` as `extract_atoms` of `otel_groundedness.scoring.extract` finds them.
#[pyfunction]
#[pyo3(signature = (text, locale, min_number_digits, kinds, anchor))]
fn extract_atoms<'py>(
    py: Python<'py>,
    text: &str,
    locale: &str,
    min_number_digits: &Bound<'py, PyAny>,
    kinds: Vec<String>,
    anchor: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let floor = digit_floor(min_number_digits)?;
    let anchor = anchor_day(anchor)?;
    let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
    let atoms = py
        .detach(|| extract(text, locale, floor, &kinds, anchor))
        .map_err(|error| match error {
            ExtractError::NegativeDigitFloor(_) => PyValueError::new_err(format!(
                "min_number_digits must be >= 0, got {}",
                min_number_digits
            )),
            other => PyValueError::new_err(other.to_string()),
        })?;
    let mut offsets = CharOffsets::new(text);
    let tuples = atoms
        .iter()
        .map(|atom| atom_tuple(py, text, atom, &mut offsets))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, tuples)
}

/// Sentence spans of `text` (code points), given its atoms' spans (code points, sorted).
#[pyfunction]
fn sentence_spans(text: &str, atom_spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    // Byte offset of every code point, and of the end.
    let bytes: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let byte = |chars: usize| bytes.get(chars).copied().unwrap_or(text.len());
    let atoms: Vec<(usize, usize)> = atom_spans
        .iter()
        .map(|(a, b)| (byte(*a), byte(*b)))
        .collect();
    let mut offsets = CharOffsets::new(text);
    sentences::sentence_spans(text, &atoms)
        .into_iter()
        .map(|(start, end)| (offsets.of(start), offsets.of(end)))
        .collect()
}

/// Years one slip from `year` (not negative), nearest first.
#[pyfunction]
fn slipped_years(year: u32) -> Vec<i64> {
    years::slipped_years(i64::from(year))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(extract_atoms, module)?)?;
    module.add_function(wrap_pyfunction!(sentence_spans, module)?)?;
    module.add_function(wrap_pyfunction!(slipped_years, module)?)
}
