//! Operand families (`scoring/operand_families.py`): the evidence figures a derivation may
//! combine, grouped by how they relate. A family is the numbers of one JSON object or array (a
//! row), the values under one key across the records of one list (a column), or the money and
//! number atoms of one sentence of text. Identifiers, years, dates, minor units and percents never
//! join. Built in one pass over the evidence figures; each step is paid for before it starts and
//! the build stops at the first the budget cannot cover (`BudgetSpent`), as Python raises.

use std::sync::Arc;

use crate::budget::{BudgetSpent, WorkBudget, ATOM, CANDIDATE};
use crate::corpus::Corpus;
use crate::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet};
use crate::hit::{string_members, Hit, Origin};
use crate::index::EvidenceIndex;
use crate::label_words::{json_words, words};
use crate::paths::{Key, PathId};
use crate::pytext::lossy;
use crate::quantity_names::names_no_quantity;
use crate::sentences::sentence_spans;
use crate::value::NodeId;
use crate::vocabulary::AtomKind;

/// String keys above a family read for its label words (`$.invoices[3].total`: "invoices").
const CONTAINER_KEYS: usize = 3;

/// What an operand is: the raw scalar at this position of `Corpus::scalar_rows`, or a text atom.
#[derive(Debug, Clone)]
pub enum Ref {
    Scalar(usize),
    Text(Arc<Hit>),
}

/// A column's key, compared as Python compares `str | int | _Somewhere` keys (a text key by its
/// bytes in the evidence arena).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum ColumnKey<'a> {
    Index(u32),
    Text(&'a [u8]),
    Somewhere,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Structural<'a> {
    Row(usize, Option<PathId>),
    Column(usize, Option<PathId>, ColumnKey<'a>),
}

/// A structural family in first-seen order: its key, members, container path and siblings.
type Placed<'a> = (Structural<'a>, Vec<usize>, Option<PathId>, Option<NodeId>);

/// Where an operand came from (Python's `id(path)` of a raw scalar, `id(hit)` of a text atom).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum OriginKey {
    Path(PathId),
    Hit(usize),
}

/// No operand at this path in `Operands::by_path`.
const NO_OPERAND: u32 = u32::MAX;

/// Every evidence figure that may be an operand, columnar: `values[i]` is operand i's value.
#[derive(Debug, Default)]
pub struct Operands {
    pub values: Vec<f64>,
    pub currencies: Vec<Option<String>>,
    pub units: Vec<Option<&'static str>>,
    pub kinds: Vec<Arc<str>>,
    pub refs: Vec<Ref>,
    pub key_words: Vec<Arc<HashSet<String>>>,
    pub families: Vec<Vec<usize>>,
    pub by_word: HashMap<String, Vec<usize>>,
    by_container: HashMap<NodeId, Vec<usize>>,
    /// A raw scalar's operand by its path (paths are numbered densely: a table, not a hash).
    by_path: Vec<u32>,
    by_hit: HashMap<usize, usize>,
    pub by_key_word: HashMap<String, Vec<usize>>,
    /// Family f holds only JSON numbers without a currency.
    pub plain: Vec<bool>,
    /// Each JSON key name met, once: its position in `names`.
    name_slots: HashMap<Vec<u8>, usize>,
    names: Vec<Name>,
}

/// What a JSON key name gives the figures under it, worked out once per name.
#[derive(Debug)]
struct Name {
    /// It names no quantity (`"year"`, `"id"`): its figures are no operands.
    excluded: bool,
    words: Arc<HashSet<String>>,
    /// The raw scalars under it, listed under its words in `by_key_word` once all are known.
    members: Vec<usize>,
}

/// The label words of the key names above a family (positions in `Operands::names`) and of its
/// record's short labels.
type ContainerWords = (Vec<usize>, HashSet<String>);

fn arc_key(hit: &Arc<Hit>) -> usize {
    Arc::as_ptr(hit) as usize
}

impl Operands {
    /// Builds the families of `index`'s evidence, paying `budget` step by step.
    pub fn build(index: &EvidenceIndex, budget: &mut WorkBudget) -> Result<Operands, BudgetSpent> {
        let mut operands = Operands::default();
        operands.build_from(index, budget)?;
        Ok(operands)
    }

    /// The hit of an operand: its text atom, or a `raw` hit of its scalar.
    pub fn hit(&self, operand: usize) -> Option<Arc<Hit>> {
        match self.refs.get(operand)? {
            Ref::Text(hit) => Some(Arc::clone(hit)),
            Ref::Scalar(position) => Some(Hit::new(
                Arc::from("raw"),
                Origin::Scalar(*position),
                None,
                self.values.get(operand).copied().unwrap_or(0.0),
                0.0,
            )),
        }
    }

    fn build_from(
        &mut self,
        index: &EvidenceIndex,
        budget: &mut WorkBudget,
    ) -> Result<(), BudgetSpent> {
        let corpus = index.corpus();
        let mut structural: HashMap<Structural, usize> = HashMap::default();
        // In first-seen order: members, the container's path and siblings.
        let mut placed: Vec<Placed> = Vec::new();
        let count = i64::try_from(corpus.scalar_values.len()).unwrap_or(i64::MAX);
        budget.pay(CANDIDATE.saturating_mul(count))?;
        let raw: Arc<str> = Arc::from("raw");
        let unnamed: Arc<HashSet<String>> = Arc::default();
        let mut last_row = None;
        for (position, row) in corpus.scalar_rows.iter().enumerate() {
            let Some(path) = row.path else { continue };
            let slot = name_of(corpus, path).map(|name| self.name_slot(name));
            let name = slot.and_then(|slot| self.names.get(slot));
            if name.is_some_and(|name| name.excluded) {
                continue;
            }
            let key = name.map_or_else(|| Arc::clone(&unnamed), |name| Arc::clone(&name.words));
            let value = corpus.scalar_values.get(position).copied().unwrap_or(0.0);
            let currency = row
                .currency
                .map(|code| String::from_utf8_lossy(&code).into_owned());
            let operand = self.push(
                value,
                currency,
                None,
                Arc::clone(&raw),
                Ref::Scalar(position),
                key,
            );
            if let Some(name) = slot.and_then(|slot| self.names.get_mut(slot)) {
                name.members.push(operand);
            }
            self.set_path_operand(path, operand);
            place(
                corpus,
                (&mut structural, &mut last_row),
                &mut placed,
                row.source,
                path,
                row.siblings,
                operand,
            );
        }
        for name in &self.names {
            for word in name.words.iter() {
                match self.by_key_word.get_mut(word.as_str()) {
                    Some(members) => members.extend_from_slice(&name.members),
                    None => {
                        self.by_key_word.insert(word.clone(), name.members.clone());
                    }
                }
            }
        }
        let text_hits: Vec<Arc<Hit>> = [AtomKind::Money, AtomKind::Number]
            .iter()
            .flat_map(|kind| index.numeric_hits(*kind).iter().cloned())
            .collect();
        let count = i64::try_from(text_hits.len()).unwrap_or(i64::MAX);
        budget.pay((CANDIDATE + ATOM).saturating_mul(count))?;
        let mut fragment_slot: HashMap<usize, usize> = HashMap::default();
        let mut by_fragment: Vec<(usize, Vec<usize>)> = Vec::new();
        for hit in text_hits {
            let Origin::Fragment { fragment, .. } = hit.origin else {
                continue;
            };
            let key = Arc::clone(hit.shared_words(corpus));
            let operand = self.push(
                hit.number,
                hit.currency(corpus),
                hit.unit(),
                Arc::clone(&hit.kind),
                Ref::Text(Arc::clone(&hit)),
                key,
            );
            self.list_key_words(operand);
            self.by_hit.insert(arc_key(&hit), operand);
            let slot = *fragment_slot.entry(fragment).or_insert_with(|| {
                by_fragment.push((fragment, Vec::new()));
                by_fragment.len() - 1
            });
            if let Some((_, members)) = by_fragment.get_mut(slot) {
                members.push(operand);
            }
            if let Some(origin) = corpus.fragments.get(fragment) {
                if let Some(path) = origin.path {
                    place(
                        corpus,
                        (&mut structural, &mut last_row),
                        &mut placed,
                        origin.source,
                        path,
                        origin.siblings,
                        operand,
                    );
                }
            }
        }
        for (key, members, path, siblings) in placed {
            if let (Some(siblings), Structural::Row(..)) = (siblings, &key) {
                self.by_container
                    .entry(siblings)
                    .or_default()
                    .push(self.families.len());
            }
            let container = self.container_words(corpus, path, siblings);
            self.family(budget, members, container)?;
        }
        for (fragment, members) in by_fragment {
            self.sentences(corpus, budget, fragment, members)?;
        }
        Ok(())
    }

    /// A new operand, its key words not yet listed in `by_key_word`.
    fn push(
        &mut self,
        value: f64,
        currency: Option<String>,
        unit: Option<&'static str>,
        kind: Arc<str>,
        reference: Ref,
        key: Arc<HashSet<String>>,
    ) -> usize {
        self.values.push(value);
        self.currencies.push(currency);
        self.units.push(unit);
        self.kinds.push(kind);
        self.refs.push(reference);
        self.key_words.push(key);
        self.values.len() - 1
    }

    fn set_path_operand(&mut self, path: PathId, operand: usize) {
        let (Ok(at), Ok(operand)) = (usize::try_from(path), u32::try_from(operand)) else {
            return;
        };
        if at >= self.by_path.len() {
            self.by_path.resize(at + 1, NO_OPERAND);
        }
        if let Some(slot) = self.by_path.get_mut(at) {
            *slot = operand;
        }
    }

    fn operand_of(&self, key: OriginKey) -> Option<usize> {
        match key {
            OriginKey::Path(path) => usize::try_from(path)
                .ok()
                .and_then(|at| self.by_path.get(at))
                .filter(|operand| **operand != NO_OPERAND)
                .and_then(|operand| usize::try_from(*operand).ok()),
            OriginKey::Hit(hit) => self.by_hit.get(&hit).copied(),
        }
    }

    /// Lists `operand` under each of its key words.
    fn list_key_words(&mut self, operand: usize) {
        let Some(key) = self.key_words.get(operand) else {
            return;
        };
        for word in key.iter() {
            match self.by_key_word.get_mut(word.as_str()) {
                Some(members) => members.push(operand),
                None => {
                    self.by_key_word.insert(word.clone(), vec![operand]);
                }
            }
        }
    }

    /// The text atoms of one fragment, one family per sentence (for two or more).
    fn sentences(
        &mut self,
        corpus: &Corpus,
        budget: &mut WorkBudget,
        fragment: usize,
        members: Vec<usize>,
    ) -> Result<(), BudgetSpent> {
        if members.len() < 2 {
            return Ok(());
        }
        let text = corpus
            .fragments
            .get(fragment)
            .map(|f| lossy(corpus.arena.bytes(f.text)).into_owned())
            .unwrap_or_default();
        let spans = sentence_spans(&text, &[]);
        let mut sorted: Vec<(usize, usize)> = members
            .iter()
            .map(|member| (self.start(*member), *member))
            .collect();
        sorted.sort_by_key(|(start, _)| *start); // stable, as `sorted`
        let mut by_sentence: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut number = 0;
        for (start, operand) in sorted {
            while number + 1 < spans.len() && spans.get(number).is_some_and(|span| span.1 <= start)
            {
                number += 1;
            }
            // Operands come by start, so sentence numbers never go down: a sentence's family is
            // the last one or a new one (as the dict of Python's insertion order).
            match by_sentence.last_mut() {
                Some((last, sentence)) if *last == number => sentence.push(operand),
                _ => by_sentence.push((number, vec![operand])),
            }
        }
        for (_, sentence) in by_sentence {
            self.family(budget, sentence, ContainerWords::default())?;
        }
        Ok(())
    }

    fn start(&self, operand: usize) -> usize {
        match self.refs.get(operand) {
            Some(Ref::Text(hit)) => match hit.origin {
                Origin::Fragment { start, .. } => start,
                Origin::Scalar(_) | Origin::Cell(_) => 0,
            },
            _ => 0,
        }
    }

    fn family(
        &mut self,
        budget: &mut WorkBudget,
        members: Vec<usize>,
        (container, siblings): ContainerWords,
    ) -> Result<(), BudgetSpent> {
        budget.pay(CANDIDATE)?;
        let family = self.families.len();
        let Operands {
            by_word,
            names,
            key_words,
            ..
        } = self;
        // Each word lists the family once: families are numbered in order, so a word already
        // listing it has it last.
        let mut list = |word: &str| match by_word.get_mut(word) {
            Some(families) if families.last() == Some(&family) => {}
            Some(families) => families.push(family),
            None => {
                by_word.insert(word.to_owned(), vec![family]);
            }
        };
        let above = container.iter().filter_map(|slot| names.get(*slot));
        for word in above.flat_map(|name| name.words.iter()).chain(&siblings) {
            list(word);
        }
        // A column's members share one name's words: each set is listed once.
        let mut previous: Option<&Arc<HashSet<String>>> = None;
        for key in members.iter().filter_map(|member| key_words.get(*member)) {
            if previous.is_some_and(|previous| Arc::ptr_eq(previous, key)) {
                continue;
            }
            previous = Some(key);
            for word in key.iter() {
                list(word);
            }
        }
        let plain = members.iter().all(|m| {
            self.kinds
                .get(*m)
                .is_some_and(|kind| kind.as_ref() == "raw")
                && self.currencies.get(*m).is_some_and(Option::is_none)
        });
        self.families.push(members);
        self.plain.push(plain);
        Ok(())
    }

    /// The position in `names` of a JSON key name, worked out on its first use.
    fn name_slot(&mut self, name: &[u8]) -> usize {
        if let Some(slot) = self.name_slots.get(name) {
            return *slot;
        }
        let text = lossy(name);
        self.names.push(Name {
            excluded: names_no_quantity(&text),
            words: Arc::new(words(&text)),
            members: Vec::new(),
        });
        let slot = self.names.len() - 1;
        self.name_slots.insert(name.to_vec(), slot);
        slot
    }

    /// Label words of the first `CONTAINER_KEYS` string keys above the family and of its label
    /// siblings (`"name": "Revenue"`).
    fn container_words(
        &mut self,
        corpus: &Corpus,
        path: Option<PathId>,
        siblings: Option<NodeId>,
    ) -> ContainerWords {
        let mut above = Vec::new();
        let mut link = path;
        // Linear in the path's length (each step moves to the parent).
        while let Some(at) = link {
            if above.len() >= CONTAINER_KEYS {
                break;
            }
            let Some((parent, key)) = corpus.paths.link(at) else {
                break;
            };
            link = parent;
            if let Key::Text(span) = key {
                above.push(self.name_slot(corpus.arena.bytes(span)));
            }
        }
        (above, sibling_words(corpus, siblings))
    }

    /// `anchored`: the families whose record holds evidence cited for other figures of the
    /// answer's sentence, and the cited figures themselves as operands.
    pub fn anchored(&self, corpus: &Corpus, cited: &[Arc<Hit>]) -> (Vec<usize>, Vec<usize>) {
        let mut families: Vec<usize> = Vec::new();
        let mut members: Vec<usize> = Vec::new();
        let mut seen: HashSet<usize> = HashSet::default();
        for hit in cited {
            let (siblings, key) = match &hit.origin {
                Origin::Scalar(position) => {
                    let position = *position;
                    let row = corpus.scalar_rows.get(position);
                    (
                        row.and_then(|row| row.siblings),
                        row.and_then(|row| row.path).map(OriginKey::Path),
                    )
                }
                Origin::Fragment { fragment, .. } => (
                    corpus.fragments.get(*fragment).and_then(|f| f.siblings),
                    Some(OriginKey::Hit(arc_key(hit))),
                ),
                // Python's `id(where.path)`: a path no operand holds (a JSON cell's is made by the
                // table reader; a text cell's is its string's, which holds no raw scalar).
                Origin::Cell(cell) => (cell.record, None),
            };
            if let Some(siblings) = siblings {
                if let Some(found) = self.by_container.get(&siblings) {
                    families.extend(found.iter().copied());
                }
            }
            let operand = key.and_then(|key| self.operand_of(key));
            if let Some(operand) = operand {
                if matches!(hit.kind.as_ref(), "raw" | "money" | "number") && seen.insert(operand) {
                    members.push(operand);
                }
            }
        }
        families.sort_unstable();
        families.dedup();
        (families, members)
    }

    /// `tied_families`: families sharing a label word with the answer figure, in document order.
    pub fn tied_families<'w>(&self, answer_words: impl IntoIterator<Item = &'w str>) -> Vec<usize> {
        let mut found: Vec<usize> = Vec::new();
        for word in answer_words {
            if let Some(families) = self.by_word.get(word) {
                found.extend(families.iter().copied());
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}

/// `_name`: the nearest string key, its own or for a list element the list's.
fn name_of(corpus: &Corpus, path: PathId) -> Option<&[u8]> {
    let (parent, key) = corpus.paths.link(path)?;
    if let Key::Text(span) = key {
        return Some(corpus.arena.bytes(span));
    }
    let (_, parent_key) = corpus.paths.link(parent?)?;
    match parent_key {
        Key::Text(span) => Some(corpus.arena.bytes(span)),
        _ => None,
    }
}

/// `json_words((), siblings)`: short labels among the record's string members.
fn sibling_words(corpus: &Corpus, siblings: Option<NodeId>) -> HashSet<String> {
    let members = siblings
        .into_iter()
        .flat_map(|mapping| string_members(&corpus.arena, mapping));
    json_words(std::iter::empty::<&str>(), members)
}

/// `_place`: the operand joins its container's row and, for a member of a list element, the
/// column of its key across that list.
fn place<'a>(
    corpus: &'a Corpus,
    (structural, last_row): (
        &mut HashMap<Structural<'a>, usize>,
        &mut Option<(Structural<'a>, usize)>,
    ),
    placed: &mut Vec<Placed<'a>>,
    source: usize,
    path: PathId,
    siblings: Option<NodeId>,
    operand: usize,
) {
    let Some((parent, key)) = corpus.paths.link(path) else {
        return;
    };
    // A record's scalars come one after another: its row is found without a lookup.
    let row = Structural::Row(source, parent);
    match *last_row {
        Some((last, slot)) if last == row => {
            if let Some((_, members, _, _)) = placed.get_mut(slot) {
                members.push(operand);
            }
        }
        _ => {
            let slot = join(structural, placed, (row, parent, siblings), operand);
            *last_row = Some((row, slot));
        }
    }
    if let Some(parent) = parent {
        if let Some((grandparent, Key::Index(_))) = corpus.paths.link(parent) {
            let column = match key {
                Key::Index(position) => ColumnKey::Index(position),
                Key::Text(span) => ColumnKey::Text(corpus.arena.bytes(span)),
                Key::Somewhere => ColumnKey::Somewhere,
            };
            join(
                structural,
                placed,
                (
                    Structural::Column(source, grandparent, column),
                    grandparent,
                    None,
                ),
                operand,
            );
        }
    }
}

/// `operand` joins the structural family, new or met before: the family's slot in `placed`.
fn join<'a>(
    structural: &mut HashMap<Structural<'a>, usize>,
    placed: &mut Vec<Placed<'a>>,
    (family, container, siblings): (Structural<'a>, Option<PathId>, Option<NodeId>),
    operand: usize,
) -> usize {
    match structural.get(&family) {
        Some(&slot) => {
            if let Some((_, members, _, _)) = placed.get_mut(slot) {
                members.push(operand);
            }
            slot
        }
        None => {
            structural.insert(family, placed.len());
            placed.push((family, vec![operand], container, siblings));
            placed.len() - 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::EvidenceNeeds;

    fn index_of(items: &[&str]) -> EvidenceIndex {
        crate::test_evidence::index_of(items, &EvidenceNeeds::everything())
    }

    const INVOICES: &str = r#"{"invoices": [{"id": 7, "total": 12.5, "tax": 1.25, "name": "Revenue"}, {"id": 8, "total": 3, "tax": 0.3}]}"#;
    const TEXT: &str = r#""Sales were $5 and 1,234 units. Costs were $3 and 5,678 units.""#;

    #[test]
    fn rows_columns_and_sentences_are_families_and_ids_never_join() {
        let index = index_of(&[INVOICES, TEXT]);
        let mut budget = WorkBudget::new(1_000_000);
        let operands = Operands::build(&index, &mut budget).unwrap_or_default();
        // Raw figures: total, tax of each record (ids excluded); then $5, $3, 1,234, 5,678.
        assert_eq!(
            operands.values,
            [12.5, 1.25, 3.0, 0.3, 5.0, 3.0, 1234.0, 5678.0]
        );
        let kinds: Vec<&str> = operands.kinds.iter().map(AsRef::as_ref).collect();
        assert_eq!(
            kinds,
            ["raw", "raw", "raw", "raw", "money", "money", "number", "number"]
        );
        // Rows, then the columns "total" and "tax", then one family per sentence.
        assert_eq!(
            operands.families,
            [
                vec![0, 1],
                vec![0, 2],
                vec![1, 3],
                vec![2, 3],
                vec![4, 6],
                vec![5, 7]
            ]
        );
        assert_eq!(operands.plain, [true, true, true, true, false, false]);
        // Family 0's words: its container's key and its record's label.
        assert_eq!(operands.tied_families(["revenue"]), [0]);
        assert_eq!(operands.tied_families(["invoice"]), [0, 1, 2, 3]);
        // A cited record's figure anchors its row and is an operand itself.
        let cited: Vec<Arc<Hit>> = operands.hit(0).into_iter().collect();
        assert_eq!(
            operands.anchored(index.corpus(), &cited),
            (vec![0], vec![0])
        );
        // Charges: a candidate per raw scalar, candidate + atom per text atom, one per family.
        let scalars = i64::try_from(index.corpus().scalar_values.len()).unwrap_or(0);
        assert_eq!(
            budget.left,
            1_000_000 - CANDIDATE * scalars - (CANDIDATE + ATOM) * 4 - CANDIDATE * 6
        );
    }

    #[test]
    fn the_build_stops_at_the_first_step_the_budget_cannot_cover() {
        let index = index_of(&[INVOICES, TEXT]);
        let mut full = WorkBudget::new(1_000_000);
        assert!(Operands::build(&index, &mut full).is_ok());
        let cost = 1_000_000 - full.left;
        let mut short = WorkBudget::new(cost - 1);
        assert_eq!(Operands::build(&index, &mut short).err(), Some(BudgetSpent));
        // All families but the last were paid for.
        assert_eq!(short.left, CANDIDATE - 1);
        let mut none = WorkBudget::new(0);
        assert_eq!(Operands::build(&index, &mut none).err(), Some(BudgetSpent));
        assert_eq!(none.left, 0);
    }
}
