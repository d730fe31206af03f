//! Value, tolerance and significant digits of money, percent and number atoms (the oracle's
//! `extract/quantities.py`), computed in the same float operations so every bit agrees.

use crate::atoms::Quantity;

const HEDGE_RELATIVE_TOLERANCE: f64 = 0.025;
const SHORT_OF_UNIT: f64 = 2e-9;
const ROUNDED_MIN_VALUE: f64 = 1000.0;
const ROUNDED_MAX_SIGNIFICANT: usize = 3;

/// `0.5 * 10.0 ** power`: Python's float `**` is C `pow`, as `powf` is (`powi` rounds otherwise).
fn half_unit(power: i64) -> f64 {
    0.5 * 10f64.powf(power as f64)
}

/// Reads the digits as written and the power of ten of the magnitude ("1.24 million" is
/// ("1", "24", 6); "25 bps" is ("25", "", -2)).
pub fn quantity(
    int_digits: &str,
    frac_digits: &str,
    exponent: i64,
    negative: bool,
    hedged: bool,
    currency: Option<String>,
    unit: Option<String>,
) -> Quantity {
    // One correctly rounded parse, as the oracle's `float()` of the same text.
    let written = if exponent != 0 {
        let frac = if frac_digits.is_empty() {
            "0"
        } else {
            frac_digits
        };
        format!("{int_digits}.{frac}e{exponent}")
    } else if frac_digits.is_empty() {
        int_digits.to_owned()
    } else {
        format!("{int_digits}.{frac_digits}")
    };
    let mut value: f64 = written.parse().unwrap_or(f64::NAN);
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
        let joined = format!("{significant}{frac_digits}");
        let stripped = joined.trim_start_matches('0');
        digits = if stripped.is_empty() {
            "0".to_owned()
        } else {
            stripped.to_owned()
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
    use super::quantity;

    #[test]
    fn magnitudes_precision_and_hedges() {
        let q = quantity("1", "24", 6, false, false, Some("USD".into()), None);
        assert_eq!(
            (q.value, q.tolerance, q.digits.as_str()),
            (1_240_000.0, 5_000.0, "124")
        );
        let q = quantity("1200000", "", 0, false, false, None, None);
        assert_eq!((q.tolerance, q.digits.as_str()), (50_000.0, "12"));
        let q = quantity("25", "", -2, false, false, None, Some("pp".into()));
        assert_eq!(q.value, 0.25);
        let q = quantity("47000", "", 0, false, true, None, None);
        assert!(q.tolerance > 999.9 && q.tolerance < 1_000.0); // short of one unit of "47"

        assert!(quantity("0", "", 0, true, false, None, None)
            .value
            .is_sign_negative());
    }
}
