//! The word, digit and derivation-cue leaves of the engine with plain Python data in and out,
//! for the differential tests against the Python engine. Offsets in and out are code points.

use std::collections::HashSet;

use groundedness_engine::label_words::{self, AtomContext};
use groundedness_engine::pyunicode;
use pyo3::prelude::*;

/// The byte offset of code point `offset` of `text` (the end when past it).
pub(crate) fn byte_offset(text: &str, offset: usize) -> usize {
    if text.is_ascii() {
        return offset.min(text.len());
    }
    text.char_indices()
        .nth(offset)
        .map_or(text.len(), |(at, _)| at)
}

/// Per character of `text`: bit 0 `\w`, 1 `[^\W\d_]`, 2 `\d`, 3 `\s` as the engine reads them.
#[pyfunction]
fn unicode_classes(text: &str) -> Vec<u8> {
    let classes = [
        pyunicode::is_word,
        pyunicode::is_letter,
        pyunicode::is_digit,
        pyunicode::is_space,
    ];
    text.chars()
        .map(|c| {
            classes
                .iter()
                .enumerate()
                .map(|(bit, class)| u8::from(class(c)) << bit)
                .sum()
        })
        .collect()
}

#[pyfunction]
fn unicode_lower(text: &str) -> String {
    pyunicode::lower(text)
}

#[pyfunction]
fn words(text: &str) -> HashSet<String> {
    label_words::words(text)
}

#[pyfunction]
fn singular(word: &str) -> String {
    label_words::singular(word).into_owned()
}

#[pyfunction]
#[pyo3(signature = (text, start, end, lower=0, upper=None))]
fn window_words(
    text: &str,
    start: usize,
    end: usize,
    lower: usize,
    upper: Option<usize>,
) -> HashSet<String> {
    let at = |offset| byte_offset(text, offset);
    let upper = upper.map_or(text.len(), at);
    label_words::window_words(text, at(start), at(end), at(lower), upper)
}

#[pyfunction]
#[pyo3(signature = (keys, siblings=None))]
fn json_words(keys: Vec<String>, siblings: Option<Vec<(String, String)>>) -> HashSet<String> {
    let siblings = siblings.unwrap_or_default();
    let pairs: Vec<(&str, &str)> = siblings
        .iter()
        .map(|(key, value)| (key.as_str(), value.as_str()))
        .collect();
    label_words::json_words(keys.iter().map(String::as_str), &pairs)
}

type Window = (String, String);
type ContextReading = (
    String,
    bool,
    String,
    String,
    HashSet<String>,
    Window,
    Window,
    bool,
    bool,
);

/// Every reading of an `AtomContext`: sentence_text, beyond_window, previous_text,
/// previous_question, words, window_text(True), window_text(False), states_decrease, names_decrease.
#[pyfunction]
#[pyo3(signature = (text, start, end, sentence, neighbours, previous=None))]
fn atom_context(
    text: &str,
    start: usize,
    end: usize,
    sentence: (usize, usize),
    neighbours: (usize, usize),
    previous: Option<(usize, usize)>,
) -> ContextReading {
    let at = |offset| byte_offset(text, offset);
    let span = |(low, high): (usize, usize)| (at(low), at(high));
    let context = AtomContext::new(
        text,
        (at(start), at(end)),
        span(sentence),
        span(neighbours),
        previous.map(span),
    );
    let owned = |(before, after): (&str, &str)| (before.to_owned(), after.to_owned());
    (
        context.sentence_text().to_owned(),
        context.beyond_window(),
        context.previous_text().to_owned(),
        context.previous_question().to_owned(),
        context.words().clone(),
        owned(context.window_text(true)),
        owned(context.window_text(false)),
        context.states_decrease(),
        context.names_decrease(),
    )
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(unicode_classes, module)?)?;
    module.add_function(wrap_pyfunction!(unicode_lower, module)?)?;
    module.add_function(wrap_pyfunction!(words, module)?)?;
    module.add_function(wrap_pyfunction!(singular, module)?)?;
    module.add_function(wrap_pyfunction!(window_words, module)?)?;
    module.add_function(wrap_pyfunction!(json_words, module)?)?;
    module.add_function(wrap_pyfunction!(atom_context, module)?)?;
    Ok(())
}
