//! Bare years and year ranges (the former Python engine's `extract/years.py`): when a four-digit figure from
//! 1000 to 1899 is a year, and what a range's second half is.

use super::chars::{ignorecase_ends_with, is_word};
use super::text::Text;

/// Words after which a four-digit figure from 1000 to 1899 is a year ("in 1810", "(b. 1810)").
const YEAR_WORDS: &[&str] = &[
    "in", "since", "until", "till", "circa", "c.", "ca.", "born", "died", "b.", "d.", "year",
];
const YEAR_WORD_REACH: usize = 7;

/// Whether the figure at `start` follows "(" or a year word and one space (nothing before `floor`).
pub fn in_year_context(text: &Text<'_>, start: usize, floor: usize) -> bool {
    if start <= floor {
        return false;
    }
    let Some(space) = text.back(start, 1) else {
        return false;
    };
    if space == '(' {
        return true;
    }
    if space != ' ' && space != '\u{a0}' {
        return false;
    }
    // The former Python engine searches from max(floor, start - 7): the word must start there or later, and
    // its lookbehind sees the character before it even when that is before the floor.
    let reach = text.back_pos(start, YEAR_WORD_REACH).max(floor);
    let head = text.slice(0, start - space.len_utf8());
    YEAR_WORDS.iter().any(|word| {
        let letters = word.chars().count();
        if !ignorecase_ends_with(head, word) {
            return false;
        }
        let word_start = text.back_pos(start - space.len_utf8(), letters);
        word_start >= reach
            && !text
                .back(word_start, 1)
                .is_some_and(|c| is_word(c) || c == '.')
    })
}

/// The year a range from `first` ends in, written `written` (two or four digits); `None` when the
/// pair is no range of years.
pub fn range_end(first: i64, written: &str) -> Option<i64> {
    let tail = super::calendar::number(written);
    if written.len() == 4 {
        if first >= 1900 && tail >= 1900 {
            return Some(tail);
        }
        return (tail > first).then_some(tail);
    }
    let (century, within) = (first.div_euclid(100), first.rem_euclid(100));
    if tail > within {
        return Some(century * 100 + tail);
    }
    (within == 99 && tail == 0).then_some((century + 1) * 100)
}

/// The month of `YYYY-MM` read as an ISO year-month (`separator`: exactly what stands between).
pub fn iso_month(first: i64, separator: &str, written: &str) -> Option<u32> {
    if separator != "-" || written.len() != 2 || !(1900..=2099).contains(&first) {
        return None;
    }
    let month = super::calendar::number(written);
    if !(1..=12).contains(&month) || month == (first + 1).rem_euclid(100) {
        return None;
    }
    u32::try_from(month).ok()
}
