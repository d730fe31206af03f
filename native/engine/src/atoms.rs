//! Hard-data atoms: the typed facts extraction finds (the oracle's `scoring/atoms.py`).
//! Offsets are byte offsets into the scanned `&str`; the binding reports code points.

use crate::vocabulary::AtomKind;

/// Value of a money, percent or number atom: `value` in base units, `tolerance` the absolute
/// amount the stated figure may be off by, `digits` its significant digits as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantity {
    pub value: f64,
    pub tolerance: f64,
    pub digits: String,
    pub currency: Option<&'static str>,
    pub unit: Option<&'static str>,
    pub hedged: bool,
}

/// One (year, month, day) reading of a date; coarser dates leave trailing components `None`.
pub type Reading = (Option<i64>, Option<u32>, Option<u32>);

/// Value of a date atom: every reading the text allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CalendarDate {
    pub readings: Vec<Reading>,
}

/// Value of an identifier atom: its comparison form and the family of its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identifier {
    pub normalized: String,
    pub shape: &'static str,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AtomValue {
    Quantity(Quantity),
    Date(CalendarDate),
    Identifier(Identifier),
}

/// One hard fact found in a text, spanning `text[start..end]` (bytes).
#[derive(Clone, Debug, PartialEq)]
pub struct Atom {
    pub kind: AtomKind,
    pub start: usize,
    pub end: usize,
    pub value: AtomValue,
}

impl Atom {
    pub fn date(start: usize, end: usize, readings: Vec<Reading>) -> Atom {
        Atom {
            kind: AtomKind::Date,
            start,
            end,
            value: AtomValue::Date(CalendarDate { readings }),
        }
    }

    pub fn identifier(start: usize, end: usize, normalized: String, shape: &'static str) -> Atom {
        Atom {
            kind: AtomKind::Identifier,
            start,
            end,
            value: AtomValue::Identifier(Identifier { normalized, shape }),
        }
    }
}
