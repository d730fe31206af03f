//! The evidence walk (`scoring/corpus.py`): flattens evidence values into text fragments and raw
//! numeric scalars, in document order, on an explicit stack, within a byte budget.
//!
//! This is a port of `_Walker` step for step (the same frames, the same charges, the same order of
//! checks), because its observable results depend on them: what the budget cuts, which depth is
//! too deep, which reasons are noted. Comments name the Python they follow where it is not obvious.

use crate::json_text::{self, JsonError, Limits};
use crate::keyed::{keyed_numbers, parse_decimal, plain_number};
use crate::paths::{Key, PathId, Paths};
use crate::pytext::{at_most_chars, char_prefix, lstrip, may_hold_atom, strip, take_prefix};
use crate::value::{Arena, Node, NodeId, Span};
use crate::vocabulary::TruncationReason;
use std::borrow::Cow;
use std::collections::BTreeSet;

/// Containers nested deeper are not walked (reason `max_depth`).
pub const MAX_DEPTH: usize = 10_000;
/// How deeply a JSON document found in a string may nest, less the levels of the walk above it
/// (a few); a deeper one is read as text, with the reason `json_too_deep`. Fixed, so a turn
/// scores the same whatever the caller's stack (decisions.md, 2026-12-02).
pub const MAX_JSON_NESTING: i64 = 1000;
/// JSON documents inside strings are decoded this many levels deep.
const MAX_JSON_DECODES: u8 = 3;
const SHORT: usize = 64;
const NUMBER_COST: i64 = 8;
const CONTAINER_COST: i64 = 2;
const EMPTY_COST: i64 = 1;
const CURRENCY_KEYS: [&[u8]; 4] = [b"currency", b"currency_code", b"currencyCode", b"ccy"];

/// Where a piece of evidence came from (`corpus.Source`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// `None` for the user prompt.
    pub index: Option<usize>,
    pub source_id: Option<Vec<u8>>,
    pub kind: Vec<u8>,
    pub name: Option<Vec<u8>>,
}

/// One evidence item as converted by the binding.
#[derive(Clone, Debug)]
pub struct Item {
    pub source: Source,
    pub content: NodeId,
    /// `_is_empty(content)`: what `collect` asks of an item it has no budget left for.
    pub empty: bool,
}

/// What `collect` reads: the converted prompt (when given and not empty) and items.
#[derive(Debug, Default)]
pub struct Evidence {
    pub arena: Arena,
    pub prompt: Option<NodeId>,
    pub items: Vec<Item>,
}

#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub max_bytes: i64,
    pub every_string: bool,
    /// `sys.get_int_max_str_digits()`.
    pub max_int_digits: usize,
}

/// A string scanned for atoms: a text item, a string value, or a mapping key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fragment {
    pub source: usize,
    pub path: Option<PathId>,
    pub text: Span,
    /// The mapping holding the value (or the list holding it).
    pub siblings: Option<NodeId>,
}

/// A raw scalar's surface: the number as Python holds it, or the text it was read from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    Int(i64),
    /// An int beyond i64 (its decimal text).
    BigInt(Span),
    Float(f64),
    Text(Span),
}

/// One raw scalar (`ScalarRow`); its value is `Corpus::scalar_values` at the same position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScalarRow {
    pub source: usize,
    pub path: Option<PathId>,
    pub literal: Literal,
    pub currency: Option<[u8; 3]>,
    pub siblings: Option<NodeId>,
    /// For a scalar salvaged from unparseable JSON: the text it is in and its byte range there.
    pub within: Option<(Span, usize, usize)>,
}

/// A JSON list whose first item is a list or a dict (a table of rows or records).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArrayRef {
    pub source: usize,
    pub path: Option<PathId>,
    pub rows: NodeId,
    pub siblings: Option<NodeId>,
}

#[derive(Debug, Default)]
pub struct Corpus {
    pub arena: Arena,
    pub paths: Paths,
    /// `Fragment::source` and the rows' sources index this list.
    pub sources: Vec<Source>,
    pub fragments: Vec<Fragment>,
    pub scalar_values: Vec<f64>,
    pub scalar_rows: Vec<ScalarRow>,
    pub has_tool_evidence: bool,
    pub reasons: BTreeSet<TruncationReason>,
    pub arrays: Vec<ArrayRef>,
    /// The walk reached a `Node::Raises`: Python's `collect` raises there (the binding re-raises).
    pub raised: bool,
}

/// `corpus.collect`: walks the prompt (if any) and every item within `max_bytes`.
pub fn collect(evidence: Evidence, settings: Settings) -> Corpus {
    let Evidence {
        arena,
        prompt,
        items,
    } = evidence;
    let mut corpus = Corpus {
        arena,
        ..Corpus::default()
    };
    reserve(&mut corpus, settings.max_bytes);
    let mut walker = Walker {
        corpus,
        remaining: settings.max_bytes,
        settings,
        stack: Vec::new(),
        source: 0,
    };
    if let Some(prompt) = prompt {
        walker.corpus.sources.push(Source {
            index: None,
            source_id: None,
            kind: b"user_prompt".to_vec(),
            name: None,
        });
        walker.walk(prompt, 0);
    }
    let mut has_tool_evidence = false;
    for item in items {
        if walker.corpus.raised {
            break;
        }
        let source = walker.corpus.sources.len();
        has_tool_evidence = has_tool_evidence || item.source.kind != b"user_prompt";
        walker.corpus.sources.push(item.source);
        if walker.remaining > 0 {
            walker.walk(item.content, source);
        } else if !item.empty {
            walker.reason(TruncationReason::MaxEvidenceBytes);
        }
    }
    walker.corpus.has_tool_evidence = has_tool_evidence;
    walker.corpus
}

/// A container being walked (`_Frame`): its node and the next child to read, the siblings and
/// currency its children see, its path, its JSON decode level.
#[derive(Clone, Copy, Debug)]
struct Frame {
    mapping: bool,
    node: NodeId,
    next: usize,
    siblings: Option<NodeId>,
    path: Option<PathId>,
    currency: Option<[u8; 3]>,
    decodes: u8,
}

struct Walker {
    corpus: Corpus,
    remaining: i64,
    settings: Settings,
    stack: Vec<Frame>,
    source: usize,
}

/// `_classify_short`: bytes charged, may hold an atom, plain-number value, may be a document.
struct Short {
    size: i64,
    holds_atom: bool,
    number: Option<(f64, usize, usize)>,
    json_like: bool,
}

fn classify_short(text: &[u8]) -> Short {
    let (start, end) = strip(text);
    let stripped = text.get(start..end).unwrap_or_default();
    let number = (plain_number(stripped, 0) == Some(stripped.len()))
        .then(|| parse_decimal(Some(stripped)))
        .flatten()
        .map(|value| (value, start, end));
    Short {
        size: (text.len() as i64).max(EMPTY_COST),
        holds_atom: may_hold_atom(text),
        number,
        json_like: matches!(stripped.first(), Some(b'{' | b'[')),
    }
}

fn sub_span(span: Span, start: usize, end: usize) -> Span {
    Span {
        start: span.start + start as u32,
        len: (end - start) as u32,
    }
}

impl Walker {
    fn reason(&mut self, reason: TruncationReason) {
        self.corpus.reasons.insert(reason);
    }

    fn walk(&mut self, content: NodeId, source: usize) {
        self.source = source;
        self.value(content, None, None, None, 0, 1);
        while let Some(top) = self.stack.len().checked_sub(1) {
            let Some(frame) = self.stack.get(top).copied() else {
                break;
            };
            let mut next = frame.next;
            let finished = if frame.mapping {
                self.mapping(
                    frame.node,
                    &mut next,
                    frame.path,
                    frame.currency,
                    frame.decodes,
                    1,
                )
            } else {
                self.sequence(&frame, &mut next, 1)
            };
            if let Some(frame) = self.stack.get_mut(top) {
                frame.next = next;
            }
            if finished && !self.stack.is_empty() {
                self.stack.pop();
            }
        }
    }

    /// The byte budget is spent and more content was waiting: stop the whole walk.
    fn cut(&mut self) {
        self.reason(TruncationReason::MaxEvidenceBytes);
        self.stack.clear();
    }

    /// `_take`: charges the text, returns the part that fits.
    fn take(&mut self, span: Span) -> Span {
        let size = i64::from(span.len);
        if size <= self.remaining {
            self.remaining -= size;
            return span;
        }
        self.reason(TruncationReason::MaxEvidenceBytes);
        let keep = usize::try_from(self.remaining).unwrap_or(0);
        self.remaining = 0;
        let arena = &mut self.corpus.arena;
        let kept = match take_prefix(arena.bytes(span), keep) {
            Cow::Borrowed(prefix) => Ok(sub_span(span, 0, prefix.len())),
            Cow::Owned(text) => arena.push_text(&text),
        };
        kept.unwrap_or_default()
    }

    fn fragment(&mut self, path: Option<PathId>, text: Span, siblings: Option<NodeId>) {
        self.corpus.fragments.push(Fragment {
            source: self.source,
            path,
            text,
            siblings,
        });
    }

    fn scalar(&mut self, value: f64, row: ScalarRow) {
        self.corpus.scalar_values.push(value);
        self.corpus.scalar_rows.push(row);
    }

    fn row(
        &self,
        path: Option<PathId>,
        literal: Literal,
        currency: Option<[u8; 3]>,
        siblings: Option<NodeId>,
    ) -> ScalarRow {
        ScalarRow {
            source: self.source,
            path,
            literal,
            currency,
            siblings,
            within: None,
        }
    }

    fn child_path(&mut self, parent: Option<PathId>, key: Key) -> Option<PathId> {
        self.corpus.paths.push(parent, key)
    }

    /// `_value`: reads one value; a container is pushed on the stack. `depth` counts the walk's
    /// levels above (they count against `MAX_JSON_NESTING`).
    fn value(
        &mut self,
        node: NodeId,
        path: Option<PathId>,
        siblings: Option<NodeId>,
        currency: Option<[u8; 3]>,
        decodes: u8,
        depth: i64,
    ) {
        if self.remaining <= 0 {
            self.cut();
            return;
        }
        match self.corpus.arena.node(node) {
            Node::Str(span) | Node::StrSubclass(span) => {
                self.string(span, path, siblings, currency, decodes, depth + 1)
            }
            Node::Int(_) | Node::BigInt(_) | Node::HugeInt | Node::Float(_) => {
                self.number(node, path, siblings, currency)
            }
            Node::Null | Node::Bool(_) => self.remaining -= EMPTY_COST,
            Node::List { .. } | Node::Map { .. } | Node::Unread { .. } => {
                self.container(node, path, siblings, currency, decodes)
            }
            Node::Number { .. } => self.number(node, path, siblings, currency),
            Node::Text(span) => {
                self.text(span, path, siblings);
            }
            Node::Opaque => {}
            Node::Raises => {
                self.corpus.raised = true;
                self.stack.clear();
            }
            Node::Cut { .. } => self.cut(), // never reached with budget left (see the binding)
        }
    }

    fn container(
        &mut self,
        node: NodeId,
        path: Option<PathId>,
        siblings: Option<NodeId>,
        currency: Option<[u8; 3]>,
        decodes: u8,
    ) {
        let arena = &self.corpus.arena;
        let kind = arena.node(node);
        if self.stack.len() >= MAX_DEPTH || matches!(kind, Node::Unread { .. }) {
            self.reason(TruncationReason::MaxDepth);
            return;
        }
        self.remaining = if self.remaining > CONTAINER_COST {
            self.remaining - CONTAINER_COST
        } else {
            0
        };
        let frame = match kind {
            Node::Map { .. } => Frame {
                mapping: true,
                node,
                next: 0,
                siblings: Some(node),
                path,
                currency: currency_of(arena, node),
                decodes,
            },
            Node::List { links, .. } => {
                let first = arena
                    .children(links)
                    .first()
                    .map(|child| arena.node(*child));
                if first.is_some_and(|first| first.is_exact_container()) {
                    self.corpus.arrays.push(ArrayRef {
                        source: self.source,
                        path,
                        rows: node,
                        siblings,
                    });
                }
                Frame {
                    mapping: false,
                    node,
                    next: 0,
                    siblings,
                    path,
                    currency,
                    decodes,
                }
            }
            _ => return,
        };
        self.stack.push(frame);
    }

    /// `_sequence`: reads a list's items until one holds a container (pushed: false) or none is
    /// left (true).
    fn sequence(&mut self, frame: &Frame, next: &mut usize, depth: i64) -> bool {
        let stack_depth = self.stack.len();
        let links = match self.corpus.arena.node(frame.node) {
            Node::List { links, .. } => links,
            _ => return true,
        };
        while let Some(&child) = self.corpus.arena.children(links).get(*next) {
            let position = *next;
            *next += 1;
            let is_dict = matches!(self.corpus.arena.node(child), Node::Map { exact: true, .. });
            if is_dict && stack_depth < MAX_DEPTH {
                // A record of a list of records is read here, its frame pushed only if it holds a
                // container in turn (under that container's frame).
                if self.remaining <= 0 {
                    self.cut();
                    return true;
                }
                self.remaining -= self.remaining.min(CONTAINER_COST);
                let own = currency_of(&self.corpus.arena, child);
                let child_path = self.child_path(frame.path, Key::Index(index(position)));
                let mut inner = 0;
                if !self.mapping(child, &mut inner, child_path, own, frame.decodes, depth + 1) {
                    let under = self.stack.len().saturating_sub(1);
                    self.stack.insert(
                        under,
                        Frame {
                            mapping: true,
                            node: child,
                            next: inner,
                            siblings: Some(child),
                            path: child_path,
                            currency: own,
                            decodes: frame.decodes,
                        },
                    );
                    return false;
                }
                continue;
            }
            let child_path = self.child_path(frame.path, Key::Index(index(position)));
            self.value(
                child,
                child_path,
                frame.siblings,
                frame.currency,
                frame.decodes,
                depth + 1,
            );
            if self.stack.len() != stack_depth {
                return self.stack.is_empty(); // a container was pushed, or the walk was cut
            }
        }
        true
    }

    /// `_mapping`: reads keys and values until a value is a container (pushed: false) or none is
    /// left (true).
    fn mapping(
        &mut self,
        node: NodeId,
        next: &mut usize,
        path: Option<PathId>,
        currency: Option<[u8; 3]>,
        decodes: u8,
        depth: i64,
    ) -> bool {
        let stack_depth = self.stack.len();
        let links = match self.corpus.arena.node(node) {
            Node::Map { links, .. } => links,
            _ => return true,
        };
        let mapping = Some(node);
        loop {
            let children = self.corpus.arena.children(links);
            let (Some(&key), Some(&child)) = (children.get(2 * *next), children.get(2 * *next + 1))
            else {
                return true;
            };
            *next += 1;
            let key_span = match self.corpus.arena.node(key) {
                Node::Str(span) | Node::Text(span) => span,
                _ => Span::default(),
            };
            let child_path = self.child_path(path, Key::Text(key_span));
            let key_text = self.corpus.arena.bytes(key_span);
            // A short key is charged as `_classify_short` does (only its size and atoms matter).
            let size = (key_text.len() as i64).max(EMPTY_COST);
            if size < self.remaining && at_most_chars(key_text, SHORT) {
                self.remaining -= size;
                if self.settings.every_string || may_hold_atom(key_text) {
                    self.fragment(child_path, key_span, mapping);
                }
            } else {
                self.text(key_span, child_path, mapping);
                if self.remaining <= 0 {
                    self.cut();
                    return true;
                }
            }
            match self.corpus.arena.node(child) {
                Node::Float(number) => {
                    if number.is_finite() {
                        self.scalar_number(
                            number,
                            Literal::Float(number),
                            child_path,
                            currency,
                            mapping,
                        );
                    }
                }
                Node::Int(number) => self.scalar_number(
                    number as f64,
                    Literal::Int(number),
                    child_path,
                    currency,
                    mapping,
                ),
                Node::BigInt(span) => {
                    if let Some(number) = parse_decimal(Some(self.corpus.arena.bytes(span))) {
                        self.scalar_number(
                            number,
                            Literal::BigInt(span),
                            child_path,
                            currency,
                            mapping,
                        );
                    }
                }
                Node::HugeInt | Node::Null | Node::Bool(_) => {}
                Node::Str(span) => {
                    self.string(span, child_path, mapping, currency, decodes, depth + 1);
                    if self.stack.len() != stack_depth {
                        return self.stack.is_empty(); // a document was pushed, or the walk was cut
                    }
                }
                _ => {
                    self.value(child, child_path, mapping, currency, decodes, depth + 1);
                    if self.stack.len() != stack_depth {
                        return self.stack.is_empty(); // a container was pushed, or the walk was cut
                    }
                }
            }
        }
    }

    /// A mapping's int or float value, read inline by `_mapping`.
    fn scalar_number(
        &mut self,
        value: f64,
        literal: Literal,
        path: Option<PathId>,
        currency: Option<[u8; 3]>,
        siblings: Option<NodeId>,
    ) {
        let row = self.row(path, literal, currency, siblings);
        self.scalar(value, row);
        self.remaining = if self.remaining > NUMBER_COST {
            self.remaining - NUMBER_COST
        } else {
            0
        };
    }

    /// `_number`: an int or float (skipped when it has no finite float value), or another number
    /// type (its literal is its `str()`).
    fn number(
        &mut self,
        node: NodeId,
        path: Option<PathId>,
        siblings: Option<NodeId>,
        currency: Option<[u8; 3]>,
    ) {
        let arena = &self.corpus.arena;
        let (value, literal) = match arena.node(node) {
            Node::Float(value) if value.is_finite() => (value, Literal::Float(value)),
            Node::Int(value) => (value as f64, Literal::Int(value)),
            Node::BigInt(span) => match parse_decimal(Some(arena.bytes(span))) {
                Some(value) => (value, Literal::BigInt(span)),
                None => return,
            },
            Node::Number { value, literal } => (value, Literal::Text(literal)),
            _ => return,
        };
        self.remaining -= self.remaining.min(NUMBER_COST);
        let row = self.row(path, literal, currency, siblings);
        self.scalar(value, row);
    }

    /// `_string`.
    fn string(
        &mut self,
        span: Span,
        path: Option<PathId>,
        siblings: Option<NodeId>,
        currency: Option<[u8; 3]>,
        decodes: u8,
        depth: i64,
    ) {
        let text = self.corpus.arena.bytes(span);
        let short = at_most_chars(text, SHORT);
        if short {
            // Short values (codes, dates, amounts, labels): classified at a glance.
            let known = classify_short(text);
            if known.size < self.remaining && !known.json_like {
                self.remaining -= known.size;
                if let Some((number, start, end)) = known.number {
                    let literal = Literal::Text(sub_span(span, start, end));
                    let row = self.row(path, literal, currency, siblings);
                    self.scalar(number, row);
                } else if known.holds_atom || self.settings.every_string {
                    self.fragment(path, span, siblings);
                }
                return;
            }
        }
        if json_looking(text) {
            if self.document(span, path, siblings, currency, decodes, depth + 1) {
                return;
            }
            let kept = self.text(span, path, siblings);
            self.keyed_numbers(kept, path);
            return;
        }
        if short {
            let (start, end) = strip(text);
            let stripped = text.get(start..end).unwrap_or_default();
            if plain_number(stripped, 0) == Some(stripped.len()) {
                if let Some(number) = parse_decimal(Some(stripped)) {
                    let stripped = sub_span(span, start, end);
                    self.take(stripped); // the literal is the whole of it, even when cut
                    let row = self.row(path, Literal::Text(stripped), currency, siblings);
                    self.scalar(number, row);
                    return;
                }
            }
        }
        self.text(span, path, siblings);
    }

    /// `_document`: parses a JSON-looking string and pushes its container; false (reason noted)
    /// to read it as text.
    fn document(
        &mut self,
        span: Span,
        path: Option<PathId>,
        siblings: Option<NodeId>,
        currency: Option<[u8; 3]>,
        decodes: u8,
        depth: i64,
    ) -> bool {
        if decodes >= MAX_JSON_DECODES {
            self.reason(TruncationReason::JsonTooDeep);
            return false;
        }
        if i64::from(span.len) > self.remaining {
            return false; // read as text: the byte cap cuts it there (and names the reason)
        }
        let arena = &mut self.corpus.arena;
        let mark = (arena.nodes.len(), arena.links.len(), arena.text.len());
        let limits = Limits {
            max_nesting: MAX_JSON_NESTING - depth,
            max_int_digits: self.settings.max_int_digits,
        };
        match json_text::parse(arena, span, limits) {
            Ok(root) => {
                self.value(root, path, siblings, currency, decodes + 1, depth + 1);
                true
            }
            Err(error) => {
                // What a failed parse appended is garbage.
                arena.nodes.truncate(mark.0);
                arena.links.truncate(mark.1);
                arena.text.truncate(mark.2);
                self.reason(match error {
                    JsonError::TooDeep => TruncationReason::JsonTooDeep,
                    JsonError::Invalid | JsonError::TooLarge => TruncationReason::UnparseableJson,
                });
                false
            }
        }
    }

    /// `_text`: charges the text, keeps it as a fragment if it may hold an atom; returns what was
    /// kept.
    fn text(&mut self, span: Span, path: Option<PathId>, siblings: Option<NodeId>) -> Span {
        let kept = self.take(span);
        if self.settings.every_string || may_hold_atom(self.corpus.arena.bytes(kept)) {
            self.fragment(path, kept, siblings);
        }
        kept
    }

    /// `_keyed_numbers`: raw scalars salvaged from JSON that does not parse.
    fn keyed_numbers(&mut self, kept: Span, path: Option<PathId>) {
        for keyed in keyed_numbers(self.corpus.arena.bytes(kept)) {
            let somewhere = self.child_path(path, Key::Somewhere);
            let key = sub_span(kept, keyed.key.0, keyed.key.1);
            let key_path = self.child_path(somewhere, Key::Text(key));
            let (start, end) = keyed.number;
            let mut row = self.row(
                key_path,
                Literal::Text(sub_span(kept, start, end)),
                None,
                None,
            );
            row.within = Some((kept, start, end));
            self.scalar(keyed.value, row);
        }
    }
}

/// Sizes the buffers the walk fills once, from what the converted evidence holds and the byte
/// budget lets the walk read: grown a document at a time they were copied again at each doubling.
fn reserve(corpus: &mut Corpus, max_bytes: i64) {
    let budget = usize::try_from(max_bytes).unwrap_or(0);
    let arena = &mut corpus.arena;
    let (mut children, mut numbers, mut strings, mut documents) = (0, 0, 0, 0_usize);
    for node in &arena.nodes {
        match node {
            Node::Map { links, .. } => children += links.len as usize / 2,
            Node::List { links, .. } => children += links.len as usize,
            Node::Int(_) | Node::BigInt(_) | Node::Float(_) | Node::Number { .. } => numbers += 1,
            Node::Str(span) | Node::StrSubclass(span) => {
                strings += 1;
                if span.len as usize <= budget && json_looking(arena.bytes(*span)) {
                    documents += span.len as usize;
                }
            }
            Node::Text(_) => strings += 1,
            _ => {}
        }
    }
    // A number-dense document holds about a node and link per 8 bytes, a path per 12, a number
    // per 16 and a fragment per 32 (no more: what is reserved and not filled still costs memory);
    // a child costs the walk a byte at least, a number 8.
    let parsed = documents.min(budget);
    arena.nodes.reserve(parsed / 8);
    arena.links.reserve(parsed / 8);
    corpus.paths.reserve(children.min(budget) + parsed / 12);
    let numbers = numbers.min(budget / NUMBER_COST as usize) + parsed / 16;
    corpus.scalar_rows.reserve(numbers);
    corpus.scalar_values.reserve(numbers);
    corpus.fragments.reserve(strings.min(budget) + parsed / 32);
}

/// Whether a string value starts like a JSON document (`{` or `[` after blanks, within its first
/// `SHORT` characters): the walk tries to parse it.
fn json_looking(text: &[u8]) -> bool {
    let head = text.get(..char_prefix(text, SHORT)).unwrap_or(text);
    matches!(head.get(lstrip(head)), Some(b'{' | b'['))
}

fn index(position: usize) -> u32 {
    u32::try_from(position).unwrap_or(u32::MAX)
}

/// `sibling_currency` (when a currency key is present): the first currency key whose value is a
/// three-letter ASCII code, upper-cased.
pub fn currency_of(arena: &Arena, mapping: NodeId) -> Option<[u8; 3]> {
    // Most records name no currency: one pass over their keys rules it out.
    let named = arena.entries(mapping).any(|(key, _)| {
        matches!(arena.node(key), Node::Str(span) if CURRENCY_KEYS.contains(&arena.bytes(span)))
    });
    if !named {
        return None;
    }
    CURRENCY_KEYS.iter().find_map(|wanted| {
        let (_, value) = arena.entries(mapping).find(
            |(key, _)| matches!(arena.node(*key), Node::Str(span) if arena.bytes(span) == *wanted),
        )?;
        let (Node::Str(span) | Node::StrSubclass(span)) = arena.node(value) else {
            return None;
        };
        match arena.bytes(span) {
            [a, b, c] if [a, b, c].iter().all(|byte| byte.is_ascii_alphabetic()) => Some([
                a.to_ascii_uppercase(),
                b.to_ascii_uppercase(),
                c.to_ascii_uppercase(),
            ]),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: Settings = Settings {
        max_bytes: 262_144,
        every_string: false,
        max_int_digits: 4300,
    };

    /// Evidence of items given as JSON values (parsed into the arena, as the binding would convert
    /// the same Python values).
    fn evidence(items: &[&str]) -> Evidence {
        let mut arena = Arena::default();
        let mut converted = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let span = arena.push_text(item.as_bytes()).unwrap_or_default();
            let limits = Limits {
                max_nesting: i64::MAX,
                max_int_digits: 0,
            };
            let content = json_text::parse(&mut arena, span, limits).unwrap_or_default();
            let source = Source {
                index: Some(index),
                source_id: None,
                kind: b"tool_result".to_vec(),
                name: None,
            };
            converted.push(Item {
                source,
                content,
                empty: false,
            });
        }
        Evidence {
            arena,
            prompt: None,
            items: converted,
        }
    }

    fn walk(items: &[&str], max_bytes: i64) -> Corpus {
        collect(
            evidence(items),
            Settings {
                max_bytes,
                ..SETTINGS
            },
        )
    }

    fn texts(corpus: &Corpus) -> Vec<String> {
        let arena = &corpus.arena;
        corpus
            .fragments
            .iter()
            .map(|fragment| String::from_utf8_lossy(arena.bytes(fragment.text)).into_owned())
            .collect()
    }

    fn reasons(corpus: &Corpus) -> Vec<&'static str> {
        corpus
            .reasons
            .iter()
            .map(|reason| reason.as_str())
            .collect()
    }

    #[test]
    fn reads_documents_and_scalars_in_order() {
        let corpus = walk(
            &[
                r#"{"invoice": {"total": 1243500.5, "currency": "usd", "lines": "[1, \"2.50\"]", "ref": "INV-7"}}"#,
            ],
            SETTINGS.max_bytes,
        );
        assert_eq!(corpus.scalar_values, vec![1243500.5, 1.0, 2.5]);
        assert_eq!(corpus.scalar_rows[0].currency, Some(*b"USD"));
        assert_eq!(texts(&corpus), vec!["INV-7"]);
        let path = corpus
            .paths
            .render(corpus.scalar_rows[2].path, &corpus.arena);
        assert_eq!(path.as_deref(), Some(&b"$.invoice.lines[1]"[..]));
        assert!(corpus.reasons.is_empty() && corpus.has_tool_evidence);
    }

    #[test]
    fn the_byte_cap_cuts_the_walk() {
        let nulls = format!("[{}null]", "null,".repeat(10_000));
        let corpus = walk(&[&nulls, "[\"after 1\"]"], 100);
        assert_eq!(reasons(&corpus), vec!["max_evidence_bytes"]);
        assert!(corpus.fragments.is_empty());
        // A string crossing the cap is cut at it.
        let corpus = walk(
            &["\"revenue 12345 and more text after it, well past the cap\""],
            11,
        );
        assert_eq!(texts(&corpus), vec!["revenue 123"]);
        assert_eq!(reasons(&corpus), vec!["max_evidence_bytes"]);
    }

    #[test]
    fn deep_nesting_stops_at_max_depth() {
        let levels = MAX_DEPTH + 5;
        let deep = format!("{}\"12\"{}", "[".repeat(levels), "]".repeat(levels));
        let corpus = walk(&[&deep], i64::MAX);
        assert_eq!(reasons(&corpus), vec!["max_depth"]);
        assert!(corpus.scalar_values.is_empty());
    }

    #[test]
    fn a_json_document_in_a_string_nests_at_most_max_json_nesting_deep() {
        let document = |levels: i64| {
            let levels = usize::try_from(levels).unwrap_or_default();
            let text = format!("{}12{}", "[".repeat(levels), "]".repeat(levels));
            let mut quoted = Vec::new();
            crate::pytext::push_json_string(&mut quoted, text.as_bytes());
            String::from_utf8(quoted).unwrap_or_default()
        };
        // The document sits in a string of the item, a few walk levels down.
        let corpus = walk(&[&document(MAX_JSON_NESTING - 8)], i64::MAX);
        assert_eq!(reasons(&corpus), Vec::<&str>::new());
        assert_eq!(corpus.scalar_values, vec![12.0]);
        let corpus = walk(&[&document(MAX_JSON_NESTING)], i64::MAX);
        assert_eq!(reasons(&corpus), vec!["json_too_deep"]);
    }

    #[test]
    fn json_in_strings_is_decoded_three_levels_deep() {
        let mut text = r#"{"total": 12}"#.to_owned();
        for _ in 0..3 {
            let mut quoted = Vec::new();
            crate::pytext::push_json_string(&mut quoted, text.as_bytes());
            text = format!("[{}]", String::from_utf8(quoted).unwrap_or_default());
        }
        let corpus = walk(&[&text], i64::MAX);
        assert!(corpus.reasons.is_empty());
        assert_eq!(corpus.scalar_values, vec![12.0]);
        let mut quoted = Vec::new();
        crate::pytext::push_json_string(&mut quoted, text.as_bytes());
        let corpus = walk(&[&String::from_utf8(quoted).unwrap_or_default()], i64::MAX);
        assert_eq!(reasons(&corpus), vec!["json_too_deep"]);
    }

    #[test]
    fn broken_documents_are_read_as_text_and_salvaged() {
        let corpus = walk(
            &[r#""{\"total\": 1243500.00, \"tax\": \"12.30\", \"cut""#],
            i64::MAX,
        );
        assert_eq!(reasons(&corpus), vec!["unparseable_json"]);
        assert_eq!(corpus.scalar_values, vec![1243500.0, 12.3]);
        let path = corpus
            .paths
            .render(corpus.scalar_rows[1].path, &corpus.arena);
        assert_eq!(path.as_deref(), Some(&b"$..tax"[..]));
        assert!(corpus.scalar_rows[1].within.is_some());
    }
}
