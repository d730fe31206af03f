//! The per-call work budget of scoring, in the units of the former Python engine (`scoring/budget.py`):
//! weighted to cost about the same, roughly a microsecond of CPU each. `ATOM` per atom judged,
//! `CANDIDATE` per evidence value a lookup reads, `PROBE` per bisection, digit-variant window or
//! identifier variant. No atom starts once the budget is spent; the atom in flight finishes, except
//! a derivation search, which pays before each step and is refused when it cannot (`BudgetSpent`).

pub const ATOM: i64 = 10;
pub const CANDIDATE: i64 = 5;
pub const PROBE: i64 = 1;

/// Work the budget cannot pay for was about to start: the atom being judged gets no verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetSpent;

/// Units of lookup work left in one call; hot paths charge `left` directly.
#[derive(Debug, Clone)]
pub struct WorkBudget {
    pub left: i64,
}

impl WorkBudget {
    pub fn new(units: i64) -> Self {
        WorkBudget { left: units }
    }

    pub fn spent(&self) -> bool {
        self.left <= 0
    }

    /// Takes `units` for work about to start, or refuses (taking nothing) when fewer are left: a
    /// search cut short half-way could not give the verdict an unlimited call gives.
    pub fn pay(&mut self, units: i64) -> Result<(), BudgetSpent> {
        if units > self.left {
            return Err(BudgetSpent);
        }
        self.left -= units;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_payment_takes_nothing() {
        let mut budget = WorkBudget::new(12);
        assert_eq!(budget.pay(ATOM), Ok(()));
        assert_eq!(budget.pay(CANDIDATE), Err(BudgetSpent));
        assert_eq!(budget.left, 2);
        assert!(!budget.spent());
        budget.left -= CANDIDATE; // hot paths charge directly and may overdraw
        assert!(budget.spent());
    }
}
