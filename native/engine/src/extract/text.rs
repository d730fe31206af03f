//! The scanned text: a UTF-8 `&str` read by byte offsets, with Python's view of a scanned range.
//! Lookaheads see up to `limit` (the end of the range, as `finditer(text, pos, endpos)` does);
//! lookbehinds and handlers see the whole text.

#[derive(Clone, Copy)]
pub struct Text<'a> {
    pub all: &'a str,
    pub limit: usize,
}

impl<'a> Text<'a> {
    pub fn new(all: &'a str, limit: usize) -> Self {
        Text { all, limit }
    }

    /// The character starting at `at`, if before the limit.
    pub fn at(&self, at: usize) -> Option<char> {
        if at >= self.limit {
            return None;
        }
        self.all.get(at..)?.chars().next()
    }

    /// Whether the character at `at` is one of `set`.
    pub fn at_in(&self, at: usize, set: &[char]) -> bool {
        self.at(at).is_some_and(|c| set.contains(&c))
    }

    /// Whether the ASCII byte `byte` stands at `at` (before the limit).
    pub fn byte_is(&self, at: usize, byte: u8) -> bool {
        at < self.limit && self.all.as_bytes().get(at) == Some(&byte)
    }

    /// Whether `word` is written at `at`, wholly before the limit.
    pub fn has(&self, at: usize, word: &str) -> bool {
        at + word.len() <= self.limit
            && self
                .all
                .get(at..)
                .is_some_and(|rest| starts_with(rest.as_bytes(), word.as_bytes()))
    }

    /// Length of the run of ASCII bytes satisfying `pred` at `at` (before the limit), at most `max`.
    pub fn run(&self, at: usize, max: usize, pred: impl Fn(u8) -> bool) -> usize {
        let bytes = self
            .all
            .as_bytes()
            .get(at..self.limit.max(at))
            .unwrap_or_default();
        bytes.iter().take(max).take_while(|b| pred(**b)).count()
    }

    /// Length of the run of ASCII digits at `at` (before the limit), at most `max`.
    pub fn digits(&self, at: usize, max: usize) -> usize {
        self.run(at, max, |b| b.is_ascii_digit())
    }

    /// Whether the character at `at` is an ASCII digit.
    pub fn digit_at(&self, at: usize) -> bool {
        self.digits(at, 1) == 1
    }

    /// The `n`-th character before `at` (1: the one just before), in the whole text.
    pub fn back(&self, at: usize, n: usize) -> Option<char> {
        self.all.get(..at)?.chars().rev().nth(n.checked_sub(1)?)
    }

    /// The byte offset `n` characters before `at` (0 when the text starts sooner).
    pub fn back_pos(&self, at: usize, n: usize) -> usize {
        if n == 0 {
            return at;
        }
        let head = self.all.get(..at).unwrap_or_default();
        head.char_indices().rev().nth(n - 1).map_or(0, |(i, _)| i)
    }

    /// The whole text from `from` to `to` (empty when out of range).
    pub fn slice(&self, from: usize, to: usize) -> &'a str {
        self.all.get(from..to).unwrap_or_default()
    }

    /// Number of characters from `floor` to `at`, counted backwards and at most `cap`.
    pub fn chars_back(&self, at: usize, floor: usize, cap: usize) -> usize {
        self.slice(floor.min(at), at)
            .chars()
            .rev()
            .take(cap)
            .count()
    }

    /// Number of characters from `from` to `to`.
    pub fn chars_between(&self, from: usize, to: usize) -> usize {
        self.slice(from, to).chars().count()
    }
}

/// `text.starts_with(word)` compared in line: the words are a few bytes, and `starts_with` calls
/// `memcmp` for each (about 3% of a call on a soup of figures and suffix letters).
fn starts_with(text: &[u8], word: &[u8]) -> bool {
    text.get(..word.len())
        .is_some_and(|head| head.iter().zip(word).all(|(a, b)| a == b))
}
