//! Comparison rules (`scoring/verdicts.py`): the verdict and reason for one answer atom against
//! the evidence index.
//!
//! Numbers are supported within the answer's own stated precision. A miss is `contradicted` only
//! when tied to one evidence value: a sign flip, a currency swap, a digit-level edit, a magnitude
//! slip, or a near value (within `contradicted_band`) that shares label words with the answer.
//! Dates compare per component, identifiers by normalized form and by one edit, times of day
//! by clock and zone (`time`).
//!
//! Every lookup charges the budget when Python's would: a range query (`within`, `in_windows`) is
//! read lazily and a rule that returns on the first usable hit pays for no later one.

use std::sync::Arc;

use crate::atoms::{Atom, AtomValue, CalendarDate, Clock, Identifier, Quantity, Reading};
use crate::bare_years;
use crate::budget::{WorkBudget, PROBE};
use crate::corpus::Corpus;
use crate::date_index::{self, date_mask, DAY, MONTH, YEAR};
use crate::derivation::{Derivation, Stop};
use crate::derivations::Deriver;
use crate::digits::{mantissa, relation, variant_windows, Mantissa, MAX_MANTISSA_DIGITS};
use crate::fxhash::FxHashSet as HashSet;
use crate::hit::Hit;
pub use crate::identifier_index::one_edit_apart;
use crate::identifier_index::one_edit_numbers;
use crate::index::{unit_group, EvidenceIndex, EvidenceNeeds};
use crate::label_words::AtomContext;
use crate::numeric_group::{PER_RANGE, PER_WINDOW};
use crate::table_book::cell_hit;
use crate::time_index::{seconds_agree, utc_minutes, zones_agree, TimeKey};
use crate::units;
use crate::vocabulary::{AtomKind, Reason, Verdict};

/// Near values examined for shared context, nearest first.
const NEAR_CANDIDATES: usize = 32;
/// Slips by these powers of ten (x10, x100 as in percent vs fraction, thousand/million/billion),
/// each up then down.
const MAGNITUDE_POWERS: [i32; 6] = [1, 2, 3, 6, 9, 12];
/// Shorter figures are tied to evidence only by shared context.
const DIGIT_RELATION_MIN_DIGITS: usize = 3;
/// Up to this many values near the answer's magnitude are compared one by one.
const DIRECT_CHECK_LIMIT: usize = 24;
const MAGNITUDE_MIN_DIGITS: usize = 2;
/// An abbreviated git hash keeps at least this many characters.
const HASH_PREFIX: usize = 7;
/// Python's message for `10.0 ** n` past the float range.
const OVERFLOW: &str = "OverflowError: (34, 'Numerical result out of range')";

#[derive(Debug, Clone)]
pub struct Judgement {
    pub verdict: Verdict,
    pub reason: Reason,
    pub hit: Option<Arc<Hit>>,
    /// The date reading that decided the verdict.
    pub reading: Option<Reading>,
    /// How a derived figure was computed (it has no one hit).
    pub derivation: Option<Derivation>,
}

impl Judgement {
    fn new(verdict: Verdict, reason: Reason, hit: Option<Arc<Hit>>) -> Self {
        Judgement {
            verdict,
            reason,
            hit,
            reading: None,
            derivation: None,
        }
    }

    fn supported(reason: Reason, hit: Arc<Hit>) -> Self {
        Judgement::new(Verdict::Supported, reason, Some(hit))
    }

    fn contradicted(reason: Reason, hit: Arc<Hit>) -> Self {
        Judgement::new(Verdict::Contradicted, reason, Some(hit))
    }

    fn read(mut self, reading: Reading) -> Self {
        self.reading = Some(reading);
        self
    }

    fn not_found() -> Self {
        Judgement::new(Verdict::Unsupported, Reason::NotFound, None)
    }
}

/// Evidence groups an answer figure may match: money and bare numbers stand for each other (a
/// table cell "1,243,500" under "Revenue (USD)"), percent never matches either; raw JSON scalars
/// carry no surface form and match all three (the `fraction`, `minor` and `scaled` readings
/// included). None for a kind Python's `NUMERIC_GROUPS` has no entry for (a `KeyError`).
fn numeric_groups(kind: AtomKind) -> Option<&'static [&'static str]> {
    match kind {
        AtomKind::Money => Some(&["money", "number", "raw", "minor", "scaled"]),
        AtomKind::Number => Some(&["number", "money", "raw", "scaled"]),
        AtomKind::Percent => Some(&["percent", "raw", "fraction"]),
        AtomKind::Date | AtomKind::Identifier | AtomKind::Time => None,
    }
}

const NUMERIC_KINDS: [AtomKind; 3] = [AtomKind::Money, AtomKind::Percent, AtomKind::Number];

/// The text of `atom` in `text` (the answer).
fn written<'t>(atom: &Atom, text: &'t str) -> &'t str {
    text.get(atom.start..atom.end).unwrap_or_default()
}

/// The evidence atoms judging `atoms` (of `text`, the answer) can look up; the index may leave
/// out the rest.
pub fn evidence_needs(atoms: &[Atom], text: &str) -> EvidenceNeeds {
    let mut kinds: HashSet<AtomKind> = HashSet::default();
    let mut shapes: HashSet<String> = HashSet::default();
    for atom in atoms {
        let said = written(atom, text);
        match &atom.value {
            AtomValue::Quantity(_) => {
                let groups = numeric_groups(atom.kind).unwrap_or_default();
                kinds.extend(
                    groups
                        .iter()
                        .filter_map(|name| AtomKind::parse(name))
                        .filter(|kind| NUMERIC_KINDS.contains(kind)),
                );
                if bare_years::year_of_number(atom, said).is_some() {
                    kinds.insert(AtomKind::Date);
                }
            }
            AtomValue::Identifier(identifier) => {
                kinds.insert(AtomKind::Identifier);
                shapes.insert(identifier.shape.to_owned());
            }
            AtomValue::Time(_) => {
                kinds.insert(AtomKind::Time);
            }
            AtomValue::Date(_) => {
                kinds.insert(AtomKind::Date);
                if bare_years::written_year(atom, said).is_some() {
                    kinds.insert(AtomKind::Number);
                }
            }
        }
    }
    EvidenceNeeds {
        kinds: AtomKind::ALL
            .iter()
            .copied()
            .filter(|kind| kinds.contains(kind))
            .collect(),
        shapes: Some(shapes),
    }
}

/// Verdict for `atom` (`written`: its text in the answer); `around` is what the answer says next
/// to it. `deriver` looks for a figure computed from evidence figures (None: derived values are
/// off).
#[allow(clippy::too_many_arguments)]
pub fn judge(
    atom: &Atom,
    written: &str,
    index: &mut EvidenceIndex,
    around: &AtomContext<'_>,
    band: f64,
    deriver: Option<&mut Deriver>,
    budget: &mut WorkBudget,
) -> Result<Judgement, Stop> {
    let mut judging = Judging {
        atom,
        written,
        index,
        around,
        budget,
    };
    match &atom.value {
        AtomValue::Quantity(quantity) => judging.quantity(quantity, band, deriver),
        AtomValue::Date(date) => judging.date(date),
        AtomValue::Identifier(identifier) => judging.identifier(identifier),
        AtomValue::Time(clock) => Ok(judging.time(clock)),
    }
}

fn slack(value: f64) -> f64 {
    let magnitude = value.abs();
    // Python's max(1.0, magnitude): 1.0 unless magnitude is greater.
    1e-9 * if magnitude > 1.0 { magnitude } else { 1.0 }
}

/// `10.0 ** exponent` as Python computes it (C `pow`), an error past the float range.
fn power_of_ten(exponent: i32) -> Result<f64, Stop> {
    let power = 10f64.powf(f64::from(exponent));
    if power.is_infinite() {
        Err(Stop::Failed(OVERFLOW))
    } else {
        Ok(power)
    }
}

fn compatible(kind: AtomKind, quantity: &Quantity, hit: &Hit, corpus: &Corpus) -> bool {
    let hit_unit = hit.unit();
    if let (Some(unit), Some(hit_unit)) = (quantity.unit, hit_unit) {
        if unit != hit_unit {
            return false;
        }
    }
    if let Some(unit) = quantity.unit {
        if hit.kind.as_ref() == "raw" {
            // {"weight_g": 2500} is no figure in kg as it stands; its reading in kg is in the
            // unit group.
            if let Some(key_unit) = hit.key_unit(corpus) {
                if key_unit != unit && units::dimension(key_unit) == units::dimension(unit) {
                    return false;
                }
            }
        }
        if kind == AtomKind::Number && hit.kind.as_ref() == "money" {
            return false; // "1500ms" is not "$1,500"
        }
    }
    !(kind == AtomKind::Money && hit.kind.as_ref() == "number" && hit_unit.is_some())
}

fn currency_clash(quantity: &Quantity, hit: &Hit, corpus: &Corpus) -> bool {
    match (quantity.currency, hit.currency(corpus)) {
        (Some(currency), Some(hit_currency)) => currency != hit_currency,
        _ => false,
    }
}

fn shares_words(around: &AtomContext<'_>, hit: &Hit, corpus: &Corpus) -> bool {
    let (ours, theirs) = (around.words(), hit.words(corpus));
    ours.iter().any(|word| theirs.contains(word))
}

fn support_reason(written: &str, hit: &Hit, corpus: &Corpus, equal: bool) -> Reason {
    if hit.text(corpus) == written.as_bytes() {
        Reason::Exact
    } else if equal {
        Reason::Reformatted
    } else {
        Reason::WithinPrecision
    }
}

/// Evidence values e with |value - e| <= band * |e|.
fn band_of(value: f64, band: f64) -> (f64, f64) {
    let magnitude = value.abs();
    let low = magnitude / (1.0 + band);
    let high = if band < 1.0 {
        magnitude / (1.0 - band)
    } else {
        f64::INFINITY
    };
    if value > 0.0 {
        (low, high)
    } else {
        (-high, -low)
    }
}

/// Python's `min(a, b)` and `max(a, b)` of two floats: the first unless the second is smaller
/// (greater).
fn py_min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

fn to_index_reading(reading: &Reading) -> date_index::Reading {
    (
        reading.0,
        reading.1.map(i64::from),
        reading.2.map(i64::from),
    )
}

/// Python's `usable` of `_near_miss`: a hit of the answer's kind, currency and sign that is not
/// the figure itself at the hit's precision (noting when some less precise value agrees).
struct Usable<'q> {
    kind: AtomKind,
    quantity: &'q Quantity,
    /// Some less precise evidence value agrees with the answer.
    consistent: bool,
}

impl Usable<'_> {
    fn check(&mut self, hit: &Hit, corpus: &Corpus) -> bool {
        let value = self.quantity.value;
        if !compatible(self.kind, self.quantity, hit, corpus)
            || currency_clash(self.quantity, hit, corpus)
            || (hit.number < 0.0) != (value < 0.0)
        {
            return false;
        }
        if (hit.number - value).abs() <= hit.tolerance + slack(value) {
            self.consistent = true;
            return false;
        }
        true
    }
}

/// One atom being judged: what every rule reads.
struct Judging<'a, 'c> {
    atom: &'a Atom,
    written: &'a str,
    index: &'a mut EvidenceIndex,
    around: &'a AtomContext<'c>,
    budget: &'a mut WorkBudget,
}

impl Judging<'_, '_> {
    // --- quantities ---------------------------------------------------------------------

    fn quantity(
        &mut self,
        quantity: &Quantity,
        band: f64,
        deriver: Option<&mut Deriver>,
    ) -> Result<Judgement, Stop> {
        let kind = self.atom.kind;
        let names = numeric_groups(kind).ok_or(Stop::Failed("KeyError: NUMERIC_GROUPS"))?;
        let mut groups = self.index.nonempty(names, self.budget)?;
        let in_unit = if kind == AtomKind::Number {
            unit_group(quantity.unit)
        } else {
            None
        };
        if let Some(in_unit) = in_unit {
            groups.extend(self.index.nonempty(&[in_unit.as_str()], self.budget)?);
        }
        let value = quantity.value;
        let reach = quantity.tolerance + slack(value);
        let mut best: Option<Arc<Hit>> = None;
        let mut clash: Option<Arc<Hit>> = None;
        for name in &groups {
            let (group, corpus) = self.index.group_and_corpus(name, self.budget)?;
            let found = group.nearest(value, value - reach, value + reach, PER_RANGE, self.budget);
            for hit in found {
                if !compatible(kind, quantity, &hit, corpus) {
                    continue;
                }
                if currency_clash(quantity, &hit, corpus) {
                    clash = clash.or(Some(hit));
                } else if best.as_ref().map_or(true, |best| {
                    (hit.number - value).abs() < (best.number - value).abs()
                }) {
                    best = Some(hit);
                }
            }
        }
        if let Some(best) = best {
            let equal = (best.number - value).abs() <= slack(value);
            let reason = support_reason(self.written, &best, self.index.corpus(), equal);
            return Ok(Judgement::supported(reason, best));
        }
        if value != 0.0 {
            if let Some(scaled) = self.table_cell(kind, quantity, value - reach, value + reach)? {
                let equal = (scaled.number - value).abs() <= slack(value);
                let reason = support_reason(self.written, &scaled, self.index.corpus(), equal);
                return Ok(Judgement::supported(reason, scaled));
            }
        }
        if let Some(clash) = clash {
            return Ok(Judgement::contradicted(Reason::CurrencyMismatch, clash));
        }
        if let Some(year) = bare_years::year_of_number(self.atom, self.written) {
            let found = self
                .index
                .dates(YEAR, &(Some(year), None, None), self.budget);
            if let Some((hit, matched)) = found.into_iter().next() {
                let reason = if matched.1.is_none() {
                    Reason::Reformatted
                } else {
                    Reason::WithinPrecision
                };
                return Ok(Judgement::supported(reason, hit));
            }
        }
        if value != 0.0 {
            for name in &groups {
                let (group, corpus) = self.index.group_and_corpus(name, self.budget)?;
                let found = group.nearest(
                    -value,
                    -value - reach,
                    -value + reach,
                    PER_RANGE,
                    self.budget,
                );
                for hit in found {
                    if compatible(kind, quantity, &hit, corpus)
                        && !currency_clash(quantity, &hit, corpus)
                    {
                        if value > 0.0 && self.around.states_decrease() {
                            // "fell 15.3%" is -15.3%
                            return Ok(Judgement::supported(Reason::Reformatted, hit));
                        }
                        return Ok(Judgement::contradicted(Reason::SignFlip, hit));
                    }
                }
            }
        }
        // Before the near-miss search: a computed figure often looks one digit away from an
        // operand.
        if let Some(deriver) = deriver {
            let derived = deriver.derive(
                self.atom,
                self.written,
                quantity,
                self.around,
                self.index,
                self.budget,
            )?;
            if let Some(derived) = derived {
                let mut judgement = Judgement::new(Verdict::Supported, derived.reason(), None);
                judgement.derivation = Some(derived);
                return Ok(judgement);
            }
        }
        self.near_miss(kind, quantity, &groups, band)
    }

    /// A table cell that states the figure at its table's scale ("$1,502.7 million" for 1,502.7
    /// under "(In millions)"), in the figure's currency if both name one.
    fn table_cell(
        &mut self,
        kind: AtomKind,
        quantity: &Quantity,
        low: f64,
        high: f64,
    ) -> Result<Option<Arc<Hit>>, Stop> {
        let (book, corpus) = self.index.tables();
        let found = book
            .cells_within(corpus, self.budget, low, high, kind == AtomKind::Percent)?
            .to_vec();
        for at in found {
            let Some(cell) = book.cell(at) else {
                continue;
            };
            let agrees = match (quantity.currency, cell.currency) {
                (Some(currency), Some(code)) => currency.as_bytes() == code.as_slice(),
                _ => true,
            };
            if agrees {
                return Ok(Some(cell_hit(corpus, cell, true)));
            }
        }
        Ok(None)
    }

    /// Contradicted when the miss is tied to one evidence value; otherwise unsupported.
    fn near_miss(
        &mut self,
        kind: AtomKind,
        quantity: &Quantity,
        groups: &[String],
        band: f64,
    ) -> Result<Judgement, Stop> {
        let value = quantity.value;
        let mut usable = Usable {
            kind,
            quantity,
            consistent: false,
        };
        if let Some(reduced) = mantissa(value) {
            if let Some(tied) = self.digit_relation(quantity, &reduced, groups, &mut usable)? {
                return Ok(tied);
            }
            if let Some(slip) = self.magnitude_slip(quantity, &reduced, groups, &mut usable)? {
                return Ok(slip);
            }
        }
        if value != 0.0 && band > 0.0 {
            let (low, high) = band_of(value, band);
            for name in groups {
                let (group, corpus) = self.index.group_and_corpus(name, self.budget)?;
                let found = group.nearest(value, low, high, NEAR_CANDIDATES, self.budget);
                for hit in found {
                    if usable.check(&hit, corpus) && shares_words(self.around, &hit, corpus) {
                        return Ok(Judgement::contradicted(Reason::ValueChanged, hit));
                    }
                }
            }
        }
        Ok(if usable.consistent {
            Judgement::new(Verdict::Unsupported, Reason::MorePreciseThanEvidence, None)
        } else {
            Judgement::not_found()
        })
    }

    /// An evidence value one digit-level edit from the answer, within a decade of it.
    ///
    /// Few values near the answer's magnitude are checked one by one; many are probed with the
    /// answer's digit variants instead, so the cost is O(min(candidates, variants)).
    fn digit_relation(
        &mut self,
        quantity: &Quantity,
        reduced: &Mantissa,
        groups: &[String],
        usable: &mut Usable<'_>,
    ) -> Result<Option<Judgement>, Stop> {
        let negative = quantity.value < 0.0;
        let (mut low, mut high) = (
            power_of_ten(reduced.exponent.saturating_sub(1))?,
            power_of_ten(reduced.exponent.saturating_add(2))?,
        );
        if negative {
            (low, high) = (-high, -low);
        }
        let long_enough = reduced.digits.len() >= DIGIT_RELATION_MIN_DIGITS;
        let mut tied: Option<Judgement> = None;
        let mut count = 0usize;
        for name in groups {
            let (group, _) = self.index.group_and_corpus(name, self.budget)?;
            count = count.saturating_add(group.count(low, high));
        }
        let around = self.around;
        // Each candidate as Python's loop body reads it: Some(judgement) returns.
        let mut consider = |hit: Arc<Hit>, corpus: &Corpus, tied: &mut Option<Judgement>| {
            let reason = relation(reduced, hit.number)?;
            if !usable.check(&hit, corpus) {
                return None;
            }
            if shares_words(around, &hit, corpus) {
                return Some(Judgement::contradicted(reason, hit));
            }
            if long_enough && tied.is_none() {
                *tied = Some(Judgement::contradicted(reason, hit));
            }
            None
        };
        if count <= DIRECT_CHECK_LIMIT {
            for name in groups {
                let (group, corpus) = self.index.group_and_corpus(name, self.budget)?;
                for hit in group.within(low, high, self.budget) {
                    if let Some(found) = consider(hit, corpus, &mut tied) {
                        return Ok(Some(found));
                    }
                }
            }
        } else {
            let windows = variant_windows(reduced).map_err(|_| Stop::Failed(OVERFLOW))?;
            let runs = i64::try_from(windows.runs.len()).unwrap_or(i64::MAX);
            self.budget.left -= PROBE.saturating_mul(runs); // building them
            for name in groups {
                let (group, corpus) = self.index.group_and_corpus(name, self.budget)?;
                for hit in group.in_windows(&windows, negative, self.budget) {
                    if let Some(found) = consider(hit, corpus, &mut tied) {
                        return Ok(Some(found));
                    }
                }
            }
        }
        Ok(tied)
    }

    /// An evidence value the answer matches within its precision once scaled by a power of ten.
    ///
    /// Without shared label words the evidence must state exactly the answer's digits ("$4.8B"
    /// vs "$4.8M"): a round "$12,000" scaled by 100 lands near many values and ties to none.
    fn magnitude_slip(
        &mut self,
        quantity: &Quantity,
        reduced: &Mantissa,
        groups: &[String],
        usable: &mut Usable<'_>,
    ) -> Result<Option<Judgement>, Stop> {
        let value = quantity.value;
        let reach = quantity.tolerance + slack(value);
        let mut slip: Option<Judgement> = None;
        for power in MAGNITUDE_POWERS {
            for sign in [power, -power] {
                let scale = 10f64.powf(f64::from(sign));
                let (low, high) = ((value - reach) * scale, (value + reach) * scale);
                for name in groups {
                    let (group, corpus) = self.index.group_and_corpus(name, self.budget)?;
                    for hit in group.within(py_min(low, high), py_max(low, high), self.budget) {
                        if !usable.check(&hit, corpus) {
                            continue;
                        }
                        if shares_words(self.around, &hit, corpus) {
                            return Ok(Some(Judgement::contradicted(
                                Reason::MagnitudeMismatch,
                                hit,
                            )));
                        }
                        if slip.is_none() && reduced.digits.len() >= MAGNITUDE_MIN_DIGITS {
                            let own = mantissa(hit.number);
                            if own.is_some_and(|own| own.digits == reduced.digits) {
                                slip =
                                    Some(Judgement::contradicted(Reason::MagnitudeMismatch, hit));
                            }
                        }
                    }
                }
            }
        }
        Ok(slip)
    }

    // --- dates --------------------------------------------------------------------------

    fn date(&mut self, date: &CalendarDate) -> Result<Judgement, Stop> {
        for reading in &date.readings {
            let asked = to_index_reading(reading);
            let mask = date_mask(&asked);
            if mask == 0 {
                continue;
            }
            let matches = self.index.dates(mask, &asked, self.budget);
            let Some(first) = matches.first() else {
                continue;
            };
            let same = matches
                .iter()
                .take(PER_RANGE)
                .find(|(_, matched)| date_mask(matched) == mask);
            let (hit, matched) = same.unwrap_or(first);
            let corpus = self.index.corpus();
            let reason = if hit.text(corpus) == self.written.as_bytes() {
                Reason::Exact
            } else if date_mask(matched) == mask {
                Reason::Reformatted
            } else {
                Reason::WithinPrecision
            };
            return Ok(Judgement::supported(reason, Arc::clone(hit)).read(*reading));
        }
        if let Some(year) = bare_years::written_year(self.atom, self.written) {
            // `float(year)`: exact for any year an atom holds.
            if let Some(number) = self.same_plain_number(year as f64)? {
                return Ok(Judgement::supported(Reason::Reformatted, number));
            }
        }
        for reading in &date.readings {
            if let Some(changed) = self.changed_date(reading)? {
                return Ok(changed);
            }
        }
        Ok(Judgement::not_found())
    }

    /// An evidence number or raw scalar equal to `value`, without unit or currency.
    fn same_plain_number(&mut self, value: f64) -> Result<Option<Arc<Hit>>, Stop> {
        for name in self.index.nonempty(&["number", "raw"], self.budget)? {
            let (group, corpus) = self.index.group_and_corpus(&name, self.budget)?;
            for hit in group.within(value, value, self.budget) {
                if hit.unit().is_none() && hit.currency(corpus).is_none() {
                    return Ok(Some(hit));
                }
            }
        }
        Ok(None)
    }

    /// An evidence date that states every component of `reading` and differs in exactly one.
    fn changed_date(&mut self, reading: &Reading) -> Result<Option<Judgement>, Stop> {
        let asked = to_index_reading(reading);
        let mask = date_mask(&asked);
        if mask == YEAR {
            // A year one slip away, alone or inside a fuller date ("born in 1811" vs "born 8
            // December 1810"), tied by shared label words: years are dense, so a digit relation
            // alone ties nothing.
            let Some(year) = reading.0 else {
                return Err(Stop::Failed("AssertionError"));
            };
            let mut examined = 0usize;
            for other in bare_years::slipped_years(year) {
                let found = self
                    .index
                    .dates(YEAR, &(Some(other), None, None), self.budget);
                let corpus = self.index.corpus();
                for (hit, _) in found.into_iter().take(PER_WINDOW) {
                    if shares_words(self.around, &hit, corpus) {
                        let judgement = Judgement::contradicted(Reason::DateComponentChanged, hit);
                        return Ok(Some(judgement.read(*reading)));
                    }
                    examined += 1;
                }
                if examined >= 2 * PER_RANGE {
                    break;
                }
            }
            return Ok(None);
        }
        let components = [YEAR, MONTH, DAY];
        for (position, component) in components.into_iter().enumerate() {
            if mask & component == 0 || mask == component {
                continue;
            }
            let asked_value = match position {
                0 => asked.0,
                1 => asked.1,
                _ => asked.2,
            };
            let found = self.index.dates(mask & !component, &asked, self.budget);
            for (hit, matched) in found.into_iter().take(PER_RANGE) {
                let stated = match position {
                    0 => matched.0,
                    1 => matched.1,
                    _ => matched.2,
                };
                if stated.is_some() && stated != asked_value {
                    let judgement = Judgement::contradicted(Reason::DateComponentChanged, hit);
                    return Ok(Some(judgement.read(*reading)));
                }
            }
        }
        let (year, month, day) = asked;
        if mask & MONTH != 0 && mask & DAY != 0 && month != day {
            if let Some(day) = day.filter(|day| *day <= 12) {
                let swapped = (year, Some(day), month);
                let found = self.index.dates(mask, &swapped, self.budget);
                if let Some((hit, _)) = found.into_iter().next() {
                    let judgement = Judgement::contradicted(Reason::DateComponentChanged, hit);
                    return Ok(Some(judgement.read(*reading)));
                }
            }
        }
        Ok(None)
    }

    // --- identifiers --------------------------------------------------------------------

    fn identifier(&mut self, identifier: &Identifier) -> Result<Judgement, Stop> {
        let (shape, normalized) = (identifier.shape, identifier.normalized.as_str());
        let hits = self.index.identifiers(shape, normalized, self.budget);
        if let Some(first) = hits.first() {
            let corpus = self.index.corpus();
            let exact = hits
                .iter()
                .take(PER_RANGE)
                .find(|hit| hit.text(corpus) == self.written.as_bytes());
            let judgement = match exact {
                Some(hit) => Judgement::supported(Reason::Exact, Arc::clone(hit)),
                None => Judgement::supported(Reason::Reformatted, Arc::clone(first)),
            };
            return Ok(judgement);
        }
        if shape == "hash" && normalized.chars().count() >= HASH_PREFIX {
            if let Some(source) = self
                .index
                .identifier_extending("hash", normalized, self.budget)
            {
                // an abbreviated commit hash
                return Ok(Judgement::supported(Reason::WithinPrecision, source));
            }
        }
        if shape == "ticket" {
            // `normalized[1:].isdigit()`: a hashtag ticket's digits are ASCII (the grammar reads
            // `[0-9]`).
            if let Some(digits) = normalized.strip_prefix('#') {
                if !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()) {
                    if let Some(judgement) = self.numbered_ticket(digits)? {
                        return Ok(judgement);
                    }
                }
            }
        }
        let near = self.index.identifiers_near(shape, normalized, self.budget);
        for hit in near {
            let Some(AtomValue::Identifier(other)) = hit.value.as_deref() else {
                return Err(Stop::Failed("AssertionError"));
            };
            if one_edit_apart(normalized, &other.normalized) {
                return Ok(Judgement::contradicted(Reason::IdentifierEdit, hit));
            }
        }
        Ok(Judgement::not_found())
    }

    // --- times of day -------------------------------------------------------------------

    /// Supported by an evidence time showing the same clock in an agreeing zone, or the same
    /// instant in UTC; a zone mismatch when only the zone differs; a time mismatch when the hour
    /// or the minute (or the seconds) differ from one evidence time; else not found.
    fn time(&mut self, clock: &Clock) -> Judgement {
        let mut clash = None;
        for hit in self
            .index
            .times(TimeKey::Wall(clock.minutes()), self.budget)
        {
            let Some(AtomValue::Time(other)) = hit.value.as_deref() else {
                continue;
            };
            if !seconds_agree(clock, other) {
                continue;
            }
            if zones_agree(clock.zone.as_ref(), other.zone.as_ref()) {
                let corpus = self.index.corpus();
                let reason = if hit.text(corpus) == self.written.as_bytes() {
                    Reason::Exact
                } else {
                    Reason::Reformatted
                };
                return Judgement::supported(reason, hit);
            }
            clash = clash.or(Some(hit));
        }
        let instants = utc_minutes(clock);
        for utc in &instants {
            for hit in self.index.times(TimeKey::Utc(*utc), self.budget) {
                if let Some(AtomValue::Time(other)) = hit.value.as_deref() {
                    if seconds_agree(clock, other) {
                        return Judgement::supported(Reason::Reformatted, hit);
                    }
                }
            }
        }
        if let Some(hit) = clash {
            return Judgement::contradicted(Reason::TimezoneMismatch, hit);
        }
        let minutes = clock.minutes();
        let mut keys = vec![
            TimeKey::WallHour(minutes / 60),
            TimeKey::WallMinute(minutes % 60),
        ];
        for utc in instants {
            keys.extend([TimeKey::UtcHour(utc / 60), TimeKey::UtcMinute(utc % 60)]);
        }
        for key in keys {
            let in_utc = matches!(key, TimeKey::UtcHour(_) | TimeKey::UtcMinute(_));
            for hit in self.index.times(key, self.budget) {
                let Some(AtomValue::Time(other)) = hit.value.as_deref() else {
                    continue;
                };
                if in_utc || zones_agree(clock.zone.as_ref(), other.zone.as_ref()) {
                    return Judgement::contradicted(Reason::TimeMismatch, hit);
                }
            }
        }
        Judgement::not_found()
    }

    /// `#4521` against raw JSON integers: equal supports; one edit away with shared words
    /// contradicts.
    fn numbered_ticket(&mut self, digits: &str) -> Result<Option<Judgement>, Stop> {
        // `float(digits)`: correctly rounded, infinite past the float range.
        let number: f64 = digits.parse().unwrap_or(f64::INFINITY);
        let (raw, corpus) = self.index.group_and_corpus("raw", self.budget)?;
        if let Some(hit) = raw.within(number, number, self.budget).next() {
            return Ok(Some(Judgement::supported(Reason::Reformatted, hit)));
        }
        if digits.len() > MAX_MANTISSA_DIGITS {
            return Ok(None);
        }
        for variant in one_edit_numbers(digits) {
            for hit in raw.within(variant, variant, self.budget) {
                if shares_words(self.around, &hit, corpus) {
                    return Ok(Some(Judgement::contradicted(Reason::IdentifierEdit, hit)));
                }
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::extract::extract_atoms;
    use crate::test_evidence::index_of;

    /// Every atom of `answer` judged against `evidence` as the former Python engine's script judges them
    /// (the whole answer one sentence, no deriver, band 0.15, a budget of 100,000): `text|verdict|
    /// reason|hit text|citation path|cell|reading|budget left`.
    fn judged(answer: &str, evidence: &[&str]) -> Vec<String> {
        judged_with(answer, evidence, 100_000)
    }

    fn judged_with(answer: &str, evidence: &[&str], units: i64) -> Vec<String> {
        let kinds: Vec<&str> = AtomKind::ALL.iter().map(|kind| kind.as_str()).collect();
        let atoms = extract_atoms(answer, "en-US", 4, &kinds, None).unwrap_or_default();
        let mut index = index_of(evidence, &evidence_needs(&atoms, answer));
        let mut budget = WorkBudget::new(units);
        let mut found = Vec::new();
        for (at, atom) in atoms.iter().enumerate() {
            let previous_end = at
                .checked_sub(1)
                .and_then(|i| atoms.get(i))
                .map_or(0, |a| a.end);
            let next_start = atoms.get(at + 1).map_or(answer.len(), |a| a.start);
            let around = AtomContext::new(
                answer,
                (atom.start, atom.end),
                (0, answer.len()),
                (previous_end, next_start),
                None,
            );
            let said = written(atom, answer);
            let line = match judge(atom, said, &mut index, &around, 0.15, None, &mut budget) {
                Err(stop) => {
                    found.push(format!("{said}|{stop:?}"));
                    break; // the scorer judges no further atom
                }
                Ok(judgement) => {
                    let corpus = index.corpus();
                    let citation = judgement.hit.as_ref().map(|hit| hit.citation(corpus));
                    let text = |bytes: Option<Vec<u8>>| {
                        bytes.map_or("-".to_owned(), |b| String::from_utf8_lossy(&b).into_owned())
                    };
                    let part = |c: Option<u32>| c.map_or("-".to_owned(), |c| c.to_string());
                    let reading = judgement.reading.map_or("-".to_owned(), |(y, m, d)| {
                        let year = y.map_or("-".to_owned(), |y| y.to_string());
                        format!("{year},{},{}", part(m), part(d))
                    });
                    format!(
                        "{said}|{}|{}|{}|{}|{}|{reading}|{}",
                        judgement.verdict.as_str(),
                        judgement.reason.as_str(),
                        text(judgement.hit.as_ref().map(|hit| hit.text(corpus))),
                        text(citation.as_ref().and_then(|c| c.path.clone())),
                        text(citation.as_ref().and_then(|c| c.cell.clone())),
                        budget.left,
                    )
                }
            };
            found.push(line);
        }
        found
    }

    // Each expectation is what the former Python engine gives (verdicts.judge on the same atoms).
    #[test]
    fn exact_support_in_text() {
        let found = judged(
            r#"Revenue was $1,243,500 in 2024."#,
            &[r#"{"note": "Revenue was $1,243,500 in 2024"}"#],
        );
        let expected = [
            r#"$1,243,500|supported|exact|$1,243,500|$.note|-|-|99994"#,
            r#"2024|supported|exact|2024|$.note|-|2024,-,-|99988"#,
        ];
        assert_eq!(found, expected);
    }

    #[test]
    fn reformatted_support_from_a_raw_scalar() {
        let found = judged(r#"Revenue was $1,243,500."#, &[r#"{"revenue": 1243500}"#]);
        let expected = [r#"$1,243,500|supported|reformatted|1243500|$.revenue|-|-|99994"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_digit_transposition_is_contradicted() {
        let found = judged(r#"Revenue was $1,234,500."#, &[r#"{"revenue": 1243500}"#]);
        let expected =
            [r#"$1,234,500|contradicted|digit_transposition|1243500|$.revenue|-|-|99992"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_magnitude_slip_is_contradicted() {
        let found = judged(r#"Revenue was $4.8 billion."#, &[r#"{"revenue": 4800000}"#]);
        let expected =
            [r#"$4.8 billion|contradicted|magnitude_mismatch|4800000|$.revenue|-|-|99986"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_sign_flip_is_contradicted() {
        let found = judged(r#"The change was 15.3%."#, &[r#"{"change_pct": -15.3}"#]);
        let expected = [r#"15.3%|contradicted|sign_flip|-15.3|$.change_pct|-|-|99993"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_stated_decrease_supports_a_negative_value() {
        let found = judged(r#"The margin fell 15.3%."#, &[r#"{"change_pct": -15.3}"#]);
        let expected = [r#"15.3%|supported|reformatted|-15.3|$.change_pct|-|-|99993"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_changed_date_component_is_contradicted() {
        let found = judged(
            r#"It shipped on 2025-03-05."#,
            &[r#"{"note": "shipped on 2025-03-04"}"#],
        );
        let expected = [
            r#"2025-03-05|contradicted|date_component_changed|2025-03-04|$.note|-|2025,3,5|99991"#,
        ];
        assert_eq!(found, expected);
    }

    #[test]
    fn an_identifier_one_edit_away_is_contradicted() {
        let found = judged(
            r#"See INC-4512 for details."#,
            &[r#"{"note": "ticket INC-4521 was opened"}"#],
        );
        let expected = [r#"INC-4512|contradicted|identifier_edit|INC-4521|$.note|-|-|99964"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_numbered_ticket_is_supported_by_a_raw_integer() {
        let found = judged(
            r#"The login ticket #4521 is open."#,
            &[r#"{"ticket": 4521, "title": "login bug"}"#],
        );
        let expected = [r#"#4521|supported|reformatted|4521|$.ticket|-|-|99993"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_numbered_ticket_one_edit_away_is_contradicted() {
        let found = judged(
            r#"The login ticket #4512 is open."#,
            &[r#"{"ticket": 4521, "title": "login bug"}"#],
        );
        let expected = [r#"#4512|contradicted|identifier_edit|4521|$.ticket|-|-|99968"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_scaled_table_cell_supports_a_figure() {
        let found = judged(
            r#"Revenue was $1,502.7 million in 2024."#,
            &[
                r#"{"unit": "(In millions)", "rows": [["", "2024", "2023"], ["Revenue", 1502.7, 1400]]}"#,
            ],
        );
        let expected = [
            r#"$1,502.7 million|supported|reformatted|1502.7|$.rows[1][1]|Revenue / 2024|-|99968"#,
            r#"2024|supported|exact|2024|$.rows[0][1]|-|2024,-,-|99962"#,
        ];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_currency_swap_is_contradicted() {
        let found = judged(r#"The fee was $1,250."#, &[r#"{"note": "fee of €1,250"}"#]);
        let expected = [r#"$1,250|contradicted|currency_mismatch|€1,250|$.note|-|-|99994"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_bare_year_is_supported_by_a_fuller_date() {
        let found = judged(
            r#"He died in 1849."#,
            &[r#"{"note": "died 17 October 1849"}"#],
        );
        let expected =
            [r#"1849|supported|within_precision|17 October 1849|$.note|-|1849,-,-|99994"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_slipped_year_with_shared_words_is_contradicted() {
        let found = judged(r#"Born in 1811, he wrote."#, &[r#"{"born": 1810}"#]);
        let expected = [r#"1811|contradicted|date_component_changed|1810|$.born|-|1811,-,-|99992"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn many_candidates_are_probed_by_digit_windows() {
        let found = judged(
            r#"Sales were 4,873 units."#,
            &[
                r#"{"sales": [4100, 4200, 4300, 4400, 4500, 4600, 4700, 4800, 4837, 4900, 5000, 5100, 5200, 5300, 5400, 5500, 5600, 5700, 5800, 5900, 6000, 6100, 6200, 6300, 6400, 6500]}"#,
            ],
        );
        let expected = [r#"4,873|contradicted|digit_transposition|4837|$.sales[8]|-|-|99945"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn an_abbreviated_hash_is_within_precision() {
        let found = judged(
            r#"Commit abc1234 fixed it."#,
            &[r#"{"note": "commit abc1234def5678 fixed it"}"#],
        );
        let expected = [r#"abc1234|supported|within_precision|abc1234def5678|$.note|-|-|99998"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_changed_digit_is_contradicted() {
        let found = judged(r#"Revenue was $1,300,000."#, &[r#"{"revenue": 1243500}"#]);
        let expected = [r#"$1,300,000|contradicted|digit_changed|1243500|$.revenue|-|-|99992"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_near_value_with_shared_words_is_contradicted() {
        let found = judged(r#"Revenue was $1,243,567."#, &[r#"{"revenue": 1243500}"#]);
        let expected = [r#"$1,243,567|contradicted|value_changed|1243500|$.revenue|-|-|99974"#];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_day_month_swap_is_contradicted() {
        let found = judged(
            r#"The date was 05/03/2025."#,
            &[r#"{"note": "on 03/05/2025"}"#],
        );
        let expected = [
            r#"05/03/2025|contradicted|date_component_changed|03/05/2025|$.note|-|2025,5,3|99990"#,
        ];
        assert_eq!(found, expected);
    }

    #[test]
    fn a_table_book_the_budget_cannot_pay_for_stops_judging() {
        let evidence = r#"{"unit": "(In millions)", "rows": [["", "2024", "2023"], ["Revenue", 1502.7, 1400]]}"#;
        let found = judged_with("Revenue was $1,502.7 million in 2024.", &[evidence], 20);
        assert_eq!(found, ["$1,502.7 million|Budget"]);
    }

    #[test]
    fn a_unit_group_is_paid_for_before_it_is_read() {
        let evidence = r#"{"distance_km": 12, "weight_g": 5}"#;
        let found = judged_with("The trip was 12,000 m.", &[evidence], 5);
        assert_eq!(
            found,
            ["12,000 m|supported|reformatted|12|$.distance_km|-|-|-3"]
        );
    }

    /// `text|verdict|reason|hit text` of each atom.
    fn verdicts(answer: &str, evidence: &[&str]) -> Vec<String> {
        judged(answer, evidence)
            .iter()
            .map(|line| line.split('|').take(4).collect::<Vec<_>>().join("|"))
            .collect()
    }

    #[test]
    fn times_compare_by_clock_zone_and_instant() {
        let evidence = [r#"{"departs": "2025-04-15T14:05:00-07:00", "gate": "closes 13:45"}"#];
        let iso = "2025-04-15T14:05:00-07:00";
        assert_eq!(
            verdicts("Departs 2:05 PM PT, gate closes 1:45 pm.", &evidence),
            [
                format!("2:05 PM PT|supported|reformatted|{iso}"),
                "1:45 pm|supported|reformatted|13:45".to_owned()
            ]
        );
        assert_eq!(
            verdicts("Departs 21:05 UTC.", &evidence),
            [format!("21:05 UTC|supported|reformatted|{iso}")]
        );
        assert_eq!(
            verdicts("Departs 2:05 PM UTC.", &evidence),
            [format!("2:05 PM UTC|contradicted|timezone_mismatch|{iso}")]
        );
        assert_eq!(
            verdicts("Departs 3:05 PM.", &evidence),
            [format!("3:05 PM|contradicted|time_mismatch|{iso}")]
        );
        assert_eq!(
            verdicts("Departs at 9:30 am.", &evidence),
            ["9:30 am|unsupported|not_found|-"]
        );
    }

    #[test]
    fn codes_compare_as_identifiers_with_one_edit() {
        let evidence = [r#"{"booking": "RX7K2Q", "flight": "UA1234"}"#];
        assert_eq!(
            verdicts("Booking RX7K2Q on flight UA 1234.", &evidence),
            [
                "RX7K2Q|supported|exact|RX7K2Q",
                "UA 1234|supported|reformatted|UA1234"
            ]
        );
        assert_eq!(
            verdicts("Booking RX7K2O on flight UA 1243.", &evidence),
            [
                "RX7K2O|contradicted|identifier_edit|RX7K2Q",
                "UA 1243|contradicted|identifier_edit|UA1234"
            ]
        );
        assert_eq!(
            verdicts("Booking QZ4M8P.", &evidence),
            ["QZ4M8P|unsupported|not_found|-"]
        );
    }

    #[test]
    fn needs_name_what_judging_can_look_up() {
        let answer = "Paid $1,250 on 2025-03-04 at 14:05 UTC for INC-4521 in 1849, up 5%.";
        let kinds: Vec<&str> = AtomKind::ALL.iter().map(|kind| kind.as_str()).collect();
        let atoms = extract_atoms(answer, "en-US", 4, &kinds, None).unwrap_or_default();
        let needs = evidence_needs(&atoms, answer);
        assert_eq!(needs.kinds, AtomKind::ALL.to_vec());
        let shapes = needs.shapes.unwrap_or_default();
        assert_eq!(
            shapes.into_iter().collect::<Vec<_>>(),
            vec!["ticket".to_owned()]
        );
        let needs = evidence_needs(&[], "");
        assert!(needs.kinds.is_empty() && needs.shapes.is_some_and(|s| s.is_empty()));
    }

    #[test]
    fn one_edit_apart_as_python() {
        assert!(one_edit_apart("INC-4521", "INC-4512"));
        assert!(one_edit_apart("abc", "abcd") && one_edit_apart("abcd", "abc"));
        assert!(one_edit_apart("abc", "abx") && one_edit_apart("é1", "é2"));
        assert!(!one_edit_apart("abc", "abc") && !one_edit_apart("abcd", "ab"));
        assert!(!one_edit_apart("abcd", "badc"));
    }

    #[test]
    fn a_power_of_ten_past_the_float_range_fails_as_python_raises() {
        assert_eq!(power_of_ten(308), Ok(1e308));
        assert_eq!(power_of_ten(-330), Ok(0.0));
        assert_eq!(power_of_ten(309), Err(Stop::Failed(OVERFLOW)));
        assert_eq!(band_of(-100.0, 0.5), (-200.0, -100.0 / 1.5));
        assert_eq!(band_of(100.0, 1.0).1, f64::INFINITY);
    }
}
