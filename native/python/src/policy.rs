//! `GroundednessPolicy` (validated by Python) to the engine's `Policy`, once per call.

use groundedness_engine::policy::Policy;
use groundedness_engine::vocabulary::{AtomKind, LabelRule};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDate, PyDateAccess, PyDict};

fn named<T>(text: &str, parse: fn(&str) -> Option<T>, field: &str) -> PyResult<T> {
    parse(text).ok_or_else(|| PyValueError::new_err(format!("policy.{field}: unknown {text:?}")))
}

/// Reads the fields of a `GroundednessPolicy` (any object with its attributes).
pub(crate) fn policy_of(policy: &Bound<'_, PyAny>) -> PyResult<Policy> {
    let kinds: Vec<String> = policy.getattr("enabled_kinds")?.extract()?;
    let anchor = policy.getattr("anchor_date")?;
    let anchor_date = if anchor.is_none() {
        None
    } else {
        let date = anchor.cast::<PyDate>()?;
        Some((date.get_year(), date.get_month(), date.get_day()))
    };
    let label_rule: String = policy.getattr("label_rule")?.extract()?;
    let work_budget: i128 = policy
        .getattr("work_budget")?
        .extract()
        .unwrap_or(i128::MAX);
    Ok(Policy {
        enabled_kinds: kinds
            .iter()
            .map(|kind| named(kind, AtomKind::parse, "enabled_kinds"))
            .collect::<PyResult<_>>()?,
        include_user_prompt_as_evidence: policy
            .getattr("include_user_prompt_as_evidence")?
            .extract()?,
        contradicted_band: policy.getattr("contradicted_band")?.extract()?,
        min_alert_score: policy.getattr("min_alert_score")?.extract()?,
        max_evidence_bytes: policy.getattr("max_evidence_bytes")?.extract()?,
        max_answer_chars: policy.getattr("max_answer_chars")?.extract()?,
        work_budget: i64::try_from(work_budget).unwrap_or(i64::MAX),
        min_number_digits: policy.getattr("min_number_digits")?.extract()?,
        locale: policy.getattr("locale")?.extract()?,
        label_rule: named(&label_rule, LabelRule::parse, "label_rule")?,
        anchor_date,
        derived_values: policy.getattr("derived_values")?.extract()?,
        max_derivation_operands: policy.getattr("max_derivation_operands")?.extract()?,
        max_derivation_candidates: policy.getattr("max_derivation_candidates")?.extract()?,
    })
}

/// A policy in `GroundednessPolicy.to_dict()`'s form.
fn as_dict<'py>(py: Python<'py>, read: &Policy) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let kinds: Vec<&str> = read.enabled_kinds.iter().map(|k| k.as_str()).collect();
    out.set_item("enabled_kinds", kinds)?;
    out.set_item(
        "include_user_prompt_as_evidence",
        read.include_user_prompt_as_evidence,
    )?;
    out.set_item("contradicted_band", read.contradicted_band)?;
    out.set_item("min_alert_score", read.min_alert_score)?;
    out.set_item("max_evidence_bytes", read.max_evidence_bytes)?;
    out.set_item("max_answer_chars", read.max_answer_chars)?;
    out.set_item("work_budget", read.work_budget)?;
    out.set_item("min_number_digits", read.min_number_digits)?;
    out.set_item("locale", &read.locale)?;
    out.set_item("label_rule", read.label_rule.as_str())?;
    let anchor = read
        .anchor_date
        .map(|(year, month, day)| format!("{year:04}-{month:02}-{day:02}"));
    out.set_item("anchor_date", anchor)?;
    out.set_item("derived_values", read.derived_values)?;
    out.set_item("max_derivation_operands", read.max_derivation_operands)?;
    out.set_item("max_derivation_candidates", read.max_derivation_candidates)?;
    Ok(out)
}

/// The engine's reading of `policy`: the conversion must lose nothing.
#[pyfunction]
fn policy_as_read<'py>(
    py: Python<'py>,
    policy: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    as_dict(py, &policy_of(policy)?)
}

/// `Policy::default()`: the engine's defaults must be `GroundednessPolicy()`'s.
#[pyfunction]
fn default_policy(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    as_dict(py, &Policy::default())
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(policy_as_read, module)?)?;
    module.add_function(wrap_pyfunction!(default_policy, module)?)
}
