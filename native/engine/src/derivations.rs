//! Derived values (`scoring/derivations.py`): the search for an answer figure computed from
//! evidence figures. INTERFACE ONLY: the port fills the bodies.

use std::sync::Arc;

use crate::atoms::{Atom, Quantity};
use crate::budget::WorkBudget;
use crate::derivation::{Derivation, Stop};
use crate::derivation_cues::Operations;
use crate::hit::Hit;
use crate::index::{EvidenceIndex, EvidenceNeeds};
use crate::label_words::AtomContext;

/// The derivation search of one `score` call; its operand families are built on first use.
pub struct Deriver {}

impl Deriver {
    pub fn new(_max_operands: usize, _max_candidates: usize, _question: Option<&str>) -> Self {
        Deriver {}
    }

    pub fn operations(
        &mut self,
        _atom: &Atom,
        _quantity: &Quantity,
        _around: &AtomContext<'_>,
    ) -> Operations {
        Operations::new()
    }

    /// `written` is the atom's text in the answer.
    pub fn derive(
        &mut self,
        _atom: &Atom,
        _written: &str,
        _quantity: &Quantity,
        _around: &AtomContext<'_>,
        _index: &mut EvidenceIndex,
        _budget: &mut WorkBudget,
    ) -> Result<Option<Derivation>, Stop> {
        Ok(None)
    }

    pub fn note(&mut self, _atom: &Atom, _hit: Option<&Arc<Hit>>) {}

    pub fn cited_after(&self, _atom: &Atom, _around: &AtomContext<'_>) -> bool {
        false
    }
}

pub fn derivation_needs(_atoms: &[Atom], needs: EvidenceNeeds) -> EvidenceNeeds {
    needs
}
