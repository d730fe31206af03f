//! E-mail addresses and URLs, claimed before the scan (the former Python engine's `identifiers.emails`/`urls`):
//! the scan reads only the gaps between them.

use super::chars::{casefold, ignorecase_eq, is_alnum, is_space, is_word, py_lower};
use crate::atoms::Atom;

/// The e-mails and URLs of `text`, sorted and non-overlapping (a URL wins a tie).
pub fn claims(text: &str) -> Vec<Atom> {
    if !(text.contains('@') || text.contains("://") || text.contains("www.")) {
        return Vec::new();
    }
    let mut found = urls(text);
    found.extend(emails(text));
    found.sort_by_key(|atom| (atom.start, std::cmp::Reverse(atom.end)));
    let mut kept: Vec<Atom> = Vec::new();
    for atom in found {
        if kept.last().map_or(true, |last| atom.start >= last.end) {
            kept.push(atom);
        }
    }
    kept
}

fn char_before(text: &str, at: usize) -> Option<char> {
    text.get(..at)?.chars().next_back()
}

fn domain_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

/// `@([A-Za-z0-9](?:[A-Za-z0-9-]{0,62}+)(?:\.[A-Za-z0-9-]{1,63}+){1,8}+)` at `at`: its end.
fn domain_end(bytes: &[u8], at: usize) -> Option<usize> {
    let run = |from: usize, max: usize| {
        bytes
            .get(from..)
            .unwrap_or_default()
            .iter()
            .take(max)
            .take_while(|b| domain_byte(**b))
            .count()
    };
    if !bytes.get(at + 1)?.is_ascii_alphanumeric() {
        return None;
    }
    let mut end = at + 2 + run(at + 2, 62);
    let mut labels = 0;
    while labels < 8 && bytes.get(end) == Some(&b'.') {
        let label = run(end + 1, 63);
        if label == 0 {
            break;
        }
        end += 1 + label;
        labels += 1;
    }
    (labels >= 1).then_some(end)
}

fn emails(text: &str) -> Vec<Atom> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(offset) = text.get(from..).and_then(|rest| rest.find('@')) {
        let at = from + offset;
        let Some(end) = domain_end(bytes, at) else {
            from = at + 1;
            continue;
        };
        from = end;
        // The local part, read leftwards from "@" within 64 characters: [\w%+-] then up to 63
        // of [\w.%+-]; its leading dots are no part of the address.
        let local_char = |c: char| is_word(c) || matches!(c, '%' | '+' | '-');
        let head = text.get(..at).unwrap_or_default();
        let window: Vec<(usize, char)> = head.char_indices().rev().take(64).collect();
        if !window.first().is_some_and(|(_, c)| local_char(*c)) {
            continue;
        }
        let length = 1 + window
            .iter()
            .skip(1)
            .take_while(|(_, c)| local_char(*c) || *c == '.')
            .count();
        let local = window.get(..length).unwrap_or_default();
        let Some(&(start, _)) = local.iter().rev().find(|(_, c)| *c != '.') else {
            continue;
        };
        if char_before(text, start)
            .is_some_and(|c| is_alnum(c) || matches!(c, '.' | '_' | '%' | '+' | '-'))
        {
            continue;
        }
        if bytes.get(end - 1) == Some(&b'-') {
            continue;
        }
        let written = text.get(start..end).unwrap_or_default();
        found.push(Atom::identifier(start, end, casefold(written), "email"));
    }
    found
}

fn url_char(c: char) -> bool {
    !(is_space(c) || matches!(c, '<' | '>' | '"' | '\'' | '`' | '\x1e'))
}

fn url_prefix(rest: &str) -> Option<usize> {
    if rest.starts_with("https://") {
        Some(8)
    } else if rest.starts_with("http://") {
        Some(7)
    } else if rest.starts_with("www.") {
        Some(4)
    } else {
        None
    }
}

fn urls(text: &str) -> Vec<Atom> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(offset) = text.get(from..).and_then(|rest| rest.find(['h', 'w'])) {
        let start = from + offset;
        let rest = text.get(start..).unwrap_or_default();
        let Some(prefix) = url_prefix(rest) else {
            from = start + 1;
            continue;
        };
        let body: usize = rest
            .get(prefix..)
            .unwrap_or_default()
            .chars()
            .take_while(|c| url_char(*c))
            .map(char::len_utf8)
            .sum();
        if body == 0 {
            from = start + 1;
            continue;
        }
        let end = start + prefix + body;
        from = end;
        if char_before(text, start).is_some_and(|c| is_alnum(c) || matches!(c, '.' | '_' | '-')) {
            continue;
        }
        let end = trimmed_end(text, start, end);
        let normalized = normalize_url(text.get(start..end).unwrap_or_default());
        if normalized.chars().next().is_some_and(is_alnum) && normalized != "www." {
            found.push(Atom::identifier(start, end, normalized, "url"));
        }
    }
    found
}

const TRAILING_PUNCTUATION: &[char] = &['.', ',', ';', ':', '!', '?', '\'', '"'];

fn opener(closer: char) -> Option<char> {
    match closer {
        ')' => Some('('),
        ']' => Some('['),
        '}' => Some('{'),
        _ => None,
    }
}

/// The URL's end without trailing punctuation or an unbalanced closer. Bracket counts are taken
/// once, at the first closer, and updated as closers are trimmed (linear, like the former Python engine).
fn trimmed_end(text: &str, start: usize, mut end: usize) -> usize {
    let mut counts: Option<[(char, usize); 6]> = None;
    while end > start {
        let Some(last) = char_before(text, end) else {
            break;
        };
        if let Some(open) = opener(last) {
            let table = counts.get_or_insert_with(|| {
                let span = text.get(start..end).unwrap_or_default();
                ['(', ')', '[', ']', '{', '}']
                    .map(|b| (b, span.chars().filter(|c| *c == b).count()))
            });
            let count = |table: &[(char, usize); 6], of: char| {
                table.iter().find(|(b, _)| *b == of).map_or(0, |(_, n)| *n)
            };
            if count(table, open) >= count(table, last) {
                break;
            }
            if let Some(entry) = table.iter_mut().find(|(b, _)| *b == last) {
                entry.1 -= 1;
            }
        } else if !TRAILING_PUNCTUATION.contains(&last) {
            break;
        }
        end -= last.len_utf8();
    }
    end
}

/// The first `https?://` anywhere in `url`, in any case: (start, end).
fn scheme(url: &str) -> Option<(usize, usize)> {
    let letters = ['h', 't', 't', 'p'];
    for (start, _) in url.char_indices() {
        let mut chars = url.get(start..).unwrap_or_default().char_indices();
        if !letters
            .iter()
            .all(|l| chars.next().is_some_and(|(_, c)| ignorecase_eq(c, *l)))
        {
            continue;
        }
        let rest_at = chars.next().map_or(url.len() - start, |(i, _)| i);
        let rest = url.get(start + rest_at..).unwrap_or_default();
        let after_s = rest
            .chars()
            .next()
            .filter(|c| ignorecase_eq(*c, 's'))
            .map_or(0, char::len_utf8);
        for skip in [after_s, 0] {
            if rest.get(skip..).is_some_and(|r| r.starts_with("://")) {
                return Some((start, start + rest_at + skip + 3));
            }
        }
    }
    None
}

/// Scheme dropped, host lower-cased, one trailing "/" dropped.
pub fn normalize_url(url: &str) -> String {
    let without = match scheme(url) {
        Some((start, end)) => {
            let (before, after) = (url.get(..start), url.get(end..));
            format!(
                "{}{}",
                before.unwrap_or_default(),
                after.unwrap_or_default()
            )
        }
        None => url.to_owned(),
    };
    let trimmed = without.strip_suffix('/').unwrap_or(&without);
    match trimmed.split_once('/') {
        Some((host, path)) => format!("{}/{}", py_lower(host), path),
        None => py_lower(trimmed),
    }
}
