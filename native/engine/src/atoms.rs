//! Hard-data atoms: the typed facts extraction finds (the former Python engine's `scoring/atoms.py`).
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

/// A time zone as written: its label ("UTC", "PT", "+02:00") and the UTC offsets it may stand
/// for, in minutes (a generic zone such as "PT" stands for standard and daylight time).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    pub label: String,
    pub offsets: [i16; 2],
}

/// Value of a time atom: the time of day on a 24-hour clock, its seconds when stated, its zone
/// when stated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub hour: u8,
    pub minute: u8,
    pub second: Option<u8>,
    pub zone: Option<Zone>,
}

impl Clock {
    /// Minutes since midnight on the clock as written.
    pub fn minutes(&self) -> u16 {
        u16::from(self.hour) * 60 + u16::from(self.minute)
    }

    /// The comparison form: `HH:MM[:SS][ zone]`.
    pub fn normalized(&self) -> String {
        let mut text = format!("{:02}:{:02}", self.hour, self.minute);
        if let Some(second) = self.second {
            text.push_str(&format!(":{second:02}"));
        }
        if let Some(zone) = &self.zone {
            text.push(' ');
            text.push_str(&zone.label);
        }
        text
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum AtomValue {
    Quantity(Quantity),
    Date(CalendarDate),
    Identifier(Identifier),
    Time(Clock),
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

    pub fn time(start: usize, end: usize, clock: Clock) -> Atom {
        Atom {
            kind: AtomKind::Time,
            start,
            end,
            value: AtomValue::Time(clock),
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
