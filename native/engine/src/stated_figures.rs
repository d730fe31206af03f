//! Short figures an answer states as what it answers (the former Python engine's `scoring/stated_figures.py`):
//! "It is 3.85.", "It fell by 3.6 points.", "That comes to **2.55**.", "Answer: 2.55", or "2.55"
//! alone. One short match before each sentence end; a figure overlapping an atom is left out.

use crate::atoms::{Atom, AtomValue, Quantity};
use crate::extract::chars::{
    casefold, decimal_value, ignorecase_eq, is_alpha, is_decimal, is_digit, is_space, is_word,
};
use crate::vocabulary::AtomKind;

/// Characters before a sentence end read for its stated figure.
const REACH: usize = 80;
/// The words of the former Python engine's `_STATED`, in its alternation order (`equals?` is "equals", "equal").
const STATING_PATTERN: &[&str] = &[
    "is", "was", "are", "were", "be", "been", "by", "of", "to", "equals", "equal", "totals",
    "total", "totaled", "totalled", "reached", "up", "down",
];
const SIGNS: [char; 3] = ['-', '−', '+'];

/// The short figures `text` states as answers, sorted by start; `atoms`: the spans of the atoms
/// already found (sorted), which the figures must not overlap.
pub fn stated_figures(text: &str, atoms: &[(usize, usize)], min_digits: usize) -> Vec<Atom> {
    let mut found = Vec::new();
    for sentence_end in sentence_ends(text) {
        if let Some(atom) = stated_before(text, sentence_end, atoms, min_digits) {
            found.push(atom);
        }
    }
    found
}

/// `[.!?;](?=\s|$)` starts, then the end of the text without trailing spaces (within the last
/// 80 characters) when no mark ends it.
fn sentence_ends(text: &str) -> Vec<usize> {
    let mut ends: Vec<usize> = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n);
        if matches!(c, '.' | '!' | '?' | ';') && !next.is_some_and(|n| !is_space(n)) {
            ends.push(at);
        }
    }
    let tail_start = text
        .char_indices()
        .rev()
        .take(REACH)
        .last()
        .map_or(0, |(i, _)| i);
    let tail = text.get(tail_start..).unwrap_or_default();
    let last = tail_start + tail.trim_end_matches(is_space).len();
    if ends.last().map_or(true, |end| *end < last) {
        ends.push(last);
    }
    ends
}

/// The characters of `text` from `from` to `to`, with their byte offsets.
fn chars_of(text: &str, from: usize, to: usize) -> Vec<(usize, char)> {
    text.get(from..to)
        .unwrap_or_default()
        .char_indices()
        .map(|(i, c)| (from + i, c))
        .collect()
}

fn stated_before(
    text: &str,
    sentence_end: usize,
    atoms: &[(usize, usize)],
    min_digits: usize,
) -> Option<Atom> {
    let head = text.get(..sentence_end)?;
    let low = head
        .char_indices()
        .rev()
        .take(REACH)
        .last()
        .map_or(0, |(i, _)| i);
    // The stretch read, and two characters before it (the bold test may look there).
    let before_low: Vec<(usize, char)> = text.get(..low)?.char_indices().rev().take(2).collect();
    let mut chars: Vec<(usize, char)> = before_low.into_iter().rev().collect();
    let offset = chars.len();
    chars.extend(chars_of(text, low, sentence_end));
    let stretch = Stretch {
        chars: &chars,
        low: offset,
        end: chars.len(),
        end_byte: sentence_end,
    };
    let mut last = stretch.end;
    while last > stretch.low
        && stretch
            .char(last - 1)
            .is_some_and(|c| matches!(c, ' ' | '*' | '_'))
    {
        last -= 1;
    }
    let ends_figure = stretch
        .char(last.checked_sub(1)?)
        .is_some_and(|c| is_digit(c) || c == 's' || c == 'S');
    if last == stretch.low || !ends_figure || !stretch.may_state(last) {
        return None;
    }
    let found = stretch.search()?;
    let start = stretch.byte(found.sign_start);
    let end = stretch.byte(found.points.map_or(found.digits_end, |(_, end)| end));
    let position = atoms.partition_point(|(atom_start, _)| *atom_start <= start);
    let overlaps_before = position > 0 && atoms.get(position - 1).is_some_and(|(_, e)| *e > start);
    if overlaps_before || atoms.get(position).is_some_and(|(s, _)| *s < end) {
        return None; // part of an atom already found
    }
    let digits: Vec<char> = (found.digits_start..found.digits_end)
        .filter_map(|i| stretch.char(i))
        .collect();
    let without_dot: String = digits.iter().filter(|c| **c != '.').collect();
    let stripped = without_dot.trim_start_matches('0');
    let significant = if stripped.is_empty() {
        "0".to_owned()
    } else {
        stripped.to_owned()
    };
    let points = found.points.is_some();
    if !points && significant.chars().count() >= min_digits {
        return None; // the extractor's own decision stands
    }
    // Python's float() reads any decimal digits; written as ASCII, Rust's parse reads the same.
    let ascii: String = digits
        .iter()
        .map(|c| {
            if *c == '.' {
                '.'
            } else {
                decimal_value(*c)
                    .and_then(|d| char::from_digit(d, 10))
                    .unwrap_or('0')
            }
        })
        .collect();
    let negative = found.sign.is_some_and(|sign| sign == '-' || sign == '−');
    let value = ascii.parse::<f64>().unwrap_or(f64::NAN) * if negative { -1.0 } else { 1.0 };
    let decimals = ascii.split_once('.').map_or(0, |(_, frac)| frac.len());
    let tolerance = 0.5 * 10f64.powf(-(decimals as f64));
    let quantity = Quantity {
        value,
        tolerance,
        digits: significant,
        currency: None,
        unit: points.then_some("pp"),
        hedged: false,
    };
    let kind = if points {
        AtomKind::Percent
    } else {
        AtomKind::Number
    };
    Some(Atom {
        kind,
        start,
        end,
        value: AtomValue::Quantity(quantity),
    })
}

/// The groups of a `_STATED` match (indices into the stretch).
struct Found {
    sign_start: usize,
    sign: Option<char>,
    digits_start: usize,
    digits_end: usize,
    points: Option<(usize, usize)>,
}

/// The characters from two before `low` to the sentence end, indexed from 0; `low` and `end` are
/// indices, the match cannot see past `end`.
struct Stretch<'a> {
    chars: &'a [(usize, char)],
    low: usize,
    end: usize,
    end_byte: usize,
}

impl Stretch<'_> {
    fn char(&self, index: usize) -> Option<char> {
        (index < self.end)
            .then(|| self.chars.get(index).map(|(_, c)| *c))
            .flatten()
    }

    fn byte(&self, index: usize) -> usize {
        self.chars.get(index).map_or(self.end_byte, |(i, _)| *i)
    }

    fn is(&self, index: usize, pred: impl Fn(char) -> bool) -> bool {
        self.char(index).is_some_and(pred)
    }

    /// The former Python engine's `_may_state`: past a sign and a bold mark, the stretch's start, or spaces
    /// after "=", ":" or a stating word.
    fn may_state(&self, last: usize) -> bool {
        let low = self.low;
        if !self.is(last - 1, is_digit) {
            return true; // "points": left to the pattern
        }
        let mut start = last - 1;
        while start > low && self.is(start - 1, |c| is_digit(c) || c == '.') {
            start -= 1;
        }
        if start > low && self.is(start - 1, |c| SIGNS.contains(&c)) {
            start -= 1;
        }
        if start <= low {
            return true;
        }
        let bold = |mark: char| {
            start >= 2 && self.char(start - 2) == Some(mark) && self.char(start - 1) == Some(mark)
        };
        // Two characters before the text's start do not exist: Python's negative slice is empty.
        let mut start = start as isize;
        if self.low_in_text(start - 2) && (bold('*') || bold('_')) {
            start -= 2;
        }
        let low = low as isize;
        let mut space = start;
        while space > low && self.is((space - 1) as usize, is_space) {
            space -= 1;
        }
        if space == low {
            return true;
        }
        if space == start {
            return false;
        }
        if self.is((space - 1) as usize, |c| c == '=' || c == ':') {
            return true;
        }
        let mut word = space;
        while word > low && self.is((word - 1) as usize, is_alpha) {
            word -= 1;
        }
        let written: String = (word..space)
            .filter_map(|i| self.char(i as usize))
            .collect();
        STATING_PATTERN.contains(&casefold(&written).as_str())
    }

    /// Whether stretch index `index` is a character of the text (not before its start).
    fn low_in_text(&self, index: isize) -> bool {
        index >= 0 && (index as usize) < self.chars.len()
    }

    fn spaces(&self, from: usize) -> usize {
        (from..self.end)
            .take_while(|i| self.is(*i, is_space))
            .count()
    }

    fn decimals(&self, from: usize) -> usize {
        (from..self.end)
            .take_while(|i| self.is(*i, is_decimal))
            .count()
    }

    fn word_at(&self, at: usize, word: &str) -> bool {
        word.chars()
            .enumerate()
            .all(|(i, letter)| self.is(at + i, |c| ignorecase_eq(c, letter)))
    }

    fn boundary_after(&self, at: usize) -> bool {
        !self.is(at, is_word)
    }

    /// `re.search` of `_STATED` from `low` to the end: the leftmost start that matches.
    fn search(&self) -> Option<Found> {
        (self.low..self.end).find_map(|s| self.match_at(s))
    }

    fn match_at(&self, s: usize) -> Option<Found> {
        // \b(?:words)\s+ | [=:]\s+ | ^\s*
        let before_is_word = s > 0 && self.chars.get(s - 1).is_some_and(|(_, c)| is_word(*c));
        if before_is_word != self.is(s, is_word) {
            for word in STATING_PATTERN {
                if self.word_at(s, word) {
                    let after = s + word.len();
                    let spaces = self.spaces(after);
                    if spaces > 0 {
                        if let Some(found) = self.rest(after + spaces) {
                            return Some(found);
                        }
                    }
                }
            }
        }
        if self.is(s, |c| c == '=' || c == ':') {
            let spaces = self.spaces(s + 1);
            if spaces > 0 {
                if let Some(found) = self.rest(s + 1 + spaces) {
                    return Some(found);
                }
            }
        }
        let at_text_start = self.chars.get(s).is_some_and(|(i, _)| *i == 0) && s == self.low;
        if at_text_start {
            return self.rest(s + self.spaces(s));
        }
        None
    }

    fn bold(&self, at: usize) -> Option<usize> {
        let pair = |mark: char| self.char(at) == Some(mark) && self.char(at + 1) == Some(mark);
        (pair('*') || pair('_')).then_some(at + 2)
    }

    /// `(?:\*\*|__)?(?P<figure>...)(?P<points>...)?(?:\*\*|__)?\s*\Z` from `at`.
    fn rest(&self, at: usize) -> Option<Found> {
        for sign_start in self.bold(at).into_iter().chain([at]) {
            let sign = self.char(sign_start).filter(|c| SIGNS.contains(c));
            let digits_start = sign_start + usize::from(sign.is_some());
            let run = self.decimals(digits_start);
            let integer = (1..=run.min(3)).rev().chain((1..=run).rev());
            for whole in integer {
                let integer_end = digits_start + whole;
                let fraction = if self.char(integer_end) == Some('.') {
                    self.decimals(integer_end + 1)
                } else {
                    0
                };
                let ends = (1..=fraction.min(6))
                    .rev()
                    .map(|f| integer_end + 1 + f)
                    .chain([integer_end]);
                for digits_end in ends {
                    for points in self.points(digits_end).into_iter().map(Some).chain([None]) {
                        let figure_end = points.map_or(digits_end, |(_, end)| end);
                        for bold_end in self.bold(figure_end).into_iter().chain([figure_end]) {
                            if bold_end + self.spaces(bold_end) == self.end {
                                return Some(Found {
                                    sign_start,
                                    sign,
                                    digits_start,
                                    digits_end,
                                    points,
                                });
                            }
                        }
                    }
                }
            }
        }
        None
    }

    /// `\s+(?:percentage\s+)?points?\b|\s*pts\b` after `at`: (start, end) of each way, in order.
    fn points(&self, at: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let spaces = self.spaces(at);
        for first in (1..=spaces).rev() {
            let word = at + first;
            let mut starts = Vec::new();
            if self.word_at(word, "percentage") {
                let gap = self.spaces(word + 10);
                starts.extend((1..=gap).rev().map(|g| word + 10 + g));
            }
            starts.push(word);
            for point in starts {
                if self.word_at(point, "point") {
                    let plural = self.is(point + 5, |c| ignorecase_eq(c, 's'));
                    for end in [plural.then_some(point + 6), Some(point + 5)]
                        .into_iter()
                        .flatten()
                    {
                        if self.boundary_after(end) {
                            out.push((at, end));
                        }
                    }
                }
            }
        }
        for gap in (0..=spaces).rev() {
            if self.word_at(at + gap, "pts") && self.boundary_after(at + gap + 3) {
                out.push((at, at + gap + 3));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::stated_figures;
    use crate::atoms::AtomValue;

    fn stated(text: &str, atoms: &[(usize, usize)]) -> Vec<(String, f64, Option<&'static str>)> {
        stated_figures(text, atoms, 4)
            .into_iter()
            .map(|atom| {
                let written = text
                    .get(atom.start..atom.end)
                    .unwrap_or_default()
                    .to_owned();
                match atom.value {
                    AtomValue::Quantity(q) => (written, q.value, q.unit),
                    AtomValue::Date(_) | AtomValue::Identifier(_) | AtomValue::Time(_) => {
                        (written, f64::NAN, None)
                    }
                }
            })
            .collect()
    }

    #[test]
    fn short_answers_after_stating_words() {
        assert_eq!(
            stated("It is 3.85. It fell by 3.6 points.", &[]),
            [
                ("3.85".to_owned(), 3.85, None),
                ("3.6 points".to_owned(), 3.6, Some("pp")),
            ]
        );
        assert_eq!(
            stated("That comes to **2.55**", &[]),
            [("2.55".to_owned(), 2.55, None)]
        );
        assert_eq!(stated("2.55", &[]), [("2.55".to_owned(), 2.55, None)]);
    }

    #[test]
    fn not_without_a_stating_word_nor_over_an_atom() {
        assert!(stated("We sold 3.", &[]).is_empty());
        assert!(stated("It is 3.85.", &[(6, 10)]).is_empty());
        assert!(stated("It is 12345.", &[]).is_empty()); // the extractor decides long figures
    }
}
