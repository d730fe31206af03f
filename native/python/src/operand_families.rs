//! Operand families at the boundary, for the differential test against `Operands` of
//! `scoring/operand_families.py`: the families of Python evidence as plain data, the answers of
//! `anchored` and `tied_families` to given queries, and the budget left (or `BudgetSpent`).

use std::sync::Arc;

use groundedness_engine::budget::WorkBudget;
use groundedness_engine::hit::Hit;
use groundedness_engine::operand_families::Operands;
use groundedness_engine::vocabulary::AtomKind;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::index::{indexed, plain};

/// A query: `(answer words, cited)`, cited = `("operand", i)` (the hit of operand i) or
/// `(kind, i)` (the index's i-th text atom of kind `money`, `percent` or `number`); answered
/// `(tied_families(words), anchored(cited))`.
type Query = (Vec<String>, Vec<(String, usize)>);

fn sorted<'a>(words: impl IntoIterator<Item = &'a String>) -> Vec<&'a str> {
    let mut found: Vec<&str> = words.into_iter().map(String::as_str).collect();
    found.sort_unstable();
    found
}

/// `("BudgetSpent", left)`, or `(operands, families, plain, family words, by_key_word, by_word,
/// answers, left)`; an operand is `(value, kind, unit, currency, sorted key words, hit)`, the hit
/// as `index_lookups` renders hits; by_key_word/by_word as sorted `(word, list)` pairs. With
/// `render` false, only `(operands, families, left)` (to time the build).
#[pyfunction]
#[pyo3(signature = (items, prompt, max_evidence_bytes, every_string, extract, units, queries, render=true))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn operand_families<'py>(
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
    units: i64,
    queries: Vec<Query>,
    render: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let built = indexed(
        py,
        items,
        prompt,
        max_evidence_bytes,
        every_string,
        extract,
        None,
    )?;
    let mut budget = WorkBudget::new(units);
    let index = &built.index;
    let Ok(operands) = py.detach(|| Operands::build(index, &mut budget)) else {
        return Ok(("BudgetSpent", budget.left).into_pyobject(py)?.into_any());
    };
    if !render {
        // Timing: the build alone, `(operands, families, left)`.
        return Ok(
            (operands.values.len(), operands.families.len(), budget.left)
                .into_pyobject(py)?
                .into_any(),
        );
    }
    let corpus = index.corpus();
    let mut members = Vec::with_capacity(operands.values.len());
    for operand in 0..operands.values.len() {
        let hit = match operands.hit(operand) {
            Some(hit) => plain(py, corpus, &built.labels, &hit)?,
            None => py.None().into_bound(py),
        };
        members.push((
            operands.values.get(operand).copied(),
            operands.kinds.get(operand).map(|kind| kind.to_string()),
            operands.units.get(operand).copied().flatten(),
            operands.currencies.get(operand).cloned().flatten(),
            operands
                .key_words
                .get(operand)
                .map(|words| sorted(words.iter())),
            hit,
        ));
    }
    let family_words: Vec<Vec<&str>> = operands.family_words.iter().map(sorted).collect();
    let mut by_key_word: Vec<(&str, &Vec<usize>)> = operands
        .by_key_word
        .iter()
        .map(|(word, found)| (word.as_str(), found))
        .collect();
    by_key_word.sort_unstable();
    let mut by_word: Vec<(&str, &Vec<usize>)> = operands
        .by_word
        .iter()
        .map(|(word, found)| (word.as_str(), found))
        .collect();
    by_word.sort_unstable();
    let answers = PyList::empty(py);
    for (words, cited) in queries {
        let tied = operands.tied_families(words.iter().map(String::as_str));
        let hits: Vec<Arc<Hit>> = cited
            .iter()
            .filter_map(|(kind, position)| match kind.as_str() {
                "operand" => operands.hit(*position),
                kind => AtomKind::parse(kind)
                    .and_then(|kind| index.numeric_hits(kind).get(*position))
                    .cloned(),
            })
            .collect();
        answers.append((tied, operands.anchored(corpus, &hits)))?;
    }
    Ok((
        members,
        &operands.families,
        &operands.plain,
        family_words,
        by_key_word,
        by_word,
        answers,
        budget.left,
    )
        .into_pyobject(py)?
        .into_any())
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(operand_families, module)?)
}
