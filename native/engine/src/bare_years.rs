//! Bare years when judging (the former Python engine's `scoring/bare_years.py`): a figure written as four digits
//! can be a year and a number at once, and a changed year is searched among the years one slip away.

use crate::atoms::{Atom, AtomValue};
use crate::vocabulary::AtomKind;

const FIRST_YEAR: i64 = 1000;
const LAST_YEAR: i64 = 2099;

fn four_digits(written: &str) -> Option<i64> {
    (written.len() == 4 && written.bytes().all(|b| b.is_ascii_digit()))
        .then(|| written.bytes().fold(0, |n, b| n * 10 + i64::from(b - b'0')))
}

/// The year of a date atom written as four bare digits ("in 1810"); `written` is its text.
pub fn written_year(atom: &Atom, written: &str) -> Option<i64> {
    let year = four_digits(written)?;
    match &atom.value {
        AtomValue::Date(date) if date.readings == [(Some(year), None, None)] => Some(year),
        AtomValue::Date(_)
        | AtomValue::Quantity(_)
        | AtomValue::Identifier(_)
        | AtomValue::Time(_) => None,
    }
}

/// The year a plain four-digit number may also be ("Paris, 1849"); `written` is its text.
pub fn year_of_number(atom: &Atom, written: &str) -> Option<i64> {
    let year = four_digits(written)?;
    let AtomValue::Quantity(quantity) = &atom.value else {
        return None;
    };
    let plain = atom.kind == AtomKind::Number && quantity.unit.is_none();
    (plain && (FIRST_YEAR..=LAST_YEAR).contains(&year)).then_some(year)
}

/// Years one slip from `year` (not negative), nearest first: one more or less, then one changed
/// digit or two adjacent digits swapped (1810: 1809, 1811, then 1010...1910, 1800...1890, 1801...).
pub fn slipped_years(year: i64) -> Vec<i64> {
    let mut found: Vec<i64> = Vec::with_capacity(48);
    found.extend([year - 1, year + 1]);
    let mut add = |digits: &[u8]| {
        let value = digits.iter().fold(0i64, |n, b| {
            n.saturating_mul(10)
                .saturating_add(i64::from(b.wrapping_sub(b'0')))
        });
        if !found.contains(&value) {
            found.push(value);
        }
    };
    // The decimal text of `year` (at most 20 bytes for an i64), without allocating.
    let mut buffer = [0u8; 20];
    let mut length = 0;
    let mut rest = year.unsigned_abs();
    loop {
        if let Some(slot) = buffer.get_mut(length) {
            *slot = b'0' + (rest % 10) as u8;
        }
        length += 1;
        rest /= 10;
        if rest == 0 || length >= buffer.len() {
            break;
        }
    }
    if year < 0 && length < buffer.len() {
        if let Some(slot) = buffer.get_mut(length) {
            *slot = b'-';
        }
        length += 1;
    }
    let digits = buffer.get_mut(..length).unwrap_or_default();
    digits.reverse();
    let digits: &[u8] = digits;
    let mut changed = [0u8; 20];
    let changed = changed.get_mut(..length).unwrap_or_default();
    for (i, current) in digits.iter().enumerate() {
        for digit in b'0'..=b'9' {
            if digit != *current && (i > 0 || digit != b'0') {
                changed.copy_from_slice(digits);
                if let Some(slot) = changed.get_mut(i) {
                    *slot = digit;
                }
                add(changed);
            }
        }
        let next = digits.get(i + 1);
        if next.is_some_and(|next| next != current) && (i > 0 || digits.get(1) != Some(&b'0')) {
            changed.copy_from_slice(digits);
            changed.swap(i, i + 1);
            add(changed);
        }
    }
    found.retain(|other| *other != year);
    found
}

#[cfg(test)]
mod tests {
    use super::slipped_years;

    #[test]
    fn nearest_slips_first() {
        let slips = slipped_years(1810);
        assert_eq!(slips.get(..4), Some(&[1809, 1811, 2810, 3810][..]));
        assert!(slips.contains(&1801) && slips.contains(&8110) && !slips.contains(&1810));
        assert!(!slips.contains(&810)); // no leading zero
    }

    /// The former allocating version, digit by digit from `to_string`.
    fn reference(year: i64) -> Vec<i64> {
        let mut found: Vec<i64> = vec![year - 1, year + 1];
        let mut add = |digits: &[u8]| {
            let value = digits.iter().fold(0i64, |n, b| {
                n.saturating_mul(10)
                    .saturating_add(i64::from(b.wrapping_sub(b'0')))
            });
            if !found.contains(&value) {
                found.push(value);
            }
        };
        let digits = year.to_string().into_bytes();
        for (i, current) in digits.iter().enumerate() {
            for digit in b'0'..=b'9' {
                if digit != *current && (i > 0 || digit != b'0') {
                    let mut changed = digits.clone();
                    changed[i] = digit;
                    add(&changed);
                }
            }
            let next = digits.get(i + 1);
            if next.is_some_and(|next| next != current) && (i > 0 || digits.get(1) != Some(&b'0')) {
                let mut swapped = digits.clone();
                swapped.swap(i, i + 1);
                add(&swapped);
            }
        }
        found.retain(|other| *other != year);
        found
    }

    #[test]
    fn same_slips_as_the_decimal_text_gives() {
        for year in [
            0,
            7,
            10,
            21,
            99,
            1810,
            2099,
            123_456,
            -5,
            -1810,
            i64::MAX - 1,
            i64::MIN + 1,
        ] {
            assert_eq!(slipped_years(year), reference(year), "{year}");
        }
    }
}
