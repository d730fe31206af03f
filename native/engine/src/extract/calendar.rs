//! Calendar readings of date atoms (the former Python engine's `extract/dates.py`): validation, numeric orders,
//! two-digit years (POSIX pivot: 00-68 are 2000-2068, 69-99 are 1969-1999), relative days.

use super::locales::{DateOrder, DATE_ORDERS};
use crate::atoms::Reading;

const DAYS_IN_MONTH: [u32; 12] = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/// A calendar day, the anchor of relative dates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Day {
    pub year: i64,
    pub month: u32,
    pub day: u32,
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Whether the components name a real date; a missing year allows 29 February.
pub fn is_valid(year: Option<i64>, month: Option<u32>, day: Option<u32>) -> bool {
    let Some(month) = month else {
        return day.is_none() && year.is_some();
    };
    if !(1..=12).contains(&month) {
        return false;
    }
    let Some(day) = day else {
        return true;
    };
    if month == 2 && day == 29 {
        if let Some(year) = year {
            return is_leap(year);
        }
    }
    DAYS_IN_MONTH
        .get(month as usize - 1)
        .is_some_and(|days| (1..=*days).contains(&day))
}

/// The year of a written year (ASCII digits); two digits pivot at 69 like POSIX.
pub fn full_year(written: &str) -> i64 {
    let year = number(written);
    if written.len() == 2 {
        year + if year < 69 { 2000 } else { 1900 }
    } else {
        year
    }
}

/// The value of a run of ASCII digits (the grammar bounds their length).
pub fn number(digits: &str) -> i64 {
    digits.bytes().fold(0i64, |n, b| {
        n.saturating_mul(10)
            .saturating_add(i64::from(b.wrapping_sub(b'0')))
    })
}

/// Every valid reading of `first/second/year` under `orders`; when none is valid, those of the
/// other orders; `None` when no order reads a real date.
pub fn numeric_readings(
    first: &str,
    second: &str,
    year: &str,
    orders: &[DateOrder],
) -> Option<Vec<Reading>> {
    let (y, a, b) = (full_year(year), number(first), number(second));
    let others: Vec<DateOrder> = DATE_ORDERS
        .into_iter()
        .filter(|o| !orders.contains(o))
        .collect();
    let mut readings = readings_of(y, a, b, orders);
    if readings.is_empty() {
        readings = readings_of(y, a, b, &others);
    }
    (!readings.is_empty()).then_some(readings)
}

fn readings_of(year: i64, a: i64, b: i64, orders: &[DateOrder]) -> Vec<Reading> {
    let mut readings: Vec<Reading> = Vec::new();
    for order in orders {
        let (month, day) = match order {
            DateOrder::Mdy => (a, b),
            DateOrder::Dmy => (b, a),
        };
        let (Ok(month), Ok(day)) = (u32::try_from(month), u32::try_from(day)) else {
            continue;
        };
        let reading = (Some(year), Some(month), Some(day));
        if is_valid(Some(year), Some(month), Some(day)) && !readings.contains(&reading) {
            readings.push(reading);
        }
    }
    readings
}

/// One reading, or `None` if it is not a real date.
pub fn single(year: Option<i64>, month: Option<u32>, day: Option<u32>) -> Option<Vec<Reading>> {
    is_valid(year, month, day).then(|| vec![(year, month, day)])
}

/// Days since 0000-03-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(day: Day) -> i64 {
    let year = day.year - i64::from(day.month <= 2);
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(day.month);
    let day_of_year =
        (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + i64::from(day.day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era
}

fn civil_from_days(days: i64) -> Day {
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    Day {
        year,
        month: u32::try_from(month).unwrap_or(1),
        day: u32::try_from(day).unwrap_or(1),
    }
}

/// The day `days` after `anchor` (negative: before); `None` outside Python's `date` range.
pub fn shifted(anchor: Day, days: i64) -> Option<Vec<Reading>> {
    let day = civil_from_days(days_from_civil(anchor).checked_add(days)?);
    (1..=9999)
        .contains(&day.year)
        .then(|| vec![(Some(day.year), Some(day.month), Some(day.day))])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_fall_back_to_the_other_order() {
        let mdy = [DateOrder::Mdy];
        assert_eq!(
            numeric_readings("03", "04", "2025", &mdy),
            Some(vec![(Some(2025), Some(3), Some(4))])
        );
        assert_eq!(
            numeric_readings("15", "04", "25", &mdy),
            Some(vec![(Some(2025), Some(4), Some(15))])
        );
        assert_eq!(numeric_readings("15", "14", "2025", &mdy), None);
        assert_eq!(full_year("69"), 1969);
    }

    #[test]
    fn shifts_across_months_and_out_of_range() {
        let anchor = Day {
            year: 2024,
            month: 3,
            day: 1,
        };
        assert_eq!(
            shifted(anchor, -1),
            Some(vec![(Some(2024), Some(2), Some(29))])
        );
        assert_eq!(
            shifted(
                Day {
                    year: 9999,
                    month: 12,
                    day: 31
                },
                1
            ),
            None
        );
        assert_eq!(
            shifted(
                Day {
                    year: 1,
                    month: 1,
                    day: 1
                },
                -1
            ),
            None
        );
    }
}
