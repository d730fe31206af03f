//! Python's character classes and case mappings, as the former Python engine's `re` (Unicode mode) and `str`
//! methods see them: Rust's `char` methods follow another Unicode version and other definitions
//! (`\w` is `str.isalnum()` or `_`; `str.isupper()` is the Uppercase property, not `Lu`).

#[rustfmt::skip]
mod unicode_tables;

use unicode_tables::{
    ALNUM, ALPHA, CASED, CASEFOLD, CASE_IGNORABLE, DECIMAL, DIGIT, LOWER, SPACE, UPPER,
};

fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    let code = c as u32;
    ranges
        .binary_search_by(|&(low, high)| {
            if high < code {
                std::cmp::Ordering::Less
            } else if low > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

fn mapped(table: &'static [(u32, &'static str)], c: char) -> Option<&'static str> {
    let code = c as u32;
    table
        .binary_search_by_key(&code, |&(from, _)| from)
        .ok()
        .and_then(|index| table.get(index))
        .map(|&(_, to)| to)
}

/// `re`'s `\w`: `str.isalnum()` or `_`.
pub fn is_word(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_'
    } else {
        in_ranges(&ALNUM, c)
    }
}

/// `str.isalnum()`.
pub fn is_alnum(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric()
    } else {
        in_ranges(&ALNUM, c)
    }
}

/// `re`'s `\d`: `str.isdecimal()`.
pub fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_ranges(&DECIMAL, c)
    }
}

/// The value of a `\d` character: every decimal range of the table starts at a zero digit.
pub fn decimal_value(c: char) -> Option<u32> {
    let code = c as u32;
    let index = DECIMAL.partition_point(|&(_, high)| high < code);
    DECIMAL
        .get(index)
        .filter(|&&(low, _)| low <= code)
        .map(|&(low, _)| (code - low) % 10)
}

/// `str.isdigit()` (decimal digits, superscripts, circled digits, ...).
pub fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_ranges(&DIGIT, c)
    }
}

/// `re`'s `[^\W\d_]`: a word character that is neither a decimal digit nor `_`.
pub fn is_letterish(c: char) -> bool {
    is_word(c) && !is_decimal(c) && c != '_'
}

/// `re`'s `\s` and `str.isspace()`.
pub fn is_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(
            c,
            ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r' | '\x1c'..='\x1f'
        )
    } else {
        in_ranges(&SPACE, c)
    }
}

/// `str.isalpha()`.
pub fn is_alpha(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        in_ranges(&ALPHA, c)
    }
}

/// `str.isupper()` of one character.
pub fn is_upper(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_uppercase()
    } else {
        in_ranges(&UPPER, c)
    }
}

/// Whether `c` matches the ASCII lower-case letter `letter` under `re.IGNORECASE` (Unicode): its
/// simple lower case is `letter`, or `re` lists it as an equivalent (`ı`, `ſ`).
pub fn ignorecase_eq(c: char, letter: char) -> bool {
    c == letter
        || c == letter.to_ascii_uppercase()
        || match letter {
            'i' => c == '\u{130}' || c == '\u{131}',
            's' => c == '\u{17F}',
            'k' => c == '\u{212A}',
            _ => false,
        }
}

/// Whether `text` ends with `word` (ASCII lower case) under `re.IGNORECASE`, character by character.
pub fn ignorecase_ends_with(text: &str, word: &str) -> bool {
    let mut written = text.chars().rev();
    word.chars()
        .rev()
        .all(|letter| written.next().is_some_and(|c| ignorecase_eq(c, letter)))
}

/// `str.lower()`, final sigma included.
pub fn py_lower(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (index, c) in text.char_indices() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if c == '\u{3A3}' {
            out.push(if final_sigma(text, index) {
                '\u{3C2}'
            } else {
                '\u{3C3}'
            });
        } else {
            match mapped(&LOWER, c) {
                Some(to) => out.push_str(to),
                None => out.push(c),
            }
        }
    }
    out
}

/// CPython's `handle_capital_sigma`: a cased letter before (case-ignorables skipped), none after.
fn final_sigma(text: &str, index: usize) -> bool {
    let before = text.get(..index).unwrap_or_default();
    let after = text.get(index + '\u{3A3}'.len_utf8()..).unwrap_or_default();
    let cased_before = before
        .chars()
        .rev()
        .find(|c| !in_ranges(&CASE_IGNORABLE, *c))
        .is_some_and(|c| in_ranges(&CASED, c));
    cased_before
        && !after
            .chars()
            .find(|c| !in_ranges(&CASE_IGNORABLE, *c))
            .is_some_and(|c| in_ranges(&CASED, c))
}

/// `str.casefold()`.
pub fn casefold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match mapped(&CASEFOLD, c) {
            Some(to) => out.push_str(to),
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_classes_not_rust_ones() {
        assert!(is_word('²') && !is_decimal('²') && is_letterish('²'));
        assert!(is_decimal('٣') && !is_letterish('٣'));
        assert!(is_space('\u{1f}') && is_space('\u{a0}') && !is_space('\u{200b}'));
        assert!(is_upper('Ⓐ') && !is_alpha('Ⓐ'));
        assert_eq!(py_lower("İSTANBUL ΟΔΟΣ"), "i\u{307}stanbul οδος");
        assert_eq!(casefold("Straße"), "strasse");
        assert!(ignorecase_ends_with("xİN", "in"));
    }
}
