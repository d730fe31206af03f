//! The table book at the boundary, for the differential test against `TableBook` of
//! `scoring/table_book.py`: the tables of Python evidence answer a list of lookups, each cell as
//! plain data, with the budget left after each lookup.

use groundedness_engine::budget::WorkBudget;
use groundedness_engine::corpus::Corpus;
use groundedness_engine::pytext::{len_chars, lossy};
use groundedness_engine::table_book::{BookError, CellRef, Part, TableBook};
use groundedness_engine::table_model::{Cell, Place};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::evidence::walk;

/// One lookup: `("within", low, high, percent)` (`cells_within`) or `("tables",)`.
#[derive(FromPyObject)]
enum Lookup {
    Within(String, f64, f64, bool),
    Tables((String,)),
}

fn error_word(error: BookError) -> &'static str {
    match error {
        BookError::Budget => "BudgetSpent",
        BookError::TooLong => "ValueError",
    }
}

/// A cell as plain data: (value, power, percent, currency, row, column, label, columns, year,
/// evidence index, cited), (text, path, start, end, number, record's currency, has a record).
fn plain<'py>(
    py: Python<'py>,
    corpus: &mut Corpus,
    cell: &Cell,
    fragment: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let currency =
        |code: Option<[u8; 3]>| code.map(|code| String::from_utf8_lossy(&code).into_owned());
    let head = (
        cell.value,
        cell.power,
        cell.percent,
        currency(cell.currency),
        cell.row,
        cell.column,
        cell.label.to_string(),
        cell.columns.to_vec(),
        cell.year,
        corpus
            .sources
            .get(cell.source)
            .and_then(|source| source.index),
        cell.cited(),
    );
    let raw = &cell.raw;
    let (start, end) = match (raw.place, fragment.and_then(|at| corpus.fragments.get(at))) {
        (Place::Text { start, end, .. }, Some(fragment)) => {
            let bytes = corpus.arena.bytes(fragment.text);
            let chars = |at: usize| len_chars(bytes.get(..at).unwrap_or_default());
            (Some(chars(start)), Some(chars(end)))
        }
        _ => (None, None),
    };
    let path = raw.place.path(&mut corpus.paths);
    let path = corpus
        .paths
        .render(path, &corpus.arena)
        .map(|bytes| lossy(&bytes).into_owned());
    let place = (
        raw.text.to_string(),
        path,
        start,
        end,
        raw.number,
        currency(raw.currency),
        raw.record.is_some(),
    );
    (head, place).into_bound_py_any(py)
}

/// Lookups on the table book of Python evidence, each answered with its cells (or the error
/// word: `BudgetSpent`, `ValueError`) and the budget left after it.
#[pyfunction]
#[pyo3(signature = (items, prompt, max_evidence_bytes, every_string, units, lookups))]
fn table_book_lookups<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    prompt: Option<&Bound<'py, PyAny>>,
    max_evidence_bytes: i64,
    every_string: bool,
    units: i64,
    lookups: Vec<Lookup>,
) -> PyResult<Bound<'py, PyList>> {
    let (mut corpus, _) = walk(py, items, prompt, max_evidence_bytes, every_string)?;
    let mut book = TableBook::new();
    let mut budget = WorkBudget::new(units);
    let answers = PyList::empty(py);
    for lookup in lookups {
        let found: Result<Vec<(Cell<'static>, Option<usize>)>, BookError> = match lookup {
            Lookup::Within(word, ..) | Lookup::Tables((word,))
                if word != "within" && word != "tables" =>
            {
                return Err(PyValueError::new_err(format!("unknown lookup {word:?}")));
            }
            Lookup::Within(_, low, high, percent) => book
                .cells_within(&corpus, &mut budget, low, high, percent)
                .map(<[CellRef]>::to_vec)
                .map(|refs| {
                    refs.into_iter()
                        .filter_map(|at| {
                            let fragment = match at.part {
                                Part::Text => book.text_fragment(at.table),
                                Part::Noted => None,
                            };
                            Some((book.cell(at)?.clone(), fragment))
                        })
                        .collect()
                }),
            Lookup::Tables(_) => match book.tables(&corpus, &mut budget) {
                Ok(tables) => {
                    let tables = tables.to_vec();
                    Ok(tables
                        .into_iter()
                        .enumerate()
                        .flat_map(|(at, table)| {
                            let fragment = book.text_fragment(at);
                            table.cells.into_iter().map(move |cell| (cell, fragment))
                        })
                        .collect())
                }
                Err(error) => Err(error),
            },
        };
        let found = match found {
            Ok(cells) => {
                let plain: Vec<Bound<'py, PyAny>> = cells
                    .iter()
                    .map(|(cell, fragment)| plain(py, &mut corpus, cell, *fragment))
                    .collect::<PyResult<_>>()?;
                PyList::new(py, plain)?.into_any()
            }
            Err(error) => error_word(error).into_bound_py_any(py)?,
        };
        answers.append(PyTuple::new(
            py,
            [found, budget.left.into_bound_py_any(py)?],
        )?)?;
    }
    Ok(answers)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(table_book_lookups, module)?)
}
