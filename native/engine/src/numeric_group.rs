//! One group of evidence values sorted for range queries (`_NumericGroup` of `scoring/index.py`).
//! Queries are lazy iterators over positions in sorted order, charging the work budget as Python's
//! generators do: a probe when the query starts, a candidate per value it yields, so a caller
//! that stops early pays what it read. Each query reads a bounded number of values.

use std::cmp::Ordering;

use crate::budget::{WorkBudget, CANDIDATE, PROBE};
use crate::digits::VariantWindows;

/// Values a range query yields at most: evidence repeating one value costs O(1).
pub const PER_RANGE: usize = 32;
/// Values one digit-variant window yields at most.
pub const PER_WINDOW: usize = 8;

#[derive(Debug, Clone)]
pub struct NumericGroup {
    /// `order[i]`: the position in the caller's list of `values()[i]`.
    pub order: Vec<usize>,
    /// The values in ascending order (a stable sort: equal values keep their order), and an
    /// infinite fence after them: every window start can be read.
    fenced: Vec<f64>,
}

/// A key whose integer order is the floats' order (NaN aside), -0.0 and 0.0 one key as they
/// compare equal.
fn order_key(value: f64) -> u64 {
    let bits = (value + 0.0).to_bits(); // -0.0 + 0.0 is 0.0
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

fn bisect_left(values: &[f64], value: f64) -> usize {
    values.partition_point(|at| *at < value)
}

fn bisect_right(values: &[f64], value: f64) -> usize {
    values.partition_point(|at| *at <= value)
}

impl NumericGroup {
    pub fn new(values: &[f64]) -> Self {
        let order: Vec<usize> = if values.iter().any(|v| v.is_nan()) {
            // NaN compares equal to everything here: the order is the algorithm's, kept as it was.
            let mut order: Vec<usize> = (0..values.len()).collect();
            order.sort_by(|a, b| {
                values[*a]
                    .partial_cmp(&values[*b])
                    .unwrap_or(Ordering::Equal)
            });
            order
        } else {
            // A total order: (key, position) pairs are distinct, so any sort of them gives the one
            // stable order, comparing integers.
            let mut pairs: Vec<(u64, usize)> =
                values.iter().map(|v| order_key(*v)).zip(0..).collect();
            pairs.sort_unstable();
            pairs.into_iter().map(|(_, at)| at).collect()
        };
        let mut fenced = Vec::with_capacity(values.len() + 1);
        fenced.extend(order.iter().map(|at| values[*at]));
        fenced.push(f64::INFINITY);
        NumericGroup { order, fenced }
    }

    /// The values in ascending order.
    pub fn values(&self) -> &[f64] {
        self.fenced.split_last().map_or(&[], |(_, values)| values)
    }

    /// Values in `[low, high]`, at most `PER_RANGE`.
    pub fn within<'a>(&'a self, low: f64, high: f64, budget: &'a mut WorkBudget) -> Within<'a> {
        Within {
            values: self.values(),
            budget,
            low,
            high,
            position: None,
            end: 0,
        }
    }

    pub fn count(&self, low: f64, high: f64) -> usize {
        let values = self.values();
        bisect_right(values, high).saturating_sub(bisect_left(values, low))
    }

    /// Up to `limit` values in `[low, high]`, nearest to `target` first (the right one on a tie).
    pub fn nearest(
        &self,
        target: f64,
        low: f64,
        high: f64,
        limit: usize,
        budget: &mut WorkBudget,
    ) -> Vec<usize> {
        budget.left -= PROBE;
        let values = self.values();
        let mut right = bisect_left(values, target);
        let mut left = right.checked_sub(1);
        let mut found = Vec::new();
        while found.len() < limit {
            let left_value = left.map(|at| values[at]).filter(|value| *value >= low);
            let right_value = values.get(right).copied().filter(|value| *value <= high);
            let take_right = match (left_value, right_value) {
                (None, None) => break,
                (None, Some(_)) => true,
                (Some(_), None) => false,
                (Some(l), Some(r)) => r - target <= target - l,
            };
            budget.left -= CANDIDATE;
            if take_right {
                found.push(right);
                right += 1;
            } else if let Some(at) = left {
                found.push(at);
                left = at.checked_sub(1);
            }
        }
        found
    }

    /// Values inside any window of `windows` (`PER_WINDOW` at most each), in window order;
    /// `negative`: the windows mirrored below zero.
    pub fn in_windows<'a>(
        &'a self,
        windows: &'a VariantWindows,
        negative: bool,
        budget: &'a mut WorkBudget,
    ) -> InWindows<'a> {
        InWindows {
            group: self,
            windows,
            negative,
            budget,
            started: false,
            run: 0,
            spans: Vec::new(),
            span: 0,
            position: 0,
            end: 0,
        }
    }
}

/// The iterator of `NumericGroup::within`.
pub struct Within<'a> {
    values: &'a [f64],
    budget: &'a mut WorkBudget,
    low: f64,
    high: f64,
    position: Option<usize>,
    end: usize,
}

impl Iterator for Within<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let position = match self.position {
            Some(position) => position,
            None => {
                self.budget.left -= PROBE;
                let start = bisect_left(self.values, self.low);
                self.end = self.values.len().min(start + PER_RANGE);
                start
            }
        };
        if position < self.end && self.values[position] <= self.high {
            self.budget.left -= CANDIDATE;
            self.position = Some(position + 1);
            Some(position)
        } else {
            self.position = Some(self.end);
            None
        }
    }
}

/// The iterator of `NumericGroup::in_windows`.
pub struct InWindows<'a> {
    group: &'a NumericGroup,
    windows: &'a VariantWindows,
    negative: bool,
    budget: &'a mut WorkBudget,
    started: bool,
    /// The next run to look at.
    run: usize,
    /// The windows of the current run that hold a value: (first position, high).
    spans: Vec<(usize, f64)>,
    span: usize,
    position: usize,
    end: usize,
}

impl InWindows<'_> {
    /// Whether run `index`'s span holds a value (its first value at or after the span's start).
    fn run_holds(&self, index: usize) -> bool {
        let (firsts, lasts) = (&self.windows.firsts, &self.windows.lasts);
        let (Some(first), Some(last)) = (firsts.get(index), lasts.get(index)) else {
            return false;
        };
        let (low, high) = if self.negative {
            (-*last, -*first)
        } else {
            (*first, *last)
        };
        let fenced = &self.group.fenced;
        fenced
            .get(bisect_left(fenced, low))
            .is_some_and(|value| *value <= high)
    }

    /// The windows of run `index` whose first value lies inside them.
    fn spans_of(&mut self, index: usize) -> Vec<(usize, f64)> {
        let Some(run) = self.windows.runs.get(index) else {
            return Vec::new();
        };
        let centers = run.centers.values();
        self.budget.left -= PROBE * centers.len() as i64;
        let fenced = &self.group.fenced;
        centers
            .iter()
            .filter_map(|center| {
                // Python multiplies the int centre as a float (correctly rounded, as `as` is).
                let at = *center as f64 * run.unit;
                let (low, high) = if self.negative {
                    (-(at + run.reach), -(at - run.reach))
                } else {
                    (at - run.reach, at + run.reach)
                };
                let start = bisect_left(fenced, low);
                fenced
                    .get(start)
                    .is_some_and(|value| *value <= high)
                    .then_some((start, high))
            })
            .collect()
    }
}

impl InWindows<'_> {
    /// Starts reading the window `span` of the current run, if there is one.
    fn enter(&mut self, span: usize) -> bool {
        self.span = span;
        let Some(&(start, _)) = self.spans.get(span) else {
            return false;
        };
        self.position = start;
        self.end = (start + PER_WINDOW).min(self.group.values().len()); // never the fence itself
        true
    }
}

impl Iterator for InWindows<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if !self.started {
            self.started = true;
            self.budget.left -= PROBE * self.windows.runs.len() as i64;
        }
        loop {
            if let Some(&(_, high)) = self.spans.get(self.span) {
                let position = self.position;
                if position < self.end && self.group.fenced[position] <= high {
                    self.budget.left -= CANDIDATE;
                    self.position += 1;
                    return Some(position);
                }
                if self.enter(self.span + 1) {
                    continue;
                }
            }
            // The next run whose span holds a value.
            let index = (self.run..self.windows.runs.len()).find(|index| self.run_holds(*index))?;
            self.run = index + 1;
            self.spans = self.spans_of(index);
            self.enter(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::{Centers, WindowRun};

    #[test]
    fn within_yields_a_bounded_run_and_charges_what_it_reads() {
        let group = NumericGroup::new(&[5.0, 1.0, 3.0, 3.0, 9.0]);
        assert_eq!(group.order, vec![1, 2, 3, 0, 4]);
        let mut budget = WorkBudget::new(100);
        let found: Vec<usize> = group.within(2.0, 5.0, &mut budget).collect();
        assert_eq!(found, vec![1, 2, 3]);
        assert_eq!(budget.left, 100 - PROBE - 3 * CANDIDATE);
        assert_eq!(group.count(2.0, 5.0), 3);
    }

    #[test]
    fn the_order_is_the_stable_sort_of_the_floats() {
        let values = [
            0.0,
            -0.0,
            -1.0,
            0.0,
            f64::NEG_INFINITY,
            5e-324,
            -5e-324,
            -0.0,
            1e308,
        ];
        let mut stable: Vec<usize> = (0..values.len()).collect();
        stable.sort_by(|a, b| {
            values[*a]
                .partial_cmp(&values[*b])
                .unwrap_or(Ordering::Equal)
        });
        let group = NumericGroup::new(&values);
        assert_eq!(group.order, stable);
        assert_eq!(group.order[3..7], [0, 1, 3, 7]); // the zeros, as read
        assert_eq!(group.values().len(), values.len());
    }

    #[test]
    fn nearest_prefers_the_right_value_on_a_tie() {
        let group = NumericGroup::new(&[1.0, 3.0, 5.0]);
        let mut budget = WorkBudget::new(100);
        assert_eq!(group.nearest(4.0, 0.0, 10.0, 2, &mut budget), vec![2, 1]);
    }

    #[test]
    fn windows_yield_the_values_inside_them() {
        let group = NumericGroup::new(&[12.0, 21.0, 120.0, 400.0]);
        let windows = VariantWindows {
            runs: vec![WindowRun {
                centers: Centers::List(vec![12, 21, 30]),
                unit: 1.0,
                reach: 0.5,
            }],
            firsts: vec![11.5],
            lasts: vec![30.5],
        };
        let mut budget = WorkBudget::new(100);
        let found: Vec<usize> = group.in_windows(&windows, false, &mut budget).collect();
        assert_eq!(found, vec![0, 1]);
        assert_eq!(budget.left, 100 - 1 - 3 - 2 * CANDIDATE);
    }
}
