//! Word lists matched at a position the way the former Python engine's prefix tries are: every listed word
//! written there, longest first (a later part of the pattern failing falls back to a shorter one).

use super::text::Text;

/// Values by character without hashing: ASCII by index, the rest in a sorted list.
pub struct CharMap<T> {
    ascii: Vec<Option<T>>,
    other: Vec<(char, T)>,
}

impl<T> CharMap<T> {
    pub fn get(&self, c: char) -> Option<&T> {
        if c.is_ascii() {
            return self.ascii.get(c as usize)?.as_ref();
        }
        let index = self.other.binary_search_by_key(&c, |(key, _)| *key).ok()?;
        self.other.get(index).map(|(_, value)| value)
    }

    pub fn keys(&self) -> impl Iterator<Item = char> + '_ {
        let ascii = self.ascii.iter().enumerate().filter(|(_, v)| v.is_some());
        ascii
            .filter_map(|(i, _)| u8::try_from(i).ok().map(char::from))
            .chain(self.other.iter().map(|(c, _)| *c))
    }
}

impl<T: Default> CharMap<T> {
    /// `(key, value)` pairs gathered into one value per key by `add`.
    pub fn gather<I, V>(pairs: I, mut add: impl FnMut(&mut T, V)) -> Self
    where
        I: IntoIterator<Item = (char, V)>,
    {
        let mut map = CharMap {
            ascii: (0..128).map(|_| None).collect(),
            other: Vec::new(),
        };
        for (key, value) in pairs {
            let slot = if key.is_ascii() {
                map.ascii
                    .get_mut(key as usize)
                    .map(|slot| slot.get_or_insert_with(T::default))
            } else {
                let index = match map.other.binary_search_by_key(&key, |(k, _)| *k) {
                    Ok(index) => index,
                    Err(index) => {
                        map.other.insert(index, (key, T::default()));
                        index
                    }
                };
                map.other.get_mut(index).map(|(_, value)| value)
            };
            if let Some(slot) = slot {
                add(slot, value);
            }
        }
        map
    }
}

pub struct Words {
    by_first: CharMap<Vec<String>>,
}

impl Words {
    pub fn new<I: IntoIterator<Item = String>>(words: I) -> Self {
        let firsts = words
            .into_iter()
            .filter_map(|word| Some((word.chars().next()?, word)));
        let mut by_first = CharMap::gather(firsts, |bucket: &mut Vec<String>, word| {
            if !bucket.contains(&word) {
                bucket.push(word);
            }
        });
        for bucket in by_first
            .ascii
            .iter_mut()
            .flatten()
            .chain(by_first.other.iter_mut().map(|(_, b)| b))
        {
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
        let bucket = text.at(at).and_then(|c| self.by_first.get(c));
        let text = *text;
        bucket
            .into_iter()
            .flatten()
            .filter(move |word| text.has(at, word))
            .map(move |word| (word.as_str(), at + word.len()))
    }

    /// Every first character of a listed word.
    pub fn initials(&self) -> impl Iterator<Item = char> + '_ {
        self.by_first.keys()
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

/// The former Python engine's `_any_case`: lower, capitalised and upper-case spellings.
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
