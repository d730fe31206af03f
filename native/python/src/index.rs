//! The evidence index at the boundary, for the differential test against `EvidenceIndex` of
//! `scoring/index.py`: an index of Python evidence answers a list of lookups, each hit as plain
//! data, with the budget left after each lookup.

use std::sync::Arc;

use groundedness_engine::budget::WorkBudget;
use groundedness_engine::corpus::Corpus;
use groundedness_engine::digits;
use groundedness_engine::fxhash::FxHashSet as HashSet;
use groundedness_engine::hit::{Citation, Hit};
use groundedness_engine::index::{EvidenceIndex, EvidenceNeeds, GroupError};
use groundedness_engine::scorer::Extraction;
use groundedness_engine::vocabulary::AtomKind;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::evidence::{py_text, walk, SourceLabels};
use crate::extract::{anchor_day, digit_floor};

/// One lookup (see `index_lookups`).
#[derive(FromPyObject)]
enum Lookup {
    Nearest(String, String, f64, f64, f64, usize),
    // Before `Range`: a bool would be read as a float there.
    Windows(String, String, f64, bool, usize),
    Range(String, String, f64, f64, usize),
    Named(String, String),
    Names(String, Vec<String>),
    Dates(String, u8, (Option<i64>, Option<i64>, Option<i64>)),
    Identifier(String, String, String),
}

fn optional<'py>(py: Python<'py>, text: Option<&[u8]>) -> PyResult<Bound<'py, PyAny>> {
    match text {
        Some(text) => py_text(py, text),
        None => Ok(py.None().into_bound(py)),
    }
}

/// The index and what `hits` are read against: the corpus and the items' source labels.
pub(crate) struct Indexed<'py> {
    pub(crate) index: EvidenceIndex,
    pub(crate) labels: SourceLabels<'py>,
}

/// A citation as `(evidence_index, source_id, source_kind, name, path, start, end, text, cell)`;
/// an `Evidence` item's labels are cited as the caller gave them.
pub(crate) fn citation_tuple<'py>(
    py: Python<'py>,
    labels: &SourceLabels<'py>,
    cited: &Citation,
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, citation_fields(py, labels, cited)?)
}

/// `(evidence_index, source_id, source_kind, name, path, start, end, text, cell)` of a citation;
/// an `Evidence` item's labels are cited as the caller gave them.
pub(crate) fn citation_fields<'py>(
    py: Python<'py>,
    labels: &SourceLabels<'py>,
    cited: &Citation,
) -> PyResult<[Bound<'py, PyAny>; 9]> {
    let given = cited
        .evidence_index
        .and_then(|index| labels.get(index))
        .and_then(Option::as_ref);
    let [source_id, source_kind, name] = match given {
        Some(given) => given.clone(),
        None => [
            optional(py, cited.source_id.as_deref())?,
            py_text(py, &cited.source_kind)?,
            optional(py, cited.name.as_deref())?,
        ],
    };
    Ok([
        cited.evidence_index.into_pyobject(py)?.into_any(),
        source_id,
        source_kind,
        name,
        optional(py, cited.path.as_deref())?,
        cited.start.into_pyobject(py)?.into_any(),
        cited.end.into_pyobject(py)?.into_any(),
        py_text(py, &cited.text)?,
        optional(py, cited.cell.as_deref())?,
    ])
}

/// `(kind, text, number, tolerance, currency, unit, key_unit, sorted words, citation)`, citation
/// = `(evidence_index, source_id, source_kind, name, path, start, end, text, cell)`; an
/// `Evidence` item's labels are cited as the caller gave them.
pub(crate) fn plain<'py>(
    py: Python<'py>,
    corpus: &Corpus,
    labels: &SourceLabels<'py>,
    hit: &Hit,
) -> PyResult<Bound<'py, PyAny>> {
    let mut words: Vec<&String> = hit.words(corpus).iter().collect();
    words.sort();
    let citation = citation_tuple(py, labels, &hit.citation(corpus))?;
    Ok((
        hit.kind.as_ref(),
        py_text(py, &hit.text(corpus))?,
        hit.number,
        hit.tolerance,
        hit.currency(corpus),
        hit.unit(),
        hit.key_unit(corpus),
        words,
        citation,
    )
        .into_pyobject(py)?
        .into_any())
}

fn hits<'py>(
    py: Python<'py>,
    indexed: &Indexed<'py>,
    found: &[Arc<Hit>],
) -> PyResult<Bound<'py, PyAny>> {
    let plain = found
        .iter()
        .map(|hit| plain(py, indexed.index.corpus(), &indexed.labels, hit))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, plain)?.into_any())
}

fn error<'py>(py: Python<'py>, error: GroupError) -> PyResult<Bound<'py, PyAny>> {
    let name = match error {
        GroupError::BudgetSpent => "BudgetSpent",
        GroupError::Unknown => "KeyError",
    };
    Ok(("error", name).into_pyobject(py)?.into_any())
}

/// Answers one lookup, or says which error Python raises for it.
fn answer<'py>(
    py: Python<'py>,
    indexed: &mut Indexed<'py>,
    lookup: Lookup,
    budget: &mut WorkBudget,
) -> PyResult<Bound<'py, PyAny>> {
    let index = &mut indexed.index;
    let found: Vec<Arc<Hit>> = match lookup {
        Lookup::Nearest(op, name, target, low, high, limit) if op == "nearest" => {
            match index.group(&name, budget) {
                Ok(group) => group.nearest(target, low, high, limit, budget),
                Err(failed) => return error(py, failed),
            }
        }
        Lookup::Range(op, name, low, high, take) if op == "within" || op == "count" => {
            match index.group(&name, budget) {
                Ok(group) if op == "count" => {
                    return Ok(group.count(low, high).into_pyobject(py)?.into_any())
                }
                Ok(group) => group.within(low, high, budget).take(take).collect(),
                Err(failed) => return error(py, failed),
            }
        }
        Lookup::Windows(op, name, value, negative, take) if op == "in_windows" => {
            let windows = digits::mantissa(value)
                .and_then(|reduced| digits::variant_windows(&reduced).ok())
                .ok_or_else(|| PyValueError::new_err("no digit windows for this value"))?;
            match index.group(&name, budget) {
                Ok(group) => group
                    .in_windows(&windows, negative, budget)
                    .take(take)
                    .collect(),
                Err(failed) => return error(py, failed),
            }
        }
        Lookup::Named(op, name) if op == "contents" => match index.group(&name, budget) {
            Ok(group) => {
                let values: Vec<f64> = group.values().to_vec();
                let found = group.contents();
                let listed = hits(py, indexed, &found)?;
                return Ok((values, listed).into_pyobject(py)?.into_any());
            }
            Err(failed) => return error(py, failed),
        },
        Lookup::Named(op, kind) if op == "numeric_hits" => {
            let kind = AtomKind::parse(&kind).ok_or_else(|| PyValueError::new_err(kind))?;
            index.numeric_hits(kind).to_vec()
        }
        Lookup::Names(op, names) if op == "nonempty" => {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            return match index.nonempty(&names, budget) {
                Ok(found) => Ok(found.into_pyobject(py)?.into_any()),
                Err(failed) => error(py, failed),
            };
        }
        Lookup::Dates(op, mask, reading) if op == "dates" => {
            let found = index.dates(mask, &reading, budget);
            let (corpus, labels) = (indexed.index.corpus(), &indexed.labels);
            let pairs = found
                .iter()
                .map(|(hit, matched)| {
                    Ok((plain(py, corpus, labels, hit)?, *matched)
                        .into_pyobject(py)?
                        .into_any())
                })
                .collect::<PyResult<Vec<_>>>()?;
            return Ok(PyList::new(py, pairs)?.into_any());
        }
        Lookup::Identifier(op, shape, normalized) => match op.as_str() {
            "identifiers" => index.identifiers(&shape, &normalized, budget),
            "near" => index.identifiers_near(&shape, &normalized, budget),
            "extending" => index
                .identifier_extending(&shape, &normalized, budget)
                .into_iter()
                .collect(),
            _ => return Err(PyValueError::new_err(op)),
        },
        _ => return Err(PyValueError::new_err("unknown lookup")),
    };
    hits(py, indexed, &found)
}

/// An index of Python evidence, extracted as `extract` says: `(locale, digit floor, kinds,
/// anchor, stated figures)`; `needs` as `EvidenceNeeds` (None: everything).
#[allow(clippy::type_complexity)]
pub(crate) fn indexed<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    prompt: Option<&Bound<'py, PyAny>>,
    max_evidence_bytes: i64,
    every_string: bool,
    extract: (
        String,
        Bound<'py, PyAny>,
        Vec<String>,
        Option<Bound<'py, PyAny>>,
        bool,
    ),
    needs: Option<(Vec<String>, Option<Vec<String>>)>,
) -> PyResult<Indexed<'py>> {
    let (corpus, labels) = walk(py, items, prompt, max_evidence_bytes, every_string)?;
    let (locale, floor, kinds, anchor, stated) = extract;
    let floor = digit_floor(&floor)?;
    let anchor = anchor_day(anchor.as_ref())?;
    let needs = match needs {
        None => EvidenceNeeds::everything(),
        Some((kinds, shapes)) => EvidenceNeeds {
            kinds: kinds
                .iter()
                .filter_map(|kind| AtomKind::parse(kind))
                .collect(),
            shapes: shapes.map(|shapes| shapes.into_iter().collect::<HashSet<String>>()),
        },
    };
    let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
    let extraction = Extraction {
        locale: &locale,
        min_number_digits: floor,
        kinds: &kinds,
        anchor,
        stated,
    };
    let mut failed = None;
    let index = py.detach(|| {
        EvidenceIndex::new(
            corpus,
            |text| {
                extraction.atoms(text).unwrap_or_else(|error| {
                    failed = Some(error.to_string());
                    Vec::new()
                })
            },
            &needs,
        )
    });
    if let Some(failed) = failed {
        return Err(PyValueError::new_err(failed));
    }
    Ok(Indexed { index, labels })
}

/// Builds the index of `items` (walked as `corpus.collect` does, extracted as `extract_atoms`
/// with these settings, then `stated_figures` as `score` does when `stated`, `needs` = `(kinds, shapes)` or `None` for everything) and answers
/// `lookups`, all charged to one budget of `units`: per lookup, its answer and the budget left.
///
/// Lookups: `("nearest", group, target, low, high, limit)`, `("within" | "count", group, low,
/// high, take)`, `("in_windows", group, value, negative, take)`, `("contents", group)`,
/// `("numeric_hits", kind)`, `("nonempty", [groups])`, `("dates", mask, reading)`,
/// `("identifiers" | "near" | "extending", shape, text)`.
#[pyfunction]
#[pyo3(signature = (items, prompt, max_evidence_bytes, every_string, extract, needs, units, lookups))]
#[allow(clippy::too_many_arguments)]
fn index_lookups<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    prompt: Option<&Bound<'py, PyAny>>,
    max_evidence_bytes: i64,
    every_string: bool,
    extract: (
        String,
        Bound<'py, PyAny>,
        Vec<String>,
        Option<Bound<'py, PyAny>>,
        bool,
    ),
    needs: Option<(Vec<String>, Option<Vec<String>>)>,
    units: i64,
    lookups: Vec<Lookup>,
) -> PyResult<Bound<'py, PyList>> {
    let mut indexed = indexed(
        py,
        items,
        prompt,
        max_evidence_bytes,
        every_string,
        extract,
        needs,
    )?;
    let mut budget = WorkBudget::new(units);
    let answers = PyList::empty(py);
    for lookup in lookups {
        let found = answer(py, &mut indexed, lookup, &mut budget)?;
        answers.append(PyTuple::new(
            py,
            [found, budget.left.into_pyobject(py)?.into_any()],
        )?)?;
    }
    Ok(answers)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(index_lookups, module)?)
}
