//! The extraction pass: e-mails and URLs are claimed first, the gaps between them are scanned once,
//! left to right; at each candidate character the grammar's families are tried in order and the
//! first branch that matches is read by its kind. The scan resumes after the match, atom or not.

use std::cell::Cell;

use super::calendar::Day;
use super::chars::{is_letterish, is_word};
use super::claims::claims;
use super::grammar::Grammar;
use super::text::Text;
use crate::atoms::Atom;
use crate::kinds::{branch_table, Branch, BranchTable, Family, Found, Hit};

/// What a branch sees while matching: the text up to the end of the scanned range.
pub struct Cx<'a> {
    pub text: Text<'a>,
    pub grammar: &'static Grammar,
    pub anchored: bool,
    /// Bare figures with fewer digits are dropped (at most 4); the figure branch fails them early.
    pub short: usize,
    /// Where a hex run read from inside was already found to be no hex token (`identifier`).
    pub hex_run_failed: Cell<Option<(usize, usize)>>,
    branches: &'static BranchTable,
}

/// What a kind sees while reading a match: the whole text, and where the last atom ended.
pub struct Scan<'a> {
    pub text: Text<'a>,
    pub grammar: &'static Grammar,
    pub min_digits: usize,
    pub short: usize,
    pub anchor: Option<Day>,
    /// Nothing reaches back past the end of the last atom (or the start of the range).
    pub floor: usize,
}

/// Families tried at a digit that follows no word character, in grammar order.
const AFTER_NON_WORD: [Family; 8] = [
    Family::AfterMark,
    Family::Hex,
    Family::Separated,
    Family::Clock,
    Family::Worded,
    Family::LowercaseMonth,
    Family::Alnum,
    Family::AfterCarrier,
];
/// A digit run nothing reads is one match ("skip"), not one failed attempt per digit.
const SKIP_DIGITS: usize = 15;

pub fn extract(
    text: &str,
    grammar: &'static Grammar,
    min_digits: usize,
    anchor: Option<Day>,
) -> Vec<Atom> {
    let mut scan = Scan {
        text: Text::new(text, text.len()),
        grammar,
        min_digits,
        short: min_digits.min(4),
        anchor,
        floor: 0,
    };
    let mut atoms = Vec::new();
    let mut start = 0;
    for claim in claims(text) {
        scan.range(start, claim.start, &mut atoms);
        start = claim.end;
        atoms.push(claim);
    }
    scan.range(start, text.len(), &mut atoms);
    atoms
}

impl Scan<'_> {
    fn range(&mut self, start: usize, end: usize, atoms: &mut Vec<Atom>) {
        self.floor = start;
        let cx = Cx {
            text: Text::new(self.text.all, end),
            grammar: self.grammar,
            anchored: self.anchor.is_some(),
            short: self.short,
            hex_run_failed: Cell::new(None),
            branches: branch_table(),
        };
        let anchors = self.grammar.anchor_bytes(cx.anchored);
        let bytes = self.text.all.as_bytes();
        let mut at = start;
        while at < end {
            let candidate = bytes.get(at).is_some_and(|b| anchors[usize::from(*b)]);
            let matched = if candidate { attempt(&cx, at) } else { None };
            let Some((branch, hit)) = matched else {
                at += 1;
                if candidate && cx.text.digit_at(at - 1) {
                    // After a digit only the figure family is tried, whose one branch never
                    // starts right after a digit, and the skip of a long run, which did not start
                    // at this digit: nothing starts before the run ends.
                    at += cx.text.digits(at, usize::MAX);
                }
                continue;
            };
            match (branch.read)(self, &hit) {
                Found::Nothing => {}
                Found::One(atom) => {
                    self.floor = atom.end;
                    atoms.push(atom);
                }
                Found::Two(first, second) => {
                    self.floor = second.end;
                    atoms.push(first);
                    atoms.push(second);
                }
            }
            at = hit.end.max(at + 1);
        }
    }
}

/// The first branch that matches at `p` (a digit or a word's first letter), in grammar order.
fn attempt(cx: &Cx<'_>, p: usize) -> Option<(&'static Branch, Hit)> {
    let text = &cx.text;
    let first = |family: Family| {
        cx.branches
            .of(family)
            .iter()
            .find_map(|branch| (branch.attempt)(cx, p).map(|hit| (*branch, hit)))
    };
    if !text.digit_at(p) {
        return first(Family::LetterStart);
    }
    let before = text.back(p, 1);
    if !before.is_some_and(is_word) {
        let found = AFTER_NON_WORD
            .into_iter()
            .filter(|family| guard(cx, *family, p))
            .find_map(first);
        if found.is_some() {
            return found;
        }
    }
    if before.is_some_and(is_letterish) {
        if let Some(found) = first(Family::AfterLetter) {
            return Some(found);
        }
    }
    first(Family::Figure).or_else(|| {
        let digits = text.digits(p + 1, usize::MAX);
        (digits >= SKIP_DIGITS).then(|| (&SKIP, Hit::new(p, p + 1 + digits)))
    })
}

static SKIP: Branch = Branch {
    name: "skip",
    family: Family::Figure,
    yields: true,
    attempt: |_, _| None,
    read: |_, _| Found::Nothing,
};

/// The cheap test in front of each family of branches at the digit `p`.
fn guard(cx: &Cx<'_>, family: Family, p: usize) -> bool {
    let text = &cx.text;
    let q = p + 1;
    match family {
        Family::AfterMark => text
            .back(p, 1)
            .is_some_and(|c| matches!(c, '-' | '#' | '(' | '+')),
        Family::Hex => text.run(q, 6, |b| b.is_ascii_hexdigit()) == 6,
        Family::Separated => separated_ahead(text, q),
        Family::Worded => worded_ahead(cx, q),
        Family::Clock => crate::kinds::time::clock_ahead(text, q),
        Family::Alnum => {
            let digits = text.digits(q, 32);
            text.at(q + digits).is_some_and(|c| c.is_ascii_uppercase())
        }
        Family::AfterCarrier => crate::kinds::identifier::after_carrier(text, p),
        Family::LowercaseMonth | Family::AfterLetter | Family::Figure | Family::LetterStart => true,
    }
}

const SEPARATORS: [char; 7] = ['-', '/', '.', ':', '–', '—', ' '];
const DASHES: [char; 3] = ['-', '–', '—'];

/// Two separators, a year range or a pre-release version ahead.
fn separated_ahead(text: &Text<'_>, q: usize) -> bool {
    let lead = text.digits(q, 4);
    let after = |at: usize| text.at(at).map_or(at + 1, |c| at + c.len_utf8());
    if lead <= 3 && text.at_in(q + lead, &SEPARATORS) {
        let second = after(q + lead);
        let digits = text.digits(second, 5);
        if (1..=4).contains(&digits) && text.at_in(second + digits, &SEPARATORS) {
            return true;
        }
    }
    if lead == 3 {
        let at = q + 3;
        if text.at_in(at, &DASHES) || (text.byte_is(at, b' ') && text.at_in(at + 1, &DASHES)) {
            return true;
        }
    }
    if lead <= 3 && text.byte_is(q + lead, b'.') {
        let digits = text.digits(q + lead + 1, 5);
        let tag = q + lead + 1 + digits;
        let tag_end = if text.has(tag, "rc") {
            tag + 2
        } else {
            tag + 1
        };
        let tagged = text.has(tag, "a") || text.has(tag, "b") || text.has(tag, "rc");
        return (1..=4).contains(&digits) && tagged && text.digit_at(tag_end);
    }
    false
}

/// A word ahead: "3 March", "3rd of March", "3 days".
fn worded_ahead(cx: &Cx<'_>, q: usize) -> bool {
    let text = &cx.text;
    let digits = text.digits(q, 3);
    if digits > 2 {
        return false;
    }
    let at = q + digits;
    let ordinal = ["st", "nd", "rd", "th", "er"]
        .iter()
        .any(|o| text.has(at, o));
    let at = if ordinal {
        at + 2
    } else if text.byte_is(at, b'.') {
        at + 1
    } else {
        at
    };
    let Some(gap) = text
        .at(at)
        .filter(|c| [' ', '\u{a0}', '\u{202f}'].contains(c))
    else {
        return false;
    };
    let word = at + gap.len_utf8();
    let initials = if cx.anchored {
        &cx.grammar.worded_initials_anchored
    } else {
        &cx.grammar.worded_initials
    };
    let initial = |at: usize| text.at(at).is_some_and(|c| initials.contains(&c));
    (text.has(word, "of ") && initial(word + 3)) || initial(word)
}

#[cfg(test)]
mod tests {
    use super::{extract, Family};
    use crate::extract::grammar::grammar_for;
    use crate::kinds::branch_table;

    #[test]
    fn the_figure_family_is_what_the_digit_run_skip_relies_on() {
        // `Scan::range` resumes after a run of digits once nothing started at its digit.
        let names: Vec<&str> = branch_table()
            .of(Family::Figure)
            .iter()
            .map(|branch| branch.name)
            .collect();
        assert_eq!(names, ["qty"]);
    }

    #[test]
    fn figures_after_skipped_runs_are_read() {
        let grammar = grammar_for("en-US").expect("en-US");
        // "123" and "7" are too short to read (fewer than 4 digits), their runs skipped whole.
        let text = "123 then 45678, 7 and $5 and 42%";
        let atoms: Vec<&str> = extract(text, grammar, 4, None)
            .iter()
            .map(|atom| &text[atom.start..atom.end])
            .collect();
        assert_eq!(atoms, ["45678", "$5", "42%"]);
    }
}
