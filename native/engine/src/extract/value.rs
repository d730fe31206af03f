//! Value, tolerance and significant digits of money, percent and number atoms (the former Python engine's
//! `extract/quantities.py`), computed in the same float operations so every bit agrees.

use std::sync::OnceLock;

use crate::atoms::Quantity;

const HEDGE_RELATIVE_TOLERANCE: f64 = 0.025;
const SHORT_OF_UNIT: f64 = 2e-9;
const ROUNDED_MIN_VALUE: f64 = 1000.0;
const ROUNDED_MAX_SIGNIFICANT: usize = 3;

/// `0.5 * 10.0 ** power`: Python's float `**` is C `pow`, as `powf` is (`powi` rounds otherwise).
/// The former Python engine tabulates powers -40..60 once; so does this.
fn half_unit(power: i64) -> f64 {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (-40..60)
            .map(|p: i32| 0.5 * 10f64.powf(f64::from(p)))
            .collect()
    });
    usize::try_from(power + 40)
        .ok()
        .and_then(|index| table.get(index).copied())
        .unwrap_or_else(|| 0.5 * 10f64.powf(power as f64))
}

/// Powers of ten a double holds exactly.
const EXACT_POWERS: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// `INT.FRAC` of at most 15 ASCII digits in all, without an exponent: the digits are an exact
/// integer and the power of ten exact, so one division is the correctly rounded value `parse`
/// gives (Clinger's fast path), without writing and re-reading the text.
fn parse_short(int_digits: &str, frac_digits: &str, exponent: i64) -> Option<f64> {
    if exponent != 0 || int_digits.len() + frac_digits.len() > 15 {
        return None;
    }
    let mut mantissa: u64 = 0;
    for byte in int_digits.bytes().chain(frac_digits.bytes()) {
        if !byte.is_ascii_digit() {
            return None;
        }
        mantissa = mantissa * 10 + u64::from(byte - b'0');
    }
    Some(mantissa as f64 / EXACT_POWERS.get(frac_digits.len())?)
}

/// One correctly rounded parse of `INT.FRACeEXP`, as the former Python engine's `float()` of the same text,
/// written into a stack buffer (figures have at most 24 + 15 digits).
fn parse(int_digits: &str, frac_digits: &str, exponent: i64) -> f64 {
    if let Some(value) = parse_short(int_digits, frac_digits, exponent) {
        return value;
    }
    let mut buffer = [0u8; 96];
    let mut length = 0;
    let mut push = |bytes: &[u8]| {
        for byte in bytes {
            if let Some(slot) = buffer.get_mut(length) {
                *slot = *byte;
                length += 1;
            }
        }
    };
    push(int_digits.as_bytes());
    if exponent != 0 {
        let frac = if frac_digits.is_empty() {
            "0"
        } else {
            frac_digits
        };
        push(b".");
        push(frac.as_bytes());
        push(b"e");
        push(exponent.to_string().as_bytes());
    } else if !frac_digits.is_empty() {
        push(b".");
        push(frac_digits.as_bytes());
    }
    std::str::from_utf8(buffer.get(..length).unwrap_or_default())
        .ok()
        .and_then(|written| written.parse().ok())
        .unwrap_or(f64::NAN)
}

/// Reads the digits as written and the power of ten of the magnitude ("1.24 million" is
/// ("1", "24", 6); "25 bps" is ("25", "", -2)).
pub fn quantity(
    int_digits: &str,
    frac_digits: &str,
    exponent: i64,
    negative: bool,
    hedged: bool,
    currency: Option<&'static str>,
    unit: Option<&'static str>,
) -> Quantity {
    let mut value = parse(int_digits, frac_digits, exponent);
    if negative {
        value = -value;
    }
    let significant = int_digits.trim_start_matches('0');
    let frac_len = frac_digits.len() as i64;
    let mut trailing_zeros = 0usize;
    let mut tolerance;
    let digits;
    if !frac_digits.is_empty() {
        tolerance = half_unit(exponent - frac_len);
        // The significant digits and the fraction's, less leading zeros (an empty integer part
        // leaves the fraction's own leading zeros to strip).
        let frac = if significant.is_empty() {
            frac_digits.trim_start_matches('0')
        } else {
            frac_digits
        };
        digits = if significant.is_empty() && frac.is_empty() {
            "0".to_owned()
        } else {
            let mut joined = String::with_capacity(significant.len() + frac.len());
            joined.push_str(significant);
            joined.push_str(frac);
            joined
        };
    } else {
        let stated = significant.len();
        let nonzero = significant.trim_end_matches('0').len();
        trailing_zeros = stated - nonzero;
        tolerance = half_unit(exponent);
        let mut kept_digits = if significant.is_empty() {
            "0"
        } else {
            significant
        };
        if trailing_zeros >= 2
            && nonzero <= ROUNDED_MAX_SIGNIFICANT
            && value.abs() >= ROUNDED_MIN_VALUE
        {
            let kept = nonzero.max(2);
            tolerance = half_unit(exponent + stated as i64 - kept as i64);
            kept_digits = significant.get(..kept).unwrap_or(significant);
        }
        digits = kept_digits.to_owned();
    }
    if hedged {
        let last_digit = 2.0 * half_unit(exponent - frac_len + trailing_zeros as i64);
        let short_of_unit = last_digit - SHORT_OF_UNIT * py_max(1.0, value.abs());
        let widening = py_min(HEDGE_RELATIVE_TOLERANCE * value.abs(), short_of_unit);
        tolerance = py_max(py_max(tolerance, 0.5 * last_digit), widening);
    }
    Quantity {
        value,
        tolerance,
        digits,
        currency,
        unit,
        hedged,
    }
}

/// Python's `max(a, b)`: the first of equals.
fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Python's `min(a, b)`: the first of equals.
fn py_min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::{parse, quantity};

    #[test]
    fn short_figures_parse_as_the_text_does() {
        // Digits with every fraction length up to the fast path's 15, and just past it.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let digits = (state % 10u64.pow(16)).to_string();
            let split = (state >> 56) as usize % (digits.len() + 1);
            let (int_digits, frac_digits) = digits.split_at(split);
            let int_digits = if int_digits.is_empty() {
                "0"
            } else {
                int_digits
            };
            let written = format!("{int_digits}.{frac_digits}0");
            assert_eq!(
                parse(int_digits, frac_digits, 0).to_bits(),
                written.parse::<f64>().map(f64::to_bits).unwrap_or_default(),
                "{written}"
            );
        }
    }

    #[test]
    fn magnitudes_precision_and_hedges() {
        let q = quantity("1", "24", 6, false, false, Some("USD"), None);
        assert_eq!(
            (q.value, q.tolerance, q.digits.as_str()),
            (1_240_000.0, 5_000.0, "124")
        );
        let q = quantity("1200000", "", 0, false, false, None, None);
        assert_eq!((q.tolerance, q.digits.as_str()), (50_000.0, "12"));
        let q = quantity("25", "", -2, false, false, None, Some("pp"));
        assert_eq!(q.value, 0.25);
        let q = quantity("47000", "", 0, false, true, None, None);
        assert!(q.tolerance > 999.9 && q.tolerance < 1_000.0); // short of one unit of "47"

        assert!(quantity("0", "", 0, true, false, None, None)
            .value
            .is_sign_negative());
    }
}
