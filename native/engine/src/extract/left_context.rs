//! What stands left of a figure (the former Python engine's `Grammar.left_context`, matched on the reversed
//! 32 characters before it): a sign, a currency symbol or code and a sign belong to the atom; a
//! hedge word or sign before them does not.

use super::chars::{is_letterish, is_word};
use super::grammar::{currency_code, currency_symbol, Grammar, DOLLAR_PREFIXES};

const SPACES: [char; 3] = [' ', '\u{a0}', '\u{202f}'];

/// How many characters of the lead belong to the atom, whether it is negative or hedged, and the
/// currency it names.
pub struct Left {
    pub lead: usize,
    pub negative: bool,
    pub hedged: bool,
    pub currency: Option<&'static str>,
}

/// `reversed`: the characters before the figure, nearest first. `room`: how many characters lie
/// between the floor (the end of the previous atom) and the figure; nothing reaching further counts.
pub fn read_left(grammar: &Grammar, reversed: &[char], room: usize) -> Left {
    let at = |i: usize| reversed.get(i).copied();
    let sign = |i: usize| -> bool {
        at(i).is_some_and(|c| matches!(c, '-' | '−' | '+'))
            && !at(i + 1).is_some_and(|c| is_word(c) || c == '.')
    };
    let mut i = 0;
    let mut negative = false;
    if sign(i) {
        negative |= at(i) != Some('+');
        i += 1;
    }
    let mut currency = None;
    if let Some((end, named)) = currency_group(reversed, i) {
        i = end;
        currency = Some(named);
    }
    if sign(i) {
        negative |= at(i) != Some('+');
        i += 1;
    }
    let lead = i;
    let mut hedge_end = None;
    let mut k = lead;
    while at(k).is_some_and(|c| SPACES.contains(&c)) {
        k += 1;
    }
    let candidates = at(k).and_then(|c| grammar.hedge_words.get(c));
    let words = candidates
        .into_iter()
        .flatten()
        .filter(|word| written_backwards(reversed, k, word));
    let longest = words
        .map(|word| k + word.chars().count())
        .filter(|end| !at(*end).is_some_and(is_letterish))
        .max();
    if let Some(end) = longest {
        hedge_end = Some(end);
    } else if at(k).is_some_and(|c| grammar.hedge_signs.contains(&c)) {
        hedge_end = Some(k + 1);
    }
    let hedged = hedge_end.is_some_and(|end| end <= room);
    if lead > room {
        return Left {
            lead: 0,
            negative: false,
            hedged,
            currency: None,
        };
    }
    Left {
        lead,
        negative,
        hedged,
        currency,
    }
}

/// `(?:SPACE?(?:SYMBOL PREFIX?|CODE)(?![A-Za-z]))?` at `i`: its end and the currency it names.
fn currency_group(reversed: &[char], i: usize) -> Option<(usize, &'static str)> {
    let at = |i: usize| reversed.get(i).copied();
    let free = |end: usize| !at(end).is_some_and(|c| c.is_ascii_alphabetic());
    let spaced = at(i).is_some_and(|c| SPACES.contains(&c)).then_some(i + 1);
    for j in spaced.into_iter().chain([i]) {
        if let Some(symbol) = at(j).and_then(|c| currency_symbol(c).map(|code| (c, code))) {
            // The prefixes written there, longest first (in list order among equals); each ends
            // in a capital, so most symbols need no comparison.
            let longest = DOLLAR_PREFIXES.iter().map(|(prefix, _)| prefix.len()).max();
            let capital = at(j + 1).is_some_and(|c| c.is_ascii_uppercase());
            for length in (1..=longest.filter(|_| capital).unwrap_or(0)).rev() {
                let written = DOLLAR_PREFIXES.iter().filter(|(prefix, _)| {
                    prefix.len() == length && written_backwards(reversed, j + 1, prefix)
                });
                for (prefix, dollar) in written {
                    let end = j + 1 + prefix.len();
                    if free(end) {
                        return Some((end, if symbol.0 == '$' { dollar } else { symbol.1 }));
                    }
                }
            }
            if free(j + 1) {
                return Some((j + 1, symbol.1));
            }
        }
        let mut code = [0u8; 3];
        for (slot, c) in code.iter_mut().rev().zip(reversed.iter().skip(j)) {
            *slot = if c.is_ascii_uppercase() { *c as u8 } else { 0 };
        }
        let iso = std::str::from_utf8(&code).ok().and_then(currency_code);
        if let Some(iso) = iso.filter(|_| free(j + 3)) {
            return Some((j + 3, iso));
        }
    }
    None
}

/// Whether `word` stands in the text ending where `reversed[from..]` starts (read leftwards).
fn written_backwards(reversed: &[char], from: usize, word: &str) -> bool {
    let mut chars = reversed.get(from..).unwrap_or_default().iter();
    word.chars().rev().all(|c| chars.next() == Some(&c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reversed(text: &str) -> Vec<char> {
        text.chars().rev().collect()
    }

    #[test]
    fn dollar_prefixes_are_capitals_and_the_longest_free_one_names_the_currency() {
        // `currency_group` compares prefixes only after a capital.
        assert!(DOLLAR_PREFIXES
            .iter()
            .all(|(prefix, _)| prefix.bytes().all(|b| b.is_ascii_uppercase())));
        assert_eq!(currency_group(&reversed("US$"), 0), Some((3, "USD")));
        assert_eq!(currency_group(&reversed("paid C$"), 0), Some((2, "CAD")));
        assert_eq!(currency_group(&reversed("1$"), 0), Some((1, "USD")));
        assert_eq!(currency_group(&reversed("xUS$"), 0), None); // glued to a word
    }
}
