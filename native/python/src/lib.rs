//! `otel_groundedness._native`: the PyO3 boundary of the scoring engine.

use groundedness_engine::extract::locales::SUPPORTED_LOCALES;
use groundedness_engine::vocabulary::{
    AtomKind, DerivedOperation, Label, LabelRule, Reason, TruncationReason, Verdict,
};
use pyo3::prelude::*;

mod allocator;
mod boundary;
mod citation;
mod evidence;
mod extract;
mod identifiers;
mod policy;
mod report;
mod rules;
mod score;
mod tables;
mod words;

/// mimalloc serves the engine's own allocations only (Python objects stay with Python's allocator):
/// with glibc's malloc, allocating and freeing was about a fifth of a call on atom-dense turns.
#[global_allocator]
static ALLOCATOR: allocator::Allocator = allocator::Allocator;

/// The native engine's version (the crate's).
#[pyfunction]
fn engine_version() -> &'static str {
    groundedness_engine::VERSION
}

/// The engine's vocabularies by name, each in its declared order: the Python API's `Literal`
/// types must list the same members (tests/native/test_vocabulary.py).
#[pyfunction]
fn vocabularies() -> Vec<(&'static str, Vec<&'static str>)> {
    fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<&'static str> {
        all.iter().map(|member| name(*member)).collect()
    }
    vec![
        ("AtomKind", names(AtomKind::ALL, AtomKind::as_str)),
        ("Verdict", names(Verdict::ALL, Verdict::as_str)),
        (
            "DerivedOperation",
            names(DerivedOperation::ALL, DerivedOperation::as_str),
        ),
        ("Reason", names(Reason::ALL, Reason::as_str)),
        ("Label", names(Label::ALL, Label::as_str)),
        ("LabelRule", names(LabelRule::ALL, LabelRule::as_str)),
        (
            "TruncationReason",
            names(TruncationReason::ALL, TruncationReason::as_str),
        ),
        ("Locale", SUPPORTED_LOCALES.to_vec()),
    ]
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(engine_version, module)?)?;
    module.add_function(wrap_pyfunction!(vocabularies, module)?)?;
    boundary::register(module)?;
    evidence::register(module)?;
    extract::register(module)?;
    identifiers::register(module)?;
    policy::register(module)?;
    rules::register(module)?;
    score::register(module)?;
    tables::register(module)?;
    words::register(module)?;
    Ok(())
}
