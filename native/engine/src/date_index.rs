//! The date part of the evidence index (`EvidenceIndex.dates` of `scoring/index.py`): evidence
//! date readings by the components they state. One table per component mask, built on first use
//! (most answers only ever ask for full dates); a lookup reads the head of one bucket.

use crate::budget::{WorkBudget, CANDIDATE, PROBE};
use crate::fxhash::FxHashMap;
use crate::numeric_group::PER_RANGE;

/// (year, month, day); a coarser date leaves trailing components `None`.
pub type Reading = (Option<i64>, Option<i64>, Option<i64>);

pub const YEAR: u8 = 4;
pub const MONTH: u8 = 2;
pub const DAY: u8 = 1;
/// Raw JSON integers in this range also count as years (`{"born": 1810}`).
const YEARS: std::ops::RangeInclusive<f64> = 1000.0..=2099.0;

/// The components a reading states.
pub fn date_mask(reading: &Reading) -> u8 {
    (if reading.0.is_some() { YEAR } else { 0 })
        | (if reading.1.is_some() { MONTH } else { 0 })
        | (if reading.2.is_some() { DAY } else { 0 })
}

type Key = (u8, Option<i64>, Option<i64>, Option<i64>);
/// One mask's table: readings by the components the mask names, exact granularity first.
type Table = FxHashMap<Key, Vec<(DateEntry, Reading)>>;

fn key(mask: u8, reading: &Reading) -> Key {
    (
        mask,
        reading.0.filter(|_| mask & YEAR != 0),
        reading.1.filter(|_| mask & MONTH != 0),
        reading.2.filter(|_| mask & DAY != 0),
    )
}

/// What a date lookup returns: a date atom of the evidence, or a raw integer read as a year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateEntry {
    /// The evidence date atom at this position (in the order the index was given them).
    Atom(usize),
    /// The corpus scalar at this position.
    Scalar(usize),
}

/// A raw scalar as the year table reads it: its value and whether JSON wrote it as a float.
#[derive(Debug, Clone, Copy)]
pub struct RawYear {
    pub value: f64,
    pub float_literal: bool,
}

pub struct DateIndex {
    /// (atom position, reading, its mask) for every reading of every evidence date atom.
    readings: Vec<(usize, Reading, u8)>,
    scalars: Vec<RawYear>,
    /// One table per component mask (0..8), made on first use.
    tables: [Option<Table>; 8],
}

impl DateIndex {
    /// `readings`: (i, a reading of the i-th evidence date atom); `scalars`: the corpus's scalars.
    pub fn new(readings: Vec<(usize, Reading)>, scalars: Vec<RawYear>) -> Self {
        let readings = readings
            .into_iter()
            .map(|(atom, reading)| (atom, reading, date_mask(&reading)))
            .collect();
        DateIndex {
            readings,
            scalars,
            tables: Default::default(),
        }
    }

    fn table(&self, mask: u8) -> Table {
        let mut table = Table::default();
        if mask == YEAR {
            for (position, raw) in self.scalars.iter().enumerate() {
                let year = raw.value;
                if YEARS.contains(&year) && year.fract() == 0.0 && !raw.float_literal {
                    let reading = (Some(year as i64), None, None);
                    table
                        .entry(key(YEAR, &reading))
                        .or_default()
                        .push((DateEntry::Scalar(position), reading));
                }
            }
        }
        // Readings of exactly this granularity first: lookups read only the head of a bucket.
        let mut coarser = Vec::new();
        for (atom, reading, stated) in &self.readings {
            if *stated == mask {
                table
                    .entry((mask, reading.0, reading.1, reading.2))
                    .or_default()
                    .push((DateEntry::Atom(*atom), *reading));
            } else if stated & mask == mask {
                coarser.push((key(mask, reading), *atom, *reading));
            }
        }
        for (key, atom, reading) in coarser {
            table
                .entry(key)
                .or_default()
                .push((DateEntry::Atom(atom), reading));
        }
        table
    }

    /// Evidence readings that state every component of `mask` with `reading`'s values, the
    /// first `PER_RANGE` of them.
    pub fn dates(
        &mut self,
        mask: u8,
        reading: &Reading,
        budget: &mut WorkBudget,
    ) -> &[(DateEntry, Reading)] {
        let slot = usize::from(mask & 7);
        if self.tables.get(slot).is_some_and(Option::is_none) {
            let table = self.table(mask);
            if let Some(free) = self.tables.get_mut(slot) {
                *free = Some(table);
            }
        }
        let head: &[(DateEntry, Reading)] = self
            .tables
            .get(slot)
            .and_then(Option::as_ref)
            .and_then(|table| table.get(&key(mask, reading)))
            .map(|bucket| bucket.get(..PER_RANGE).unwrap_or(bucket))
            .unwrap_or_default();
        budget.left -= PROBE + CANDIDATE * head.len() as i64;
        head
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_granularity_first_then_fuller_dates_and_raw_years() {
        let atoms = vec![
            (0, (Some(2025), Some(3), Some(4))),
            (1, (Some(2025), None, None)),
        ];
        let scalars = vec![
            RawYear {
                value: 2025.0,
                float_literal: false,
            },
            RawYear {
                value: 2025.0,
                float_literal: true,
            },
        ];
        let mut index = DateIndex::new(atoms, scalars);
        let mut budget = WorkBudget::new(100);
        let found = index.dates(YEAR, &(Some(2025), None, None), &mut budget);
        let entries: Vec<DateEntry> = found.iter().map(|(entry, _)| *entry).collect();
        assert_eq!(
            entries,
            vec![DateEntry::Scalar(0), DateEntry::Atom(1), DateEntry::Atom(0)]
        );
        assert_eq!(budget.left, 100 - PROBE - 3 * CANDIDATE);
        assert_eq!(date_mask(&(Some(1), None, Some(3))), YEAR | DAY);
    }
}
