//! `_KEYED_NUMBER`: `"key": 123` and `"key": "123.00"` pairs read out of a JSON document that does
//! not parse (typically cut by its producer).
//!
//! Python's pattern, with its backtracking worked out (every quantifier is bounded and each run
//! is maximal, so a match is decided by one forward scan from each `"`):
//! `"([^"\\\n]{1,80})"[ \t\r\n]{0,8}:[ \t\r\n]{0,8}` then either
//! `(-?\d{1,30}(?:\.\d{1,30})?(?:[eE][+-]?\d{1,3})?)(?![\d.eE])` or `"(-?\d{1,30}(?:\.\d{1,30})?)"`,
//! with `\d` Python's (Unicode decimal digits).

use crate::pytext::{char_at, decimal_value, is_decimal};

/// One match: byte ranges of the key and of the number, and the number's finite value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyedNumber {
    pub key: (usize, usize),
    pub number: (usize, usize),
    pub value: f64,
}

/// Every match, left to right, without overlaps (`re.finditer`), with a finite value.
pub fn keyed_numbers(text: &[u8]) -> Vec<KeyedNumber> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = text
        .get(at..)
        .and_then(|rest| rest.iter().position(|b| *b == b'"'))
    {
        let quote = at + offset;
        match match_at(text, quote) {
            Some((keyed, end)) => {
                if let Some(value) = parse_decimal(text.get(keyed.number.0..keyed.number.1)) {
                    if value.is_finite() {
                        found.push(KeyedNumber { value, ..keyed });
                    }
                }
                at = end;
            }
            None => at = quote + 1,
        }
    }
    found
}

/// The match starting at the `"` at `quote`, and where it ends.
fn match_at(text: &[u8], quote: usize) -> Option<(KeyedNumber, usize)> {
    let key_start = quote + 1;
    let mut pos = key_start;
    let mut count = 0;
    while let Some((code, width)) = char_at(text, pos) {
        if matches!(code, 0x22 | 0x5C | 0x0A) {
            break;
        }
        count += 1;
        if count > 80 {
            return None;
        }
        pos += width;
    }
    if count == 0 || text.get(pos) != Some(&b'"') {
        return None;
    }
    let key = (key_start, pos);
    pos = spaces(text, pos + 1)?;
    if text.get(pos) != Some(&b':') {
        return None;
    }
    pos = spaces(text, pos + 1)?;
    let (number, end) = if text.get(pos) == Some(&b'"') {
        let start = pos + 1;
        let after = plain_number(text, start)?;
        if text.get(after) != Some(&b'"') {
            return None;
        }
        ((start, after), after + 1)
    } else {
        let mut after = plain_number(text, pos)?;
        if matches!(text.get(after), Some(b'e' | b'E')) {
            let mut exponent = after + 1;
            if matches!(text.get(exponent), Some(b'+' | b'-')) {
                exponent += 1;
            }
            let (digits, end) = digit_run(text, exponent, 3);
            if (1..=3).contains(&digits) {
                after = end;
            }
        }
        // (?![\d.eE])
        match char_at(text, after) {
            Some((code, _)) if is_decimal(code) || matches!(code, 0x2E | 0x45 | 0x65) => {
                return None
            }
            _ => {}
        }
        ((pos, after), after)
    };
    let keyed = KeyedNumber {
        key,
        number,
        value: 0.0,
    };
    Some((keyed, end))
}

/// After a run of at most 8 of `[ \t\r\n]` (a longer run fails the pattern).
fn spaces(text: &[u8], start: usize) -> Option<usize> {
    let run = text
        .get(start..)
        .unwrap_or_default()
        .iter()
        .take(9)
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .count();
    (run <= 8).then_some(start + run)
}

/// How many digits (at most `cap + 1` are read) start at `start`, and where the run read ends.
fn digit_run(text: &[u8], start: usize, cap: usize) -> (usize, usize) {
    let mut pos = start;
    let mut count = 0;
    while count <= cap {
        match char_at(text, pos) {
            Some((code, width)) if is_decimal(code) => {
                pos += width;
                count += 1;
            }
            _ => break,
        }
    }
    (count, pos)
}

/// `-?\d{1,30}(?:\.\d{1,30})?` with maximal runs; where it ends. A run of more than 30 digits (or
/// a `.` not followed by 1 to 30) cannot be followed by what the pattern needs next: no match.
pub fn plain_number(text: &[u8], start: usize) -> Option<usize> {
    let mut pos = start;
    if text.get(pos) == Some(&b'-') {
        pos += 1;
    }
    let (whole, end) = digit_run(text, pos, 30);
    if !(1..=30).contains(&whole) {
        return None;
    }
    pos = end;
    if text.get(pos) == Some(&b'.') {
        let (fraction, end) = digit_run(text, pos + 1, 30);
        if (1..=30).contains(&fraction) {
            pos = end;
        }
    }
    Some(pos)
}

/// `float(text)` for the decimal forms above (Unicode digits read as their values).
pub fn parse_decimal(text: Option<&[u8]>) -> Option<f64> {
    let text = text?;
    if text.is_ascii() {
        return std::str::from_utf8(text).ok()?.parse::<f64>().ok();
    }
    let mut ascii = String::with_capacity(text.len());
    let mut pos = 0;
    while let Some((code, width)) = char_at(text, pos) {
        match decimal_value(code) {
            Some(digit) => ascii.push(char::from(b'0' + digit)),
            None => ascii.push(char::from_u32(code)?),
        }
        pos += width;
    }
    ascii.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, String)> {
        keyed_numbers(text.as_bytes())
            .into_iter()
            .map(|keyed| {
                let key = &text[keyed.key.0..keyed.key.1];
                let number = &text[keyed.number.0..keyed.number.1];
                (key.to_owned(), number.to_owned())
            })
            .collect()
    }

    fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
        expected
            .iter()
            .map(|(key, number)| ((*key).to_owned(), (*number).to_owned()))
            .collect()
    }

    #[test]
    fn reads_keyed_numbers_as_python_does() {
        assert_eq!(
            found(r#"{"total": 1243500.00, "tax":"12.5", "id": "A1", "n":-3e5, "cut": 12"#),
            pairs(&[
                ("total", "1243500.00"),
                ("tax", "12.5"),
                ("n", "-3e5"),
                ("cut", "12")
            ])
        );
        // Each refused by the lookahead or a bound.
        assert!(found(r#""a": 123.  "b": 1e1234 "c": 1.5e "d": 12. "#).is_empty());
        assert!(found(&format!("\"a\": {}", "1".repeat(31))).is_empty());
        assert!(found(&format!("\"{}\": 1", "k".repeat(81))).is_empty());
        assert!(found("\"a\"         : 1").is_empty());
        assert_eq!(found("\"a\":\"٣.5\""), pairs(&[("a", "٣.5")]));
        assert_eq!(keyed_numbers("\"a\":\"٣.5\"".as_bytes())[0].value, 3.5);
        // A failed start does not hide a match that starts inside it.
        assert_eq!(found(r#""x"y": 1"#), pairs(&[("y", "1")]));
        assert!(found(r#""a": 1e999"#).is_empty());
    }
}
