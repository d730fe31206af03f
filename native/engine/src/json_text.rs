//! JSON text to `value` nodes, accepting exactly what Python's `json.loads` accepts (and yielding
//! the same values): `NaN`/`Infinity`/`-Infinity`, ints of any size up to Python's digit limit,
//! duplicate keys (the last value at the first key's position, as a `dict` keeps them), lone
//! surrogates from `\u` escapes. Iterative; nesting beyond `Limits::max_nesting` fails as Python's
//! `RecursionError` does, at the same point of the text.

use crate::fxhash::FxHashMap as HashMap;
use crate::pytext::push_char;
use crate::value::{Arena, Node, NodeId, Span, TooLarge};

/// Objects with more keys than this find repeated keys by hashing.
const SCANNED_KEYS: usize = 16;

/// Why a text is not read as JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonError {
    /// `json.loads` raises `ValueError` (`JSONDecodeError`, or an int past the digit limit).
    Invalid,
    /// `json.loads` raises `RecursionError`.
    TooDeep,
    /// The arena is full.
    TooLarge,
}

impl From<TooLarge> for JsonError {
    fn from(_: TooLarge) -> Self {
        JsonError::TooLarge
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Containers nested deeper than this raise `RecursionError` (it depends on the caller's
    /// Python stack: see the binding).
    pub max_nesting: i64,
    /// `sys.get_int_max_str_digits()`: an int literal with more digits is a `ValueError` (0: none).
    pub max_int_digits: usize,
}

/// Parses the JSON document stored at `source` in the arena's text; its nodes are appended.
pub fn parse(arena: &mut Arena, source: Span, limits: Limits) -> Result<NodeId, JsonError> {
    let start = source.start as usize;
    let mut parser = Parser {
        arena,
        pos: start,
        end: start + source.len as usize,
        limits,
    };
    parser.document()
}

struct Parser<'a> {
    arena: &'a mut Arena,
    pos: usize,
    end: usize,
    limits: Limits,
}

/// The value of an int literal (`-?[0-9]+`) that fits in an i64, read without a `str`.
fn small_int(literal: &[u8]) -> Option<i64> {
    let (negative, digits) = match literal.split_first() {
        Some((b'-', digits)) => (true, digits),
        _ => (false, literal),
    };
    // Accumulated on the literal's side of zero: i64::MIN fits too.
    digits.iter().try_fold(0i64, |value, digit| {
        let digit = i64::from(digit.wrapping_sub(b'0'));
        let value = value.checked_mul(10)?;
        if negative {
            value.checked_sub(digit)
        } else {
            value.checked_add(digit)
        }
    })
}

/// A `dict` built from the key, value pairs, in place: a repeated key keeps its first position
/// and its last value. Returns how many links are kept at the front of `pairs`.
fn dedupe(arena: &Arena, pairs: &mut [NodeId]) -> usize {
    let mut kept = 0;
    // Records are small: a scan of the kept keys costs less than hashing them.
    let mut seen: Option<HashMap<&[u8], usize>> = None;
    for read in (0..pairs.len() / 2).map(|pair| 2 * pair) {
        let (Some(&key), Some(&value)) = (pairs.get(read), pairs.get(read + 1)) else {
            continue;
        };
        let text = arena.key_text(key);
        let found = match &seen {
            Some(seen) => seen.get(text).copied(),
            None => pairs
                .get(..kept)
                .unwrap_or_default()
                .chunks_exact(2)
                .position(|pair| pair.first().map(|k| arena.key_text(*k)) == Some(text))
                .map(|at| 2 * at),
        };
        match found {
            Some(at) => {
                if let Some(slot) = pairs.get_mut(at + 1) {
                    *slot = value;
                }
            }
            None => {
                if let Some(seen) = &mut seen {
                    seen.insert(text, kept);
                }
                // The kept links trail the read ones: writing them over read pairs is safe.
                if let Some(slot) = pairs.get_mut(kept..kept + 2) {
                    slot.copy_from_slice(&[key, value]);
                }
                kept += 2;
                if seen.is_none() && kept > 2 * SCANNED_KEYS {
                    seen = Some(
                        pairs
                            .get(..kept)
                            .unwrap_or_default()
                            .chunks_exact(2)
                            .enumerate()
                            .filter_map(|(at, pair)| Some((arena.key_text(*pair.first()?), 2 * at)))
                            .collect(),
                    );
                }
            }
        }
    }
    kept
}

/// `10.0 ** k` for the `k` that `short_decimal` divides by (each exactly a float).
const POWERS_OF_TEN: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// The value of a float literal `-?[0-9]+\.[0-9]+` of at most 15 digits, without parsing a
/// `str`: its digits are an integer below 2**53 and its scale a power of ten that floats hold
/// exactly, so one division rounds correctly, as `float()` does (Clinger's fast path). `None`
/// for any other literal.
fn short_decimal(literal: &[u8]) -> Option<f64> {
    let (negative, body) = match literal.split_first() {
        Some((b'-', body)) => (true, body),
        _ => (false, literal),
    };
    let (mut mantissa, mut digits, mut fraction) = (0u64, 0, None);
    for byte in body {
        match byte {
            b'0'..=b'9' if digits < 15 => {
                mantissa = mantissa * 10 + u64::from(byte - b'0');
                digits += 1;
                fraction = fraction.map(|places: usize| places + 1);
            }
            b'.' => fraction = Some(0),
            _ => return None, // a 16th digit or an exponent
        }
    }
    let value = mantissa as f64 / POWERS_OF_TEN.get(fraction?)?;
    Some(if negative { -value } else { value })
}

/// An open container: a mapping or not, and where its children start on the scratch stack.
struct Open {
    map: bool,
    first: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        if self.pos < self.end {
            self.arena.text.get(self.pos).copied()
        } else {
            None
        }
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, word: &[u8]) -> bool {
        let found = self.pos + word.len() <= self.end
            && self.arena.text.get(self.pos..self.pos + word.len()) == Some(word);
        if found {
            self.pos += word.len();
        }
        found
    }

    fn document(&mut self) -> Result<NodeId, JsonError> {
        let mut open: Vec<Open> = Vec::new();
        let mut scratch: Vec<NodeId> = Vec::new();
        self.skip_space();
        loop {
            // A value is expected here (a mapping's key and colon are already read).
            let mut value = match self.peek() {
                Some(bracket @ (b'{' | b'[')) => {
                    if i64::try_from(open.len()).unwrap_or(i64::MAX) >= self.limits.max_nesting {
                        return Err(JsonError::TooDeep);
                    }
                    self.pos += 1;
                    let map = bracket == b'{';
                    open.push(Open {
                        map,
                        first: scratch.len(),
                    });
                    self.skip_space();
                    let closing = if map { b'}' } else { b']' };
                    if self.peek() == Some(closing) {
                        self.pos += 1;
                        self.close(&mut open, &mut scratch)?
                    } else {
                        if map {
                            self.key(&mut scratch)?;
                        }
                        continue;
                    }
                }
                _ => self.scalar()?,
            };
            // The value is complete: hand it to its container until one wants another value.
            loop {
                if open.is_empty() {
                    self.skip_space();
                    return if self.pos == self.end {
                        Ok(value)
                    } else {
                        Err(JsonError::Invalid)
                    };
                }
                scratch.push(value);
                self.skip_space();
                let map = open.last().is_some_and(|top| top.map);
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_space();
                        if map {
                            self.key(&mut scratch)?;
                        }
                        break;
                    }
                    Some(b'}') if map => {
                        self.pos += 1;
                        value = self.close(&mut open, &mut scratch)?;
                    }
                    Some(b']') if !map => {
                        self.pos += 1;
                        value = self.close(&mut open, &mut scratch)?;
                    }
                    _ => return Err(JsonError::Invalid),
                }
            }
        }
    }

    /// Reads `"key"` and `:` (and the space after it).
    fn key(&mut self, scratch: &mut Vec<NodeId>) -> Result<(), JsonError> {
        if self.peek() != Some(b'"') {
            return Err(JsonError::Invalid);
        }
        let key = self.string()?;
        scratch.push(key);
        self.skip_space();
        if self.peek() != Some(b':') {
            return Err(JsonError::Invalid);
        }
        self.pos += 1;
        self.skip_space();
        Ok(())
    }

    /// Ends the innermost container: its children become one run of links.
    fn close(
        &mut self,
        open: &mut Vec<Open>,
        scratch: &mut Vec<NodeId>,
    ) -> Result<NodeId, JsonError> {
        let Some(Open { map, first }) = open.pop() else {
            return Err(JsonError::Invalid);
        };
        let children = scratch.get_mut(first..).unwrap_or_default();
        let node = if map {
            let kept = dedupe(self.arena, children);
            Node::Map {
                links: self
                    .arena
                    .push_links(children.get(..kept).unwrap_or_default())?,
                exact: true,
            }
        } else {
            Node::List {
                links: self.arena.push_links(children)?,
                exact: true,
            }
        };
        scratch.truncate(first);
        Ok(self.arena.push(node)?)
    }

    fn scalar(&mut self) -> Result<NodeId, JsonError> {
        let node = match self.peek() {
            Some(b'"') => return self.string(),
            Some(b'n') if self.eat(b"null") => Node::Null,
            Some(b't') if self.eat(b"true") => Node::Bool(true),
            Some(b'f') if self.eat(b"false") => Node::Bool(false),
            Some(b'N') if self.eat(b"NaN") => Node::Float(f64::NAN),
            Some(b'I') if self.eat(b"Infinity") => Node::Float(f64::INFINITY),
            Some(b'-') if self.eat(b"-Infinity") => Node::Float(f64::NEG_INFINITY),
            Some(b'-' | b'0'..=b'9') => self.number()?,
            _ => return Err(JsonError::Invalid),
        };
        Ok(self.arena.push(node)?)
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`, as `_json`'s `_match_number_unicode`.
    fn number(&mut self) -> Result<Node, JsonError> {
        let start = self.pos;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        let whole = match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                1
            }
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(JsonError::Invalid),
        };
        let mut is_float = false;
        let at = |parser: &Self, offset: usize| {
            if parser.pos + offset < parser.end {
                parser.arena.text.get(parser.pos + offset).copied()
            } else {
                None
            }
        };
        if self.peek() == Some(b'.') && matches!(at(self, 1), Some(b'0'..=b'9')) {
            self.pos += 1;
            self.digits();
            is_float = true;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let mark = self.pos;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() > 0 {
                is_float = true;
            } else {
                self.pos = mark; // not an exponent: what follows is not a number's
            }
        }
        let literal = self.arena.text.get(start..self.pos).unwrap_or_default();
        if is_float {
            if let Some(value) = short_decimal(literal) {
                return Ok(Node::Float(value));
            }
            return std::str::from_utf8(literal)
                .ok()
                .and_then(|text| text.parse::<f64>().ok())
                .map(Node::Float)
                .ok_or(JsonError::Invalid);
        }
        let limit = self.limits.max_int_digits;
        if limit > 0 && whole > limit {
            return Err(JsonError::Invalid); // Python: "Exceeds the limit (4300 digits)"
        }
        if let Some(small) = small_int(literal) {
            return Ok(Node::Int(small));
        }
        if whole > 308 {
            return Ok(Node::HugeInt);
        }
        let span = Span {
            start: u32::try_from(start).map_err(|_| JsonError::TooLarge)?,
            len: u32::try_from(self.pos - start).map_err(|_| JsonError::TooLarge)?,
        };
        Ok(Node::BigInt(span))
    }

    /// A string literal: `"` is at `pos`. Escapes as `_json`'s `scanstring_unicode`.
    fn string(&mut self) -> Result<NodeId, JsonError> {
        self.pos += 1;
        let start = self.pos;
        // The run of plain bytes is found in one scan of the slice.
        let rest = self.arena.text.get(start..self.end).unwrap_or_default();
        let plain = rest
            .iter()
            .position(|byte| matches!(byte, b'"' | b'\\' | 0x00..=0x1F))
            .ok_or(JsonError::Invalid)?;
        self.pos += plain;
        match self.peek() {
            Some(b'"') => {
                // Without escapes the string is its stretch of the document's text.
                let span = Span {
                    start: u32::try_from(start).map_err(|_| JsonError::TooLarge)?,
                    len: u32::try_from(plain).map_err(|_| JsonError::TooLarge)?,
                };
                self.pos += 1;
                return Ok(self.arena.push(Node::Str(span))?);
            }
            Some(b'\\') => {}
            _ => return Err(JsonError::Invalid),
        }
        let mut out: Vec<u8> = self
            .arena
            .text
            .get(start..self.pos)
            .unwrap_or_default()
            .to_vec();
        loop {
            match self.peek() {
                None => return Err(JsonError::Invalid),
                Some(b'"') => {
                    self.pos += 1;
                    let span = self.arena.push_text(&out)?;
                    return Ok(self.arena.push(Node::Str(span))?);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let escaped = self.peek().ok_or(JsonError::Invalid)?;
                    self.pos += 1;
                    match escaped {
                        b'"' | b'\\' | b'/' => out.push(escaped),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0C),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let code = self.unicode_escape()?;
                            push_char(&mut out, code);
                        }
                        _ => return Err(JsonError::Invalid),
                    }
                }
                Some(0x00..=0x1F) => return Err(JsonError::Invalid),
                Some(byte) => {
                    out.push(byte);
                    self.pos += 1;
                }
            }
        }
    }

    /// The code point of `XXXX` after `\u` (a high surrogate followed by `\u` and a low one makes
    /// one astral code point; any other surrogate stays lone).
    fn unicode_escape(&mut self) -> Result<u32, JsonError> {
        let high = self.hex4()?;
        if (0xD800..=0xDBFF).contains(&high) && self.pos + 1 < self.end {
            let mark = self.pos;
            if self.eat(b"\\u") {
                match self.hex4() {
                    Ok(low) if (0xDC00..=0xDFFF).contains(&low) => {
                        return Ok(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
                    }
                    _ => self.pos = mark,
                }
            }
        }
        Ok(high)
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut code = 0u32;
        for _ in 0..4 {
            let digit = self
                .peek()
                .and_then(|byte| char::from(byte).to_digit(16))
                .ok_or(JsonError::Invalid)?;
            code = code * 16 + digit;
            self.pos += 1;
        }
        Ok(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        max_nesting: 990,
        max_int_digits: 4300,
    };

    fn load(text: &str) -> Result<(Arena, NodeId), JsonError> {
        let mut arena = Arena::default();
        let span = arena.push_text(text.as_bytes())?;
        let root = parse(&mut arena, span, LIMITS)?;
        Ok((arena, root))
    }

    /// A compact rendering of a parsed value, for comparing with what Python gives.
    fn show(arena: &Arena, root: NodeId) -> String {
        let mut out = String::new();
        let mut stack = vec![(root, 0usize)];
        while let Some((id, state)) = stack.pop() {
            match arena.node(id) {
                Node::List { links, .. } | Node::Map { links, .. } => {
                    let map = matches!(arena.node(id), Node::Map { .. });
                    let children = arena.children(links);
                    if state == 0 {
                        out.push(if map { '{' } else { '[' });
                    }
                    if let Some(child) = children.get(state) {
                        if state > 0 {
                            out.push(if map && state % 2 == 1 { ':' } else { ',' });
                        }
                        stack.push((id, state + 1));
                        stack.push((*child, 0));
                    } else {
                        out.push(if map { '}' } else { ']' });
                    }
                }
                Node::Str(span) => {
                    out.push('"');
                    out.push_str(&crate::pytext::lossy(arena.bytes(span)));
                    out.push('"');
                }
                Node::BigInt(span) => out.push_str(&crate::pytext::lossy(arena.bytes(span))),
                Node::Int(value) => out.push_str(&value.to_string()),
                Node::Float(value) => out.push_str(&crate::float_repr::py_float_repr(value)),
                other => out.push_str(&format!("{other:?}")),
            }
        }
        out
    }

    fn shown(text: &str) -> Result<String, JsonError> {
        load(text).map(|(arena, root)| show(&arena, root))
    }

    #[test]
    fn accepts_what_python_accepts() {
        assert_eq!(
            shown(" [1e400, -0, -0.0, 1E+2] ").as_deref(),
            Ok("[inf,0,-0.0,100.0]")
        );
        assert_eq!(shown("NaN").as_deref(), Ok("nan"));
        assert_eq!(shown("[-Infinity]").as_deref(), Ok("[-inf]"));
        assert_eq!(
            shown(r#"{"a" : 1 , "b":2, "a":3}"#).as_deref(),
            Ok(r#"{"a":3,"b":2}"#)
        );
        assert_eq!(
            shown(r#"["\/\u00e9\ud83d\ude00"]"#).as_deref(),
            Ok("[\"/é😀\"]")
        );
        assert_eq!(shown("[\"\u{7f}\"]").as_deref(), Ok("[\"\u{7f}\"]"));
        assert_eq!(
            shown("123456789012345678901234567890").as_deref(),
            Ok("123456789012345678901234567890")
        );
        assert_eq!(shown(&"1".repeat(400)).as_deref(), Ok("HugeInt"));
    }

    #[test]
    fn short_decimals_read_as_python_reads_them() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut texts: Vec<String> = [
            "0.0",
            "-0.0",
            "0.1",
            "-12.50",
            "999999999999.999",
            "0.000000000000001",
        ]
        .map(String::from)
        .to_vec();
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let digits = (state % 1_000_000_000_000_000) >> (state % 40);
            let places = (state >> 50) as usize % 16;
            let text = format!("{digits:0>width$}", width = places + 1);
            let (whole, fraction) = text.split_at(text.len() - places);
            texts.push(format!(
                "{}{whole}.{fraction}",
                if state & 1 == 1 { "-" } else { "" }
            ));
        }
        for text in &texts {
            let expected = text.parse::<f64>().ok();
            match short_decimal(text.as_bytes()) {
                Some(value) => {
                    assert_eq!(Some(value.to_bits()), expected.map(f64::to_bits), "{text}")
                }
                None => assert!(
                    text.bytes().filter(u8::is_ascii_digit).count() > 15,
                    "{text}"
                ),
            }
        }
        assert_eq!(short_decimal(b"1.5e3"), None);
        assert_eq!(short_decimal(b"1234567890.123456"), None);
    }

    #[test]
    fn ints_beyond_i64_are_big() {
        assert_eq!(small_int(b"-9223372036854775808"), Some(i64::MIN));
        assert_eq!(small_int(b"9223372036854775807"), Some(i64::MAX));
        assert_eq!(small_int(b"9223372036854775808"), None);
        assert_eq!(small_int(b"-0"), Some(0));
        let (arena, root) = load("[-9223372036854775809]").unwrap_or_default();
        let first = arena.children(match arena.node(root) {
            Node::List { links, .. } => links,
            _ => Span::default(),
        });
        assert!(matches!(arena.node(first[0]), Node::BigInt(_)));
    }

    #[test]
    fn lone_surrogates_are_kept() {
        let (arena, root) = load(r#""\ud800\ud800\udc00x""#).unwrap_or_default();
        let Node::Str(span) = arena.node(root) else {
            panic!("not a string");
        };
        assert_eq!(arena.bytes(span), b"\xed\xa0\x80\xf0\x90\x80\x80x");
    }

    #[test]
    fn rejects_what_python_rejects() {
        for text in [
            "[1,]",
            r#"{"a":1,}"#,
            "[01]",
            "[1.]",
            "[.5]",
            "[1e]",
            "[-]",
            "[-NaN]",
            "\u{a0}[1]",
            "[1]\u{c}",
            "[\"\u{1f}\"]",
            "[tru]",
            r#"["\u00zz"]"#,
            r#""\U0041""#,
            "{1:2}",
            "[1 2]",
            "",
            "[",
            "\"abc",
            "[1]]",
        ] {
            assert_eq!(shown(text), Err(JsonError::Invalid), "{text:?}");
        }
        assert_eq!(shown(&"1".repeat(4301)), Err(JsonError::Invalid));
        assert!(shown(&"1".repeat(4300)).is_ok());
    }

    #[test]
    fn nesting_fails_beyond_the_limit() {
        let deep = |levels: usize| "[".repeat(levels) + &"]".repeat(levels);
        assert!(shown(&deep(990)).is_ok());
        assert_eq!(shown(&deep(991)), Err(JsonError::TooDeep));
        // The first failure in text order wins, as in Python's recursive descent.
        assert_eq!(
            shown(&("[x".to_owned() + &deep(2000))),
            Err(JsonError::Invalid)
        );
        assert_eq!(shown(&(deep(2000) + "x")), Err(JsonError::TooDeep));
        assert!(shown(&"[1,".repeat(100_000)).is_err());
    }
}
