//! Evidence for the engine's unit tests: JSON documents as tool results, walked and indexed with
//! the default settings.

use crate::corpus::{collect, Corpus, Evidence, Item, Settings, Source};
use crate::extract::extract_atoms;
use crate::index::{EvidenceIndex, EvidenceNeeds};
use crate::json_text::{self, Limits};
use crate::value::Arena;
use crate::vocabulary::AtomKind;

/// The corpus of evidence items given as JSON texts, as the walk reads them by default.
pub fn corpus_of(items: &[&str]) -> Corpus {
    let mut arena = Arena::default();
    let mut converted = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let span = arena.push_text(item.as_bytes()).unwrap_or_default();
        let limits = Limits {
            max_nesting: i64::MAX,
            max_int_digits: 0,
        };
        let content = json_text::parse(&mut arena, span, limits).unwrap_or_default();
        converted.push(Item {
            source: Source {
                index: Some(index),
                source_id: None,
                kind: b"tool_result".to_vec(),
                name: None,
            },
            content,
            empty: false,
        });
    }
    let evidence = Evidence {
        arena,
        prompt: None,
        items: converted,
    };
    let settings = Settings {
        max_bytes: 1 << 20,
        every_string: false,
        max_int_digits: 4300,
    };
    collect(evidence, settings)
}

/// The index of evidence items given as JSON texts, extracted in en-US with the default floor.
pub fn index_of(items: &[&str], needs: &EvidenceNeeds) -> EvidenceIndex {
    let kinds: Vec<&str> = AtomKind::ALL.iter().map(|kind| kind.as_str()).collect();
    let extract = |text: &str| extract_atoms(text, "en-US", 4, &kinds, None).unwrap_or_default();
    EvidenceIndex::new(corpus_of(items), extract, needs)
}
