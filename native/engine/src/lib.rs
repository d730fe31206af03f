//! The scoring engine of otel-groundedness, in plain Rust: no Python types, no global state.
//! The PyO3 binding (`native/python`) converts Python values at the boundary and calls it.
//!
//! Offsets: the engine works on UTF-8 `&str` and byte offsets; the binding converts every offset
//! it returns to code points, the unit of Python's `str` and of the reports.

pub mod atoms;
pub mod bare_years;
pub mod budget;
pub mod corpus;
pub mod date_index;
pub mod derivation;
pub mod derivation_cues;
pub mod derivation_search;
pub mod derivations;
pub mod digits;
pub mod extract;
pub mod float_repr;
pub mod fsum;
pub mod fxhash;
pub mod hit;
pub mod identifier_index;
pub mod index;
pub mod json_text;
pub mod keyed;
pub mod kinds;
pub mod label_words;
pub mod numeric_group;
pub mod offsets;
pub mod operand_families;
pub mod paths;
pub mod policy;
pub mod pyhtml;
pub mod pytext;
pub mod pyunicode;
pub mod quantity_names;
pub mod rules;
pub mod scorer;
pub mod sentences;
pub mod stated_figures;
pub mod table_book;
pub mod table_derivations;
pub mod table_json;
pub mod table_model;
pub mod table_text;
pub mod tables;
#[cfg(test)]
mod test_evidence;
pub mod time_index;
pub mod units;
pub mod value;
pub mod verdicts;
pub mod vocabulary;

/// The engine's version, reported by `otel_groundedness._native.engine_version()`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
