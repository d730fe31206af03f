//! Comparison rules (`scoring/verdicts.py`). INTERFACE ONLY: the port fills the bodies.

use std::sync::Arc;

use crate::atoms::{Atom, Reading};
use crate::budget::WorkBudget;
use crate::derivation::{Derivation, Stop};
use crate::derivations::Deriver;
use crate::hit::Hit;
use crate::index::{EvidenceIndex, EvidenceNeeds};
use crate::label_words::AtomContext;
use crate::vocabulary::{Reason, Verdict};

#[derive(Debug, Clone)]
pub struct Judgement {
    pub verdict: Verdict,
    pub reason: Reason,
    pub hit: Option<Arc<Hit>>,
    /// The date reading that decided the verdict.
    pub reading: Option<Reading>,
    /// How a derived figure was computed (it has no one hit).
    pub derivation: Option<Derivation>,
}

/// The evidence atoms judging `atoms` (of `text`) can look up.
pub fn evidence_needs(_atoms: &[Atom], _text: &str) -> EvidenceNeeds {
    EvidenceNeeds::everything()
}

/// Verdict for `atom` (`written`: its text in the answer).
#[allow(clippy::too_many_arguments)]
pub fn judge(
    _atom: &Atom,
    _written: &str,
    _index: &mut EvidenceIndex,
    _around: &AtomContext<'_>,
    _band: f64,
    _deriver: Option<&mut Deriver>,
    _budget: &mut WorkBudget,
) -> Result<Judgement, Stop> {
    Ok(Judgement {
        verdict: Verdict::Unsupported,
        reason: Reason::NotFound,
        hit: None,
        reading: None,
        derivation: None,
    })
}
