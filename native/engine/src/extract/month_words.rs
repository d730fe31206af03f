//! When a lower-case month name that is also an English word ("may", "march", "mar") is a date
//! (the former Python engine's `extract/month_words.py`).

use super::chars::{is_alnum, is_space, py_lower};
use super::text::Text;

const WORD_MONTHS: &[&str] = &["may", "march", "mar"];
const DATE_LEAD_WORDS: &[&str] = &[
    "on",
    "by",
    "until",
    "till",
    "til",
    "since",
    "from",
    "before",
    "after",
    "due",
    "effective",
    "starting",
    "ending",
    "expires",
    "expired",
    "dated",
    "as",
    "in",
    "of",
];
/// Words that continue a list or range of dates; they lead only a month written first.
const RANGE_WORDS: &[&str] = &["to", "and", "or", "through", "thru", "between"];
const LOOK_BACK: usize = 16;

pub fn is_word_month(written: &str) -> bool {
    WORD_MONTHS.contains(&written)
}

/// Whether what precedes `start` introduces a date: a date word (or a range word before a month
/// written first), punctuation, or nothing (start of text or line, end of the previous atom).
pub fn led_as_date(text: &Text<'_>, start: usize, floor: usize, month_first: bool) -> bool {
    let window = text.slice(text.back_pos(start, LOOK_BACK).max(floor), start);
    let before = window.trim_end_matches(is_space);
    if before.is_empty()
        || window
            .get(before.len()..)
            .is_some_and(|tail| tail.contains('\n'))
    {
        return true;
    }
    if !before.chars().last().is_some_and(is_alnum) {
        return true;
    }
    let word = py_lower(before.rsplit(is_space).next().unwrap_or_default());
    DATE_LEAD_WORDS.contains(&word.as_str())
        || (month_first && RANGE_WORDS.contains(&word.as_str()))
}
