//! The time part of the evidence index: evidence times by the clock they show (wall clock as
//! written, and in UTC when their zone is known), by hour and by minute for a changed one. A
//! lookup reads the head of one bucket: its cost never grows with the evidence.

use std::collections::HashMap;

use crate::atoms::{Clock, Zone};
use crate::budget::{WorkBudget, CANDIDATE, PROBE};
use crate::numeric_group::PER_RANGE;

const DAY: i32 = 24 * 60;

/// What a bucket holds: times showing this clock, hour or minute, as written or in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeKey {
    Wall(u16),
    WallHour(u16),
    WallMinute(u16),
    Utc(u16),
    UtcHour(u16),
    UtcMinute(u16),
}

/// The minutes since midnight UTC `clock` may stand for (none without a zone), each once.
pub fn utc_minutes(clock: &Clock) -> Vec<u16> {
    let Some(zone) = &clock.zone else {
        return Vec::new();
    };
    let mut found: Vec<u16> = zone
        .offsets
        .iter()
        .filter_map(|offset| {
            let utc = (i32::from(clock.minutes()) - i32::from(*offset)).rem_euclid(DAY);
            u16::try_from(utc).ok()
        })
        .collect();
    found.dedup();
    found
}

/// Two zones agree when either is unstated or they share an offset ("PT" and "-07:00").
pub fn zones_agree(first: Option<&Zone>, second: Option<&Zone>) -> bool {
    match (first, second) {
        (Some(a), Some(b)) => a.offsets.iter().any(|offset| b.offsets.contains(offset)),
        _ => true,
    }
}

/// Seconds agree when either is unstated or they are equal.
pub fn seconds_agree(first: &Clock, second: &Clock) -> bool {
    match (first.second, second.second) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// The keys `clock` is filed under.
fn keys(clock: &Clock) -> Vec<TimeKey> {
    let wall = clock.minutes();
    let mut keys = vec![
        TimeKey::Wall(wall),
        TimeKey::WallHour(wall / 60),
        TimeKey::WallMinute(wall % 60),
    ];
    for utc in utc_minutes(clock) {
        keys.extend([
            TimeKey::Utc(utc),
            TimeKey::UtcHour(utc / 60),
            TimeKey::UtcMinute(utc % 60),
        ]);
    }
    keys
}

#[derive(Debug, Default)]
pub struct TimeIndex {
    by_key: HashMap<TimeKey, Vec<usize>>,
}

impl TimeIndex {
    /// The index of `clocks[i]`, in document order.
    pub fn new<'a>(clocks: impl IntoIterator<Item = &'a Clock>) -> Self {
        let mut index = TimeIndex::default();
        for (position, clock) in clocks.into_iter().enumerate() {
            for key in keys(clock) {
                let bucket = index.by_key.entry(key).or_default();
                if bucket.last() != Some(&position) {
                    bucket.push(position);
                }
            }
        }
        index
    }

    /// The first `PER_RANGE` evidence times filed under `key`, in document order.
    pub fn times(&self, key: TimeKey, budget: &mut WorkBudget) -> Vec<usize> {
        let head: Vec<usize> = self
            .by_key
            .get(&key)
            .map(|bucket| bucket.iter().take(PER_RANGE).copied().collect())
            .unwrap_or_default();
        budget.left -= PROBE + CANDIDATE * head.len() as i64;
        head
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(hour: u8, minute: u8, zone: Option<(&str, i16, i16)>) -> Clock {
        Clock {
            hour,
            minute,
            second: None,
            zone: zone.map(|(label, a, b)| Zone {
                label: label.to_owned(),
                offsets: [a, b],
            }),
        }
    }

    #[test]
    fn times_are_filed_by_wall_clock_and_by_utc() {
        let clocks = [
            clock(14, 5, Some(("UTC", 0, 0))),
            clock(7, 5, Some(("-07:00", -420, -420))),
            clock(9, 30, None),
        ];
        let index = TimeIndex::new(&clocks);
        let mut budget = WorkBudget::new(100);
        assert_eq!(index.times(TimeKey::Utc(14 * 60 + 5), &mut budget), [0, 1]);
        assert_eq!(index.times(TimeKey::Wall(7 * 60 + 5), &mut budget), [1]);
        assert_eq!(index.times(TimeKey::WallMinute(5), &mut budget), [0, 1]);
        assert!(index
            .times(TimeKey::Utc(9 * 60 + 30), &mut budget)
            .is_empty());
        assert_eq!(budget.left, 100 - 4 * PROBE - 5 * CANDIDATE);
    }

    #[test]
    fn zones_agree_when_they_share_an_offset_or_one_is_unstated() {
        let pt = clock(7, 5, Some(("PT", -480, -420)));
        let minus7 = clock(7, 5, Some(("-07:00", -420, -420)));
        let utc = clock(7, 5, Some(("UTC", 0, 0)));
        assert!(zones_agree(pt.zone.as_ref(), minus7.zone.as_ref()));
        assert!(!zones_agree(pt.zone.as_ref(), utc.zone.as_ref()));
        assert!(zones_agree(None, utc.zone.as_ref()));
        assert_eq!(utc_minutes(&pt), [15 * 60 + 5, 14 * 60 + 5]);
        assert_eq!(
            utc_minutes(&clock(23, 0, Some(("-02:00", -120, -120)))),
            [60]
        );
    }
}
