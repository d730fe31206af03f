//! Extraction of hard-data atoms (money, percent, number, date, identifier) from text, the port
//! of the former Python engine's `otel_groundedness/scoring/extract/`: one linear pass per text.

pub mod calendar;
pub mod chars;
pub mod claims;
pub mod grammar;
pub mod left_context;
pub mod locales;
pub mod month_words;
pub mod number;
pub mod scan;
pub mod text;
pub mod value;
pub mod words;
pub mod years;

use std::fmt;

use crate::atoms::Atom;
use crate::vocabulary::AtomKind;
use calendar::Day;
use locales::SUPPORTED_LOCALES;

/// Why `extract_atoms` refused its options (never because of the text itself).
#[derive(Debug, PartialEq, Eq)]
pub enum ExtractError {
    UnsupportedLocale(String),
    NegativeDigitFloor(i64),
    UnknownKinds(Vec<String>),
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractError::UnsupportedLocale(locale) => {
                write!(
                    f,
                    "unsupported locale '{locale}'; supported: {}",
                    SUPPORTED_LOCALES.join(", ")
                )
            }
            ExtractError::NegativeDigitFloor(floor) => {
                write!(f, "min_number_digits must be >= 0, got {floor}")
            }
            ExtractError::UnknownKinds(kinds) => {
                let known: Vec<&str> = AtomKind::ALL.iter().map(|k| k.as_str()).collect();
                write!(
                    f,
                    "unknown atom kinds {kinds:?}; known: {}",
                    known.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for ExtractError {}

/// Atoms of `text` sorted by start, non-overlapping (byte offsets). Where candidates overlap, the
/// kind of higher priority wins (`kinds::REGISTRY`); `kinds` filters the result after that choice,
/// so a disabled kind still shadows the others. Bare numbers with fewer than `min_number_digits`
/// digits are skipped; relative dates are read only with an `anchor`.
pub fn extract_atoms(
    text: &str,
    locale: &str,
    min_number_digits: i64,
    kinds: &[&str],
    anchor: Option<Day>,
) -> Result<Vec<Atom>, ExtractError> {
    let grammar = grammar::grammar_for(locale)
        .ok_or_else(|| ExtractError::UnsupportedLocale(locale.to_owned()))?;
    let min_digits = usize::try_from(min_number_digits)
        .map_err(|_| ExtractError::NegativeDigitFloor(min_number_digits))?;
    let mut unknown: Vec<String> = kinds
        .iter()
        .filter(|kind| AtomKind::parse(kind).is_none())
        .map(|kind| kind.to_string())
        .collect();
    if !unknown.is_empty() {
        unknown.sort();
        unknown.dedup();
        return Err(ExtractError::UnknownKinds(unknown));
    }
    let wanted: Vec<AtomKind> = kinds
        .iter()
        .filter_map(|kind| AtomKind::parse(kind))
        .collect();
    let mut atoms = scan::extract(text, grammar, min_digits, anchor);
    if AtomKind::ALL.iter().any(|kind| !wanted.contains(kind)) {
        atoms.retain(|atom| wanted.contains(&atom.kind));
    }
    Ok(atoms)
}
