//! Operands chosen by labels (`scoring/table_derivations.py`): the derivation search over the
//! table cells the question names, tier by tier (the cells the sentence's other figures cite; the
//! intersections of picked rows and columns, one family per picked row and column; those
//! intersections together; every picked row and column as a whole), each family counted before
//! it is searched and skipped when even an exact hit could be an accident, the best result
//! accepted by the chance rule over the candidates tried.
//!
//! The result names its cells as (table, cell) positions: turning them into evidence hits
//! (`table_book.cell_hit`) is the index's job.

use std::collections::BTreeSet;

use crate::budget::{BudgetSpent, WorkBudget, PROBE};
use crate::fsum::{fsum, FsumError};
use crate::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet};
use crate::pyunicode::{ignorecase_prefix, is_digit, is_space, is_word};
use crate::table_model::{Cell, Currency, Table};
use crate::vocabulary::DerivedOperation;

pub const CHANCE_LIMIT: f64 = 0.05;
pub const PERCENT_SCALE: f64 = 100.0;
/// Cells of one family combined pairwise (a picked row of a wide table, a column).
pub const MAX_FAMILY: usize = 24;

/// A cell of the tables searched: (table, cell) positions.
pub type CellRef = (usize, usize);

/// Why the search stopped without a result, as Python raises it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchError {
    /// `BudgetSpent`: a family's search could not be paid for.
    Budget(BudgetSpent),
    /// `math.fsum` raised (finite cells whose sum overflows).
    Fsum(FsumError),
}

/// A derivation the tables support: the operation, its operands in formula order, the result,
/// and whether the cells are cited at their scale (the answer writes a magnitude).
#[derive(Debug, Clone, PartialEq)]
pub struct TableDerivation {
    pub operation: DerivedOperation,
    pub cells: Vec<CellRef>,
    pub value: f64,
    pub scaled: bool,
}

/// Python's `max(a, b)`: `b` only when it is greater.
fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Python's `min(a, b)`: `b` only when it is smaller.
fn py_min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// `10.0 ** power` (C `pow`, as Python computes it).
fn ten_to(power: i32) -> f64 {
    10.0_f64.powf(f64::from(power))
}

/// The answer figure as the table search sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct TableTarget {
    pub goal: f64,
    pub reach: f64,
    pub floor: f64,
    pub percent: bool,
    pub scale: f64,
    pub magnitude: bool,
    pub operations: Vec<DerivedOperation>,
    pub currency: Option<Currency>,
}

impl TableTarget {
    #[allow(clippy::too_many_arguments)] // Python's constructor, argument for argument
    pub fn new(
        value: f64,
        tolerance: f64,
        floor: f64,
        text: &str,
        percent: bool,
        decrease: bool,
        operations: Vec<DerivedOperation>,
        currency: Option<Currency>,
    ) -> Self {
        TableTarget {
            goal: if decrease && value > 0.0 {
                -value
            } else {
                value
            },
            reach: tolerance + 1e-9 * py_max(1.0, value.abs()),
            floor,
            percent,
            scale: if percent {
                py_max(value.abs(), PERCENT_SCALE)
            } else {
                value.abs()
            },
            magnitude: writes_magnitude(text),
            operations,
            currency,
        }
    }

    fn allows(&self, operation: DerivedOperation) -> bool {
        self.operations.contains(&operation)
    }

    /// Expected accidental hits at least `distance` close among `candidates` results spread over
    /// the figure's scale, or over `spread` (the operands') when it is wider.
    pub fn chance(&self, candidates: usize, distance: f64, spread: f64) -> f64 {
        candidates as f64 * 2.0 * py_max(distance, self.floor) / py_max(self.scale, spread)
    }

    /// How far the family's differences and averages range, at the figure's scale.
    fn spread(&self, family: &[&Cell]) -> f64 {
        if self.percent {
            return 0.0;
        }
        let mut values = family.iter().map(|cell| {
            let factor = if self.magnitude {
                ten_to(cell.power)
            } else {
                1.0
            };
            cell.value.abs() * factor
        });
        let first = values.next().unwrap_or(f64::NAN); // families hold two cells or more
        values.fold(first, py_max)
    }
}

/// `_MAGNITUDE.search`: `\d\s*(?:k|m|mn|bn|b|thousand|million|billion|trillion)\b` (IGNORECASE).
fn writes_magnitude(text: &str) -> bool {
    const WORDS: [&str; 9] = [
        "k", "m", "mn", "bn", "b", "thousand", "million", "billion", "trillion",
    ];
    text.char_indices().any(|(at, c)| {
        if !is_digit(c) {
            return false;
        }
        let after = at + c.len_utf8();
        let rest = text.get(after..).unwrap_or_default();
        let start = after + rest.find(|c: char| !is_space(c)).unwrap_or(rest.len());
        WORDS.iter().any(|word| {
            ignorecase_prefix(text, start, word).is_some_and(|end| {
                !text
                    .get(end..)
                    .and_then(|tail| tail.chars().next())
                    .is_some_and(is_word)
            })
        })
    })
}

/// The rows (columns) whose label words meet `asked` and are no strict subset of another's match,
/// in `labels`' order.
pub fn picked(labels: &[(usize, &HashSet<String>)], asked: &HashSet<String>) -> Vec<usize> {
    let matched: Vec<(usize, BTreeSet<&str>)> = labels
        .iter()
        .map(|(number, words)| {
            let found = words
                .iter()
                .filter(|word| asked.contains(*word))
                .map(String::as_str)
                .collect();
            (*number, found)
        })
        .filter(|(_, found): &(usize, BTreeSet<&str>)| !found.is_empty())
        .collect();
    // Distinct matches only: many rows share one, and each is compared with each other once.
    let distinct: BTreeSet<&BTreeSet<&str>> = matched.iter().map(|(_, found)| found).collect();
    let maximal: HashSet<&BTreeSet<&str>> = distinct
        .iter()
        .filter(|found| {
            !distinct
                .iter()
                .any(|other| found.len() < other.len() && found.is_subset(other))
        })
        .copied()
        .collect();
    matched
        .iter()
        .filter(|(_, found)| maximal.contains(found))
        .map(|(number, _)| *number)
        .collect()
}

/// The picked rows (columns) and how many asked words the best of them meets.
fn picked_with_score(
    labels: &[(usize, &HashSet<String>)],
    asked: &HashSet<String>,
) -> (BTreeSet<usize>, usize) {
    let chosen = picked(labels, asked);
    let words: HashMap<usize, &HashSet<String>> = labels.iter().copied().collect();
    let score = chosen
        .iter()
        .filter_map(|number| words.get(number))
        .map(|words| words.iter().filter(|word| asked.contains(*word)).count())
        .max()
        .unwrap_or(0);
    (chosen.into_iter().collect(), score)
}

/// The cells of each picked row, then of each picked column (each in table order).
fn families(
    cells: &[CellRef],
    tables: &[Table],
    rows: &BTreeSet<usize>,
    columns: &BTreeSet<usize>,
) -> Vec<Vec<CellRef>> {
    let mut by_row: HashMap<usize, Vec<CellRef>> = HashMap::default();
    let mut by_column: HashMap<usize, Vec<CellRef>> = HashMap::default();
    for reference in cells {
        if let Some(cell) = cell_at(tables, *reference) {
            by_row.entry(cell.row).or_default().push(*reference);
            by_column.entry(cell.column).or_default().push(*reference);
        }
    }
    let rows = rows
        .iter()
        .map(|row| by_row.remove(row).unwrap_or_default());
    let columns = columns
        .iter()
        .map(|column| by_column.remove(column).unwrap_or_default());
    rows.chain(columns).collect()
}

fn cell_at<'a, 't>(tables: &'a [Table<'t>], (table, cell): CellRef) -> Option<&'a Cell<'t>> {
    tables.get(table)?.cells.get(cell)
}

/// One stage of the search: (tier, -match strength, order) and its family.
type Stage = ((i32, i64, usize), Vec<CellRef>);

/// A derivation of the target from the cells its sentence cites (the values `cited`) or the
/// asked words pick, passing the chance rule; the work budget is paid before each family.
pub fn table_derivation(
    tables: &[Table],
    target: &TableTarget,
    asked: &HashSet<String>,
    cited: &[f64],
    budget: &mut WorkBudget,
) -> Result<Option<TableDerivation>, SearchError> {
    let mut stages: Vec<Stage> = Vec::new();
    if !cited.is_empty() {
        stages.push(((-1, 0, 0), cited_cells(tables, cited)));
    }
    for (number, table) in tables.iter().enumerate() {
        let row_words: Vec<(usize, &HashSet<String>)> =
            table.row_words.iter().map(|(n, w)| (*n, w)).collect();
        let column_words: Vec<(usize, &HashSet<String>)> =
            table.column_words.iter().map(|(n, w)| (*n, w)).collect();
        let (rows, row_score) = picked_with_score(&row_words, asked);
        // A word a picked row answers to names that row, not a column (unless nothing is left).
        let used: HashSet<&String> = rows
            .iter()
            .filter_map(|row| table.row_words.get(row))
            .flat_map(|words| words.iter().filter(|word| asked.contains(*word)))
            .collect();
        let rest: HashSet<String> = asked
            .iter()
            .filter(|w| !used.contains(w))
            .cloned()
            .collect();
        let (mut columns, mut column_score) = picked_with_score(&column_words, &rest);
        if columns.is_empty() {
            (columns, column_score) = picked_with_score(&column_words, asked);
        }
        let strength = -i64::try_from(row_score + column_score).unwrap_or(i64::MAX);
        let all: Vec<CellRef> = (0..table.cells.len()).map(|cell| (number, cell)).collect();
        if !rows.is_empty() && !columns.is_empty() {
            let named: Vec<CellRef> = table
                .cells
                .iter()
                .enumerate()
                .filter(|(_, cell)| rows.contains(&cell.row) && columns.contains(&cell.column))
                .map(|(cell, _)| (number, cell))
                .collect();
            for family in families(&named, tables, &rows, &columns) {
                stages.push(((0, strength, stages.len()), family));
            }
            if rows.len() > 1 && columns.len() > 1 {
                stages.push(((1, strength, stages.len()), named));
            }
        }
        for family in families(&all, tables, &rows, &columns) {
            stages.push(((2, strength, stages.len()), family));
        }
    }
    stages.sort_by_key(|(key, _)| *key);
    search(tables, target, stages, budget)
}

/// The stages' families in order, each paid for, counted and searched (see `table_derivation`).
fn search(
    tables: &[Table],
    target: &TableTarget,
    stages: Vec<Stage>,
    budget: &mut WorkBudget,
) -> Result<Option<TableDerivation>, SearchError> {
    let mut count = 0;
    let mut spread = f64::INFINITY; // the narrowest spread of the families tried: the strictest
    let mut tried: HashSet<Vec<CellRef>> = HashSet::default();
    let mut best: Option<(f64, Candidate)> = None;
    for (_, family) in stages {
        if !(2..=MAX_FAMILY).contains(&family.len()) || tried.contains(&family) {
            continue;
        }
        let size = i64::try_from(family.len()).unwrap_or(i64::MAX);
        budget
            .pay(PROBE * size * size)
            .map_err(SearchError::Budget)?;
        let members: Vec<(CellRef, &Cell)> = family
            .iter()
            .filter_map(|reference| Some((*reference, cell_at(tables, *reference)?)))
            .collect();
        tried.insert(family);
        let candidates = candidates(&members, target).map_err(SearchError::Fsum)?;
        let cells: Vec<&Cell> = members.iter().map(|(_, cell)| *cell).collect();
        let own = py_min(spread, target.spread(&cells));
        if candidates.is_empty() || target.chance(count + candidates.len(), 0.0, own) > CHANCE_LIMIT
        {
            continue; // not tried: even an exact hit among this many could be an accident
        }
        count += candidates.len();
        spread = own;
        for candidate in candidates {
            let distance = (candidate.value - target.goal).abs();
            if distance <= target.reach && best.as_ref().map_or(true, |(best, _)| distance < *best)
            {
                best = Some((distance, candidate));
            }
        }
        if let Some((distance, candidate)) = &best {
            if target.chance(count, *distance, spread) <= CHANCE_LIMIT {
                let operation = candidate.operation;
                let scaled = target.magnitude
                    && matches!(
                        operation,
                        DerivedOperation::Sum
                            | DerivedOperation::Difference
                            | DerivedOperation::Average
                    );
                return Ok(Some(TableDerivation {
                    operation,
                    cells: candidate.cells.clone(),
                    value: candidate.value,
                    scaled,
                }));
            }
        }
    }
    Ok(None)
}

/// The cells stating the values other figures of the sentence matched (at most `MAX_FAMILY`).
fn cited_cells(tables: &[Table], cited: &[f64]) -> Vec<CellRef> {
    let mut values: Vec<f64> = cited.iter().copied().filter(|v| !v.is_nan()).collect();
    values.sort_by(f64::total_cmp);
    let stated = |value: f64| {
        values
            .binary_search_by(|probe| {
                probe
                    .partial_cmp(&value)
                    .unwrap_or(std::cmp::Ordering::Less)
            })
            .is_ok()
    };
    tables
        .iter()
        .enumerate()
        .flat_map(|(number, table)| {
            table
                .cells
                .iter()
                .enumerate()
                .filter(|(_, cell)| stated(cell.value) || stated(cell.value * ten_to(cell.power)))
                .map(move |(cell, _)| (number, cell))
        })
        .take(MAX_FAMILY)
        .collect()
}

/// One result the family offers: the operation, its operands in formula order, the value.
#[derive(Debug, Clone)]
struct Candidate {
    operation: DerivedOperation,
    cells: Vec<CellRef>,
    value: f64,
}

/// Every (operation, operands, result) the family offers the target, in Python's order.
fn candidates(
    family: &[(CellRef, &Cell)],
    target: &TableTarget,
) -> Result<Vec<Candidate>, FsumError> {
    use DerivedOperation::{Average, Sum};
    let mut found = Vec::new();
    let family: Vec<(CellRef, &Cell)> = family
        .iter()
        .filter(|(_, cell)| {
            target.currency.is_none() || cell.currency.is_none() || cell.currency == target.currency
        })
        .copied()
        .collect();
    // A row's figures, not its % column.
    let whole: Vec<(CellRef, &Cell)> = family
        .iter()
        .filter(|(_, cell)| cell.percent == target.percent)
        .copied()
        .collect();
    let sums = target.allows(Sum) && whole.len() >= 3;
    if whole.len() >= 2 && (target.allows(Average) || sums) {
        if let Some(same) = one_scale(whole.iter().map(|(_, cell)| *cell), target) {
            let total = fsum(whole.iter().map(|(_, cell)| cell.value))? * same;
            let cells: Vec<CellRef> = whole.iter().map(|(reference, _)| *reference).collect();
            if sums {
                found.push(Candidate {
                    operation: Sum,
                    cells: cells.clone(),
                    value: total,
                });
            }
            if target.allows(Average) {
                found.push(Candidate {
                    operation: Average,
                    cells,
                    value: total / whole.len() as f64,
                });
            }
        }
    }
    for (at, (first_ref, first)) in family.iter().enumerate() {
        for (second_ref, second) in family.iter().skip(at + 1) {
            if first.row != second.row
                && first.column != second.column
                && first.label != second.label
            {
                continue; // another row and another column, and another line item
            }
            for ((newer_ref, newer), (older_ref, older)) in
                orders((*first_ref, first), (*second_ref, second))
            {
                pair((newer_ref, newer), (older_ref, older), target, &mut found);
            }
            if target.allows(Sum) {
                if let Some(same) = one_scale([*first, *second].into_iter(), target) {
                    found.push(Candidate {
                        operation: Sum,
                        cells: vec![*first_ref, *second_ref],
                        value: (first.value + second.value) * same,
                    });
                }
            }
        }
    }
    Ok(found)
}

type Operand<'a, 't> = (CellRef, &'a Cell<'t>);

/// (newer, older) when both columns name different years, else both orders.
fn orders<'a, 't>(
    first: Operand<'a, 't>,
    second: Operand<'a, 't>,
) -> Vec<(Operand<'a, 't>, Operand<'a, 't>)> {
    match (first.1.year, second.1.year) {
        (Some(one), Some(other)) if one != other => {
            if one > other {
                vec![(first, second)]
            } else {
                vec![(second, first)]
            }
        }
        _ => vec![(first, second), (second, first)],
    }
}

fn pair(newer: Operand, older: Operand, target: &TableTarget, found: &mut Vec<Candidate>) {
    use DerivedOperation::{Difference, PctChange, PpDifference, Ratio};
    let ((newer_ref, newer), (older_ref, older)) = (newer, older);
    let mut push = |operation, value| {
        found.push(Candidate {
            operation,
            cells: vec![newer_ref, older_ref],
            value,
        });
    };
    let same = one_scale([newer, older].into_iter(), target);
    if let (true, Some(same)) = (target.allows(Difference), same) {
        push(Difference, (newer.value - older.value) * same);
    }
    if target.allows(PpDifference)
        && newer.percent == older.percent
        && newer.currency.is_none()
        && older.currency.is_none()
    {
        // Two percents, or two plain figures a percent-point answer reads as such.
        push(PpDifference, newer.value - older.value);
    }
    if older.value == 0.0 || newer.percent != older.percent {
        return;
    }
    if target.allows(PctChange) {
        push(
            PctChange,
            (newer.value - older.value) / older.value.abs() * 100.0,
        );
    }
    if target.allows(Ratio) {
        let ratio = newer.value / older.value * ten_to(newer.power - older.power);
        push(Ratio, if target.percent { ratio * 100.0 } else { ratio });
    }
}

/// The factor a sum, difference or average of `cells` is read at: their scale's power of ten
/// when the answer writes a magnitude, else 1; None when they mix scales or percents with figures.
fn one_scale<'a, 't: 'a>(
    mut cells: impl Iterator<Item = &'a Cell<'t>>,
    target: &TableTarget,
) -> Option<f64> {
    let first = cells.next()?;
    let kind = (first.power, first.percent);
    if !cells.all(|cell| (cell.power, cell.percent) == kind) {
        return None;
    }
    Some(if target.magnitude {
        ten_to(kind.0)
    } else {
        1.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table_model::{make_table, Place, RawCell};
    use std::borrow::Cow;

    fn table() -> Table<'static> {
        let rows: [&[&'static str]; 4] = [
            &["(In millions)", "2024", "2023"],
            &["Revenue", "4,812.6", "4,377.9"],
            &["Operating income", "1,502.7", "1,084.4"],
            &["Net income", "1,188.8", "897.6"],
        ];
        let cell = |text: &&'static str| RawCell::text(Cow::Borrowed(*text), Place::Nowhere);
        let grid = rows
            .iter()
            .map(|row| row.iter().map(cell).collect())
            .collect();
        make_table(grid, 0, "").unwrap_or_default()
    }

    fn asked(words: &[&str]) -> HashSet<String> {
        words.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn a_named_change_is_found_and_paid_for() {
        // The caller reads "$434.7 million" at its magnitude.
        let target = TableTarget::new(
            434.7e6,
            5e4,
            5e4,
            "$434.7 million",
            false,
            false,
            vec![DerivedOperation::Difference, DerivedOperation::PctChange],
            None,
        );
        let mut budget = WorkBudget::new(1000);
        let found = table_derivation(&[table()], &target, &asked(&["revenue"]), &[], &mut budget);
        let found = found.ok().flatten();
        assert_eq!(
            found
                .as_ref()
                .map(|f| (f.operation, f.cells.clone(), f.scaled)),
            Some((DerivedOperation::Difference, vec![(0, 0), (0, 1)], true))
        );
        assert!(found.is_some_and(|f| (f.value - 434.7e6).abs() < 1.0));
        assert_eq!(budget.left, 1000 - 4); // one family of two cells
        let mut poor = WorkBudget::new(3);
        let refused = table_derivation(&[table()], &target, &asked(&["revenue"]), &[], &mut poor);
        assert_eq!(refused, Err(SearchError::Budget(BudgetSpent)));
    }

    #[test]
    fn picked_rows_are_the_widest_matches() {
        let net = asked(&["net", "income"]);
        let operating = asked(&["operating", "income"]);
        let labels = [(1, &net), (2, &operating)];
        assert_eq!(picked(&labels, &asked(&["operating", "income"])), [2]);
        assert_eq!(picked(&labels, &asked(&["income"])), [1, 2]);
        assert!(writes_magnitude("1.2 bn") && !writes_magnitude("12 bnx"));
    }
}
