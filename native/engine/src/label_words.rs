//! Label words around a figure: what ties an answer atom to one specific evidence value
//! (`scoring/label_words.py`). Two atoms share context when their label words intersect
//! (`revenue` in the answer sentence and in the JSON key `total_revenue`).
//!
//! Offsets are bytes of UTF-8 text on character boundaries; every window is counted in
//! characters, as Python counts them.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::sync::OnceLock;

use crate::fxhash::FxHashSet as HashSet;
use crate::pytext::lossy;
use crate::pyunicode::{chars_back, chars_forward, is_letter, is_space, letter_runs, lower, slice};

/// Characters of label text read before a figure, and after it (labels mostly precede figures).
pub const BEFORE_WINDOW: usize = 60;
pub const AFTER_WINDOW: usize = 30;
/// The most of a figure's sentence (and of the one before) read for the computation it names.
pub const SENTENCE_BEFORE: usize = 300;
pub const SENTENCE_AFTER: usize = 100;
const MAX_SIBLING_LABEL: usize = 40;
/// Sibling keys whose string value names the record's figures (`{"metric": "revenue", ...}`).
const LABEL_KEYS: [&str; 9] = [
    "name",
    "label",
    "metric",
    "title",
    "field",
    "kind",
    "type",
    "category",
    "description",
];
/// Words that appear next to any figure and so tie nothing to anything.
const STOPWORDS: [&str; 103] = [
    "about",
    "all",
    "almost",
    "also",
    "an",
    "and",
    "any",
    "approximately",
    "are",
    "around",
    "as",
    "at",
    "be",
    "been",
    "being",
    "billion",
    "billions",
    "but",
    "by",
    "can",
    "cent",
    "could",
    "dollar",
    "dollars",
    "each",
    "eur",
    "euro",
    "euros",
    "every",
    "figure",
    "figures",
    "for",
    "from",
    "gbp",
    "had",
    "has",
    "have",
    "in",
    "into",
    "is",
    "its",
    "jpy",
    "just",
    "less",
    "may",
    "might",
    "million",
    "millions",
    "more",
    "nearly",
    "not",
    "number",
    "of",
    "on",
    "only",
    "onto",
    "or",
    "our",
    "over",
    "per",
    "percent",
    "percentage",
    "point",
    "points",
    "pound",
    "pounds",
    "roughly",
    "should",
    "some",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "thousand",
    "thousands",
    "to",
    "trillion",
    "under",
    "usd",
    "value",
    "values",
    "very",
    "was",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "will",
    "with",
    "would",
    "you",
    "your",
];
/// A positive figure after one of these words states a negative amount ("revenue fell 15.3%")
/// (sorted: searched).
const DECREASE_WORDS: [&str; 26] = [
    "chargeback",
    "credit",
    "credited",
    "cut",
    "decline",
    "declined",
    "decrease",
    "decreased",
    "down",
    "drop",
    "dropped",
    "drops",
    "fall",
    "falls",
    "fell",
    "loss",
    "lost",
    "lower",
    "minus",
    "negative",
    "reduced",
    "reduction",
    "refund",
    "refunded",
    "shrank",
    "shrunk",
];
const DECREASE_WINDOW: usize = 30;
/// Whether `word` is one of `STOPWORDS`: a hash probe (a binary search over the list was a
/// string comparison per step, for every word read).
fn is_stopword(word: &str) -> bool {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| STOPWORDS.into_iter().collect())
        .contains(word)
}

/// Plural endings and what replaces them, longest first; "-ss", "-us" and "-is" words are no plurals.
const PLURAL_ENDINGS: [(&str, &str); 5] = [
    ("sses", "ss"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("xes", "x"),
    ("ies", "y"),
];
const NOT_PLURAL: [&str; 3] = ["ss", "us", "is"];

/// Normalised label words of `text`: runs of three or more letters, camelCase split, lower-case,
/// plural made singular, stopwords dropped.
pub fn words(text: &str) -> HashSet<String> {
    let mut found = HashSet::default();
    words_into(text, &mut found);
    found
}

fn words_into(text: &str, found: &mut HashSet<String>) {
    // Python inserts a space at each ASCII lower-to-upper boundary, then reads letter runs.
    let mut run_start = None;
    let mut run_chars = 0;
    let mut previous = ' ';
    let mut flush = |start: Option<usize>, end: usize, chars: usize| {
        if let Some(start) = start.filter(|_| chars >= 3) {
            // Most runs are lower-case ASCII already: those are read in place, and a word is
            // copied only when it is new.
            let run = slice(text, start, end);
            let lowered = if run.bytes().all(|byte| byte.is_ascii_lowercase()) {
                Cow::Borrowed(run)
            } else {
                Cow::Owned(lower(run))
            };
            let word = singular(&lowered);
            if !is_stopword(&word) && !found.contains(word.as_ref()) {
                found.insert(word.into_owned());
            }
        }
    };
    for (at, c) in text.char_indices() {
        if !is_letter(c) {
            flush(run_start.take(), at, run_chars);
        } else if run_start.is_none() || (previous.is_ascii_lowercase() && c.is_ascii_uppercase()) {
            flush(run_start.replace(at), at, run_chars);
            run_chars = 1;
        } else {
            run_chars += 1;
        }
        previous = c;
    }
    flush(run_start, text.len(), run_chars);
}

/// A lower-case word made singular ("companies" -> "company"); singulars the plural rules would
/// not give back ("movie", "cache") are cut the same way, so a singular and its plural still meet.
pub fn singular(word: &str) -> Cow<'_, str> {
    let length = word.chars().count();
    if length <= 3 {
        return Cow::Borrowed(word);
    }
    let Some(stem) = word.strip_suffix('s') else {
        if let Some(stem) = word.strip_suffix("ie") {
            return Cow::Owned(format!("{stem}y"));
        }
        // "-ches" is cut only after two letters, so "-che" is too.
        return match word.strip_suffix('e') {
            Some(stem) if word.ends_with("che") && length > 4 => Cow::Borrowed(stem),
            _ => Cow::Borrowed(word),
        };
    };
    if NOT_PLURAL.iter().any(|ending| word.ends_with(ending)) {
        return Cow::Borrowed(word);
    }
    for (ending, replacement) in PLURAL_ENDINGS {
        if let Some(head) = word
            .strip_suffix(ending)
            .filter(|_| length > ending.len() + 1)
        {
            return Cow::Owned(format!("{head}{replacement}"));
        }
    }
    Cow::Borrowed(stem)
}

/// Label words near `text[start..end]` (the figure itself excluded), kept inside
/// `[lower, upper)` and within the figure's line.
pub fn window_words(
    text: &str,
    start: usize,
    end: usize,
    lower: usize,
    upper: usize,
) -> HashSet<String> {
    let mut before_start = lower.max(chars_back(text, start, BEFORE_WINDOW));
    if let Some(line_break) = slice(text, before_start, start).rfind('\n') {
        before_start += line_break + 1;
    }
    let mut after_end = upper.min(chars_forward(text, end, AFTER_WINDOW));
    if let Some(line_break) = slice(text, end, after_end).find('\n') {
        after_end = end + line_break;
    }
    let mut found = words(slice(text, before_start, start));
    words_into(slice(text, end, after_end), &mut found);
    found
}

/// Label words of a JSON value: its keys up to the root, and short sibling labels. `siblings` are
/// the string members of the value's record (a JSON object: each key once), as their evidence
/// bytes: only a label key's value is decoded.
pub fn json_words<'k, 's>(
    keys: impl IntoIterator<Item = &'k str>,
    siblings: impl IntoIterator<Item = (&'s [u8], &'s [u8])>,
) -> HashSet<String> {
    let mut found = HashSet::default();
    for key in keys {
        words_into(key, &mut found);
    }
    for (key, value) in siblings {
        // Label keys are ASCII, so their bytes compare as the decoded key would.
        if LABEL_KEYS.iter().any(|label| label.as_bytes() == key) {
            let value = lossy(value);
            if value.chars().count() <= MAX_SIBLING_LABEL {
                words_into(&value, &mut found);
            }
        }
    }
    found
}

/// What the answer says around one atom, computed only when a rule asks.
///
/// Label words are read between the neighbouring atoms first ("subtotal $1,579.88, tax $126.39":
/// "tax" labels the second figure); only when that stretch has none is the whole sentence used.
pub struct AtomContext<'t> {
    text: &'t str,
    pub start: usize,
    pub end: usize,
    /// The sentence's span.
    pub lower: usize,
    pub upper: usize,
    /// The end of the previous atom and the start of the next, inside the sentence.
    pub near_lower: usize,
    pub near_upper: usize,
    /// The span of the sentence before, if any.
    pub previous: Option<(usize, usize)>,
    words: OnceCell<HashSet<String>>,
}

impl<'t> AtomContext<'t> {
    pub fn new(
        text: &'t str,
        (start, end): (usize, usize),
        (lower, upper): (usize, usize),
        neighbours: (usize, usize),
        previous: Option<(usize, usize)>,
    ) -> Self {
        AtomContext {
            text,
            start,
            end,
            lower,
            upper,
            near_lower: lower.max(neighbours.0),
            near_upper: upper.min(neighbours.1),
            previous,
            words: OnceCell::new(),
        }
    }

    /// The figure's sentence, at most `SENTENCE_BEFORE`/`SENTENCE_AFTER` characters around it:
    /// read once per unmatched figure, so a 32K "sentence" must not make that quadratic.
    pub fn sentence_text(&self) -> &'t str {
        let from = self
            .lower
            .max(chars_back(self.text, self.start, SENTENCE_BEFORE));
        let to = self
            .upper
            .min(chars_forward(self.text, self.end, SENTENCE_AFTER));
        slice(self.text, from, to)
    }

    /// Whether the sentence reaches past the window `window_text` reads around the atom.
    pub fn beyond_window(&self) -> bool {
        // `start - lower > BEFORE_WINDOW` in characters; a window cut short by the text's ends
        // floors at 0 or caps at its length, which no bound below `upper <= len` passes.
        self.lower < chars_back(self.text, self.start, BEFORE_WINDOW)
            || self.upper > chars_forward(self.text, self.end, AFTER_WINDOW)
    }

    /// The answer's sentence before this one, its last `SENTENCE_BEFORE` characters.
    pub fn previous_text(&self) -> &'t str {
        match self.previous {
            None => "",
            Some((low, high)) => slice(
                self.text,
                low.max(chars_back(self.text, high, SENTENCE_BEFORE)),
                high,
            ),
        }
    }

    /// The previous sentence when it asks a question (the answer restating what it answers).
    pub fn previous_question(&self) -> &'t str {
        let previous = self.previous_text().trim_end_matches(is_space);
        if previous.ends_with('?') {
            previous
        } else {
            ""
        }
    }

    /// The atom's label words: between its neighbours, else in its sentence.
    pub fn words(&self) -> &HashSet<String> {
        self.words.get_or_init(|| {
            let (text, start, end) = (self.text, self.start, self.end);
            let found = window_words(text, start, end, self.near_lower, self.near_upper);
            if found.is_empty() {
                window_words(text, start, end, self.lower, self.upper)
            } else {
                found
            }
        })
    }

    /// The text before and after the atom, `BEFORE_WINDOW`/`AFTER_WINDOW` characters at most,
    /// kept between the neighbouring atoms (`near`) or inside the sentence.
    pub fn window_text(&self, near: bool) -> (&'t str, &'t str) {
        let (lower, upper) = if near {
            (self.near_lower, self.near_upper)
        } else {
            (self.lower, self.upper)
        };
        let (text, start, end) = (self.text, self.start, self.end);
        (
            slice(
                text,
                lower.max(chars_back(text, start, BEFORE_WINDOW)),
                start,
            ),
            slice(text, end, upper.min(chars_forward(text, end, AFTER_WINDOW))),
        )
    }

    /// True when a decrease word closely precedes the atom ("down 15.3%").
    pub fn states_decrease(&self) -> bool {
        let from = self
            .lower
            .max(chars_back(self.text, self.start, DECREASE_WINDOW));
        let before = lower(slice(self.text, from, self.start));
        let found: Vec<&str> = letter_runs(&before).collect();
        let last = found
            .get(found.len().saturating_sub(3)..)
            .unwrap_or_default();
        last.iter()
            .any(|word| DECREASE_WORDS.binary_search(word).is_ok())
    }

    /// A decrease word closely before the atom, or right after it ("a 22.58% decrease").
    pub fn names_decrease(&self) -> bool {
        if self.states_decrease() {
            return true;
        }
        let to = self
            .upper
            .min(chars_forward(self.text, self.end, DECREASE_WINDOW));
        let after = lower(slice(self.text, self.end, to));
        let first = letter_runs(&after).next();
        first.is_some_and(|word| DECREASE_WORDS.binary_search(&word).is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(words: &[&str]) -> HashSet<String> {
        words.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn words_split_camel_case_and_drop_stopwords() {
        assert_eq!(
            words("totalRevenue of the companies, HTTPServer"),
            set(&["total", "revenue", "company", "httpserver"])
        );
        assert_eq!(words("ab 12abc_def"), set(&["abc", "def"]));
    }

    #[test]
    fn singular_cuts_plurals_and_their_singulars_alike() {
        for (word, expected) in [
            ("classes", "class"),
            ("glass", "glass"),
            ("boxes", "box"),
            ("watches", "watch"),
            ("caches", "cach"),
            ("cache", "cach"),
            ("movie", "movy"),
            ("status", "status"),
            ("ies", "ies"),
            ("bies", "bie"),
        ] {
            assert_eq!(singular(word), expected, "{word}");
        }
    }

    #[test]
    fn windows_stop_at_lines_and_bounds() {
        let text = "Costs\nRevenue: $1.2M for Europe\nnext";
        let start = text.find('$').unwrap_or_default();
        assert_eq!(
            window_words(text, start, start + 5, 0, text.len()),
            set(&["revenue", "europe"])
        );
        assert_eq!(
            window_words(text, start, start + 5, start, start + 5),
            set(&[])
        );
    }

    #[test]
    fn json_words_read_keys_and_short_labels() {
        let siblings = [
            ("metric", "Net Sales"),
            ("unit", "Dollars"),
            ("name", &"x".repeat(41)),
        ];
        assert_eq!(
            json_words(
                ["revenueByRegion"],
                siblings.map(|(key, value)| (key.as_bytes(), value.as_bytes()))
            ),
            set(&["revenue", "region", "net", "sale"])
        );
    }

    #[test]
    fn context_reads_decrease_words_and_questions() {
        let text = "What was the drop? Revenue fell to $12, a decrease.";
        let start = text.find('$').unwrap_or_default();
        let context = AtomContext::new(
            text,
            (start, start + 3),
            (19, text.len()),
            (0, text.len()),
            Some((0, 18)),
        );
        assert!(context.states_decrease() && context.names_decrease());
        assert_eq!(context.previous_question(), "What was the drop?");
        assert_eq!(context.window_text(true).1, ", a decrease.");
        assert!(!context.beyond_window());
        assert_eq!(context.words(), &set(&["revenue", "fell", "decrease"]));
    }
}
