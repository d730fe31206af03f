//! A figure's digits after its first one (the former Python engine's `_number_core`): grouped or plain integer
//! part (at most 24 digits), optional decimals. Ends are listed in the order the former Python engine's
//! backtracking tries them, so a later check failing falls back exactly as it does.

use super::locales::Pack;
use super::text::Text;

/// Up to five ends of a number core, in backtracking order (no allocation on the hot path).
#[derive(Default)]
pub struct Ends {
    ends: [usize; 5],
    len: usize,
}

impl Ends {
    fn push(&mut self, end: usize) {
        if let Some(slot) = self.ends.get_mut(self.len) {
            *slot = end;
            self.len += 1;
        }
    }

    fn extend(&mut self, end: Option<usize>) {
        if let Some(end) = end {
            self.push(end);
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.ends.iter().take(self.len).copied()
    }
}

/// Every end of the number core at `q` (after the first digit), in backtracking order.
pub fn core_ends(text: &Text<'_>, pack: &Pack, q: usize) -> Ends {
    let mut out = Ends::default();
    let decimal = |at: usize, mark: char| {
        let digits = text.digits(at + 1, 15);
        (text.at(at) == Some(mark) && digits > 0).then_some(at + 1 + digits)
    };
    let grouped = grouped_end(text, pack, q);
    let plain = q + text.digits(q, 23);
    if pack.decimal == '.' {
        if let Some(end) = grouped {
            out.extend(decimal(end, '.'));
            out.push(end);
        }
        out.extend(decimal(plain, '.'));
        out.push(plain);
    } else {
        if let Some(end) = grouped {
            out.extend(decimal(end, pack.decimal));
            out.push(end);
        }
        out.extend(decimal(plain, pack.decimal));
        // "1234.5" from an English-formatted tool output; "1.234" stays a grouped integer.
        let exactly_three = text.digits(plain + 1, 4) == 3;
        if !exactly_three {
            out.extend(decimal(plain, '.'));
        }
        out.push(plain);
    }
    out
}

/// `[0-9]{0,2}(?:GROUP[0-9]{3}){1,8}+` at `q`.
fn grouped_end(text: &Text<'_>, pack: &Pack, q: usize) -> Option<usize> {
    let lead = text.digits(q, 3);
    if lead > 2 {
        return None;
    }
    let mut end = q + lead;
    let mut groups = 0;
    while groups < 8 {
        let Some(mark) = text.at(end).filter(|c| pack.group_separators.contains(c)) else {
            break;
        };
        let digits_at = end + mark.len_utf8();
        if text.digits(digits_at, 3) != 3 {
            break;
        }
        end = digits_at + 3;
        groups += 1;
    }
    (groups > 0).then_some(end)
}
