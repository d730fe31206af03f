//! Python `str` semantics on the engine's text.
//!
//! Evidence text is stored as Python encodes it with `"surrogatepass"`: UTF-8, except that a lone
//! surrogate (which a Python `str` may hold, e.g. from a JSON `"\ud800"`) is the 3-byte sequence
//! `ED A0..BF xx`. So the byte length is `_byte_size`'s, and `lossy` gives a `&str` view with each
//! surrogate as U+FFFD (also 3 bytes: byte and code-point offsets stay the same).

use std::borrow::Cow;

/// The code point at byte `at` and its encoded length; `None` at the end. Malformed bytes (not
/// produced by the binding or the parser) read as one U+FFFD each rather than panicking.
pub fn char_at(text: &[u8], at: usize) -> Option<(u32, usize)> {
    let first = *text.get(at)?;
    let width = match first {
        0x00..=0x7F => return Some((u32::from(first), 1)),
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return Some((0xFFFD, 1)),
    };
    let bytes = text.get(at..at + width).unwrap_or_default();
    if bytes.len() != width || bytes.iter().skip(1).any(|b| b & 0xC0 != 0x80) {
        return Some((0xFFFD, 1));
    }
    let lead = u32::from(first) & (0x7F >> width);
    let code = bytes
        .iter()
        .skip(1)
        .fold(lead, |acc, b| (acc << 6) | u32::from(b & 0x3F));
    Some((code, width))
}

/// The code point ending at byte `end` and where it starts.
fn char_before(text: &[u8], end: usize) -> Option<(u32, usize)> {
    let mut start = end.checked_sub(1)?;
    while start > 0 && end - start < 4 && text.get(start).is_some_and(|b| b & 0xC0 == 0x80) {
        start -= 1;
    }
    match char_at(text, start) {
        Some((code, width)) if start + width == end => Some((code, start)),
        _ => Some((0xFFFD, end - 1)),
    }
}

/// Iterates `(byte offset, code point)`.
pub fn chars(text: &[u8]) -> impl Iterator<Item = (usize, u32)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let (code, width) = char_at(text, at)?;
        let start = at;
        at += width;
        Some((start, code))
    })
}

pub fn is_surrogate(code: u32) -> bool {
    (0xD800..=0xDFFF).contains(&code)
}

/// Appends code point `code` (a surrogate too) in the engine's encoding.
pub fn push_char(out: &mut Vec<u8>, code: u32) {
    if let Some(c) = char::from_u32(code) {
        let mut buffer = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
    } else if is_surrogate(code) {
        out.extend_from_slice(&[
            0xE0 | (code >> 12) as u8,
            0x80 | ((code >> 6) & 0x3F) as u8,
            0x80 | (code & 0x3F) as u8,
        ]);
    }
}

/// `len(text)`: code points (a code point starts at every byte that is not 0b10xx_xxxx).
pub fn len_chars(text: &[u8]) -> usize {
    text.iter().filter(|b| (**b as i8) >= -0x40).count()
}

/// `len(text) <= limit`, reading at most `limit + 1` code points' worth of bytes.
pub fn at_most_chars(text: &[u8], limit: usize) -> bool {
    text.len() <= limit || len_chars(text.get(..4 * (limit + 1)).unwrap_or(text)) <= limit
}

/// The byte offset after the first `count` code points (`text[:count]`).
pub fn char_prefix(text: &[u8], count: usize) -> usize {
    if text.get(..count).is_some_and(<[u8]>::is_ascii) {
        return count;
    }
    chars(text).nth(count).map_or(text.len(), |(at, _)| at)
}

/// Python's `str.isspace` (`Py_UNICODE_ISSPACE`): Unicode White_Space plus U+001C..U+001F.
pub fn is_space(code: u32) -> bool {
    matches!(
        code,
        0x09..=0x0D
            | 0x1C..=0x20
            | 0x85
            | 0xA0
            | 0x1680
            | 0x2000..=0x200A
            | 0x2028
            | 0x2029
            | 0x202F
            | 0x205F
            | 0x3000
    )
}

/// `text.strip()` as a byte range.
pub fn strip(text: &[u8]) -> (usize, usize) {
    let start = lstrip(text);
    let mut end = text.len();
    while end > start {
        let last = text.get(end - 1).copied().unwrap_or_default();
        if last.is_ascii() {
            if !is_space(u32::from(last)) {
                break;
            }
            end -= 1;
            continue;
        }
        match char_before(text, end) {
            Some((code, at)) if is_space(code) => end = at,
            _ => break,
        }
    }
    (start, end)
}

/// Where `text.lstrip()` starts.
pub fn lstrip(text: &[u8]) -> usize {
    // ASCII spaces are skipped a byte at a time; the first other byte decides.
    let ascii = text
        .iter()
        .take_while(|byte| byte.is_ascii() && is_space(u32::from(**byte)))
        .count();
    match text.get(ascii) {
        Some(byte) if !byte.is_ascii() => chars(text.get(ascii..).unwrap_or_default())
            .find(|(_, code)| !is_space(*code))
            .map_or(text.len(), |(at, _)| ascii + at),
        _ => ascii,
    }
}

/// `text.encode("utf-8", "surrogatepass")[:keep].decode("utf-8", "ignore")` (`text[:keep]` when
/// ASCII): the whole code points within `keep` bytes, lone surrogates dropped.
pub fn take_prefix(text: &[u8], keep: usize) -> Cow<'_, [u8]> {
    let head = text.get(..keep).unwrap_or(text);
    // Valid UTF-8 (so no surrogate), or valid up to a character the cut splits: that prefix.
    match std::str::from_utf8(head) {
        Ok(_) => return Cow::Borrowed(head),
        Err(cut) if cut.error_len().is_none() => {
            return Cow::Borrowed(head.get(..cut.valid_up_to()).unwrap_or_default())
        }
        Err(_) => {}
    }
    let mut end = 0;
    let mut has_surrogate = false;
    for (at, code) in chars(text) {
        let width = char_at(text, at).map_or(1, |(_, width)| width);
        if at + width > keep {
            break;
        }
        has_surrogate |= is_surrogate(code);
        end = at + width;
    }
    let kept = text.get(..end).unwrap_or_default();
    if !has_surrogate {
        return Cow::Borrowed(kept);
    }
    let mut out = Vec::with_capacity(kept.len());
    for (at, code) in chars(kept) {
        if !is_surrogate(code) {
            let width = char_at(kept, at).map_or(1, |(_, width)| width);
            out.extend_from_slice(kept.get(at..at + width).unwrap_or_default());
        }
    }
    Cow::Owned(out)
}

/// A `&str` view: each lone surrogate as U+FFFD, same byte offsets.
pub fn lossy(text: &[u8]) -> Cow<'_, str> {
    if let Ok(valid) = std::str::from_utf8(text) {
        return Cow::Borrowed(valid);
    }
    let mut out = Vec::with_capacity(text.len());
    for (_, code) in chars(text) {
        push_char(&mut out, if is_surrogate(code) { 0xFFFD } else { code });
    }
    Cow::Owned(String::from_utf8(out).unwrap_or_default())
}

/// `key.isascii() and key.isidentifier()`: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_ascii_identifier(text: &[u8]) -> bool {
    match text.split_first() {
        Some((first, rest)) => {
            (first.is_ascii_alphabetic() || *first == b'_')
                && rest.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_')
        }
        None => false,
    }
}

/// Appends `json.dumps(text, ensure_ascii=False)`.
pub fn push_json_string(out: &mut Vec<u8>, text: &[u8]) {
    out.push(b'"');
    for byte in text {
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            0x00..=0x1F => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(byte >> 4)]);
                out.push(HEX[usize::from(byte & 0xF)]);
            }
            _ => out.push(*byte),
        }
    }
    out.push(b'"');
}

/// `_MAY_HOLD_ATOM`: `[0-9@]|://|www\.`, case-insensitive (ASCII only: no other case folds to w).
pub fn may_hold_atom(text: &[u8]) -> bool {
    text.iter().enumerate().any(|(at, byte)| {
        ATOM_START[usize::from(*byte)]
            && match byte {
                b':' => text.get(at + 1..at + 3) == Some(b"//"),
                b'w' | b'W' => text
                    .get(at..at + 4)
                    .is_some_and(|four| four.eq_ignore_ascii_case(b"www.")),
                _ => true, // [0-9@]
            }
    })
}

/// The bytes `may_hold_atom` looks at: one table read per byte rules out the others.
const ATOM_START: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = matches!(byte as u8, b'0'..=b'9' | b'@' | b':' | b'w' | b'W');
        byte += 1;
    }
    table
};

/// Python's `\d` in a `str` pattern: Unicode category Nd as of the former Python engine's Unicode
/// version (`extract::chars`' table, from Python 3.11). A surrogate is none.
pub fn is_decimal(code: u32) -> bool {
    decimal_value(code).is_some()
}

/// The digit value of a Python `\d` code point (what `float()` reads it as).
pub fn decimal_value(code: u32) -> Option<u8> {
    if code < 0x80 {
        // ASCII holds no other decimal digit: no table search for the common case.
        return (code as u8).is_ascii_digit().then(|| code as u8 - b'0');
    }
    let digit = char::from_u32(code).and_then(crate::extract::chars::decimal_value)?;
    u8::try_from(digit).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn py(text: &str) -> Vec<u8> {
        text.as_bytes().to_vec()
    }

    #[test]
    fn strip_uses_python_whitespace() {
        let text = py("\u{1c}\u{3000} a b\u{85}\u{2028}");
        let (start, end) = strip(&text);
        assert_eq!(&text[start..end], b"a b");
        assert_eq!(strip(b"   "), (3, 3));
        assert!(!is_space(0x200B) && !is_space(0xFEFF));
    }

    #[test]
    fn take_prefix_drops_cut_characters_and_surrogates() {
        assert_eq!(&*take_prefix(b"abcdef", 3), b"abc");
        let text = py("a€b");
        assert_eq!(&*take_prefix(&text, 3), b"a");
        assert_eq!(&*take_prefix(&text, 4), "a€".as_bytes());
        let mut surrogate = b"x".to_vec();
        push_char(&mut surrogate, 0xD800);
        surrogate.extend_from_slice("é".as_bytes());
        assert_eq!(surrogate.len(), 6);
        assert_eq!(&*take_prefix(&surrogate, 6), "xé".as_bytes());
        assert_eq!(lossy(&surrogate), "x\u{FFFD}é");
    }

    #[test]
    fn take_prefix_keeps_whole_characters_at_every_cut() {
        // Each cut of texts with 1- to 4-byte characters, with and without a surrogate, against
        // the characters that fit, read one by one.
        let mut with_surrogate = py("a€😀");
        push_char(&mut with_surrogate, 0xDC00);
        with_surrogate.extend_from_slice("b😀".as_bytes());
        for text in [py("a€😀bé"), with_surrogate] {
            for keep in 0..=text.len() + 1 {
                let mut expected = Vec::new();
                for (at, code) in chars(&text) {
                    let width = char_at(&text, at).map_or(1, |(_, width)| width);
                    if at + width > keep {
                        break;
                    }
                    if !is_surrogate(code) {
                        expected.extend_from_slice(&text[at..at + width]);
                    }
                }
                assert_eq!(&*take_prefix(&text, keep), &expected[..], "cut at {keep}");
            }
        }
    }

    #[test]
    fn json_string_matches_ensure_ascii_false() {
        let mut out = Vec::new();
        push_json_string(&mut out, "a\"\\\n\u{1}\u{7f}é".as_bytes());
        assert_eq!(out, "\"a\\\"\\\\\\n\\u0001\u{7f}é\"".as_bytes());
    }

    #[test]
    fn decimal_digits_follow_unicode_14() {
        assert_eq!(decimal_value(u32::from('٣')), Some(3));
        assert_eq!(decimal_value(0x1D7CE + 13), Some(3));
        assert!(!is_decimal(0x11F50) && !is_decimal(0x1E4F0) && !is_decimal(u32::from('²')));
        assert!(may_hold_atom(b"see WwW.x") && !may_hold_atom(b"ww.x :/"));
        assert!(is_ascii_identifier(b"_a1") && !is_ascii_identifier(b"1a"));
    }
}
