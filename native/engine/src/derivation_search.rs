//! The pair search of the derivation step (`scoring/derivations.py`): which two members of an
//! operand family, combined by one operation, land within reach of the answer figure. Members are
//! sorted by value, so each member's partner window is found by bisection and only the first few
//! values in it are read: linear-logarithmic in the family, never quadratic.

use crate::vocabulary::DerivedOperation;

/// Values read past a bisection: equal values repeat, the first few decide.
const SCAN: usize = 4;

/// The answer figure as the pair search sees it.
#[derive(Debug, Clone, Copy)]
pub struct PairTarget {
    pub value: f64,
    /// The signed change the figure states ("fell 12.5%": -12.5).
    pub change: f64,
    pub reach: f64,
    pub percent: bool,
}

/// The closest result found so far in one tier (strictly closer results replace it).
#[derive(Debug, Clone, PartialEq)]
pub struct Best {
    pub distance: f64,
    pub operation: Option<DerivedOperation>,
    pub operands: Vec<usize>,
    pub value: f64,
}

impl Default for Best {
    fn default() -> Self {
        Best {
            distance: f64::INFINITY,
            operation: None,
            operands: Vec::new(),
            value: 0.0,
        }
    }
}

impl Best {
    pub fn offer(
        &mut self,
        distance: f64,
        operation: DerivedOperation,
        operands: &[usize],
        value: f64,
    ) {
        if distance < self.distance {
            self.distance = distance;
            self.operation = Some(operation);
            self.operands.clear();
            self.operands.extend_from_slice(operands);
            self.value = value;
        }
    }
}

/// Candidate results per pair of family members: ratios and changes are ordered.
const fn per_pair(operation: DerivedOperation) -> usize {
    match operation {
        DerivedOperation::Sum | DerivedOperation::Difference | DerivedOperation::Product => 1,
        DerivedOperation::Ratio | DerivedOperation::PctChange => 2,
        // An average is a whole-family candidate; percentage-point differences are looked for
        // between table cells only, never between family pairs.
        DerivedOperation::Average | DerivedOperation::PpDifference => 0,
    }
}

/// Candidates a family of `size` offers: its sum and average (`whole`), or its pairs' results.
pub fn candidates(size: usize, operations: &[DerivedOperation], whole: bool) -> usize {
    if whole {
        let average = usize::from(operations.contains(&DerivedOperation::Average));
        let sum = usize::from(operations.contains(&DerivedOperation::Sum) && size >= 3);
        return average + sum;
    }
    let pairs = size.saturating_mul(size.saturating_sub(1)) / 2;
    operations
        .iter()
        .map(|operation| per_pair(*operation))
        .sum::<usize>()
        .saturating_mul(pairs)
}

/// Python's `min`/`max` of two floats: the first unless the second is strictly smaller/larger.
fn py_min(first: f64, second: f64) -> f64 {
    if second < first {
        second
    } else {
        first
    }
}

fn py_max(first: f64, second: f64) -> f64 {
    if second > first {
        second
    } else {
        first
    }
}

/// The values a partner may take so that the pair's result is within `reach` of `goal`. Sums,
/// differences and products pair `own` with a larger-or-equal partner (each pair once); ratios and
/// changes take `own` as the denominator and look for the numerator.
fn partner_window(
    operation: DerivedOperation,
    own: f64,
    goal: f64,
    reach: f64,
    percent: bool,
) -> Option<(f64, f64)> {
    let (low, high) = (goal - reach, goal + reach);
    let bounds = match operation {
        DerivedOperation::Sum => return Some((low - own, high - own)),
        DerivedOperation::Difference => return Some((own + low, own + high)),
        _ if own == 0.0 => return None,
        DerivedOperation::Product => (low / own, high / own),
        DerivedOperation::Ratio => {
            let scale = if percent { own / 100.0 } else { own };
            (low * scale, high * scale)
        }
        DerivedOperation::PctChange => (own * (1.0 + low / 100.0), own * (1.0 + high / 100.0)),
        DerivedOperation::Average | DerivedOperation::PpDifference => return None,
    };
    Some((py_min(bounds.0, bounds.1), py_max(bounds.0, bounds.1)))
}

fn apply(operation: DerivedOperation, partner: f64, own: f64, percent: bool) -> f64 {
    match operation {
        DerivedOperation::Sum => partner + own,
        DerivedOperation::Difference => partner - own,
        DerivedOperation::Product => partner * own,
        DerivedOperation::Ratio => partner / own * if percent { 100.0 } else { 1.0 },
        DerivedOperation::PctChange
        | DerivedOperation::Average
        | DerivedOperation::PpDifference => (partner - own) / own * 100.0,
    }
}

/// Operands as the formula reads them: the numerator or the newer value first; a sum or product
/// in document order.
fn formula_order(operation: DerivedOperation, partner: usize, own: usize) -> [usize; 2] {
    match operation {
        DerivedOperation::Ratio | DerivedOperation::PctChange | DerivedOperation::Difference => {
            [partner, own]
        }
        _ if own < partner => [own, partner],
        _ => [partner, own],
    }
}

/// The first position in `values[from..]` whose value is not below `low` (`bisect.bisect_left`).
fn bisect_left(values: &[f64], low: f64, from: usize) -> usize {
    let tail = values.get(from..).unwrap_or_default();
    from + tail.partition_point(|value| *value < low)
}

/// Offers `best` the pairs of a family (`ordered`: members sorted by value, `values` their
/// values) whose `operation` lands within reach of the target; members of two different
/// currencies never pair.
pub fn pairs<C: PartialEq>(
    operation: DerivedOperation,
    ordered: &[usize],
    values: &[f64],
    currencies: &[Option<C>],
    target: &PairTarget,
    best: &mut Best,
) {
    let goal = match operation {
        DerivedOperation::PctChange => target.change,
        DerivedOperation::Difference => target.value.abs(),
        _ => target.value,
    };
    let ordered_pair = matches!(
        operation,
        DerivedOperation::Ratio | DerivedOperation::PctChange
    );
    let count = values.len().min(ordered.len());
    for (i, own) in values.iter().take(count).enumerate() {
        let Some((low, high)) = partner_window(operation, *own, goal, target.reach, target.percent)
        else {
            continue;
        };
        let mut position = bisect_left(&values[..count], low, if ordered_pair { 0 } else { i + 1 });
        let end = count.min(position + SCAN);
        while position < end && values[position] <= high {
            if position != i {
                let (first, second) = (ordered[position], ordered[i]);
                let paired = match (currencies.get(first), currencies.get(second)) {
                    (Some(Some(one)), Some(Some(other))) => one == other,
                    _ => true,
                };
                if paired {
                    let result = apply(operation, values[position], *own, target.percent);
                    let pair = formula_order(operation, first, second);
                    best.offer((result - goal).abs(), operation, &pair, result);
                }
            }
            position += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DerivedOperation::{Difference, PctChange, Ratio, Sum};

    fn target(value: f64, reach: f64) -> PairTarget {
        PairTarget {
            value,
            change: value,
            reach,
            percent: false,
        }
    }

    #[test]
    fn finds_the_pair_whose_sum_is_the_figure() {
        let values = [10.0, 20.5, 31.25, 40.0];
        let ordered = [3, 0, 2, 1];
        let currencies: [Option<&str>; 4] = [None; 4];
        let mut best = Best::default();
        pairs(
            Sum,
            &ordered,
            &values,
            &currencies,
            &target(51.75, 0.005),
            &mut best,
        );
        assert_eq!(best.operation, Some(Sum));
        assert_eq!(best.operands, vec![0, 2]); // 20.5 is member 0, 31.25 member 2
        assert_eq!(best.value, 51.75);
    }

    #[test]
    fn a_change_reads_the_newer_value_first_and_currencies_must_agree() {
        let values = [100.0, 125.0];
        let mut best = Best::default();
        pairs(
            PctChange,
            &[0, 1],
            &values,
            &[Some("USD"), Some("EUR")],
            &target(25.0, 0.05),
            &mut best,
        );
        assert_eq!(best.operation, None);
        pairs(
            PctChange,
            &[0, 1],
            &values,
            &[Some("USD"), None],
            &target(25.0, 0.05),
            &mut best,
        );
        assert_eq!(best.operands, vec![1, 0]);
        assert_eq!(best.value, 25.0);
    }

    #[test]
    fn counts_what_the_search_compares() {
        assert_eq!(candidates(5, &[Sum, Ratio], false), 30);
        assert_eq!(candidates(2, &[Sum, DerivedOperation::Average], true), 1);
        assert_eq!(candidates(3, &[Sum, DerivedOperation::Average], true), 2);
        assert_eq!(candidates(4, &[Difference], false), 6);
    }
}
