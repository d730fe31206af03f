//! Python's `repr(float)`: the shortest digits that round-trip (Rust's `{:e}` finds the same
//! digits), laid out as Python does: positional while the decimal point is within -4 < point <= 16,
//! else `d.ddde±XX`; a whole number keeps its `.0`.

pub fn py_float_repr(value: f64) -> String {
    if value.is_nan() {
        return "nan".to_owned();
    }
    if value.is_infinite() {
        return if value > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    let shortest = format!("{value:e}");
    let (negative, unsigned) = match shortest.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, shortest.as_str()),
    };
    let (mantissa, exponent) = unsigned.split_once('e').unwrap_or((unsigned, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    // The decimal point sits after `point` digits: value = 0.digits × 10^point.
    let point = exponent.parse::<i32>().unwrap_or(0) + 1;
    let mut out = String::with_capacity(digits.len() + 8);
    if negative {
        out.push('-');
    }
    let count = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    if point <= -4 || point > 16 {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let exponent = point - 1;
        out.push_str(if exponent < 0 { "e-" } else { "e+" });
        out.push_str(&format!("{:02}", exponent.unsigned_abs()));
    } else if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat('0').take(point.unsigned_abs() as usize));
        out.push_str(&digits);
    } else if point >= count {
        out.push_str(&digits);
        out.extend(std::iter::repeat('0').take((point - count) as usize));
        out.push_str(".0");
    } else {
        let (whole, fraction) = digits.split_at(point as usize);
        out.push_str(whole);
        out.push('.');
        out.push_str(fraction);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::py_float_repr;

    #[test]
    fn matches_python_repr() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (100.0, "100.0"),
            (1.5, "1.5"),
            (0.1, "0.1"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (0.000123, "0.000123"),
            (0.0000123, "1.23e-05"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1234567890123456.7, "1234567890123456.8"),
            (12345678901234567.0, "1.2345678901234568e+16"),
            (1e308, "1e+308"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (-1243500.25, "-1243500.25"),
            (1e22, "1e+22"),
            (9007199254740993.0, "9007199254740992.0"),
            (0.3, "0.3"),
            (2.0 / 3.0, "0.6666666666666666"),
            (1e100, "1e+100"),
            (123e-7, "1.23e-05"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (value, expected) in cases {
            assert_eq!(py_float_repr(*value), *expected, "{value:e}");
        }
    }

    #[test]
    fn round_trips() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let value = f64::from_bits(state);
            if value.is_finite() {
                assert_eq!(py_float_repr(value).parse::<f64>().ok(), Some(value));
            }
        }
    }
}
