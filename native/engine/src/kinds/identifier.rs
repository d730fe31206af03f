//! Identifiers: tickets, hashtags, phone numbers, UUIDs, hashes, IPs, versions and glued codes
//! (the former Python engine's identifier branches of `grammar.py`, `Scan`'s handlers and `identifiers.py`).
//! E-mails and URLs are claimed before the scan (`extract::claims`). Alphanumeric codes (booking
//! references, tracking numbers) and flight numbers written with a space are this engine's own.

use super::{in_years, Branch, Family, Found, Hit, Kind};
use crate::atoms::Atom;
use crate::extract::chars::is_word;
use crate::extract::grammar::currency_code;
use crate::extract::scan::{Cx, Scan};
use crate::extract::text::Text;
use crate::kinds::date::year_atom;

pub struct Identifiers;

impl Kind for Identifiers {
    fn branches(&self) -> &'static [Branch] {
        &BRANCHES
    }
}

static BRANCHES: [Branch; 15] = [
    branch("ticket", Family::AfterMark, ticket, read_ticket),
    branch("hashtag", Family::AfterMark, hashtag, read_hashtag),
    branch(
        "phoneparen",
        Family::AfterMark,
        phone_paren,
        read_marked_phone,
    ),
    branch(
        "phoneintl",
        Family::AfterMark,
        phone_international,
        read_marked_phone,
    ),
    branch("uuid", Family::Hex, uuid, read_uuid),
    branch("hexword", Family::Hex, hex_word, read_hex_word),
    branch("phone", Family::Separated, phone, read_phone),
    branch("ip", Family::Separated, ip, read_ip),
    Branch {
        yields: true, // "1.2.2025" is a date before it is a version
        ..branch("version", Family::Separated, version, read_version)
    },
    branch("code", Family::AfterLetter, code, read_code),
    branch("hexmid", Family::AfterLetter, hex_inside, read_hex_inside),
    branch("vversion", Family::AfterLetter, v_version, read_v_version),
    branch("alnum", Family::AfterLetter, code_inside, read_alnum_code),
    branch("alnumlead", Family::Alnum, code_lead, read_alnum_code),
    branch("flight", Family::AfterCarrier, flight, read_flight),
];

const fn branch(
    name: &'static str,
    family: Family,
    attempt: fn(&Cx<'_>, usize) -> Option<Hit>,
    read: fn(&Scan<'_>, &Hit) -> Found,
) -> Branch {
    Branch {
        name,
        family,
        yields: false,
        attempt,
        read,
    }
}

/// Well-known standards, models, names and English prefixes whose codes are not ids.
const NOT_TICKET_PREFIXES: &[&str] = &[
    "iso", "iec", "utf", "ieee", "ansi", "din", "rfc", "sha", "md", "aes", "rsa", "des", "crc",
    "covid", "sars", "mers", "gpt", "pep", "mid", "pre", "post", "non", "anti", "early", "late",
    "end", "by", "since", "from", "until", "circa", "year", "fy", "cy", "ak", "wd", "il", "ww",
];
const TICKET_MIN_CODE_DIGITS: usize = 3;

/// Whether ASCII `letters` (a ticket's or code's prefix) are one of `NOT_TICKET_PREFIXES`, in any
/// case, compared without a lower-case copy.
fn not_a_ticket_prefix(letters: &str) -> bool {
    NOT_TICKET_PREFIXES
        .iter()
        .any(|word| word.eq_ignore_ascii_case(letters))
}

fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

fn is_alnum_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// `(?![\w-])`
fn free_of_word_or_dash(text: &Text<'_>, at: usize) -> bool {
    !text.at(at).is_some_and(|c| is_word(c) || c == '-')
}

/// `(?![\w]|[-.]?[0-9])`: what may follow a phone number.
fn phone_end(text: &Text<'_>, at: usize) -> bool {
    !(text.at(at).is_some_and(is_word) || (text.at_in(at, &['-', '.']) && text.digit_at(at + 1)))
}

fn identifier(start: usize, end: usize, normalized: String, shape: &'static str) -> Found {
    Found::One(Atom::identifier(start, end, normalized, shape))
}

// After a mark ------------------------------------------------------------------------------

fn ticket(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if text.back(p, 1)? != '-' || !text.back(p, 2)?.is_ascii_alphabetic() {
        return None;
    }
    let mut end = p + 1 + text.run(p + 1, usize::MAX, is_alnum_byte);
    while text.byte_is(end, b'-') {
        let part = text.run(end + 1, usize::MAX, is_alnum_byte);
        if part == 0 {
            break;
        }
        end += 1 + part;
    }
    Some(Hit::new(p, end))
}

/// Start of the ticket prefix before the "-" at `dash`: up to four digits after 2-12 letters,
/// not glued to a word or "-", nor reaching back before `floor`.
fn ticket_prefix_start(text: &Text<'_>, dash: usize, floor: usize) -> Option<usize> {
    let head = text.slice(0, dash).as_bytes();
    let digits = head.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits > 4 {
        return None;
    }
    let letters = head
        .iter()
        .rev()
        .skip(digits)
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    if !(2..=12).contains(&letters) {
        return None;
    }
    let start = dash - digits - letters;
    if text.back(start, 1).is_some_and(|c| is_word(c) || c == '-') {
        return None;
    }
    (start >= floor).then_some(start)
}

fn read_ticket(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let (code_start, end) = (hit.start, hit.end);
    let Some(start) = ticket_prefix_start(text, code_start - 1, scan.floor) else {
        return Found::Nothing;
    };
    let prefix = text.slice(start, code_start - 1);
    let code = text.slice(code_start, end);
    let named = prefix.trim_end_matches(|c: char| c.is_ascii_digit());
    let all_digits = !code.is_empty() && code.bytes().all(|b| b.is_ascii_digit());
    if not_a_ticket_prefix(named) {
        let is_year = all_digits && in_years(code);
        return if is_year {
            Found::One(year_atom(text, code_start, end))
        } else {
            Found::Nothing
        };
    }
    let digits = code.bytes().filter(u8::is_ascii_digit).count();
    // A code of one or two digits is a ticket only behind capital letters ("PROJ-12").
    let short = all_digits && prefix.bytes().all(|b| b.is_ascii_uppercase());
    if digits < TICKET_MIN_CODE_DIGITS && !short {
        return Found::Nothing;
    }
    identifier(start, end, upper_joined(prefix, code), "ticket")
}

/// `f"{prefix}-{code}".upper()` for ASCII letters and digits, in one allocation.
fn upper_joined(prefix: &str, code: &str) -> String {
    let mut joined = String::with_capacity(prefix.len() + 1 + code.len());
    joined.push_str(prefix);
    joined.push('-');
    joined.push_str(code);
    joined.make_ascii_uppercase();
    joined
}

fn hashtag(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if text.back(p, 1)? != '#' || text.back(p, 2).is_some_and(|c| is_word(c) || c == '&') {
        return None;
    }
    let digits = text.digits(p + 1, usize::MAX);
    let end = p + 1 + digits;
    (digits >= 2 && free_of_word_or_dash(text, end)).then(|| Hit::new(p, end))
}

fn read_hashtag(scan: &Scan<'_>, hit: &Hit) -> Found {
    let written = scan.text.slice(hit.start - 1, hit.end).to_owned();
    identifier(hit.start - 1, hit.end, written, "ticket")
}

fn phone_paren(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if text.back(p, 1)? != '(' || text.back(p, 2).is_some_and(is_word) {
        return None;
    }
    let mut at = p + 1;
    if text.digits(at, 2) != 2 || !text.byte_is(at + 2, b')') {
        return None;
    }
    at += 3;
    if text.byte_is(at, b' ') {
        at += 1;
    }
    if text.digits(at, 3) != 3
        || !text.at_in(at + 3, &['-', '.', ' '])
        || text.digits(at + 4, 4) != 4
    {
        return None;
    }
    let end = at + 8;
    phone_end(text, end).then(|| Hit::new(p, end))
}

fn phone_international(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if text.back(p, 1)? != '+' {
        return None;
    }
    let before = text.back(p, 2);
    if before.is_some_and(|c| is_word(c) || c == '+')
        || (before == Some('.')
            && text
                .back(p, 3)
                .is_some_and(|c| c.is_ascii_digit() || c == '.'))
    {
        return None;
    }
    // [0-9]{0,2}(?:[ .-]\(?[0-9]{1,4}\)?){2,6}: each group's ends without and with its ")".
    let mut at = p + 1 + text.digits(p + 1, 2);
    let mut groups: Vec<(usize, Option<usize>)> = Vec::with_capacity(6);
    while groups.len() < 6 && text.at_in(at, &[' ', '.', '-']) {
        let mut digits_at = at + 1;
        if text.byte_is(digits_at, b'(') {
            digits_at += 1;
        }
        let digits = text.digits(digits_at, 4);
        if digits == 0 {
            break;
        }
        let plain = digits_at + digits;
        let closed = text.byte_is(plain, b')').then_some(plain + 1);
        groups.push((plain, closed));
        at = closed.unwrap_or(plain);
    }
    // Backtracking order: the most groups first, each ending after its ")" before before it.
    for count in (2..=groups.len()).rev() {
        let (plain, closed) = *groups.get(count - 1)?;
        for end in closed.into_iter().chain([plain]) {
            if phone_end(text, end) {
                return Some(Hit::new(p, end));
            }
        }
    }
    None
}

fn read_marked_phone(scan: &Scan<'_>, hit: &Hit) -> Found {
    phone_atom(scan, hit.start - 1, hit.end)
}

/// A phone number as digits only; a North American "1" prefix dropped; "+CC" kept.
fn phone_atom(scan: &Scan<'_>, start: usize, end: usize) -> Found {
    let written = scan.text.slice(start, end);
    let digits: String = written.chars().filter(char::is_ascii_digit).collect();
    let normalized = if digits.len() == 11 && digits.starts_with('1') {
        digits.get(1..).unwrap_or_default().to_owned()
    } else if written.starts_with('+') {
        if !(8..=15).contains(&digits.len()) {
            return Found::Nothing;
        }
        format!("+{digits}")
    } else if digits.len() == 10 {
        digits
    } else {
        return Found::Nothing;
    };
    identifier(start, end, normalized, "phone")
}

// Hex runs ----------------------------------------------------------------------------------

fn uuid(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if text.back(p, 1) == Some('-') {
        return None;
    }
    let mut at = p + 1;
    for (index, width) in [7, 4, 4, 4, 12].into_iter().enumerate() {
        if index > 0 {
            if !text.byte_is(at, b'-') {
                return None;
            }
            at += 1;
        }
        if text.run(at, width, is_hex) != width {
            return None;
        }
        at += width;
    }
    free_of_word_or_dash(text, at).then(|| Hit::new(p, at))
}

fn read_uuid(scan: &Scan<'_>, hit: &Hit) -> Found {
    let normalized = scan.text.slice(hit.start, hit.end).to_ascii_lowercase();
    identifier(hit.start, hit.end, normalized, "uuid")
}

fn hex_word(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if text.back(p, 1) == Some('-') {
        return None;
    }
    let letter = p + 1 + text.digits(p + 1, usize::MAX);
    if !text
        .at(letter)
        .is_some_and(|c| matches!(c, 'a'..='f' | 'A'..='F'))
    {
        return None;
    }
    let end = letter + 1 + text.run(letter + 1, usize::MAX, is_hex);
    free_of_word_or_dash(text, end).then(|| Hit::new(p, end))
}

fn read_hex_word(scan: &Scan<'_>, hit: &Hit) -> Found {
    let normalized = scan.text.slice(hit.start, hit.end).to_ascii_lowercase();
    identifier(hit.start, hit.end, normalized, "hash")
}

// Separated digits --------------------------------------------------------------------------

fn phone(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    let before = text.back(p, 1);
    if before == Some('+')
        || (before == Some('.')
            && text
                .back(p, 2)
                .is_some_and(|c| c.is_ascii_digit() || c == '.'))
    {
        return None;
    }
    let q = p + 1;
    let grouped = |at: usize, widths: &[usize], separator: Option<char>| -> Option<usize> {
        let separator =
            separator.or_else(|| text.at(at).filter(|c| matches!(c, '-' | '.' | ' ')))?;
        let mut at = at;
        for width in widths {
            if text.at(at) != Some(separator) || text.digits(at + 1, *width) != *width {
                return None;
            }
            at += 1 + width;
        }
        Some(at)
    };
    // NN-NNN-NNNN after the first digit, else 1-NNN-NNN-NNNN.
    if text.digits(q, 2) == 2 {
        if let Some(end) = grouped(q + 2, &[3, 4], None) {
            if phone_end(text, end) {
                return Some(Hit::new(p, end));
            }
        }
    }
    if text.byte_is(p, b'1') {
        if let Some(end) = grouped(q, &[3, 3, 4], None) {
            if phone_end(text, end) {
                return Some(Hit::new(p, end));
            }
        }
    }
    None
}

fn read_phone(scan: &Scan<'_>, hit: &Hit) -> Found {
    phone_atom(scan, hit.start, hit.end)
}

fn ip(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if text.back(p, 1) == Some('.') {
        return None;
    }
    let lead = text.digits(p + 1, 3);
    if lead > 2 {
        return None;
    }
    let mut at = p + 1 + lead;
    for _ in 0..3 {
        let octet = text.digits(at + 1, 4);
        if !text.byte_is(at, b'.') || !(1..=3).contains(&octet) {
            return None;
        }
        at += 1 + octet;
    }
    let dotted_digit = text.byte_is(at, b'.') && text.digit_at(at + 1);
    (!text.at(at).is_some_and(is_word) && !dotted_digit).then(|| Hit::new(p, at))
}

fn read_ip(scan: &Scan<'_>, hit: &Hit) -> Found {
    let octets: Vec<i64> = scan
        .text
        .slice(hit.start, hit.end)
        .split('.')
        .map(crate::extract::calendar::number)
        .collect();
    if octets.iter().any(|octet| *octet > 255) {
        return Found::Nothing;
    }
    let normalized = octets
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(".");
    identifier(hit.start, hit.end, normalized, "ip")
}

fn version(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if text.back(p, 1) == Some('.') {
        return None;
    }
    let q = p + 1;
    if cx.grammar.pack.group_separators.contains(&'.') && grouped_thousands(text, q) {
        return None; // "1.234.567" is a number where "." groups thousands
    }
    let lead = q + text.digits(q, 3);
    // [0-9]{0,3}+(?:\.[0-9]++){2,3}+(?![\w]|\.[0-9])
    let mut at = lead;
    let mut parts = 0;
    while parts < 3 && text.byte_is(at, b'.') && text.digit_at(at + 1) {
        at += 1 + text.digits(at + 1, usize::MAX);
        parts += 1;
    }
    let dotted_digit = |at: usize| text.byte_is(at, b'.') && text.digit_at(at + 1);
    if parts >= 2 && !text.at(at).is_some_and(is_word) && !dotted_digit(at) {
        return Some(Hit::new(p, at));
    }
    // [0-9]{0,3}+\.[0-9]++(?:a|b|rc)[0-9]++(?![\w])
    let digits = text.digits(lead + 1, usize::MAX);
    if !text.byte_is(lead, b'.') || digits == 0 {
        return None;
    }
    let tag = lead + 1 + digits;
    let tag_end = if text.has(tag, "a") || text.has(tag, "b") {
        tag + 1
    } else if text.has(tag, "rc") {
        tag + 2
    } else {
        return None;
    };
    let number = text.digits(tag_end, usize::MAX);
    let end = tag_end + number;
    (number > 0 && !text.at(end).is_some_and(is_word)).then(|| Hit::new(p, end))
}

/// `[0-9]{0,2}(?:\.[0-9]{3})++(?![0-9]|\.[0-9])` at `q`: dots grouping thousands.
fn grouped_thousands(text: &Text<'_>, q: usize) -> bool {
    let lead = text.digits(q, 3);
    if lead > 2 {
        return false;
    }
    let mut at = q + lead;
    let mut groups = 0;
    while text.byte_is(at, b'.') && text.digits(at + 1, 3) == 3 {
        at += 4;
        groups += 1;
    }
    groups >= 1 && !text.digit_at(at) && !(text.byte_is(at, b'.') && text.digit_at(at + 1))
}

fn read_version(scan: &Scan<'_>, hit: &Hit) -> Found {
    let normalized = scan.text.slice(hit.start, hit.end).to_ascii_lowercase();
    identifier(hit.start, hit.end, normalized, "version")
}

// Glued to a letter -------------------------------------------------------------------------

/// Whether the three characters before `p` are a currency code.
fn after_currency_code(text: &Text<'_>, p: usize) -> bool {
    let start = text.back_pos(p, 3);
    let code = text.slice(start, p);
    code.chars().count() == 3 && currency_code(code).is_some()
}

/// Length of the run of ASCII capitals before `p`, at most five.
fn capitals_before(text: &Text<'_>, p: usize) -> usize {
    text.slice(0, p)
        .bytes()
        .rev()
        .take(5)
        .take_while(u8::is_ascii_uppercase)
        .count()
}

fn code(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    let letters = capitals_before(text, p);
    if !(2..=4).contains(&letters) || text.back(p - letters, 1).is_some_and(is_word) {
        return None;
    }
    if after_currency_code(text, p) {
        return None;
    }
    let digits = text.digits(p + 1, usize::MAX);
    if !(2..=7).contains(&digits) {
        return None;
    }
    let end = p + 1 + digits;
    let tail = text.at_in(end, &['-', '.', ',', '/']) && text.run(end + 1, 1, is_alnum_byte) == 1;
    (!text.at(end).is_some_and(is_word) && !tail).then(|| Hit::new(p, end))
}

fn read_code(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let (digit_start, end) = (hit.start, hit.end);
    let letters = capitals_before(text, digit_start).min(4);
    let start = digit_start - letters;
    if letters < 2 || text.back(start, 1).is_some_and(is_word) || start < scan.floor {
        return Found::Nothing;
    }
    let (letters, digits) = (text.slice(start, digit_start), text.slice(digit_start, end));
    let year = in_years(digits);
    if not_a_ticket_prefix(letters) || year {
        return Found::Nothing;
    }
    identifier(start, end, upper_joined(letters, digits), "ticket")
}

fn hex_inside(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if !text.back(p, 1)?.is_ascii_hexdigit() || text.back(p, 1)?.is_ascii_digit() {
        return None;
    }
    if after_currency_code(text, p) {
        return None;
    }
    // Every start inside one hex run reaches the same run end, and what follows it decides: a
    // failure is remembered for the rest of the run (the former Python engine rescans it: quadratic).
    let q = p + 1;
    if cx
        .hex_run_failed
        .get()
        .is_some_and(|(from, to)| (from..=to).contains(&q))
    {
        return None;
    }
    let run_end = q + text.run(q, usize::MAX, is_hex);
    let mut end = run_end;
    for _ in 0..4 {
        let part = text.run(end + 1, usize::MAX, is_hex);
        if !text.byte_is(end, b'-') || part == 0 {
            break;
        }
        end += 1 + part;
    }
    let dotted_digit = text.at_in(end, &['.', ',']) && text.digit_at(end + 1);
    if free_of_word_or_dash(text, end) && !dotted_digit {
        return Some(Hit::new(p, end));
    }
    cx.hex_run_failed.set(Some((q, run_end)));
    None
}

fn read_hex_inside(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let (digit_start, end) = (hit.start, hit.end);
    // The hex run left of the digit: at most 128 characters, not glued to a word or "-".
    let run = text
        .slice(0, digit_start)
        .bytes()
        .rev()
        .take(129)
        .take_while(u8::is_ascii_hexdigit)
        .count();
    let start = digit_start - run;
    if run > 128
        || text.back(start, 1).is_some_and(|c| is_word(c) || c == '-')
        || start < scan.floor
    {
        return Found::Nothing;
    }
    let token = text.slice(start, end).to_ascii_lowercase();
    if token.contains('-') {
        return if is_uuid(&token) {
            identifier(start, end, token, "uuid")
        } else {
            Found::Nothing
        };
    }
    if token.len() >= 7 {
        identifier(start, end, token, "hash")
    } else {
        Found::Nothing
    }
}

fn is_uuid(token: &str) -> bool {
    let parts: Vec<&str> = token.split('-').collect();
    parts.len() == 5
        && parts.iter().zip([8, 4, 4, 4, 12]).all(|(part, width)| {
            part.len() == width
                && part
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        })
}

fn v_version(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if !matches!(text.back(p, 1)?, 'v' | 'V') || text.back(p, 2).is_some_and(is_word) {
        return None;
    }
    let mut at = p + 1 + text.digits(p + 1, usize::MAX);
    let mut parts = 0;
    while parts < 3 && text.byte_is(at, b'.') && text.digit_at(at + 1) {
        at += 1 + text.digits(at + 1, usize::MAX);
        parts += 1;
    }
    if parts == 0 {
        return None;
    }
    // An optional pre-release ("-rc.1"): with it first, then without.
    let mut release = None;
    let first = text.run(at + 1, usize::MAX, is_alnum_byte);
    if text.byte_is(at, b'-') && first > 0 {
        let mut end = at + 1 + first;
        loop {
            let part = text.run(end + 1, usize::MAX, is_alnum_byte);
            if !text.byte_is(end, b'.') || part == 0 {
                break;
            }
            end += 1 + part;
        }
        release = Some(end);
    }
    release.into_iter().chain([at]).find_map(|end| {
        let dotted_digit = text.byte_is(end, b'.') && text.digit_at(end + 1);
        (!text.at(end).is_some_and(is_word) && !dotted_digit).then(|| Hit::new(p, end))
    })
}

fn read_v_version(scan: &Scan<'_>, hit: &Hit) -> Found {
    let normalized = scan.text.slice(hit.start, hit.end).to_ascii_lowercase();
    identifier(hit.start - 1, hit.end, normalized, "version")
}

// Alphanumeric codes ------------------------------------------------------------------------
//
// A code is one token of ASCII capitals and digits, 6-32 long, with both, whose letters and digits
// alternate at least three times ("RX7K2Q", "1Z999AA10123456784") or which holds a run of 8+ digits
// ("LX123456789"). Lower case anywhere ("GPT4o", "iPhone15"), letters then digits only
// ("COVID19", "RTX4090": the ticket branch's "KX750" form), model names with one more letter run
// ("ZT9000X", "RTX4090TI"), short tokens ("B2B", "H2O", "MP3",
// "4K") and periods ("FY2024Q3", "Q3FY25") are not codes. A token the hex branches read first
// stays theirs ("AB12CD34EF" is a hash, "JD0146000062" nothing: its digits follow a hex letter).

const CODE_CHARS: std::ops::RangeInclusive<usize> = 6..=32;
const CODE_LONG_DIGITS: usize = 8;
/// Letter and digit runs a code alternates through at least ("RX|7|K|2|Q": five).
const CODE_MIN_RUNS: usize = 4;
const PERIOD_LETTERS: [&str; 4] = ["FY", "CY", "Q", "H"];

fn is_code_byte(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}

/// Whether `token` (capitals and digits only) reads as a code.
fn is_code(token: &str) -> bool {
    if !CODE_CHARS.contains(&token.len()) {
        return false;
    }
    let mut runs: Vec<&str> = Vec::new();
    let mut start = 0;
    let bytes = token.as_bytes();
    for at in 1..=bytes.len() {
        let split = match (bytes.get(at - 1), bytes.get(at)) {
            (Some(a), Some(b)) => a.is_ascii_digit() != b.is_ascii_digit(),
            _ => true,
        };
        if split {
            runs.push(token.get(start..at).unwrap_or_default());
            start = at;
        }
    }
    let letter_runs: Vec<&str> = runs
        .iter()
        .copied()
        .filter(|run| run.bytes().all(|b| b.is_ascii_uppercase()))
        .collect();
    let long_digits = runs
        .iter()
        .any(|run| run.len() >= CODE_LONG_DIGITS && run.bytes().all(|b| b.is_ascii_digit()));
    let period = letter_runs.iter().all(|run| PERIOD_LETTERS.contains(run));
    !letter_runs.is_empty()
        && letter_runs.len() < runs.len()
        && (runs.len() >= CODE_MIN_RUNS || long_digits)
        && !period
}

/// End of the code token starting at `start`, if `text[start..]` starts one: not glued to a word
/// or "-" on either side.
fn code_end(text: &Text<'_>, start: usize) -> Option<usize> {
    if text.back(start, 1).is_some_and(|c| is_word(c) || c == '-') {
        return None;
    }
    let length = text.run(start, CODE_CHARS.end() + 1, is_code_byte);
    let end = start + length;
    let joined = text.byte_is(end, b'-') && text.run(end + 1, 1, is_alnum_byte) == 1;
    (!text.at(end).is_some_and(is_word) && !joined && is_code(text.slice(start, end)))
        .then_some(end)
}

/// Start of the run of capitals and digits that ends at `p` (32 characters at most).
fn code_start(text: &Text<'_>, p: usize) -> usize {
    let run = text
        .slice(0, p)
        .bytes()
        .rev()
        .take(CODE_CHARS.end() + 1)
        .take_while(|b| is_code_byte(*b))
        .count();
    p - run
}

/// A code read at its first digit after a capital ("RX7K2Q" at "7").
fn code_inside(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let start = code_start(&cx.text, p);
    code_end(&cx.text, start).map(|end| Hit::with(p, end, &[start]))
}

/// A code that starts with a digit ("1Z999AA10123456784").
fn code_lead(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    code_end(&cx.text, p).map(|end| Hit::with(p, end, &[p]))
}

fn read_alnum_code(scan: &Scan<'_>, hit: &Hit) -> Found {
    let start = hit.marks[0];
    if start < scan.floor {
        return Found::Nothing;
    }
    let written = scan.text.slice(start, hit.end).to_owned();
    identifier(start, hit.end, written, "code")
}

// Flight numbers ----------------------------------------------------------------------------
//
// "UA 1234" after the word "flight" is the ticket "UA-1234", as "UA1234" is: two capitals, one
// space, 1-4 digits. Without that word "UA 1234" stays a number ("UK 300 stores", "EU 27").

const FLIGHT_WORDS: [&str; 2] = ["flight", "flights"];

/// A guard for `Family::AfterCarrier`: two capitals and a space before `p`.
pub fn after_carrier(text: &Text<'_>, p: usize) -> bool {
    text.back(p, 1) == Some(' ')
        && text.back(p, 2).is_some_and(|c| c.is_ascii_uppercase())
        && text.back(p, 3).is_some_and(|c| c.is_ascii_uppercase())
}

fn flight(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    let carrier = p.checked_sub(3)?;
    if text.back(carrier, 1) != Some(' ') {
        return None;
    }
    let head = text.slice(0, carrier - 1);
    let word = head
        .bytes()
        .rev()
        .take(8)
        .take_while(u8::is_ascii_alphabetic)
        .count();
    let said = head.get(head.len() - word..).unwrap_or_default();
    let glued = text.back(carrier - 1 - word, 1).is_some_and(is_word);
    if glued || !FLIGHT_WORDS.iter().any(|w| w.eq_ignore_ascii_case(said)) {
        return None;
    }
    let digits = 1 + text.digits(p + 1, 4);
    let end = p + digits;
    let chained = text.at_in(end, &['.', ',', ':', '/', '-']) && text.digit_at(end + 1);
    (digits <= 4 && !text.at(end).is_some_and(is_word) && !chained).then(|| Hit::new(p, end))
}

fn read_flight(scan: &Scan<'_>, hit: &Hit) -> Found {
    let start = hit.start - 3;
    if start < scan.floor {
        return Found::Nothing;
    }
    let carrier = scan.text.slice(start, start + 2);
    let digits = scan.text.slice(hit.start, hit.end);
    identifier(start, hit.end, format!("{carrier}-{digits}"), "ticket")
}

#[cfg(test)]
mod tests {
    use crate::kinds::testing::read;

    fn forms(text: &str) -> Vec<String> {
        read(text).into_iter().map(|(_, _, form)| form).collect()
    }

    #[test]
    fn tickets_codes_and_not_tickets() {
        assert_eq!(
            forms("INV-2210, PROJ-12, KX750"),
            ["ticket INV-2210", "ticket PROJ-12", "ticket KX-750"]
        );
        assert!(forms("ISO-8601 and Phase-2 and SHA256").is_empty());
    }

    #[test]
    fn alphanumeric_codes_and_names_that_are_not_codes() {
        assert_eq!(
            forms("Booking RX7K2Q, parcel 1Z999AA10123456784, LX123456789."),
            ["code RX7K2Q", "code 1Z999AA10123456784", "code LX123456789"]
        );
        for text in [
            "GPT4o",
            "B2B",
            "COVID19",
            "H2O",
            "MP3",
            "4K",
            "iPhone15",
            "RTX4090",
            "FY2024Q3",
            "Q3FY25",
            "2024Q3",
            "AB1CD",
            "rx7k2q",
            "ZT9000X",
            "RTX4090TI",
        ] {
            let found = read(text);
            assert!(
                found.iter().all(|(_, _, form)| !form.starts_with("code")),
                "{text}: {found:?}"
            );
        }
    }

    #[test]
    fn flight_numbers_with_a_space_after_the_word_flight() {
        assert_eq!(
            forms("Flight UA 1234 and flight UA1234"),
            ["ticket UA-1234", "ticket UA-1234"]
        );
        assert_eq!(
            read("UK 3000 stores")
                .iter()
                .map(|(kind, _, _)| *kind)
                .collect::<Vec<_>>(),
            ["number"]
        );
    }

    #[test]
    fn phones_addresses_hashes_versions() {
        assert_eq!(
            forms("(555) 123-4567 / +1 555 123 4567 / 192.168.001.1"),
            ["phone 5551234567", "phone 5551234567", "ip 192.168.1.1"]
        );
        assert_eq!(forms("a3f5c9d v1.2.3"), ["hash a3f5c9d", "version 1.2.3"]);
        assert_eq!(
            forms("mail Ann.Lee@Example.COM."),
            ["email ann.lee@example.com"]
        );
        assert_eq!(forms("see https://Example.com/a)."), ["url example.com/a"]);
    }
}
