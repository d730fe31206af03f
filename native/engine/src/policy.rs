//! The engine's copy of a `GroundednessPolicy`: the Python class validates and documents every
//! field (`scoring/policy.py`); the binding converts a valid one once per call.

use crate::vocabulary::{AtomKind, LabelRule};

/// A calendar date (year, month, day), as Python's `datetime.date` holds it.
pub type Date = (i32, u8, u8);

#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    pub enabled_kinds: Vec<AtomKind>,
    pub include_user_prompt_as_evidence: bool,
    pub contradicted_band: f64,
    pub min_alert_score: f64,
    pub max_evidence_bytes: usize,
    pub max_answer_chars: usize,
    /// Work units; Python allows any positive int, beyond `i64::MAX` it is never spent either way.
    pub work_budget: i64,
    pub min_number_digits: usize,
    pub locale: String,
    pub label_rule: LabelRule,
    pub anchor_date: Option<Date>,
    pub derived_values: bool,
    pub max_derivation_operands: usize,
    pub max_derivation_candidates: usize,
}

impl Default for Policy {
    /// The defaults of `GroundednessPolicy()`.
    fn default() -> Self {
        Policy {
            enabled_kinds: AtomKind::ALL.to_vec(),
            include_user_prompt_as_evidence: true,
            contradicted_band: 0.15,
            min_alert_score: 0.8,
            max_evidence_bytes: 262_144,
            max_answer_chars: 32_768,
            work_budget: 50_000,
            min_number_digits: 4,
            locale: "en-US".to_owned(),
            label_rule: LabelRule::AtomRatio,
            anchor_date: None,
            derived_values: true,
            max_derivation_operands: 200,
            max_derivation_candidates: 20_000,
        }
    }
}
