//! Word lists matched at a position the way the oracle's prefix tries are: every listed word
//! written there, longest first (a later part of the pattern failing falls back to a shorter one).

use std::collections::HashMap;

use super::text::Text;

pub struct Words {
    by_first: HashMap<char, Vec<String>>,
}

impl Words {
    pub fn new<I: IntoIterator<Item = String>>(words: I) -> Self {
        let mut by_first: HashMap<char, Vec<String>> = HashMap::new();
        for word in words {
            if let Some(first) = word.chars().next() {
                let bucket = by_first.entry(first).or_default();
                if !bucket.contains(&word) {
                    bucket.push(word);
                }
            }
        }
        for bucket in by_first.values_mut() {
            bucket.sort_by_key(|word| std::cmp::Reverse(word.len()));
        }
        Words { by_first }
    }

    /// The words written at `at` (wholly before the text's limit), longest first, with their ends.
    pub fn at<'w, 't: 'w>(
        &'w self,
        text: &Text<'t>,
        at: usize,
    ) -> impl Iterator<Item = (&'w str, usize)> + 'w {
        let bucket = text.at(at).and_then(|c| self.by_first.get(&c));
        let text = *text;
        bucket
            .into_iter()
            .flatten()
            .filter(move |word| text.has(at, word))
            .map(move |word| (word.as_str(), at + word.len()))
    }

    /// Every first character of a listed word.
    pub fn initials(&self) -> impl Iterator<Item = char> + '_ {
        self.by_first.keys().copied()
    }
}

/// Python's `str.capitalize()` of the ASCII and Latin-1 words of the packs.
pub fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// The oracle's `_any_case`: lower, capitalised and upper-case spellings.
pub fn any_case<'a, I: IntoIterator<Item = &'a str>>(words: I) -> Vec<String> {
    let mut out = Vec::new();
    for word in words {
        for spelling in [word.to_lowercase(), capitalize(word), word.to_uppercase()] {
            if !out.contains(&spelling) {
                out.push(spelling);
            }
        }
    }
    out
}
