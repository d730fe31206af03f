//! Money, percents and numbers (and the bare years a figure turns out to be): the former Python engine's
//! figure branch of `grammar.py`, `Scan.quantity`, `_split` and `quantities.py`.

use std::borrow::Cow;

use super::{four, four_bytes, Branch, Family, Found, Hit, Kind};
use crate::atoms::{Atom, AtomValue};
use crate::extract::chars::{is_alpha, is_letterish, is_space, is_upper, is_word};
use crate::extract::grammar::{Grammar, Role, LEAD_CHARS};
use crate::extract::left_context::read_left;
use crate::extract::number::core_ends;
use crate::extract::scan::{Cx, Scan};
use crate::extract::text::Text;
use crate::extract::value::quantity;
use crate::extract::years::in_year_context;
use crate::kinds::date::year_atom;
use crate::vocabulary::AtomKind;

pub struct Quantities;

impl Kind for Quantities {
    fn branches(&self) -> &'static [Branch] {
        &BRANCHES
    }
}

static BRANCHES: [Branch; 2] = [
    Branch {
        name: "glued",
        family: Family::AfterLetter,
        yields: false,
        attempt: glued,
        read: |_, _| Found::Nothing,
    },
    Branch {
        name: "qty",
        family: Family::Figure,
        yields: false,
        attempt: figure,
        read: read_figure,
    },
];

const SPACES: [char; 3] = [' ', '\u{a0}', '\u{202f}'];
const LEFT_WINDOW: usize = 32;
const HEDGE_REACH: usize = 24;

fn three_capitals_before(text: &Text<'_>, p: usize) -> bool {
    (1..=3).all(|n| text.back(p, n).is_some_and(|c| c.is_ascii_uppercase()))
}

/// A figure glued to a word nothing else reads ("abc12,345"), consumed whole so the scan never
/// starts again inside it; only a mark inside makes that matter.
fn glued(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    let q = p + 1;
    let pack = cx.grammar.pack;
    let mark_at = q + text.digits(q, usize::MAX);
    let is_mark =
        |c: char| c == '.' || c == ',' || c == pack.decimal || pack.group_separators.contains(&c);
    let mark = text.at(mark_at).filter(|c| is_mark(*c))?;
    if !text.digit_at(mark_at + mark.len_utf8()) || three_capitals_before(text, p) {
        return None;
    }
    core_ends(text, pack, q)
        .iter()
        .find(|end| !text.digit_at(*end))
        .map(|end| Hit::new(p, end))
}

/// `(?![\w]|\.[0-9])` after a figure (`[.,]` where "," is the decimal mark).
fn figure_ends(text: &Text<'_>, decimal: char, at: usize) -> bool {
    let mark = text.byte_is(at, b'.') || (decimal != '.' && text.byte_is(at, b','));
    !(text.at(at).is_some_and(is_word) || (mark && text.digit_at(at + 1)))
}

/// The former Python engine's `_short_bare` guard: a bare figure of fewer than `short` digits with nothing
/// before or after it that could make it an atom fails here already.
fn short_bare(cx: &Cx<'_>, p: usize) -> bool {
    let short = cx.short;
    if short < 2 {
        return false;
    }
    let text = &cx.text;
    let grammar = cx.grammar;
    let pack = grammar.pack;
    let before = text.back(p, 1);
    let unled = before.is_some_and(|c| !is_word(c) && !is_space(c) && !LEAD_CHARS.contains(&c))
        || (before.is_some_and(|c| SPACES.contains(&c))
            && text.back(p, 2).is_some_and(|c| {
                c.is_ascii_digit() || c.is_ascii_lowercase() || ",.;:!?)]}\"'\\".contains(c)
            }));
    if !unled {
        return false;
    }
    let digits = text.digits(p + 1, short - 1);
    if digits > short - 2 {
        return false;
    }
    let at = p + 1 + digits;
    let Some(c) = text.at(at) else {
        return true; // \Z
    };
    let next = at + c.len_utf8();
    let decimal_mark = c == pack.decimal || c == '.';
    let group_mark = !decimal_mark && !is_space(c) && pack.group_separators.contains(&c);
    let suffix_start = grammar.suffix_starts.contains(&c);
    if !is_word(c) && !is_space(c) && !decimal_mark && !group_mark && !suffix_start {
        return true;
    }
    if decimal_mark && !text.digit_at(next) {
        return true;
    }
    if SPACES.contains(&c) {
        let space_group =
            pack.group_separators.iter().any(|g| is_space(*g)) && text.digits(next, 3) == 3;
        let follows = text
            .at(next)
            .is_some_and(|n| is_letterish(n) || grammar.suffix_starts.contains(&n));
        if !follows && !space_group {
            return true;
        }
    }
    group_mark && text.digits(next, 3) != 3
}

fn figure(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    let before = text.back(p, 1);
    let free = !before.is_some_and(|c| is_word(c) || c == '.') || three_capitals_before(text, p);
    let hyphenated =
        before.is_some_and(|c| c == '-' || c == '–') && text.back(p, 2).is_some_and(is_letterish);
    if !free || hyphenated || short_bare(cx, p) {
        return None;
    }
    let grammar = cx.grammar;
    let decimal = grammar.pack.decimal;
    let space = |at: usize| {
        text.at(at)
            .filter(|c| SPACES.contains(c))
            .map(|c| at + c.len_utf8())
    };
    let word_ends = |at: usize| !text.at(at).is_some_and(is_letterish);
    for core_end in core_ends(text, grammar.pack, p + 1).iter() {
        for suffix_start in space(core_end).into_iter().chain([core_end]) {
            for (_, suffix_end) in grammar.suffix_words.at(text, suffix_start) {
                if !word_ends(suffix_end) {
                    continue;
                }
                for currency_start in space(suffix_end).into_iter().chain([suffix_end]) {
                    for (_, currency_end) in grammar.currency_words.at(text, currency_start) {
                        if word_ends(currency_end) && figure_ends(text, decimal, currency_end) {
                            let marks = [
                                core_end,
                                suffix_start,
                                suffix_end,
                                currency_start,
                                currency_end,
                            ];
                            return Some(Hit::with(p, currency_end, &marks));
                        }
                    }
                }
                if figure_ends(text, decimal, suffix_end) {
                    let marks = [core_end, suffix_start, suffix_end, NONE, NONE];
                    return Some(Hit::with(p, suffix_end, &marks));
                }
            }
        }
        if figure_ends(text, decimal, core_end) {
            return Some(Hit::with(p, core_end, &[core_end, NONE, NONE, NONE, NONE]));
        }
    }
    None
}

const NONE: usize = usize::MAX;

/// (integer digits, fraction digits) of a figure as written in the locale.
fn split<'t>(grammar: &Grammar, core: &'t str) -> (Cow<'t, str>, &'t str) {
    let pack = grammar.pack;
    let (mut head, mut frac) = match core.split_once(pack.decimal) {
        Some((head, frac)) => (head, frac),
        None => (core, ""),
    };
    if !core.contains(pack.decimal) && pack.decimal != '.' {
        if let Some((dotted, tail)) = core.rsplit_once('.') {
            if tail.chars().count() != 3 {
                (head, frac) = (dotted, tail);
            }
        }
    }
    let grouped = head.chars().count() > 3 && head.contains(pack.group_separators);
    let head = if grouped {
        Cow::Owned(
            head.chars()
                .filter(|c| !pack.group_separators.contains(c))
                .collect(),
        )
    } else {
        Cow::Borrowed(head)
    };
    (head, frac)
}

/// The last `LEFT_WINDOW` characters of `before` into `window`, nearest first; how many there are.
fn left_window(before: &str, window: &mut [char; LEFT_WINDOW]) -> usize {
    let bytes = before.as_bytes();
    let tail = bytes
        .get(bytes.len().saturating_sub(LEFT_WINDOW)..)
        .unwrap_or_default();
    // Mostly ASCII: no byte of a multi-byte character is, so these bytes are the characters.
    if tail.is_ascii() {
        for (slot, byte) in window.iter_mut().zip(tail.iter().rev()) {
            *slot = char::from(*byte);
        }
        return tail.len();
    }
    let mut length = 0;
    for (slot, c) in window.iter_mut().zip(before.chars().rev()) {
        *slot = c;
        length += 1;
    }
    length
}

fn read_figure(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let grammar = scan.grammar;
    let floor = scan.floor;
    let (start, mut end) = (hit.start, hit.end);
    let [core_end, suffix_start, suffix_end, currency_start, currency_end, ..] = hit.marks;
    let before = if start > floor {
        text.back(start, 1).unwrap_or('\n')
    } else {
        '\n'
    };
    let two_before = if text.back_pos(start, 1) > floor {
        text.back(start, 2).unwrap_or('\n')
    } else {
        '\n'
    };
    let led = LEAD_CHARS.contains(&before)
        || is_alpha(before)
        || (SPACES.contains(&before) && (LEAD_CHARS.contains(&two_before) || is_upper(two_before)));
    let core_chars = text.chars_between(start, core_end);
    if !led && core_end == end && core_chars < scan.short {
        return Found::Nothing; // the rule below would drop it; decided before any parsing
    }
    let (int_digits, frac) = split(grammar, text.slice(start, core_end));
    let mut suffix = (suffix_start != NONE)
        .then(|| grammar.suffixes.get(text.slice(suffix_start, suffix_end)))
        .flatten();
    if suffix.is_some_and(|s| s.role == Role::GluedUnit)
        && text.at(core_end).is_some_and(|c| SPACES.contains(&c))
    {
        suffix = None; // "5 s": single-letter units count only when glued
        end = core_end;
    }
    let int_len = int_digits.len(); // ASCII digits
    let is_year = suffix.is_none()
        && core_chars == int_len
        && four_bytes(&int_digits).is_some_and(|key| {
            key <= four(b"2099")
                && (key >= four(b"1900")
                    || (key >= four(b"1000") && in_year_context(text, start, floor)))
        });
    if is_year && !led {
        return Found::One(year_atom(text, start, end));
    }
    let digits = int_len + frac.len();
    if suffix.is_none() && !led && digits < scan.min_digits {
        return Found::Nothing;
    }
    let (mut lead, mut negative, mut hedged, mut currency) = (0, false, false, None);
    // A hedge word ends just before the space: its last character picks the few to compare.
    let tails = (SPACES.contains(&before) && start >= 2)
        .then(|| text.back(start, 2))
        .flatten()
        .and_then(|last| grammar.hedge_tails_by_last.get(last));
    let hedge_before = tails.is_some_and(|tails| {
        let window = text.slice(text.back_pos(start, HEDGE_REACH), text.back_pos(start, 1));
        tails.iter().any(|tail| window.ends_with(tail.as_str()))
    });
    if led || before == '~' || before == '≈' || hedge_before {
        let mut window = ['\0'; LEFT_WINDOW];
        let length = left_window(text.slice(0, start), &mut window);
        let left = read_left(
            grammar,
            window.get(..length).unwrap_or_default(),
            text.chars_back(start, floor, LEFT_WINDOW + 1),
        );
        (lead, negative, hedged) = (left.lead, left.negative, left.hedged);
        currency = left.currency;
        if is_alpha(before) && currency.is_none() {
            return Found::Nothing; // glued to a word that is not a currency code ("ABC1234")
        }
    }
    if currency_start != NONE && currency.is_none() {
        let written = text.slice(currency_start, currency_end);
        currency = grammar.suffixes.get(written).and_then(|s| s.label);
    }
    let (mut exponent, mut unit, mut kind) = (0i64, None, AtomKind::Number);
    if let Some(suffix) = suffix {
        match suffix.role {
            Role::Percent => {
                kind = AtomKind::Percent;
                exponent = i64::from(suffix.exponent);
                unit = suffix.label;
            }
            Role::Currency => {
                if currency.is_none() {
                    currency = suffix.label;
                }
            }
            Role::Magnitude => exponent = i64::from(suffix.exponent),
            Role::MoneyMagnitude if currency.is_some() => exponent = i64::from(suffix.exponent),
            Role::MoneyMagnitude | Role::Unit | Role::GluedUnit => match suffix.label {
                None => return Found::Nothing, // "$250MM" is money; "9MM" is no figure at all
                Some(label) => unit = Some(label), // "10m" is ten metres
            },
        }
    }
    if kind == AtomKind::Number {
        if currency.is_some() {
            kind = AtomKind::Money;
            unit = None;
        } else if is_year && !negative {
            return Found::One(year_atom(text, start, end));
        } else if exponent == 0 && unit.is_none() && digits < scan.min_digits {
            return Found::Nothing;
        }
    }
    let mut atom_start = text.back_pos(start, lead);
    // "( 1,234 )": a tokenised accounting negative. Unspaced "(1,234)" stays an aside.
    let opening = text.back_pos(atom_start, 2);
    let opened = text.back(atom_start, 2).is_some()
        && opening >= floor
        && text.slice(opening, atom_start) == "( ";
    if text.slice(end, end + 2) == " )" && opened {
        negative = true;
        atom_start = opening;
        end += 2;
    }
    let value = quantity(
        &int_digits,
        frac,
        exponent,
        negative,
        hedged,
        currency,
        unit,
    );
    Found::One(Atom {
        kind,
        start: atom_start,
        end,
        value: AtomValue::Quantity(value),
    })
}

#[cfg(test)]
mod tests {
    use crate::kinds::testing::read;

    fn one(text: &str) -> (&'static str, String, String) {
        let atoms = read(text);
        assert_eq!(atoms.len(), 1, "{text}: {atoms:?}");
        atoms.into_iter().next().unwrap_or_default()
    }

    #[test]
    fn money_with_magnitudes_and_currencies() {
        assert_eq!(
            one("Revenue was $1.24 million."),
            (
                "money",
                "$1.24 million".into(),
                "1240000 Some(\"USD\")".into()
            )
        );
        assert_eq!(
            one("paid US$250MM"),
            ("money", "US$250MM".into(), "250000000 Some(\"USD\")".into())
        );
        assert_eq!(
            one("costs 12 EUR"),
            ("money", "12 EUR".into(), "12 Some(\"EUR\")".into())
        );
    }

    #[test]
    fn percents_units_and_accounting_negatives() {
        assert_eq!(
            one("up 15.3%"),
            ("percent", "15.3%".into(), "15.3 Some(\"%\")".into())
        );
        assert_eq!(
            one("cut 25 bps"),
            ("percent", "25 bps".into(), "0.25 Some(\"pp\")".into())
        );
        assert_eq!(
            one("took 10m"),
            ("number", "10m".into(), "10 Some(\"m\")".into())
        );
        assert_eq!(
            one("loss ( 1,234 )"),
            ("number", "( 1,234 )".into(), "-1234 None".into())
        );
    }

    #[test]
    fn the_left_window_holds_the_last_characters_nearest_first() {
        let mut window = ['\0'; super::LEFT_WINDOW];
        assert_eq!(super::left_window("paid US$", &mut window), 8);
        assert_eq!(window[..3], ['$', 'S', 'U']);
        let long = format!("{}≈ US$", "x".repeat(40));
        assert_eq!(super::left_window(&long, &mut window), super::LEFT_WINDOW);
        assert_eq!(window[..6], ['$', 'S', 'U', ' ', '≈', 'x']);
        assert_eq!(window[super::LEFT_WINDOW - 1], 'x');
        assert_eq!(
            super::left_window(&"y".repeat(40), &mut window),
            super::LEFT_WINDOW
        );
    }

    #[test]
    fn short_glued_and_bare_figures_are_dropped() {
        assert!(read("xyz1234 and 9MM and 123").is_empty());
        assert_eq!(
            one("in 1810"),
            ("date", "1810".into(), "[(Some(1810), None, None)]".into())
        );
    }
}
