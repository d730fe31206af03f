//! The scoring engine of otel-groundedness, in plain Rust: no Python types, no global state.
//! The PyO3 binding (`native/python`) converts Python values at the boundary and calls it.
//!
//! Offsets: the engine works on UTF-8 `&str` and byte offsets; the binding converts every offset
//! it returns to code points, the unit of Python's `str` and of the reports.

pub mod atoms;
pub mod bare_years;
pub mod extract;
pub mod kinds;
pub mod offsets;
pub mod sentences;
pub mod stated_figures;
pub mod vocabulary;

/// The engine's version, reported by `otel_groundedness._native.engine_version()`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
