//! `Derivation` (`scoring/derivation.py`): how an answer figure was computed from evidence
//! figures; and `Stop`, why judging an atom stopped without a verdict.

use std::sync::Arc;

use crate::budget::BudgetSpent;
use crate::fsum::FsumError;
use crate::hit::Hit;
use crate::index::GroupError;
use crate::table_book::BookError;
use crate::table_derivations::SearchError;
use crate::vocabulary::{DerivedOperation, Reason};

/// `operation` over `operands` (in formula order: minuend, numerator, the newer value of a
/// change first) gives `value`, which the answer states at its precision.
#[derive(Debug, Clone)]
pub struct Derivation {
    pub operation: DerivedOperation,
    pub operands: Vec<Arc<Hit>>,
    pub value: f64,
}

impl Derivation {
    pub fn reason(&self) -> Reason {
        self.operation.reason()
    }
}

/// Why judging an atom stopped: the work budget refused a step (the atom and the rest go
/// unchecked), or the former Python engine raised here (`score()` raises `NativeEngineError` with it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    Budget,
    Failed(&'static str),
}

impl From<BudgetSpent> for Stop {
    fn from(_: BudgetSpent) -> Self {
        Stop::Budget
    }
}

impl From<GroupError> for Stop {
    fn from(error: GroupError) -> Self {
        match error {
            GroupError::BudgetSpent => Stop::Budget,
            GroupError::Unknown => Stop::Failed("unknown evidence group"),
        }
    }
}

impl From<BookError> for Stop {
    fn from(error: BookError) -> Self {
        match error {
            BookError::Budget => Stop::Budget,
            BookError::TooLong => Stop::Failed("character reference too long"),
        }
    }
}

impl From<FsumError> for Stop {
    fn from(_: FsumError) -> Self {
        Stop::Failed("fsum overflow")
    }
}

impl From<SearchError> for Stop {
    fn from(error: SearchError) -> Self {
        match error {
            SearchError::Budget(_) => Stop::Budget,
            SearchError::Fsum(error) => error.into(),
        }
    }
}
