//! Derived values (`scoring/derivations.py`): an answer figure that matches no evidence value may
//! be computed from related ones.
//!
//! When the wording next to the figure names a computation (`derivation_cues`), the search tries
//! the operations it allows, first over the table cells the asked labels pick
//! (`table_derivations`), then over operand families (`operand_families`): the sum or difference
//! of two members, the sum or average of a whole family, a percentage change, a ratio, a product.
//! A result matches at the answer's precision (`|result - figure| <= tolerance`).
//!
//! Chance rule. Families are tried in tiers (the records the sentence names, the families sharing
//! label words with the figure, then all of them); a tier counts its candidates `N` before it is
//! searched, and the best match, at distance `d`, is accepted only when
//! `N * 2 * max(d, p) / scale <= CHANCE_LIMIT` (`p`: half a unit of the figure's last written
//! digit; `scale`: its magnitude, at least 100 for a percent).
//!
//! Order of the operations: when two operations land at the same distance (over 1000, 2000,
//! 4000, 5000 the figure 3,000 is both the sum 1000 + 2000 and the difference 4000 - 1000; a
//! family holding 0 ties `x + 0` with `x - 0`), the first in the vocabulary's order wins
//! (`Operations` is a `BTreeSet`: sum, difference, pct_change, ratio, average, product). The
//! former Python engine followed `PYTHONHASHSEED` there (decisions.md, 2026-12-02).

use std::sync::Arc;

use crate::atoms::{Atom, Quantity};
use crate::budget::{WorkBudget, CANDIDATE, PROBE};
use crate::derivation::{Derivation, Stop};
use crate::derivation_cues::{
    cued_operations, is_change_word, operations_in, table_operations, Operations,
};
use crate::derivation_search::{candidates, pairs, Best, PairTarget};
use crate::fsum::{fsum, FsumError};
use crate::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet};
use crate::hit::Hit;
use crate::index::{EvidenceIndex, EvidenceNeeds};
use crate::label_words::AtomContext;
use crate::operand_families::Operands;
use crate::pyunicode::is_digit;
use crate::table_book::cell_hit;
use crate::table_derivations::{table_derivation, TableTarget};
use crate::table_model::currency_code;
use crate::tables::{acronyms, tokens};
use crate::vocabulary::{AtomKind, DerivedOperation};

pub const CHANCE_LIMIT: f64 = 0.05;
pub const PERCENT_SCALE: f64 = 100.0;
/// Code points of the turn's question kept (a prompt ends with what it asks).
pub const QUESTION_CHARS: usize = 2000;

/// The operations the operand families are searched for: a percent is never an operand there.
const PERCENT_OPERATIONS: [DerivedOperation; 2] =
    [DerivedOperation::PctChange, DerivedOperation::Ratio];
const FIGURE_OPERATIONS: [DerivedOperation; 6] = [
    DerivedOperation::Sum,
    DerivedOperation::Difference,
    DerivedOperation::Product,
    DerivedOperation::Ratio,
    DerivedOperation::PctChange,
    DerivedOperation::Average,
];

/// Python's `max(a, b)` of floats: `b` only when it is greater.
fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Python's `min(a, b)` of floats: `b` only when it is smaller.
fn py_min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// Work units for `count` items of `unit` each, as Python's unbounded ints would (saturating).
fn units(unit: i64, count: usize) -> i64 {
    unit.saturating_mul(i64::try_from(count).unwrap_or(i64::MAX))
}

/// `bisect.bisect_left`, Python's algorithm step for step (the same answer on any list).
fn bisect_left(list: &[usize], x: usize) -> usize {
    let (mut low, mut high) = (0, list.len());
    while low < high {
        let middle = low + (high - low) / 2;
        if list.get(middle).is_some_and(|value| *value < x) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    low
}

/// `bisect.bisect_right`, Python's algorithm step for step.
fn bisect_right(list: &[usize], x: usize) -> usize {
    let (mut low, mut high) = (0, list.len());
    while low < high {
        let middle = low + (high - low) / 2;
        if list.get(middle).is_some_and(|value| x < *value) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    low
}

/// The last `QUESTION_CHARS` code points of `question`.
fn question_tail(question: &str) -> String {
    let from = question
        .char_indices()
        .rev()
        .nth(QUESTION_CHARS - 1)
        .map_or(0, |(at, _)| at);
    question.get(from..).unwrap_or_default().to_owned()
}

/// Half a unit of the last digit the figure's text writes: `$1,000` 0.5, `$2.0K` 50, `25%` 0.5.
/// (`value` is finite and not zero, as `Deriver::operations` requires before any search.)
pub fn written_half_unit(text: &str, value: f64) -> f64 {
    let digits: String = text.chars().filter(|c| is_digit(*c)).collect();
    let written = digits.trim_start_matches('0').chars().count();
    // math.floor(math.log10(abs(value))): an int, at most 308 for a finite float.
    let exponent = value.abs().log10().floor();
    let written = f64::from(u32::try_from(written.max(1)).unwrap_or(u32::MAX));
    // `exponent - n + 1` is exact in a float here (|terms| far below 2**53).
    0.5 * 10.0_f64.powf(exponent - written + 1.0)
}

/// A family to search: its number in `Operands::families`, or one gathered for a single figure
/// (the records a sentence names, the figures sharing its label words).
#[derive(Debug, Clone, Copy)]
enum FamilyRef {
    Evidence(usize),
    Gathered(usize),
}

/// A family as one kind of target sees it: the members it may combine (document order), their
/// sum (None: currencies differ, or it overflows), and on demand the members sorted by value.
#[derive(Debug)]
struct View {
    usable: Vec<usize>,
    total: Option<f64>,
    sorted: Option<(Vec<usize>, Vec<f64>)>,
}

impl View {
    fn by_value(&mut self, values: &[f64]) -> (&[usize], &[f64]) {
        let (ordered, sorted) = self.sorted.get_or_insert_with(|| {
            let ordered = sorted_by_value(&self.usable, values);
            let sorted = ordered
                .iter()
                .map(|member| value_of(values, *member))
                .collect();
            (ordered, sorted)
        });
        (ordered, sorted)
    }
}

fn value_of(values: &[f64], member: usize) -> f64 {
    values.get(member).copied().unwrap_or(0.0)
}

/// `sorted(members, key=values.__getitem__)`: a stable merge sort comparing with `<` only, as
/// Python's sort does (equal values, `-0.0` and `0.0` among them, keep their order). It never
/// panics, whatever the values (Rust's own sorts may on a comparison that is no total order).
fn sorted_by_value(members: &[usize], values: &[f64]) -> Vec<usize> {
    let mut run: Vec<usize> = members.to_vec();
    let mut other: Vec<usize> = Vec::with_capacity(run.len());
    let mut width = 1;
    while width < run.len() {
        other.clear();
        let mut start = 0;
        while start < run.len() {
            let middle = run.len().min(start + width);
            let end = run.len().min(start + 2 * width);
            let (left, right) = (
                run.get(start..middle).unwrap_or_default(),
                run.get(middle..end).unwrap_or_default(),
            );
            let (mut i, mut j) = (0, 0);
            while let (Some(a), Some(b)) = (left.get(i), right.get(j)) {
                if value_of(values, *b) < value_of(values, *a) {
                    other.push(*b);
                    j += 1;
                } else {
                    other.push(*a);
                    i += 1;
                }
            }
            other.extend_from_slice(left.get(i..).unwrap_or_default());
            other.extend_from_slice(right.get(j..).unwrap_or_default());
            start = end;
        }
        std::mem::swap(&mut run, &mut other);
        width = width.saturating_mul(2);
    }
    run
}

/// A family's view, made on first use: `None` until then, `Some(None)` when too few of its
/// members are usable.
type ViewSlot = Option<Option<View>>;

/// What a family's view depends on besides the family (`_views`' key without it): a plain
/// family's is one view for every target (Python's `""` kind), any other's the target's kind,
/// currency and unit. Slots are indexed by family, so a lookup is no hash of the whole key.
#[derive(Debug, Default)]
struct Views {
    plain: Vec<ViewSlot>,
    by_target: HashMap<TargetKey, Vec<ViewSlot>>,
}

/// A target's kind, currency and unit.
type TargetKey = (AtomKind, Option<&'static str>, Option<&'static str>);

/// The answer figure as the family search sees it: value, reach, written precision and scale.
#[derive(Debug)]
struct Target {
    kind: AtomKind,
    currency: Option<&'static str>,
    unit: Option<&'static str>,
    operations: Vec<DerivedOperation>,
    floor: f64,
    scale: f64,
    pair: PairTarget,
}

impl Target {
    fn new(
        atom: &Atom,
        written: &str,
        quantity: &Quantity,
        around: &AtomContext<'_>,
        operations: Vec<DerivedOperation>,
    ) -> Self {
        let value = quantity.value;
        let percent = atom.kind == AtomKind::Percent;
        Target {
            kind: atom.kind,
            currency: quantity.currency,
            unit: quantity.unit,
            operations,
            floor: py_min(written_half_unit(written, value), quantity.tolerance),
            scale: if percent {
                py_max(value.abs(), PERCENT_SCALE)
            } else {
                value.abs()
            },
            pair: PairTarget {
                value,
                // "fell 12.5%": the change is -12.5%
                change: if value > 0.0 && around.states_decrease() {
                    -value
                } else {
                    value
                },
                reach: quantity.tolerance + 1e-9 * py_max(1.0, value.abs()),
                percent,
            },
        }
    }

    /// Expected accidental hits at least `distance` close among `candidates` results.
    fn chance(&self, candidates: usize, distance: f64) -> f64 {
        candidates as f64 * 2.0 * py_max(distance, self.floor) / self.scale
    }

    fn allows(&self, operation: DerivedOperation) -> bool {
        self.operations.contains(&operation)
    }

    fn usable(&self, operands: &Operands, member: usize) -> bool {
        let kind = operands.kinds.get(member).map(|kind| kind.as_ref());
        let unit = operands.units.get(member).copied().flatten();
        let currency = operands.currencies.get(member).and_then(Option::as_deref);
        match self.kind {
            AtomKind::Money => {
                if kind == Some("number") && unit.is_some() {
                    return false;
                }
                match (self.currency, currency) {
                    (Some(own), Some(other)) => own == other,
                    _ => true,
                }
            }
            AtomKind::Number => {
                if kind == Some("money") && self.unit.is_some() {
                    return false;
                }
                match (self.unit, unit) {
                    (Some(own), Some(other)) => own == other,
                    _ => true,
                }
            }
            _ => true,
        }
    }
}

/// The derivation search of one `score` call; its operand families are built on first use.
pub struct Deriver {
    /// The turn's question, its last `QUESTION_CHARS` code points.
    question: String,
    question_tokens: Option<HashSet<String>>,
    /// By answer atom start.
    operations: HashMap<usize, Operations>,
    max_operands: usize,
    max_candidates: usize,
    operands: Option<Operands>,
    /// Evidence supporting answer atoms, and where those atoms start, in answer order.
    cited: Vec<Arc<Hit>>,
    cited_starts: Vec<usize>,
    views: Views,
}

impl Deriver {
    pub fn new(max_operands: usize, max_candidates: usize, question: Option<&str>) -> Self {
        Deriver {
            question: question_tail(question.unwrap_or_default()),
            question_tokens: None,
            operations: HashMap::default(),
            max_operands,
            max_candidates,
            operands: None,
            cited: Vec::new(),
            cited_starts: Vec::new(),
            views: Views::default(),
        }
    }

    /// The operations the wording around the figure allows, else those its whole sentence, the
    /// question restated before it or the turn's question asks for; none: no derivation.
    pub fn operations(
        &mut self,
        atom: &Atom,
        quantity: &Quantity,
        around: &AtomContext<'_>,
    ) -> Operations {
        let value = quantity.value;
        if value == 0.0 || !value.is_finite() {
            return Operations::new();
        }
        if let Some(known) = self.operations.get(&atom.start) {
            return known.clone(); // asked again by the sentence's second search
        }
        let percent = atom.kind == AtomKind::Percent;
        let mut found = cued_operations(around, percent);
        if found.is_empty() && around.beyond_window() {
            found = operations_in(around.sentence_text(), percent);
        }
        if found.is_empty() {
            found = operations_in(around.previous_question(), percent);
        }
        if found.is_empty() {
            found = operations_in(&self.question, percent);
        }
        self.operations.insert(atom.start, found.clone());
        found
    }

    /// A derivation of `quantity` that passes the chance rule, or None: over the table cells the
    /// asked labels pick first, then over the operand families. `Err(Stop::Budget)` when the
    /// work budget cannot pay for the search (Python's `BudgetSpent`).
    pub fn derive(
        &mut self,
        atom: &Atom,
        written: &str,
        quantity: &Quantity,
        around: &AtomContext<'_>,
        index: &mut EvidenceIndex,
        budget: &mut WorkBudget,
    ) -> Result<Option<Derivation>, Stop> {
        let operations = self.operations(atom, quantity, around);
        if operations.is_empty() {
            return Ok(None);
        }
        if let Some(found) =
            self.table_search(atom, written, quantity, around, &operations, index, budget)?
        {
            return Ok(Some(found));
        }
        let allowed: &[DerivedOperation] = if atom.kind == AtomKind::Percent {
            &PERCENT_OPERATIONS
        } else {
            &FIGURE_OPERATIONS
        };
        let operations: Vec<DerivedOperation> = operations
            .into_iter()
            .filter(|operation| allowed.contains(operation))
            .collect();
        if operations.is_empty() {
            return Ok(None);
        }
        if self.operands.is_none() {
            // Left unset when the build is refused: the next figure builds again, as Python.
            self.operands = Some(Operands::build(index, budget)?);
        }
        let cited_low = bisect_left(&self.cited_starts, around.lower);
        let cited_high = bisect_left(&self.cited_starts, around.upper);
        let Deriver {
            operands,
            views,
            cited,
            max_operands,
            max_candidates,
            ..
        } = self;
        let Some(operands) = operands.as_ref() else {
            return Ok(None);
        };
        let cited_in = cited.get(cited_low..cited_high).unwrap_or_default();
        let families = &operands.families;
        budget.pay(units(PROBE, families.len()))?; // the last tier lists every family
        let target = Target::new(atom, written, quantity, around, operations);
        let Views { plain, by_target } = views;
        let targeted = by_target
            .entry((target.kind, target.currency, target.unit))
            .or_default();
        for slots in [&mut *plain, &mut *targeted] {
            slots.resize_with(families.len(), || None);
        }
        let answer_words = around.words();
        let (rows, cited_members) = operands.anchored(index.corpus(), cited_in);
        let tied = operands.tied_families(answer_words.iter().map(String::as_str));
        // The records the sentence names and the figures it cites, taken together.
        let mut named: Vec<usize> = Vec::new();
        let mut seen_member: HashSet<usize> = HashSet::default();
        for member in rows
            .iter()
            .flat_map(|f| families.get(*f).map(Vec::as_slice).unwrap_or_default())
            .chain(cited_members.iter())
        {
            if seen_member.insert(*member) {
                named.push(*member);
            }
        }
        let mut gathered: Vec<Vec<usize>> = Vec::new();
        let named_extra = rows.len() != 1
            || rows
                .first()
                .and_then(|row| families.get(*row))
                .is_some_and(|family| named.len() > family.len());
        let word_family = word_family(operands, &tied, answer_words, *max_operands);
        let all: Vec<usize> = (0..families.len()).collect();
        let stages: [(Vec<Vec<usize>>, &[usize]); 3] = [
            (if named_extra { vec![named] } else { vec![] }, &rows),
            (word_family, &tied),
            (vec![], &all),
        ];
        let mut tiers: Vec<Vec<FamilyRef>> = Vec::new();
        let mut seen: HashSet<usize> = HashSet::default();
        for (extra, chosen) in stages {
            let mut added: Vec<FamilyRef> = chosen
                .iter()
                .filter(|f| !seen.contains(f))
                .map(|f| FamilyRef::Evidence(*f))
                .collect();
            for members in extra {
                if members.len() >= 2 {
                    added.push(FamilyRef::Gathered(gathered.len()));
                    gathered.push(members);
                }
            }
            seen.extend(chosen.iter().copied());
            if !added.is_empty() {
                let mut tier = tiers.last().cloned().unwrap_or_default();
                tier.extend(added);
                tiers.push(tier);
            }
        }
        let members_of = |family: FamilyRef| -> (Option<usize>, &[usize]) {
            match family {
                FamilyRef::Evidence(f) => (
                    Some(f),
                    families.get(f).map(Vec::as_slice).unwrap_or_default(),
                ),
                FamilyRef::Gathered(g) => {
                    (None, gathered.get(g).map(Vec::as_slice).unwrap_or_default())
                }
            }
        };
        for tier in &tiers {
            let searched = within_caps(
                tier.iter()
                    .map(|family| (*family, members_of(*family).1.len())),
                &target.operations,
                *max_operands,
                *max_candidates,
            );
            for whole in [true, false] {
                // whole-family sums and averages first, then pairs
                let count = searched.iter().fold(0usize, |count, family| {
                    count.saturating_add(candidates(
                        members_of(*family).1.len(),
                        &target.operations,
                        whole,
                    ))
                });
                if count == 0 || target.chance(count, 0.0) > CHANCE_LIMIT {
                    continue; // even an exact hit among this many candidates could be an accident
                }
                let mut best = Best::default();
                for family in &searched {
                    search(
                        (plain, targeted),
                        operands,
                        members_of(*family),
                        &target,
                        &mut best,
                        whole,
                        budget,
                    )?;
                }
                if let Some(operation) = best.operation {
                    if target.chance(count, best.distance) <= CHANCE_LIMIT {
                        let hits = best
                            .operands
                            .iter()
                            .map(|member| operands.hit(*member))
                            .collect::<Option<Vec<_>>>()
                            .ok_or(Stop::Failed("operand out of range"))?;
                        budget.left = budget.left.saturating_sub(units(CANDIDATE, hits.len()));
                        return Ok(Some(Derivation {
                            operation,
                            operands: hits,
                            value: best.value,
                        }));
                    }
                }
            }
        }
        Ok(None)
    }

    /// The label-chosen search over the evidence's tables (`table_derivations`).
    #[allow(clippy::too_many_arguments)] // derive's arguments, passed on
    fn table_search(
        &mut self,
        atom: &Atom,
        written: &str,
        quantity: &Quantity,
        around: &AtomContext<'_>,
        operations: &Operations,
        index: &mut EvidenceIndex,
        budget: &mut WorkBudget,
    ) -> Result<Option<Derivation>, Stop> {
        let (book, corpus) = index.tables();
        let tables = book.tables(corpus, budget)?;
        if tables.is_empty() {
            return Ok(None);
        }
        // The near wording and the whole sentence together.
        let percent = atom.kind == AtomKind::Percent;
        let target = TableTarget::new(
            quantity.value,
            quantity.tolerance,
            py_min(
                written_half_unit(written, quantity.value),
                quantity.tolerance,
            ),
            written,
            percent,
            around.names_decrease(),
            table_operations(operations, around, percent)
                .into_iter()
                .collect(),
            quantity.currency.and_then(currency_code),
        );
        let cited: Vec<f64> = self.cited_in(around).iter().map(|hit| hit.number).collect();
        let asked = self.asked(around);
        let Some(found) = table_derivation(tables, &target, &asked, &cited, budget)? else {
            return Ok(None);
        };
        let mut hits = Vec::with_capacity(found.cells.len());
        for (table, cell) in &found.cells {
            let cell = tables
                .get(*table)
                .and_then(|table| table.cells.get(*cell))
                .ok_or(Stop::Failed("table cell out of range"))?;
            hits.push(cell_hit(corpus, cell, found.scaled));
        }
        Ok(Some(Derivation {
            operation: found.operation,
            operands: hits,
            value: found.value,
        }))
    }

    /// Label words and years of the figure's sentence, the one before it and the question.
    fn asked(&mut self, around: &AtomContext<'_>) -> HashSet<String> {
        let question = &self.question;
        let question_tokens = self.question_tokens.get_or_insert_with(|| {
            let mut found = tokens(question);
            found.extend(acronyms(question));
            found
        });
        let sentences = format!("{} {}", around.previous_text(), around.sentence_text());
        let mut asked = tokens(&sentences);
        asked.extend(acronyms(&sentences));
        asked.extend(question_tokens.iter().cloned());
        asked.extend(around.words().iter().cloned());
        asked.retain(|word| !is_change_word(word));
        asked
    }

    /// Remember the evidence that supports an answer atom (atoms come in answer order).
    pub fn note(&mut self, atom: &Atom, hit: Option<&Arc<Hit>>) {
        if let Some(hit) = hit {
            self.cited_starts.push(atom.start);
            self.cited.push(Arc::clone(hit));
        }
    }

    /// Whether atoms after `atom` in its sentence have cited evidence.
    pub fn cited_after(&self, atom: &Atom, around: &AtomContext<'_>) -> bool {
        let position = bisect_right(&self.cited_starts, atom.start);
        self.cited_starts
            .get(position)
            .is_some_and(|start| *start < around.upper)
    }

    /// Evidence cited so far for the atoms of this figure's sentence.
    fn cited_in(&self, around: &AtomContext<'_>) -> &[Arc<Hit>] {
        let low = bisect_left(&self.cited_starts, around.lower);
        let high = bisect_left(&self.cited_starts, around.upper);
        self.cited.get(low..high).unwrap_or_default()
    }
}

/// `_word_family`: the figures whose own key shares a label word with the answer figure, as one
/// family; empty when it is one of the tied families already or larger than `max_operands`.
fn word_family(
    operands: &Operands,
    tied: &[usize],
    answer_words: &HashSet<String>,
    max_operands: usize,
) -> Vec<Vec<usize>> {
    let mut found: HashSet<usize> = HashSet::default();
    for word in answer_words {
        if let Some(members) = operands.by_key_word.get(word) {
            found.extend(members.iter().copied());
        }
        if found.len() > max_operands {
            return vec![];
        }
    }
    if found.len() < 2 {
        return vec![];
    }
    let families = &operands.families;
    let same = tied.iter().any(|f| {
        families.get(*f).is_some_and(|family| {
            family.len() == found.len() && family.iter().all(|member| found.contains(member))
        })
    });
    if same {
        return vec![];
    }
    let mut members: Vec<usize> = found.into_iter().collect();
    members.sort_unstable();
    vec![members]
}

/// `_within_caps`: the families of a tier small enough to combine, until they hold
/// `max_candidates`.
fn within_caps(
    tier: impl Iterator<Item = (FamilyRef, usize)>,
    operations: &[DerivedOperation],
    max_operands: usize,
    max_candidates: usize,
) -> Vec<FamilyRef> {
    let mut chosen = Vec::new();
    let mut count: usize = 0;
    for (family, size) in tier {
        if size < 2 || size > max_operands {
            continue;
        }
        let more =
            candidates(size, operations, true).saturating_add(candidates(size, operations, false));
        if count.saturating_add(more) > max_candidates {
            break;
        }
        chosen.push(family);
        count = count.saturating_add(more);
    }
    chosen
}

/// `_view`: the family's members the target may combine and their sum, worked out once per
/// evidence family and kind of target.
fn make_view(
    operands: &Operands,
    members: &[usize],
    plain: bool,
    target: &Target,
    budget: &mut WorkBudget,
) -> Result<Option<View>, Stop> {
    budget.pay(units(PROBE, members.len()))?;
    let usable: Vec<usize> = if plain {
        members.to_vec()
    } else {
        members
            .iter()
            .copied()
            .filter(|member| target.usable(operands, *member))
            .collect()
    };
    if usable.len() < 2 {
        return Ok(None);
    }
    let mut total = None;
    let currencies: HashSet<&str> = usable
        .iter()
        .filter_map(|member| operands.currencies.get(*member).and_then(Option::as_deref))
        .collect();
    if plain || currencies.len() <= 1 {
        total = match fsum(
            usable
                .iter()
                .map(|member| value_of(&operands.values, *member)),
        ) {
            Ok(total) => Some(total),
            // figures near 1e308: no sum of them is stated anywhere
            Err(FsumError::Overflow) => None,
            Err(FsumError::OppositeInfinities) => return Err(Stop::Failed("-inf + inf in fsum")),
        };
    }
    Ok(Some(View {
        usable,
        total,
        sorted: None,
    }))
}

/// `_search`: offers `best` the family's sum and average (`whole`) or its pairs' results.
fn search(
    (plain_views, views): (&mut [ViewSlot], &mut [ViewSlot]),
    operands: &Operands,
    (number, members): (Option<usize>, &[usize]),
    target: &Target,
    best: &mut Best,
    whole: bool,
    budget: &mut WorkBudget,
) -> Result<(), Stop> {
    let plain = number.is_some_and(|f| operands.plain.get(f).copied().unwrap_or(false));
    let mut local: Option<View>;
    let view = match number {
        Some(f) => {
            let slots = if plain { plain_views } else { views };
            let slot = slots
                .get_mut(f)
                .ok_or(Stop::Failed("family out of range"))?;
            if slot.is_none() {
                *slot = Some(make_view(operands, members, plain, target, budget)?);
            }
            slot.as_mut().and_then(Option::as_mut)
        }
        None => {
            local = make_view(operands, members, plain, target, budget)?;
            local.as_mut()
        }
    };
    let Some(view) = view else {
        return Ok(());
    };
    if whole {
        budget.pay(PROBE)?;
        let Some(total) = view.total else {
            return Ok(());
        };
        let size = view.usable.len();
        let aggregates = [
            (DerivedOperation::Sum, total),
            (DerivedOperation::Average, total / size as f64),
        ];
        for (operation, result) in aggregates {
            let distance = (result - target.pair.value).abs();
            // A whole family of two summed is a pair's sum, offered with the pairs.
            if target.allows(operation)
                && distance <= target.pair.reach
                && (operation == DerivedOperation::Average || size >= 3)
            {
                best.offer(distance, operation, &view.usable, result);
            }
        }
        return Ok(());
    }
    let work = units(PROBE, view.usable.len())
        .saturating_mul(i64::try_from(target.operations.len()).unwrap_or(i64::MAX));
    budget.pay(work)?;
    let (ordered, values) = view.by_value(&operands.values);
    for operation in &target.operations {
        if *operation != DerivedOperation::Average {
            pairs(
                *operation,
                ordered,
                values,
                &operands.currencies,
                &target.pair,
                best,
            );
        }
    }
    Ok(())
}

/// `needs` plus the evidence atoms a derivation reads: a percent answer may be derived from money
/// and plain numbers stated in text.
pub fn derivation_needs(atoms: &[Atom], needs: EvidenceNeeds) -> EvidenceNeeds {
    if !atoms.iter().any(|atom| atom.kind == AtomKind::Percent) {
        return needs;
    }
    let mut kinds = needs.kinds;
    for kind in [AtomKind::Money, AtomKind::Number] {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    EvidenceNeeds {
        kinds,
        shapes: needs.shapes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atoms::AtomValue;
    use crate::extract::extract_atoms;
    use crate::test_evidence::index_of;
    use crate::vocabulary::DerivedOperation::{Difference, PctChange, Sum};

    /// The outcome of deriving the `which`-th atom of `answer` (its sentence: the whole answer)
    /// over `items`, and the work it charged. Expected values come from Python's `Deriver` run on
    /// the same evidence and atoms when the port was made.
    fn derive(
        answer: &str,
        items: &[&str],
        which: usize,
        units: i64,
    ) -> (Result<Option<Derivation>, Stop>, i64) {
        let kinds: Vec<&str> = AtomKind::ALL.iter().map(|kind| kind.as_str()).collect();
        let atoms = extract_atoms(answer, "en-US", 4, &kinds, None).unwrap_or_default();
        let atom = atoms.get(which).cloned().expect("the atom");
        let previous_end = which
            .checked_sub(1)
            .and_then(|at| atoms.get(at))
            .map_or(0, |atom| atom.end);
        let next_start = atoms.get(which + 1).map_or(answer.len(), |atom| atom.start);
        let around = AtomContext::new(
            answer,
            (atom.start, atom.end),
            (0, answer.len()),
            (previous_end, next_start),
            None,
        );
        let AtomValue::Quantity(quantity) = &atom.value else {
            panic!("a quantity");
        };
        let written = answer.get(atom.start..atom.end).unwrap_or_default();
        let mut index = index_of(items, &EvidenceNeeds::everything());
        let mut budget = WorkBudget::new(units);
        let mut deriver = Deriver::new(12, 400, None);
        let found = deriver.derive(&atom, written, quantity, &around, &mut index, &mut budget);
        (found, units - budget.left)
    }

    fn numbers(derivation: &Derivation) -> Vec<f64> {
        derivation.operands.iter().map(|hit| hit.number).collect()
    }

    const INVOICES: &str = r#"{"invoices": [{"id": "A", "amount": 500.25}, {"id": "B", "amount": 750.00}, {"id": "C", "amount": 500.25}]}"#;

    #[test]
    fn half_a_unit_of_the_last_written_digit() {
        assert_eq!(written_half_unit("$1,000", 1000.0), 0.5);
        assert_eq!(written_half_unit("$2.0K", 2000.0), 50.0);
        assert_eq!(written_half_unit("25%", 25.0), 0.5);
        assert_eq!(written_half_unit("0.0042", 0.0042), 5e-05);
        assert_eq!(written_half_unit("1.5e-7", 1.5e-7), 5e-10);
    }

    #[test]
    fn a_percentage_change_is_derived_from_two_figures() {
        let (found, spent) = derive(
            "Revenue grew 25.0% year over year.",
            &[r#"{"revenue": {"fy2023": 1000.0, "fy2024": 1250.0}}"#],
            0,
            1_000_000,
        );
        let found = found.expect("no stop").expect("a derivation");
        assert_eq!(found.operation, PctChange);
        assert_eq!(numbers(&found), vec![1250.0, 1000.0]); // the newer value first
        assert_eq!(found.value, 25.0);
        assert_eq!(spent, 30);
    }

    #[test]
    fn a_change_is_derived_from_a_table_and_from_text() {
        let table = r#""| Metric | 2023 | 2024 |\n|---|---|---|\n| Revenue | 1,000 | 1,250 |\n| Cost | 400 | 450 |""#;
        let (found, spent) = derive(
            "Revenue grew 25.0% from 2023 to 2024.",
            &[table],
            0,
            1_000_000,
        );
        let found = found.expect("no stop").expect("a derivation");
        assert_eq!(
            (found.operation, numbers(&found), found.value, spent),
            (PctChange, vec![1250.0, 1000.0], 25.0, 52)
        );
        let text = r#"{"report": "Revenue was 1,000 in 2023 and 1,250 in 2024."}"#;
        let (found, spent) = derive(
            "Revenue grew 25.0% from 2023 to 2024.",
            &[text],
            0,
            1_000_000,
        );
        let found = found.expect("no stop").expect("a derivation");
        assert_eq!(
            (found.operation, numbers(&found), found.value, spent),
            (PctChange, vec![1250.0, 1000.0], 25.0, 60)
        );
    }

    #[test]
    fn a_whole_family_sums_to_the_figure() {
        let answer = "The three invoices total $1,750.50 together.";
        let (found, spent) = derive(answer, &[INVOICES], 0, 1_000_000);
        let found = found.expect("no stop").expect("a derivation");
        assert_eq!(found.operation, Sum);
        assert_eq!(numbers(&found), vec![500.25, 750.0, 500.25]);
        assert_eq!(found.value, 1750.5);
        assert_eq!(spent, 59);
    }

    #[test]
    fn the_chance_rule_refuses_a_small_figure() {
        // 10 + 7 is 17, but among even one candidate a figure of two digits is hit by chance
        // too often (1 * 2 * 0.5 / 17 > 0.05): the tier is not searched at all.
        let (found, spent) = derive("The total is $17.", &[r#"{"a": 10, "b": 7}"#], 0, 1_000_000);
        assert!(found.expect("no stop").is_none());
        assert_eq!(spent, 16);
        let (found, spent) = derive(
            "The total is $1,700.",
            &[r#"{"a": 1000, "b": 700}"#],
            0,
            1_000_000,
        );
        let found = found.expect("no stop").expect("a derivation");
        assert_eq!(
            (found.operation, numbers(&found), spent),
            (Sum, vec![1000.0, 700.0], 30)
        );
        let (found, spent) = derive(
            "The total is 3,100.",
            &[r#"{"a": 1000, "b": 2000, "c": 4000, "d": 5000}"#],
            0,
            1_000_000,
        );
        assert!(found.expect("no stop").is_none());
        assert_eq!(spent, 35);
    }

    #[test]
    fn the_chance_rule_refuses_the_tier_of_every_family() {
        // 31 families of three: among all of them a figure of 1,700 (written to the hundred)
        // could be hit by chance, so only the family its label words name is searched.
        let mut evidence = String::from("{");
        for i in 0..30 {
            evidence.push_str(&format!(
                r#""group{i}": {{"x": {}, "y": {}, "z": {}}}, "#,
                3000 + 7 * i,
                2000 + 13 * i,
                11 + i
            ));
        }
        evidence.push_str(r#""revenue": {"east": 1000, "west": 700, "north": 5}}"#);
        let (found, spent) = derive("The sum is 1,700.", &[&evidence], 0, 1_000_000);
        assert!(found.expect("no stop").is_none());
        assert_eq!(spent, 775);
        let (found, spent) = derive("The revenue sum is 1,700.", &[&evidence], 0, 1_000_000);
        let found = found.expect("no stop").expect("a derivation");
        // The whole family is tried before its pairs: 1,705 is 1,700 at the written precision.
        assert_eq!(
            (found.operation, numbers(&found), found.value, spent),
            (Sum, vec![1000.0, 700.0, 5.0], 1705.0, 670)
        );
    }

    #[test]
    fn a_budget_that_cannot_pay_refuses_the_search() {
        let answer = "The three invoices total $1,750.50 together.";
        // Python: 43 units are spent before the step that is refused; with 44, the citing of
        // three operands overdraws (`budget.left -= CANDIDATE * 3`).
        for (units, spent) in [
            (0, 0),
            (1, 1),
            (15, 1),
            (16, 16),
            (30, 26),
            (42, 40),
            (43, 43),
        ] {
            let (found, charged) = derive(answer, &[INVOICES], 0, units);
            assert_eq!(found.map(|_| ()), Err(Stop::Budget), "{units}");
            assert_eq!(charged, spent, "{units}");
        }
        let (found, charged) = derive(answer, &[INVOICES], 0, 44);
        assert_eq!(
            found.expect("no stop").map(|found| found.operation),
            Some(Sum)
        );
        assert_eq!(charged, 59);
    }

    #[test]
    fn tied_operations_take_the_vocabulary_order() {
        // 1000 + 2000 and 4000 - 1000 are both exactly 3,000: Python picks by its frozenset's
        // hash order (it varies with PYTHONHASHSEED); the port takes the sum, listed first.
        let (found, spent) = derive(
            "The total difference is 3,000 units.",
            &[r#"{"a": 1000, "b": 2000, "c": 4000, "d": 5000}"#],
            0,
            1_000_000,
        );
        let found = found.expect("no stop").expect("a derivation");
        assert_eq!(
            (found.operation, numbers(&found)),
            (Sum, vec![1000.0, 2000.0])
        );
        assert_eq!(spent, 49);
        assert_ne!(found.operation, Difference);
    }

    #[test]
    fn the_question_keeps_its_last_characters() {
        let long = format!("{}é?", "a".repeat(3000));
        let deriver = Deriver::new(12, 400, Some(&long));
        assert_eq!(deriver.question.chars().count(), QUESTION_CHARS);
        assert!(deriver.question.ends_with("é?"));
        assert_eq!(Deriver::new(12, 400, Some("short")).question, "short");
        assert_eq!(Deriver::new(12, 400, None).question, "");
    }

    #[test]
    fn python_bisection_and_stable_sort() {
        assert_eq!(bisect_left(&[1, 3, 3, 5], 3), 1);
        assert_eq!(bisect_right(&[1, 3, 3, 5], 3), 3);
        let values = [3.0, -0.0, 1.0, 0.0, 1.0, f64::NAN];
        assert_eq!(
            sorted_by_value(&[0, 1, 2, 3, 4], &values),
            vec![1, 3, 2, 4, 0]
        );
        assert_eq!(sorted_by_value(&[5, 0, 2], &values).len(), 3); // no panic on a NaN
    }

    #[test]
    fn a_percent_answer_needs_money_and_numbers() {
        let needs = EvidenceNeeds {
            kinds: vec![AtomKind::Percent],
            shapes: None,
        };
        let percent = Atom {
            kind: AtomKind::Percent,
            start: 0,
            end: 3,
            value: AtomValue::Quantity(Quantity {
                value: 25.0,
                tolerance: 0.5,
                digits: "25".into(),
                currency: None,
                unit: None,
                hedged: false,
            }),
        };
        let kinds = derivation_needs(&[percent], needs.clone()).kinds;
        assert_eq!(
            kinds,
            vec![AtomKind::Percent, AtomKind::Money, AtomKind::Number]
        );
        assert_eq!(derivation_needs(&[], needs).kinds, vec![AtomKind::Percent]);
    }
}
