//! The identifier part of the evidence index (`scoring/index.py`, `scoring/verdicts.py`): every
//! occurrence of a normalized identifier, the identifiers one edit away, the identifier an
//! abbreviation extends, and the one-edit relations the verdicts use.
//!
//! Identifiers are compared as sequences of code points (Python's `str` order, which is also
//! UTF-8 byte order). The one-edit search reads the sorted distinct forms one jump per distinct
//! character: its cost is bounded by the identifier's length and the alphabet, never by how many
//! similar identifiers the evidence holds.

use crate::budget::{WorkBudget, CANDIDATE, PROBE};
use crate::fxhash::FxHashMap as HashMap;

/// Identifiers longer than this are matched exactly only (no one-edit search).
pub const NEAR_MAX_CHARS: usize = 64;

type Form = Vec<char>;

/// `text`'s code points, allocated once (collecting `chars()` grows the list from a quarter of
/// the byte length; an ASCII identifier needs exactly its byte length).
fn form_of(text: &str) -> Form {
    let mut form = Vec::with_capacity(text.len());
    form.extend(text.chars());
    form
}

/// Identifiers of the evidence by (shape, normalized form); hits are the caller's positions.
#[derive(Debug, Default)]
pub struct IdentifierIndex {
    /// Per shape, every form's occurrences (looked up by borrowed shape and form).
    by_form: HashMap<String, HashMap<Form, Vec<usize>>>,
    /// Per shape, the distinct forms of at most `NEAR_MAX_CHARS + 1` characters, sorted.
    sorted_forms: HashMap<String, Vec<Form>>,
}

impl IdentifierIndex {
    /// The index of `identifiers[i] = (shape, normalized)`, in document order.
    pub fn new<'a>(identifiers: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let mut index = IdentifierIndex::default();
        for (position, (shape, normalized)) in identifiers.into_iter().enumerate() {
            let form = form_of(normalized);
            // The shape's tables are found by borrowed name; its name is copied once per shape.
            if !index.by_form.contains_key(shape) {
                index.by_form.insert(shape.to_owned(), HashMap::default());
                index.sorted_forms.insert(shape.to_owned(), Vec::new());
            }
            let Some(by_form) = index.by_form.get_mut(shape) else {
                continue;
            };
            match by_form.get_mut(form.as_slice()) {
                Some(occurrences) => occurrences.push(position),
                None => {
                    if form.len() <= NEAR_MAX_CHARS + 1 {
                        if let Some(forms) = index.sorted_forms.get_mut(shape) {
                            forms.push(form.clone());
                        }
                    }
                    by_form.insert(form, vec![position]);
                }
            }
        }
        for forms in index.sorted_forms.values_mut() {
            forms.sort_unstable();
        }
        index
    }

    fn occurrences(&self, shape: &str, form: &[char]) -> Option<&Vec<usize>> {
        self.by_form.get(shape)?.get(form)
    }

    /// Every occurrence of `normalized` of `shape`, in document order.
    pub fn identifiers(
        &self,
        shape: &str,
        normalized: &str,
        budget: &mut WorkBudget,
    ) -> Vec<usize> {
        budget.left -= PROBE;
        let form = form_of(normalized);
        self.occurrences(shape, &form).cloned().unwrap_or_default()
    }

    /// The first occurrence of each identifier of `shape` one edit from `normalized` (a
    /// substitution, insertion, deletion or adjacent swap), in the order the variants are made;
    /// none when `normalized` is longer than `NEAR_MAX_CHARS`.
    pub fn near(&self, shape: &str, normalized: &str, budget: &mut WorkBudget) -> Vec<usize> {
        let word = form_of(normalized);
        let length = word.len();
        let Some(forms) = self
            .sorted_forms
            .get(shape)
            .filter(|forms| length <= NEAR_MAX_CHARS && !forms.is_empty())
        else {
            return Vec::new();
        };
        let mut variants = Variants::default();
        for i in 0..length {
            variants.add(&[&word[..i], &word[i + 1..]]);
            if i + 1 < length {
                variants.add(&[&word[..i], &[word[i + 1], word[i]], &word[i + 2..]]);
            }
        }
        let mut jumps = 0usize;
        // Forms before `start` are below every head still to come (each head extends the last).
        let mut start = 0usize;
        for i in 0..=length {
            let (head, rest) = word.split_at(i);
            let after = word.get(i + 1..).unwrap_or_default();
            let mut position = start
                + forms
                    .get(start..)
                    .unwrap_or_default()
                    .partition_point(|form| form.as_slice() < head);
            start = position;
            if !forms
                .get(position)
                .is_some_and(|form| form.starts_with(head))
            {
                break; // no form starts with `head`, so none with a longer one
            }
            while let Some(form) = forms.get(position).filter(|form| form.starts_with(head)) {
                let Some(&next) = form.get(i) else {
                    position += 1; // `head` itself: no character follows
                    continue;
                };
                variants.add(&[head, &[next], after]); // substituted
                variants.add(&[head, &[next], rest]); // inserted
                jumps += 1;
                position = past(forms, head, next, position);
            }
        }
        variants.remove(&word);
        let ordered = variants.ordered();
        let found: Vec<usize> = ordered
            .iter()
            .filter_map(|variant| self.occurrences(shape, variant)?.first().copied())
            .collect();
        let probes = ordered.len() + jumps;
        budget.left -= PROBE * probes as i64 + CANDIDATE * found.len() as i64;
        found
    }

    /// The first occurrence of the smallest identifier of `shape` (of at most
    /// `NEAR_MAX_CHARS + 1` characters) that is `prefix` followed by more.
    pub fn extending(&self, shape: &str, prefix: &str, budget: &mut WorkBudget) -> Option<usize> {
        budget.left -= PROBE;
        let forms = self.sorted_forms.get(shape)?;
        let prefix = form_of(prefix);
        let position = forms.partition_point(|form| form.as_slice() <= prefix.as_slice());
        let form = forms
            .get(position)
            .filter(|form| form.starts_with(&prefix))?;
        self.occurrences(shape, form)?.first().copied()
    }
}

/// Variants in the order they are first made, each once (the citation never depends on a hash).
#[derive(Default)]
struct Variants {
    /// Each distinct variant and when it was first made.
    seen: HashMap<Form, usize>,
    made: usize,
    scratch: Form,
}

impl Variants {
    /// Adds the variant `parts` joined (allocated only when new).
    fn add(&mut self, parts: &[&[char]]) {
        self.scratch.clear();
        for part in parts {
            self.scratch.extend_from_slice(part);
        }
        if !self.seen.contains_key(self.scratch.as_slice()) {
            self.seen.insert(self.scratch.clone(), self.made);
            self.made += 1;
        }
    }

    fn remove(&mut self, variant: &[char]) {
        self.seen.remove(variant);
    }

    /// The variants in the order they were first made.
    fn ordered(&self) -> Vec<&[char]> {
        let mut ordered: Vec<(usize, &[char])> = self
            .seen
            .iter()
            .map(|(variant, made)| (*made, variant.as_slice()))
            .collect();
        ordered.sort_unstable_by_key(|(made, _)| *made);
        ordered.into_iter().map(|(_, variant)| variant).collect()
    }
}

/// The first position at or after `position` whose form does not start with `head` + `last`
/// (read without joining them).
fn past(forms: &[Form], head: &[char], last: char, position: usize) -> usize {
    // The next code point that is a char (Python's next one may be a surrogate, which no form of
    // valid text holds, so both bound the same forms).
    let mut code = last as u32 + 1;
    if (0xD800..0xE000).contains(&code) {
        code = 0xE000;
    }
    match char::from_u32(code) {
        Some(next) => {
            position
                + forms
                    .get(position..)
                    .unwrap_or_default()
                    .partition_point(|form| below(form, head, next))
        }
        None => {
            let mut at = position;
            while forms
                .get(at)
                .is_some_and(|form| form.starts_with(head) && form.get(head.len()) == Some(&last))
            {
                at += 1;
            }
            at
        }
    }
}

/// `form < head + [last]`, lexicographically.
fn below(form: &[char], head: &[char], last: char) -> bool {
    match form.get(..head.len()) {
        Some(start) => match start.cmp(head) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => !matches!(form.get(head.len()), Some(c) if *c >= last),
        },
        // Shorter than `head`: the comparison ends within `head`.
        None => form < head,
    }
}

/// One insertion, deletion, substitution or adjacent swap turns `first` into `second`.
pub fn one_edit_apart(first: &str, second: &str) -> bool {
    let (first, second) = (form_of(first), form_of(second));
    if first == second || first.len().abs_diff(second.len()) > 1 {
        return false;
    }
    let (first, second) = if first.len() > second.len() {
        (second, first)
    } else {
        (first, second)
    };
    let limit = first.len();
    let prefix = first
        .iter()
        .zip(&second)
        .take_while(|(a, b)| a == b)
        .count();
    if first.len() < second.len() {
        return first[prefix..] == second[prefix + 1..];
    }
    if first.get(prefix + 1..) == second.get(prefix + 1..) {
        return true;
    }
    prefix + 1 < limit
        && first[prefix] == second[prefix + 1]
        && first[prefix + 1] == second[prefix]
        && first[prefix + 2..] == second[prefix + 2..]
}

/// Values of the digit strings one edit from `digits` (leading zeros dropped, as in JSON),
/// ascending.
pub fn one_edit_numbers(digits: &str) -> Vec<f64> {
    let word = form_of(digits);
    let mut found: Vec<String> = Vec::new();
    let mut push = |parts: &[&[char]]| found.push(parts.concat().into_iter().collect());
    for i in 0..=word.len() {
        let (head, tail) = word.split_at(i);
        for digit in '0'..='9' {
            push(&[head, &[digit], tail]);
        }
        if let Some((_, rest)) = tail.split_first() {
            push(&[head, rest]);
            for digit in '0'..='9' {
                push(&[head, &[digit], rest]);
            }
        }
        if tail.len() > 1 {
            push(&[head, &[tail[1], tail[0]], &tail[2..]]);
        }
    }
    let mut values: Vec<f64> = found
        .iter()
        .filter(|text| !text.is_empty() && text.as_str() != digits)
        .filter_map(|text| text.parse::<f64>().ok())
        .collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_compares_with_the_joined_prefix() {
        let f = |text: &str| text.chars().collect::<Vec<char>>();
        for form in ["", "a", "ab", "abc", "abd", "abb", "ac", "b", "aa", "abcz"] {
            for (head, last) in [("", 'b'), ("a", 'c'), ("ab", 'd'), ("abc", 'a'), ("b", 'a')] {
                let joined: Vec<char> = f(head).into_iter().chain([last]).collect();
                assert_eq!(
                    below(&f(form), &f(head), last),
                    f(form) < joined,
                    "{form} vs {head}+{last}"
                );
            }
        }
    }

    #[test]
    fn finds_identifiers_one_edit_away_first_occurrence_each() {
        let index = IdentifierIndex::new([
            ("ticket", "INC-4521"),
            ("ticket", "INC-4512"),
            ("ticket", "INC-4521"),
            ("ticket", "INC-9999"),
            ("uuid", "INC-4520"),
        ]);
        let mut budget = WorkBudget::new(1000);
        assert_eq!(
            index.identifiers("ticket", "INC-4521", &mut budget),
            vec![0, 2]
        );
        let near = index.near("ticket", "INC-4521", &mut budget);
        assert_eq!(near, vec![1]); // the swap; never itself, never another shape
        assert_eq!(index.extending("ticket", "INC-45", &mut budget), Some(1));
    }

    #[test]
    fn one_edit_relations() {
        assert!(one_edit_apart("abcd", "abdc"));
        assert!(one_edit_apart("abcd", "abd"));
        assert!(one_edit_apart("abcd", "abxd"));
        assert!(!one_edit_apart("abcd", "abcd"));
        assert!(!one_edit_apart("abcd", "badc"));
        let numbers = one_edit_numbers("45");
        assert!(numbers.contains(&54.0) && numbers.contains(&5.0) && numbers.contains(&450.0));
        assert!(numbers.contains(&45.0)); // "045": a leading zero reads as the same value
        assert!(numbers.windows(2).all(|pair| pair[0] < pair[1]));
    }
}
