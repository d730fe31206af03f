//! Digit-level relations between figures: transposed, changed, dropped or added digits
//! (`scoring/digits.py`).
//!
//! A figure is reduced to its mantissa (significant digits, trailing zeros removed) and decimal
//! exponent, so `$1,243,500`, `1243500.00` and `1.2435e6` all read `("12435", 6)`.

use crate::fxhash::FxHashSet as HashSet;
use crate::vocabulary::Reason;

/// Beyond float precision a digit comparison means nothing.
pub const MAX_MANTISSA_DIGITS: usize = 15;

/// A power of ten past the float range: Python's `10.0 ** n` raises `OverflowError` there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// `10.0 ** exponent` as CPython computes it (C `pow`; an infinite result is an error, an
/// underflow is 0).
fn power_of_ten(exponent: i64) -> Result<f64, Overflow> {
    let power = 10f64.powf(exponent as f64);
    if power.is_infinite() {
        Err(Overflow)
    } else {
        Ok(power)
    }
}

/// Significant digits (ASCII, no trailing zero) and the power of ten of the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mantissa {
    pub digits: String,
    pub exponent: i32,
}

/// An evidence mantissa one digit-level edit from the answer's, with the exponents it may have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub digits: String,
    pub reason: Reason,
    pub exponents: (i32, Option<i32>),
}

/// Mantissa and exponent of a non-zero finite `value` (12 significant digits at most).
pub fn mantissa(value: f64) -> Option<Mantissa> {
    if value == 0.0 || !value.is_finite() {
        return None;
    }
    let (digits, exponent) = scientific(value, 11)?;
    Some(Mantissa {
        digits: digits.trim_end_matches('0').to_owned(),
        exponent,
    })
}

/// The digits and exponent of `|value|` written with `decimals` digits after the point, correctly
/// rounded, ties to even (Python's `f"{abs(value):.{decimals}e}"`).
fn scientific(value: f64, decimals: usize) -> Option<(String, i32)> {
    let text = format!("{:.*e}", decimals, value.abs());
    let (mantissa, exponent) = text.split_once('e')?;
    Some((mantissa.replace('.', ""), exponent.parse().ok()?))
}

/// Every mantissa one digit-level edit away from `of`, with the exponents it may have, in the
/// order Python finds them. The answer's digits are padded with one zero so an edit just past its
/// last significant digit (`1,243,500` vs `1,243,050`) is found too; no leading zero is produced.
pub fn variants(of: &Mantissa) -> Vec<Variant> {
    let digits = of.digits.as_bytes();
    if digits.len() > MAX_MANTISSA_DIGITS {
        return Vec::new();
    }
    let same = (of.exponent, None);
    let mut found: Vec<Variant> = Vec::new();
    // A key (at most 16 digits, no leading zero) is known by its value.
    let mut seen: HashSet<u64> = HashSet::default();
    let mut add = |candidate: &[u8], reason: Reason, exponents: (i32, Option<i32>)| {
        if !matches!(candidate.first(), Some(first) if *first != b'0') {
            return;
        }
        let end = candidate
            .iter()
            .rposition(|d| *d != b'0')
            .map_or(0, |i| i + 1);
        let key = candidate.get(..end).unwrap_or_default();
        let value = key.iter().fold(0u64, |value, d| {
            value.wrapping_mul(10).wrapping_add(u64::from(d - b'0'))
        });
        if !key.is_empty() && key != digits && seen.insert(value) {
            found.push(Variant {
                digits: String::from_utf8_lossy(key).into_owned(),
                reason,
                exponents,
            });
        }
    };
    let mut padded = digits.to_vec();
    padded.push(b'0');
    let mut candidate = padded.clone();
    for i in 0..padded.len() - 1 {
        if padded.get(i) != padded.get(i + 1) {
            candidate.swap(i, i + 1);
            add(&candidate, Reason::DigitTransposition, same);
            candidate.swap(i, i + 1);
        }
    }
    for (i, current) in padded.iter().enumerate() {
        for digit in (b'0'..=b'9').filter(|digit| digit != current) {
            if let Some(place) = candidate.get_mut(i) {
                *place = digit;
            }
            add(&candidate, Reason::DigitChanged, same);
        }
        if let Some(place) = candidate.get_mut(i) {
            *place = *current;
        }
    }
    // The evidence has one digit more than the answer (the answer dropped it) or one less.
    let longer = (of.exponent, Some(of.exponent + 1));
    for i in 0..=digits.len() {
        candidate.clear();
        candidate.extend(digits.get(..i).unwrap_or_default());
        candidate.push(b'0');
        candidate.extend(digits.get(i..).unwrap_or_default());
        for digit in b'0'..=b'9' {
            if let Some(place) = candidate.get_mut(i) {
                *place = digit;
            }
            add(&candidate, Reason::DigitDropped, longer);
        }
    }
    for i in 0..digits.len() {
        candidate.clear();
        candidate.extend(digits.get(..i).unwrap_or_default());
        candidate.extend(digits.get(i + 1..).unwrap_or_default());
        // Without its last digit at the same magnitude the answer is merely rounded.
        let exponents = if i + 1 < digits.len() {
            (of.exponent, Some(of.exponent - 1))
        } else {
            (of.exponent - 1, None)
        };
        add(&candidate, Reason::DigitAdded, exponents);
    }
    found
}

/// The integer centres of a run of windows: `range(start, stop, step)` or listed.
#[derive(Debug, Clone, PartialEq)]
pub enum Centers {
    Range { start: i64, stop: i64, step: i64 },
    List(Vec<i64>),
}

impl Centers {
    /// The centres in order (a range as Python's `range` yields it).
    pub fn values(&self) -> Vec<i64> {
        match self {
            Centers::Range { start, stop, step } if *step > 0 => {
                let mut found = Vec::new();
                let mut at = *start;
                while at < *stop {
                    found.push(at);
                    at += step;
                }
                found
            }
            Centers::Range { .. } => Vec::new(),
            Centers::List(centers) => centers.clone(),
        }
    }

    /// The smallest and largest centre, None when there is none.
    fn bounds(&self) -> Option<(i64, i64)> {
        match self {
            Centers::Range { start, stop, step } => {
                let count = (stop - start + step - 1).checked_div(*step)?;
                (count > 0).then(|| (*start, start + (count - 1) * step))
            }
            Centers::List(centers) => Some((*centers.iter().min()?, *centers.iter().max()?)),
        }
    }
}

/// Windows `[c * unit - reach, c * unit + reach]` for each centre `c`.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowRun {
    pub centers: Centers,
    pub unit: f64,
    pub reach: f64,
}

/// Runs of windows, and the span `[firsts[i], lasts[i]]` holding every window of run `i`: one
/// probe of a run's span tells whether any of its windows can hold a value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VariantWindows {
    pub runs: Vec<WindowRun>,
    pub firsts: Vec<f64>,
    pub lasts: Vec<f64>,
}

impl VariantWindows {
    fn with_capacity(runs: usize) -> Self {
        VariantWindows {
            runs: Vec::with_capacity(runs),
            firsts: Vec::with_capacity(runs),
            lasts: Vec::with_capacity(runs),
        }
    }

    fn add(&mut self, centers: Centers, unit: f64, reach: f64) {
        if let Some((first, last)) = centers.bounds() {
            // Python multiplies the int centre as a float (correctly rounded, as `as` is).
            let (first, last) = (first as f64, last as f64);
            self.firsts.push(first * unit - reach);
            self.lasts.push(last * unit + reach);
            self.runs.push(WindowRun {
                centers,
                unit,
                reach,
            });
        }
    }
}

/// Value ranges (positive) holding every figure one digit-level edit from `of`: the arithmetic
/// twin of `variants`, in the same run order as Python; a window may hold more than the edits, so
/// callers confirm with `relation`. Err where Python's `10.0 ** n` overflows (figures near 1e308).
pub fn variant_windows(of: &Mantissa) -> Result<VariantWindows, Overflow> {
    let digits = of.digits.as_bytes();
    let length = digits.len();
    if length > MAX_MANTISSA_DIGITS {
        return Ok(VariantWindows::default());
    }
    // Every run below, sized once: swaps, 2 per changed digit, 2 per inserted, 2 deletions.
    let mut found = VariantWindows::with_capacity(4 * length + 7);
    // At most 15 digits: every integer below stays under 10^17, far inside i64.
    let place: Vec<i64> = digits
        .iter()
        .map(|d| i64::from(d.wrapping_sub(b'0')))
        .chain([0])
        .collect();
    let whole = place.iter().take(length).fold(0i64, |sum, d| sum * 10 + d);
    let ten = |power: usize| (0..power).fold(1i64, |product, _| product * 10);
    let padded = whole * 10; // one trailing zero: an edit just past the last stated digit counts
    let (exponent, width) = (
        i64::from(of.exponent),
        i64::try_from(length).unwrap_or(i64::MAX),
    );
    let unit = power_of_ten(exponent - width)?; // value of the padded last place
    let reach = 5.0 * unit; // half a unit of the answer's last stated place
    let at = |i: usize| place.get(i).copied().unwrap_or(0);
    let swaps = (0..length).map(|i| padded + (at(i + 1) - at(i)) * 9 * ten(length - 1 - i));
    found.add(Centers::List(swaps.collect()), unit, reach);
    let range = |start, stop, step| Centers::Range { start, stop, step };
    for i in 0..=length {
        // One changed digit, never a leading zero.
        let (weight, current) = (ten(length - i), at(i));
        let base = padded - current * weight;
        let first = base + i64::from(i == 0) * weight;
        found.add(range(first, base + current * weight, weight), unit, reach);
        found.add(
            range(base + (current + 1) * weight, base + 10 * weight, weight),
            unit,
            reach,
        );
    }
    for shift in [0, 1] {
        // The evidence has one digit more (the answer dropped it).
        let longer_unit = power_of_ten(exponent + shift - width)?;
        for i in 0..=length {
            let weight = ten(length - i);
            let base = whole / weight * 10 * weight + whole % weight;
            let first = base + i64::from(i == 0) * weight;
            found.add(
                range(first, base + 10 * weight, weight),
                longer_unit,
                longer_unit / 2.0,
            );
        }
    }
    for shift in [0, -1] {
        // The evidence has one digit less (the answer added it).
        let shorter_unit = power_of_ten(exponent + shift - width + 2)?;
        let deleted = (0..length).map(|i| {
            let (head, rest) = (whole / ten(length - i), whole % ten(length - i));
            head * ten(length - i - 1) + rest % ten(length - i - 1)
        });
        found.add(
            Centers::List(deleted.collect()),
            shorter_unit,
            shorter_unit / 2.0,
        );
    }
    Ok(found)
}

/// The figure whose mantissa is `digits` (ASCII digits, as `variants` gives them) and whose
/// leading digit sits at 10^exponent. Err where Python raises `OverflowError`: a power of ten or
/// an integer past the float range (a product past it is infinite, as in Python).
pub fn value_of(digits: &str, exponent: i32, negative: bool) -> Result<f64, Overflow> {
    // `int(digits)` as a float is the correctly rounded value of the digit string.
    let whole: f64 = digits.parse().unwrap_or(f64::NAN);
    if whole.is_infinite() {
        return Err(Overflow);
    }
    let width = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    let value = whole * power_of_ten(i64::from(exponent) - width + 1)?;
    Ok(if negative { -value } else { value })
}

/// Half a unit of the last of `digits`: how far a figure may sit from `value_of` and still read so.
pub fn half_unit(digits: &str, exponent: i32) -> Result<f64, Overflow> {
    let width = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    Ok(0.5 * power_of_ten(i64::from(exponent) - width + 1)?)
}

/// The one digit-level edit between `other` and the answer, or None. Changed and swapped digits
/// compare `other` read at the answer's precision; a dropped or added digit compares `other`'s own
/// digits. Dropping the answer's last digit at the same magnitude is rounding and a dropped
/// trailing zero is a magnitude slip: neither counts.
pub fn relation(answer: &Mantissa, other: f64) -> Option<Reason> {
    let length = answer.digits.len();
    if length > MAX_MANTISSA_DIGITS {
        return None;
    }
    let own = mantissa(other)?;
    let (same_digits, same_exponent) = scientific(other, length.checked_sub(1)?)?;
    if same_exponent == answer.exponent {
        if let Some(reason) = substitution_or_swap(answer.digits.as_bytes(), same_digits.as_bytes())
        {
            return Some(reason);
        }
    }
    let shift = own.exponent - answer.exponent;
    let (own_digits, answer_digits) = (own.digits.as_bytes(), answer.digits.as_bytes());
    if own_digits.len() == length + 1
        && (shift == 0 || shift == 1)
        && drops_one(own_digits, answer_digits, shift == 0)
    {
        return Some(Reason::DigitDropped);
    }
    if own_digits.len() + 1 == length
        && (shift == 0 || shift == -1)
        && drops_one(answer_digits, own_digits, shift == 0)
    {
        return Some(Reason::DigitAdded);
    }
    None
}

fn substitution_or_swap(first: &[u8], second: &[u8]) -> Option<Reason> {
    let mut differences =
        (0..first.len().min(second.len())).filter(|&i| first.get(i) != second.get(i));
    match (differences.next(), differences.next(), differences.next()) {
        (Some(_), None, _) => Some(Reason::DigitChanged),
        (Some(i), Some(j), None)
            if j == i + 1 && first.get(i) == second.get(j) && first.get(j) == second.get(i) =>
        {
            Some(Reason::DigitTransposition)
        }
        _ => None,
    }
}

/// True when deleting one digit of `longer` (not its last when `keep_last`) gives `shorter`.
fn drops_one(longer: &[u8], shorter: &[u8], keep_last: bool) -> bool {
    let positions = if keep_last {
        longer.len().saturating_sub(1)
    } else {
        longer.len()
    };
    (0..positions)
        .any(|i| longer.get(..i) == shorter.get(..i) && longer.get(i + 1..) == shorter.get(i..))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reduced(digits: &str, exponent: i32) -> Mantissa {
        Mantissa {
            digits: digits.to_owned(),
            exponent,
        }
    }

    #[test]
    fn mantissa_keeps_twelve_significant_digits() {
        assert_eq!(mantissa(1_243_500.0), Some(reduced("12435", 6)));
        assert_eq!(mantissa(-0.00125), Some(reduced("125", -3)));
        assert_eq!(mantissa(1_000_000_000_005.0), Some(reduced("1", 12))); // a tie goes to even
        assert_eq!(mantissa(0.0), None);
        assert_eq!(mantissa(f64::NAN), None);
    }

    #[test]
    fn relation_names_the_one_edit() {
        let answer = reduced("12435", 6);
        assert_eq!(
            relation(&answer, 1_234_500.0),
            Some(Reason::DigitTransposition)
        );
        assert_eq!(relation(&answer, 1_243_600.0), Some(Reason::DigitChanged));
        assert_eq!(relation(&answer, 12_435_000.0), None); // a magnitude slip
        assert_eq!(relation(&answer, 12_433_500.0), Some(Reason::DigitDropped));
        assert_eq!(relation(&answer, 1_243_510.0), None); // its last digit dropped: rounding
        assert_eq!(relation(&answer, 1_245_000.0), Some(Reason::DigitAdded));
        assert_eq!(
            relation(&reduced("1243", 3), 1143.0),
            Some(Reason::DigitChanged)
        );
        assert_eq!(
            relation(&reduced("1243", 3), 143.0),
            Some(Reason::DigitAdded)
        );
    }

    #[test]
    fn variants_and_windows_agree_on_an_edit() {
        let answer = reduced("125", 2);
        let found = variants(&answer);
        assert!(found
            .iter()
            .any(|v| v.digits == "152" && v.reason == Reason::DigitTransposition));
        assert!(found
            .iter()
            .all(|v| !v.digits.starts_with('0') && v.digits != "125"));
        let windows = variant_windows(&answer).unwrap_or_default();
        let value = value_of("152", 2, false).unwrap_or_default();
        assert!(windows
            .firsts
            .iter()
            .zip(&windows.lasts)
            .any(|(low, high)| *low <= value && value <= *high));
        assert_eq!(variant_windows(&reduced("1", 308)), Err(Overflow));
        assert_eq!(half_unit("125", 2), Ok(0.5));
    }
}
