//! Python's view of Unicode: the classes of `re` (`\w`, `[^\W\d_]`, `\d`, `\s`) and `str.lower()`.
//!
//! Rust's `char::is_alphabetic`, `to_lowercase` and the `regex` crate's `\w` follow other
//! definitions and a newer Unicode than CPython's, so the engine reads Python's own tables
//! (`pyunicode_tables.rs`, generated from the CPython the engine is proven against).

#[rustfmt::skip]
#[path = "pyunicode_tables.rs"]
mod pyunicode_tables;

use pyunicode_tables::{CASED, CASE_IGNORABLE, DIGIT, LETTER, LOWER, SPACE, WORD};

/// The Unicode version of the tables (CPython's `unicodedata.unidata_version`).
pub const UNICODE_VERSION: &str = pyunicode_tables::UNICODE_VERSION;

fn within(table: &[(u32, u32)], c: char) -> bool {
    let cp = u32::from(c);
    table
        .binary_search_by(|&(first, last)| {
            if last < cp {
                std::cmp::Ordering::Less
            } else if first > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `re`'s `\w`: `str.isalnum()` or `_`.
pub fn is_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    within(WORD, c)
}

/// `re`'s `[^\W\d_]`: a word character that is no decimal digit nor `_` (letters, and numerals
/// such as `²` or `½` that are not decimal digits).
pub fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    within(LETTER, c)
}

/// `re`'s `\d`: a decimal digit of any script (`str.isdecimal()`).
pub fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    within(DIGIT, c)
}

/// The value of a decimal digit of any script (what `int()` and `float()` read it as).
pub fn digit_value(c: char) -> Option<u32> {
    if c.is_ascii_digit() {
        return c.to_digit(10);
    }
    let cp = u32::from(c);
    let index = DIGIT.partition_point(|&(first, _)| first <= cp);
    let &(first, last) = DIGIT.get(index.checked_sub(1)?)?;
    // Decimal digits come in runs of ten from 0 (a Unicode stability guarantee); runs may abut.
    (cp <= last).then_some((cp - first) % 10)
}

/// `c` equals the ASCII letter or digit `literal` under `re.IGNORECASE`: its other case, and the
/// characters `re` folds onto it (`İ` and `ı` onto `i`, `ſ` onto `s`, the Kelvin sign onto `k`).
pub fn ignorecase_eq(c: char, literal: u8) -> bool {
    let literal = literal.to_ascii_lowercase();
    c.to_ascii_lowercase() == char::from(literal)
        || matches!(
            (literal, c),
            (b'i', '\u{130}' | '\u{131}') | (b's', '\u{17f}') | (b'k', '\u{212a}')
        )
}

/// The byte offset after `literal` at byte `at` of `text` under `re.IGNORECASE` (its non-ASCII
/// characters, currency signs, match only themselves).
pub fn ignorecase_prefix(text: &str, at: usize, literal: &str) -> Option<usize> {
    let mut chars = text.get(at..)?.char_indices();
    for expected in literal.chars() {
        let (_, c) = chars.next()?;
        let same = match u8::try_from(expected) {
            Ok(ascii) if ascii.is_ascii() => ignorecase_eq(c, ascii),
            _ => c == expected,
        };
        if !same {
            return None;
        }
    }
    Some(chars.next().map_or(text.len(), |(offset, _)| at + offset))
}

/// `re`'s `\s`, which is `str.isspace()` (what `strip()` and `split()` remove).
pub fn is_space(c: char) -> bool {
    within(SPACE, c)
}

/// Runs of `[^\W\d_]+` in `text`, as `re.findall` gives them.
pub fn letter_runs(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_letter(c))
        .filter(|run| !run.is_empty())
}

/// `str.strip()` with no argument.
pub fn strip(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// `text[start:end]` on byte offsets, as Python slices: empty when `start >= end`, clamped to the
/// text (an offset inside a character, never given by the engine, also gives "").
pub fn slice(text: &str, start: usize, end: usize) -> &str {
    let end = end.min(text.len());
    if start >= end {
        return "";
    }
    text.get(start..end).unwrap_or_default()
}

/// The byte offset `count` characters before byte `at` (0 when fewer precede it): Python's
/// `at - count` on code points, floored at the start.
pub fn chars_back(text: &str, at: usize, count: usize) -> usize {
    let before = text.get(..at.min(text.len())).unwrap_or_default();
    match count.checked_sub(1) {
        None => before.len(),
        Some(skip) => before.char_indices().rev().nth(skip).map_or(0, |(i, _)| i),
    }
}

/// The byte offset `count` characters after byte `at` (the text's end when fewer follow).
pub fn chars_forward(text: &str, at: usize, count: usize) -> usize {
    let at = at.min(text.len());
    let after = text.get(at..).unwrap_or_default();
    after
        .char_indices()
        .nth(count)
        .map_or(text.len(), |(i, _)| at + i)
}

/// `str.lower()`: the full lowercase mapping (`İ` gives two code points) and Final_Sigma (`Σ` at
/// the end of a word lowers to `ς`), as CPython computes them.
pub fn lower(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut lowered = String::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        match c {
            '\u{130}' => lowered.push_str("i\u{307}"),
            '\u{3a3}' => lowered.push(if final_sigma(text, at) { 'ς' } else { 'σ' }),
            _ => lowered.push(lower_char(c)),
        }
    }
    lowered
}

/// The one-code-point lowercase of `c` (every character but `İ`, which `lower` handles).
fn lower_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let cp = u32::from(c);
    let index = LOWER.partition_point(|&(first, _, _, _)| first <= cp);
    let Some(&(first, last, stride, delta)) = index.checked_sub(1).and_then(|i| LOWER.get(i))
    else {
        return c;
    };
    if cp > last || (cp - first) % stride != 0 {
        return c;
    }
    cp.checked_add_signed(delta)
        .and_then(char::from_u32)
        .unwrap_or(c)
}

/// Whether the `Σ` at byte `at` ends a word: a cased letter before it and none after, case-ignorable
/// characters skipped (CPython's `handle_capital_sigma`). Each scan stops at the next cased or
/// other character, so a text's sigmas cost linear time in all.
fn final_sigma(text: &str, at: usize) -> bool {
    fn cased_first(mut chars: impl Iterator<Item = char>) -> bool {
        chars
            .find(|c| !within(CASE_IGNORABLE, *c))
            .is_some_and(|c| within(CASED, c))
    }
    let (before, after) = text.split_at(at);
    let after = after.get('Σ'.len_utf8()..).unwrap_or_default();
    cased_first(before.chars().rev()) && !cased_first(after.chars())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_python_re() {
        assert!(is_letter('é') && is_letter('²') && is_letter('½') && !is_letter('٣'));
        assert!(is_word('_') && is_word('٣') && !is_word('-') && !is_word('\u{301}'));
        assert!(is_digit('٣') && is_digit('３') && !is_digit('²'));
        assert!(is_space('\u{1c}') && is_space('\u{a0}') && !is_space('\u{200b}'));
    }

    #[test]
    fn lower_is_python_lower() {
        assert_eq!(lower("İstanbul"), "i\u{307}stanbul");
        assert_eq!(lower("ΟΔΟΣ ΣΑ"), "οδος σα");
        assert_eq!(lower("ΑΣ'"), "ας'");
        assert_eq!(lower("ẞ Ǆ ABC"), "ß ǆ abc");
        assert_eq!(strip("\u{1f} a\u{a0}"), "a");
    }
}
