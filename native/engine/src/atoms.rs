//! Hard-data atoms: the typed facts extraction finds (the former Python engine's `scoring/atoms.py`).
//! Offsets are byte offsets into the scanned `&str`; the binding reports code points.

use crate::vocabulary::AtomKind;

/// Significant digits as written: short ones (every figure extraction reads) are kept inline, so
/// number-dense evidence costs no allocation per figure.
#[derive(Clone)]
pub enum Digits {
    Inline(u8, [u8; INLINE_DIGITS]),
    Heap(Box<str>),
}

const INLINE_DIGITS: usize = 22;

impl Digits {
    pub fn as_str(&self) -> &str {
        match self {
            Digits::Inline(length, bytes) => bytes
                .get(..usize::from(*length))
                .and_then(|written| std::str::from_utf8(written).ok())
                .unwrap_or_default(),
            Digits::Heap(text) => text,
        }
    }
}

impl Digits {
    /// `head` then `tail`.
    pub fn joined(head: &str, tail: &str) -> Digits {
        let length = head.len() + tail.len();
        let mut bytes = [0; INLINE_DIGITS];
        match u8::try_from(length) {
            Ok(inline) if length <= INLINE_DIGITS => {
                for (slot, byte) in bytes.iter_mut().zip(head.bytes().chain(tail.bytes())) {
                    *slot = byte;
                }
                Digits::Inline(inline, bytes)
            }
            _ => Digits::Heap(format!("{head}{tail}").into()),
        }
    }
}

impl From<&str> for Digits {
    fn from(text: &str) -> Self {
        Digits::joined(text, "")
    }
}

impl std::ops::Deref for Digits {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Digits {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl std::fmt::Debug for Digits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_str().fmt(f)
    }
}

/// Value of a money, percent or number atom: `value` in base units, `tolerance` the absolute
/// amount the stated figure may be off by, `digits` its significant digits as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantity {
    pub value: f64,
    pub tolerance: f64,
    pub digits: Digits,
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
