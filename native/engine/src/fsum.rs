//! `math.fsum` of CPython (Modules/mathmodule.c, Shewchuk's exact partial sums with its
//! half-even correction), step for step: a family's sum must be the float Python computes.

/// Why a sum has no float value, as `math.fsum` raises it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FsumError {
    /// `OverflowError("intermediate overflow in fsum")`: finite terms whose sum overflows.
    Overflow,
    /// `ValueError("-inf + inf in fsum")`.
    OppositeInfinities,
}

/// The correctly rounded sum of `values`, as `math.fsum(values)` returns or raises it.
pub fn fsum(values: impl IntoIterator<Item = f64>) -> Result<f64, FsumError> {
    let mut partials: Vec<f64> = Vec::new();
    let mut special_sum = 0.0_f64;
    let mut inf_sum = 0.0_f64;
    for term in values {
        let mut x = term;
        let mut kept = 0;
        for index in 0..partials.len() {
            let mut y = partials[index];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[kept] = lo;
                kept += 1;
            }
            x = hi;
        }
        partials.truncate(kept);
        if x != 0.0 {
            if !x.is_finite() {
                // Either an intermediate overflow or a nan/inf among the terms.
                if term.is_finite() {
                    return Err(FsumError::Overflow);
                }
                if term.is_infinite() {
                    inf_sum += term;
                }
                special_sum += term;
                partials.clear();
            } else {
                partials.push(x);
            }
        }
    }
    if special_sum != 0.0 {
        return if inf_sum.is_nan() {
            Err(FsumError::OppositeInfinities)
        } else {
            Ok(special_sum)
        };
    }
    let Some(mut hi) = partials.pop() else {
        return Ok(0.0);
    };
    let mut lo = 0.0;
    // Sum from the top, stopping when the sum becomes inexact.
    while let Some(y) = partials.pop() {
        let x = hi;
        hi = x + y;
        lo = y - (hi - x);
        if lo != 0.0 {
            break;
        }
    }
    // Half-even rounding across several partials.
    if let Some(&next) = partials.last() {
        if (lo < 0.0 && next < 0.0) || (lo > 0.0 && next > 0.0) {
            let y = lo * 2.0;
            let x = hi + y;
            if y == x - hi {
                hi = x;
            }
        }
    }
    Ok(hi)
}

#[cfg(test)]
mod tests {
    use super::{fsum, FsumError};

    #[test]
    fn exact_where_naive_addition_is_not() {
        assert_eq!(fsum([0.1; 10]), Ok(1.0));
        assert_eq!(
            fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]),
            Ok(1e-100)
        );
        assert_eq!(fsum([]), Ok(0.0));
    }

    #[test]
    fn overflow_and_infinities_as_python_raises_them() {
        assert_eq!(fsum([f64::MAX, f64::MAX]), Err(FsumError::Overflow));
        assert_eq!(
            fsum([f64::INFINITY, f64::NEG_INFINITY]),
            Err(FsumError::OppositeInfinities)
        );
        assert_eq!(fsum([f64::INFINITY, 1.0]), Ok(f64::INFINITY));
    }
}
