//! The table model, JSON tables and table derivations of the engine with plain Python data in and
//! out, for the differential tests against `scoring/tables.py`, `scoring/table_json.py` and
//! `scoring/table_derivations.py`.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use groundedness_engine::budget::WorkBudget;
use groundedness_engine::corpus::{self, Corpus, Evidence, Item, Settings, Source};
use groundedness_engine::fsum::FsumError;
use groundedness_engine::offsets::CharOffsets;
use groundedness_engine::paths::Paths;
use groundedness_engine::table_derivations::{self, SearchError, TableTarget};
use groundedness_engine::table_json::{head_has_note, json_grid};
use groundedness_engine::table_model::{currency_code, make_table, Cell, Place, RawCell, Table};
use groundedness_engine::table_text;
use groundedness_engine::value::{Arena, Node};
use groundedness_engine::vocabulary::DerivedOperation;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use pyo3::IntoPyObjectExt;

/// A table as plain data: (cells, row words, column words), words sorted.
type PyTable<'py> = Bound<'py, PyTuple>;

fn currency(code: Option<[u8; 3]>) -> Option<String> {
    code.map(|code| String::from_utf8_lossy(&code).into_owned())
}

fn words(labels: &BTreeMap<usize, HashSet<String>>) -> Vec<(usize, Vec<String>)> {
    labels
        .iter()
        .map(|(number, words)| {
            let mut words: Vec<String> = words.iter().cloned().collect();
            words.sort();
            (*number, words)
        })
        .collect()
}

/// A cell: (value, power, percent, currency, row, column, label, columns, year, source, cited,
/// where: (text, path, start, end, number, currency, record position)).
fn plain_table<'py>(
    py: Python<'py>,
    table: &Table,
    mut place: impl FnMut(&RawCell) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<PyTable<'py>> {
    let cells = table
        .cells
        .iter()
        .map(|cell| {
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
                cell.source,
                cell.cited(),
            );
            (head, place(&cell.raw)?).into_bound_py_any(py)
        })
        .collect::<PyResult<Vec<_>>>()?;
    (cells, words(&table.row_words), words(&table.column_words)).into_pyobject(py)
}

/// The tables `make_table` makes of every text table in `text` (None where it makes none).
#[pyfunction]
fn text_table_models<'py>(
    py: Python<'py>,
    text: &str,
    source: usize,
) -> PyResult<Vec<Option<PyTable<'py>>>> {
    let found = table_text::text_tables(text).map_err(|_| {
        PyValueError::new_err("Exceeds the limit (4300 digits) for integer string conversion")
    })?;
    let mut offsets = CharOffsets::new(text);
    let mut tables = Vec::new();
    for found in found {
        let grid = found.grid.into_iter().map(|row| {
            row.into_iter()
                .map(|cell| {
                    let place = Place::Text {
                        path: None,
                        fragment: None,
                        start: cell.start,
                        end: cell.end,
                    };
                    RawCell::text(cell.text, place)
                })
                .collect()
        });
        let table = make_table(grid.collect(), source, &found.caption);
        let plain = table
            .map(|table| {
                plain_table(py, &table, |raw| {
                    let (start, end) = match raw.place {
                        Place::Text { start, end, .. } => {
                            (Some(offsets.of(start)), Some(offsets.of(end)))
                        }
                        _ => (None, None),
                    };
                    let nothing: (Option<f64>, Option<String>, Option<usize>) = (None, None, None);
                    (raw.text.to_string(), None::<String>, start, end, nothing)
                        .into_bound_py_any(py)
                })
            })
            .transpose()?;
        tables.push(plain);
    }
    Ok(tables)
}

/// Every JSON array of rows or records the evidence walk notes in the JSON `document` (one
/// evidence item): (its path, `head_has_note` or the `KeyError` word, `json_grid` is None, the
/// table `make_table` makes with `caption` or None or the `KeyError` word).
#[pyfunction]
fn json_table_models<'py>(
    py: Python<'py>,
    document: &str,
    caption: &str,
    max_bytes: i64,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let mut arena = Arena::default();
    let span = arena
        .push_text(document.as_bytes())
        .map_err(|_| PyValueError::new_err("too large"))?;
    let content = arena
        .push(Node::Str(span))
        .map_err(|_| PyValueError::new_err("too large"))?;
    let source = Source {
        index: Some(0),
        source_id: None,
        kind: b"tool_result".to_vec(),
        name: None,
    };
    let evidence = Evidence {
        arena,
        prompt: None,
        items: vec![Item {
            source,
            content,
            empty: false,
        }],
    };
    let settings = Settings {
        max_bytes,
        every_string: false,
        max_int_digits: 4300,
    };
    let Corpus {
        arena,
        mut paths,
        arrays,
        ..
    } = corpus::collect(evidence, settings);
    let mut found = Vec::new();
    for array in arrays {
        let path = render(&paths, array.path, &arena);
        let note = head_has_note(&arena, array.rows).into_bound_py_any(py)?;
        let grid = json_grid(&arena, array.rows, array.path);
        let no_grid = grid.is_none();
        let table = match grid.map(|grid| make_table(grid, array.source, caption)) {
            None | Some(None) => py.None().into_bound(py),
            Some(Some(table)) => plain_table(py, &table, |raw| {
                let path = raw.place.path(&mut paths);
                let record = raw.record.and_then(|record| {
                    let rows = match arena.node(array.rows) {
                        Node::List { links, .. } => arena.children(links),
                        _ => &[],
                    };
                    rows.iter().position(|row| *row == record)
                });
                let extra = (raw.number, currency(raw.currency), record);
                (
                    raw.text.to_string(),
                    render(&paths, path, &arena),
                    None::<usize>,
                    None::<usize>,
                    extra,
                )
                    .into_bound_py_any(py)
            })?
            .into_any(),
        };
        found.push((path, note, no_grid, table).into_bound_py_any(py)?);
    }
    Ok(found)
}

fn render(paths: &Paths, path: Option<u32>, arena: &Arena) -> Option<String> {
    paths
        .render(path, arena)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// A table's cells as the derivation search reads them: (value, power, percent, currency, row,
/// column, label, year), and its row and column words.
type PlainCell = (
    f64,
    i32,
    bool,
    Option<String>,
    usize,
    usize,
    String,
    Option<i32>,
);
type PlainTable = (
    Vec<PlainCell>,
    Vec<(usize, Vec<String>)>,
    Vec<(usize, Vec<String>)>,
);
/// (value, tolerance, floor, text, percent, decrease, operations, currency).
type PlainTarget = (
    f64,
    f64,
    f64,
    String,
    bool,
    bool,
    Vec<String>,
    Option<String>,
);

fn code(text: Option<String>) -> Option<[u8; 3]> {
    text.as_deref().and_then(currency_code)
}

fn table_of(plain: PlainTable) -> Table<'static> {
    let (cells, rows, columns) = plain;
    let labels = |labels: Vec<(usize, Vec<String>)>| {
        labels
            .into_iter()
            .map(|(number, words)| (number, words.into_iter().collect()))
            .collect()
    };
    let cells = cells
        .into_iter()
        .map(
            |(value, power, percent, currency, row, column, label, year)| Cell {
                value,
                power,
                percent,
                currency: code(currency),
                row,
                column,
                label: Arc::from(label),
                columns: Arc::from(Vec::new()),
                year,
                source: 0,
                raw: RawCell::text(Cow::Borrowed(""), Place::Nowhere),
            },
        )
        .collect();
    Table {
        cells,
        row_words: labels(rows),
        column_words: labels(columns),
    }
}

/// `table_derivation` over tables given as plain data: ((operation, [(table, cell)], value,
/// scaled) or None or the name of what Python raises, budget left).
#[pyfunction]
fn table_derivation<'py>(
    py: Python<'py>,
    tables: Vec<PlainTable>,
    target: PlainTarget,
    asked: HashSet<String>,
    cited: Vec<f64>,
    budget: i64,
) -> PyResult<(Bound<'py, PyAny>, i64)> {
    let (value, tolerance, floor, text, percent, decrease, operations, currency) = target;
    let operations = operations
        .iter()
        .map(|name| {
            DerivedOperation::parse(name).ok_or_else(|| PyValueError::new_err(name.clone()))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let target = TableTarget::new(
        value,
        tolerance,
        floor,
        &text,
        percent,
        decrease,
        operations,
        code(currency),
    );
    let tables: Vec<Table> = tables.into_iter().map(table_of).collect();
    let mut budget = WorkBudget::new(budget);
    let found = table_derivations::table_derivation(&tables, &target, &asked, &cited, &mut budget);
    let result = match found {
        Ok(None) => py.None().into_bound(py),
        Ok(Some(found)) => (
            found.operation.as_str(),
            found.cells,
            found.value,
            found.scaled,
        )
            .into_bound_py_any(py)?,
        Err(SearchError::Budget(_)) => "BudgetSpent".into_bound_py_any(py)?,
        Err(SearchError::Fsum(FsumError::Overflow)) => "OverflowError".into_bound_py_any(py)?,
        Err(SearchError::Fsum(FsumError::OppositeInfinities)) => {
            "ValueError".into_bound_py_any(py)?
        }
    };
    Ok((result, budget.left))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(text_table_models, module)?)?;
    module.add_function(wrap_pyfunction!(json_table_models, module)?)?;
    module.add_function(wrap_pyfunction!(table_derivation, module)?)?;
    Ok(())
}
