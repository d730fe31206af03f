//! The label rules at the boundary, for the tests of the report's figures (`tests/scoring`).

use groundedness_engine::rules;
use groundedness_engine::vocabulary::{LabelRule, Verdict};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn parsed<T>(text: &str, parse: fn(&str) -> Option<T>, what: &str) -> PyResult<T> {
    parse(text).ok_or_else(|| PyValueError::new_err(format!("unknown {what} {text:?}")))
}

/// (atom ratio, sentence score, strict pass, label) of one answer's verdicts.
#[pyfunction]
fn rule_figures(
    rule: &str,
    verdicts: Vec<String>,
    sentence_of: Vec<usize>,
    min_alert_score: f64,
) -> PyResult<(f64, f64, bool, &'static str)> {
    let rule = parsed(rule, LabelRule::parse, "label rule")?;
    let verdicts = verdicts
        .iter()
        .map(|verdict| parsed(verdict, Verdict::parse, "verdict"))
        .collect::<PyResult<Vec<_>>>()?;
    if verdicts.is_empty() || verdicts.len() != sentence_of.len() {
        return Err(PyValueError::new_err(
            "one sentence number per verdict, at least one verdict",
        ));
    }
    let ratio = rules::atom_ratio(&verdicts);
    let sentences = rules::sentence_score(&verdicts, &sentence_of);
    let strict = rules::strict_pass(&verdicts);
    let contradicted = verdicts
        .iter()
        .filter(|v| **v == Verdict::Contradicted)
        .count();
    let label = rules::label(
        rule,
        ratio,
        sentences,
        strict,
        contradicted,
        min_alert_score,
    );
    Ok((ratio, sentences, strict, label.as_str()))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(rule_figures, module)?)
}
