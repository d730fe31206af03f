//! What an evidence lookup returns (`Hit` of `scoring/index.py`): an extracted atom of a fragment,
//! a raw scalar of the corpus, or a reading of either in another group (a fraction, a unit).
//! What it says about itself (text, currency, label words, citation) is read off the corpus on
//! demand; label words are computed once per hit, as Python caches them.

use std::sync::{Arc, OnceLock};

use crate::atoms::AtomValue;
use crate::corpus::{Corpus, Literal};
use crate::float_repr::py_float_repr;
use crate::fxhash::FxHashSet as HashSet;
use crate::label_words;
use crate::pytext::{len_chars, lossy};
use crate::table_model::{Currency, Place};
use crate::units;
use crate::value::{Arena, Node, NodeId};

/// A table cell as a raw scalar (`cell_hit` of `scoring/table_book.py`): where it sits, its text
/// and currency, the record of a keyed cell, and its label (row label and column headers) unless
/// it is a record's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellOrigin {
    /// The evidence item (position in `Corpus::sources`).
    pub source: usize,
    pub place: Place,
    /// `RawCell.text`.
    pub text: Vec<u8>,
    pub currency: Option<Currency>,
    pub record: Option<NodeId>,
    /// A text cell's offsets in its string, in code points.
    pub chars: Option<(usize, usize)>,
    pub label: Option<String>,
}

/// Where a hit's value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// `text[start..end]` (bytes) of the fragment at this position of `Corpus::fragments`, which
    /// is `chars` in code points (worked out once, in the extraction's pass).
    Fragment {
        fragment: usize,
        start: usize,
        end: usize,
        chars: (usize, usize),
    },
    /// The raw scalar at this position of `Corpus::scalar_rows`.
    Scalar(usize),
    /// A table cell.
    Cell(Arc<CellOrigin>),
}

#[derive(Debug)]
pub struct Hit {
    /// The atom kind or group name (`raw`, `fraction`, `unit:km`, ...).
    pub kind: Arc<str>,
    pub origin: Origin,
    /// The extracted atom's value (`None` for raw scalars and unit readings of atoms).
    pub value: Option<Arc<AtomValue>>,
    /// The value on its group's scale.
    pub number: f64,
    pub tolerance: f64,
    words: OnceLock<Arc<HashSet<String>>>,
}

/// `Citation` of `scoring/results.py`; offsets in code points.
#[derive(Debug, Clone, PartialEq)]
pub struct Citation {
    pub evidence_index: Option<usize>,
    pub source_id: Option<Vec<u8>>,
    pub source_kind: Vec<u8>,
    pub name: Option<Vec<u8>>,
    pub path: Option<Vec<u8>>,
    pub start: Option<usize>,
    pub end: Option<usize>,
    pub text: Vec<u8>,
    /// A table cell's labels (row label and column headers): a cell hit's, unless it is a
    /// record's.
    pub cell: Option<Vec<u8>>,
}

impl Hit {
    pub fn new(
        kind: Arc<str>,
        origin: Origin,
        value: Option<Arc<AtomValue>>,
        number: f64,
        tolerance: f64,
    ) -> Arc<Hit> {
        Arc::new(Hit {
            kind,
            origin,
            value,
            number,
            tolerance,
            words: OnceLock::new(),
        })
    }

    fn quantity(&self) -> Option<&crate::atoms::Quantity> {
        match self.value.as_deref() {
            Some(AtomValue::Quantity(quantity)) => Some(quantity),
            _ => None,
        }
    }

    /// The evidence text the value was read from (WTF-8: a lone surrogate stays as it is).
    pub fn text(&self, corpus: &Corpus) -> Vec<u8> {
        match &self.origin {
            Origin::Fragment {
                fragment,
                start,
                end,
                ..
            } => fragment_text(corpus, *fragment)
                .get(*start..*end)
                .unwrap_or_default()
                .to_vec(),
            Origin::Scalar(position) => scalar_text(corpus, *position),
            Origin::Cell(cell) => cell.text.clone(),
        }
    }

    pub fn currency(&self, corpus: &Corpus) -> Option<String> {
        let code = |code: Currency| String::from_utf8_lossy(&code).into_owned();
        match &self.origin {
            Origin::Scalar(position) => corpus
                .scalar_rows
                .get(*position)
                .and_then(|row| row.currency)
                .map(code),
            Origin::Cell(cell) => cell.currency.map(code),
            Origin::Fragment { .. } => self.quantity()?.currency.map(str::to_owned),
        }
    }

    pub fn unit(&self) -> Option<&'static str> {
        self.quantity()?.unit
    }

    /// For a raw scalar, the unit its nearest key names (`{"weight_g": 2500}`: `g`).
    pub fn key_unit(&self, corpus: &Corpus) -> Option<&'static str> {
        let labels = match &self.origin {
            Origin::Fragment { .. } => return None,
            Origin::Scalar(position) => {
                let row = corpus.scalar_rows.get(*position)?;
                corpus.paths.labels(row.path, &corpus.arena)
            }
            Origin::Cell(cell) => {
                let (parent, nearest) = cell.place.beneath();
                corpus.paths.labels_beneath(parent, &nearest, &corpus.arena)
            }
        };
        units::key_unit(&lossy(corpus.arena.bytes(*labels.first()?)))
    }

    /// Label words tied to this value: JSON keys, short sibling labels, text around it.
    pub fn words(&self, corpus: &Corpus) -> &HashSet<String> {
        self.shared_words(corpus)
    }

    /// `words`, shared (an operand keeps its hit's words without copying them).
    pub fn shared_words(&self, corpus: &Corpus) -> &Arc<HashSet<String>> {
        self.words.get_or_init(|| {
            let arena = &corpus.arena;
            let ((path, nearest), siblings) = match &self.origin {
                Origin::Fragment { fragment, .. } => corpus
                    .fragments
                    .get(*fragment)
                    .map(|f| ((f.path, Vec::new()), f.siblings))
                    .unwrap_or_default(),
                Origin::Scalar(position) => corpus
                    .scalar_rows
                    .get(*position)
                    .map(|row| ((row.path, Vec::new()), row.siblings))
                    .unwrap_or_default(),
                Origin::Cell(cell) => (cell.place.beneath(), cell.record),
            };
            let keys: Vec<_> = corpus
                .paths
                .labels_beneath(path, &nearest, arena)
                .into_iter()
                .map(|span| lossy(arena.bytes(span)))
                .collect();
            let members = siblings
                .into_iter()
                .flat_map(|mapping| string_members(arena, mapping));
            let mut found = label_words::json_words(keys.iter().map(AsRef::as_ref), members);
            match &self.origin {
                Origin::Fragment {
                    fragment,
                    start,
                    end,
                    ..
                } => found.extend(window_words(fragment_text(corpus, *fragment), *start, *end)),
                Origin::Cell(cell) => {
                    if let Some(label) = &cell.label {
                        found.extend(label_words::words(label));
                    }
                }
                Origin::Scalar(_) => {}
            }
            Arc::new(found)
        })
    }

    pub fn citation(&self, corpus: &Corpus) -> Citation {
        let mut cell = None;
        let (source, path, start, end) = match &self.origin {
            Origin::Fragment {
                fragment, chars, ..
            } => {
                let at = corpus.fragments.get(*fragment);
                let path = at.and_then(|f| f.path);
                (
                    at.map(|f| f.source),
                    corpus.paths.render(path, &corpus.arena),
                    Some(chars.0),
                    Some(chars.1),
                )
            }
            Origin::Cell(origin) => {
                let (parent, nearest) = origin.place.beneath();
                cell = origin
                    .label
                    .as_ref()
                    .map(|label| label.clone().into_bytes());
                (
                    Some(origin.source),
                    corpus.paths.render_beneath(parent, &nearest, &corpus.arena),
                    origin.chars.map(|(start, _)| start),
                    origin.chars.map(|(_, end)| end),
                )
            }
            Origin::Scalar(position) => {
                let row = corpus.scalar_rows.get(*position);
                let within = row.and_then(|row| row.within);
                let offsets = within.map(|(text, start, end)| {
                    let text = corpus.arena.bytes(text);
                    let chars = |byte: usize| len_chars(text.get(..byte).unwrap_or(text));
                    (chars(start), chars(end))
                });
                (
                    row.map(|row| row.source),
                    corpus
                        .paths
                        .render(row.and_then(|row| row.path), &corpus.arena),
                    offsets.map(|(start, _)| start),
                    offsets.map(|(_, end)| end),
                )
            }
        };
        let source = source.and_then(|at| corpus.sources.get(at));
        Citation {
            evidence_index: source.and_then(|source| source.index),
            source_id: source.and_then(|source| source.source_id.clone()),
            source_kind: source.map(|source| source.kind.clone()).unwrap_or_default(),
            name: source.and_then(|source| source.name.clone()),
            path,
            start,
            end,
            text: self.text(corpus),
            cell,
        }
    }
}

/// `window_words` of `text[start..end]`, read on the stretch the windows can reach only (at most
/// four bytes a character), so a hit in a long text costs its window, not the text.
fn window_words(text: &[u8], start: usize, end: usize) -> HashSet<String> {
    let boundary = |at: usize| text.get(at).map_or(true, |byte| (*byte as i8) >= -0x40);
    let mut low = start.saturating_sub(4 * label_words::BEFORE_WINDOW);
    while low > 0 && !boundary(low) {
        low -= 1;
    }
    let mut high = (end + 4 * label_words::AFTER_WINDOW).min(text.len());
    while high < text.len() && !boundary(high) {
        high += 1;
    }
    // A lone surrogate reads as U+FFFD: no letter and no line break either way.
    let stretch = lossy(text.get(low..high).unwrap_or_default());
    let (start, end) = (start.saturating_sub(low), end.saturating_sub(low));
    label_words::window_words(&stretch, start, end, 0, stretch.len())
}

/// The str members of a record, as `siblings.get(key)` reads them (a mapping holds each key once).
pub fn string_members(arena: &Arena, mapping: NodeId) -> impl Iterator<Item = (&[u8], &[u8])> + '_ {
    arena
        .entries(mapping)
        .filter_map(|(key, value)| match (arena.node(key), arena.node(value)) {
            (Node::Str(key), Node::Str(value) | Node::StrSubclass(value)) => {
                Some((arena.bytes(key), arena.bytes(value)))
            }
            _ => None,
        })
}

fn fragment_text(corpus: &Corpus, fragment: usize) -> &[u8] {
    corpus
        .fragments
        .get(fragment)
        .map(|fragment| corpus.arena.bytes(fragment.text))
        .unwrap_or_default()
}

/// `RawScalar.text`: the literal if it was text, else its `repr`.
fn scalar_text(corpus: &Corpus, position: usize) -> Vec<u8> {
    let Some(row) = corpus.scalar_rows.get(position) else {
        return Vec::new();
    };
    match row.literal {
        Literal::Int(value) => value.to_string().into_bytes(),
        Literal::Float(value) => py_float_repr(value).into_bytes(),
        Literal::BigInt(span) | Literal::Text(span) => corpus.arena.bytes(span).to_vec(),
    }
}
