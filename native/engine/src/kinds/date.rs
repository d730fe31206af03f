//! Dates: ISO dates and year-months, year ranges, numeric dates, day-month and month-first
//! dates, relative days (the former Python engine's date branches of `grammar.py`, `Scan`'s handlers,
//! `dates.py`, `years.py`, `month_words.py`).

use super::{Branch, Family, Found, Hit, Kind};
use crate::atoms::{Atom, Reading};
use crate::extract::calendar::{number, numeric_readings, shifted, single};
use crate::extract::chars::{ignorecase_ends_with, is_letterish, is_word, py_lower};
use crate::extract::month_words::{is_word_month, led_as_date};
use crate::extract::scan::{Cx, Scan};
use crate::extract::text::Text;
use crate::extract::years;

pub struct Dates;

impl Kind for Dates {
    fn branches(&self) -> &'static [Branch] {
        &BRANCHES
    }
}

static BRANCHES: [Branch; 10] = [
    branch("iso", Family::Separated, iso, read_iso),
    branch("years", Family::Separated, year_range, read_year_range),
    branch("isomonth", Family::Separated, iso_month, read_iso_month),
    branch(
        "numdate",
        Family::Separated,
        numeric_date,
        read_numeric_date,
    ),
    branch("daymonth", Family::Worded, day_month, read_day_month),
    branch("relago", Family::Worded, relative_ago, read_relative_ago),
    branch(
        "relpre",
        Family::Worded,
        relative_prefixed,
        read_relative_prefixed,
    ),
    branch(
        "lowmonth",
        Family::LowercaseMonth,
        lowercase_month_first,
        read_lowercase_month_first,
    ),
    branch(
        "monthfirst",
        Family::LetterStart,
        month_first,
        read_month_first,
    ),
    branch(
        "relword",
        Family::LetterStart,
        relative_word,
        read_relative_word,
    ),
];

const fn branch(
    name: &'static str,
    family: Family,
    attempt: fn(&Cx<'_>, usize) -> Option<Hit>,
    read: fn(&Scan<'_>, &Hit) -> Found,
) -> Branch {
    Branch {
        name,
        family,
        yields: false,
        attempt,
        read,
    }
}

const SPACES: [char; 3] = [' ', '\u{a0}', '\u{202f}'];
const ORDINALS: [&str; 5] = ["st", "nd", "rd", "th", "er"];

/// A bare year: `text[start..end]` is four digits.
pub fn year_atom(text: &Text<'_>, start: usize, end: usize) -> Atom {
    Atom::date(
        start,
        end,
        vec![(Some(number(text.slice(start, end))), None, None)],
    )
}

fn date(start: usize, end: usize, readings: Option<Vec<Reading>>) -> Found {
    readings.map_or(Found::Nothing, |readings| {
        Found::One(Atom::date(start, end, readings))
    })
}

/// The end of one of the spaces a date may use, at `at`.
fn space(text: &Text<'_>, at: usize) -> Option<usize> {
    text.at(at)
        .filter(|c| SPACES.contains(c))
        .map(|c| at + c.len_utf8())
}

fn ordinal(text: &Text<'_>, at: usize) -> Option<usize> {
    ORDINALS.iter().any(|o| text.has(at, o)).then_some(at + 2)
}

/// Whether `at` is free of `[\w]` and of `marks` before a digit (`(?![\w]|[marks][0-9])`).
fn ends(text: &Text<'_>, at: usize, marks: &[char]) -> bool {
    !(text.at(at).is_some_and(is_word) || (text.at_in(at, marks) && text.digit_at(at + 1)))
}

/// `(?![\w]|[.,][0-9])` after a year.
fn year_ends(text: &Text<'_>, at: usize) -> bool {
    ends(text, at, &['.', ','])
}

/// `(?![\w]|[.,:][0-9]|SPACE?%)` after a day.
fn day_ends(text: &Text<'_>, at: usize) -> bool {
    let percent = text.byte_is(at, b'%') || space(text, at).is_some_and(|s| text.byte_is(s, b'%'));
    ends(text, at, &['.', ',', ':']) && !percent
}

/// `(?:SPACE?,)?SPACE[0-9]{4}(?![\w]|[.,][0-9])` at `at`: (year start, end), in the former Python engine's order.
fn comma_year(text: &Text<'_>, at: usize) -> Option<(usize, usize)> {
    let spaced_comma = space(text, at)
        .filter(|s| text.byte_is(*s, b','))
        .map(|s| s + 1);
    let comma = text.byte_is(at, b',').then_some(at + 1);
    [spaced_comma, comma, Some(at)]
        .into_iter()
        .flatten()
        .filter_map(|before| space(text, before))
        .find(|year| text.digits(*year, 4) == 4 && year_ends(text, year + 4))
        .map(|year| (year, year + 4))
}

/// Marks of a date hit that may have a year: its start, or `NO_YEAR`.
const NO_YEAR: usize = usize::MAX;

fn year_of(text: &Text<'_>, start: usize) -> Option<i64> {
    (start != NO_YEAR).then(|| number(text.slice(start, start + 4)))
}

fn not_after_date_mark(text: &Text<'_>, p: usize) -> bool {
    !text
        .back(p, 1)
        .is_some_and(|c| matches!(c, '.' | '-' | '/'))
}

// Separated digits --------------------------------------------------------------------------

fn iso(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    let q = p + 1;
    if !not_after_date_mark(text, p) || text.digits(q, 3) != 3 {
        return None;
    }
    let separator = text.at(q + 3).filter(|c| matches!(c, '-' | '/'))?;
    let month = text.digits(q + 4, 3);
    let month_end = q + 4 + month;
    if !(1..=2).contains(&month) || text.at(month_end) != Some(separator) {
        return None;
    }
    let day = text.digits(month_end + 1, 3);
    if !(1..=2).contains(&day) {
        return None;
    }
    let date_end = month_end + 1 + day;
    let end = iso_time_ends(text, date_end)
        .into_iter()
        .chain([date_end])
        .find(|end| ends(text, *end, &['-', '/', '.', ':']))?;
    Some(Hit::with(
        p,
        end,
        &[q + 4, month_end, month_end + 1, date_end],
    ))
}

/// The ends an ISO time after a date may take, in backtracking order:
/// `[T ]HH:MM(:SS([.,]F{1,9})?)?(Z|[+-]HH(:?MM)?)?`.
fn iso_time_ends(text: &Text<'_>, at: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let starts = text.at_in(at, &['T', ' ']);
    if !(starts
        && text.digits(at + 1, 2) == 2
        && text.byte_is(at + 3, b':')
        && text.digits(at + 4, 2) == 2)
    {
        return out;
    }
    let minutes = at + 6;
    let mut seconds_ends = Vec::with_capacity(3);
    if text.byte_is(minutes, b':') && text.digits(minutes + 1, 2) == 2 {
        let seconds = minutes + 3;
        let fraction = text.digits(seconds + 1, 9);
        if text.at_in(seconds, &['.', ',']) && fraction > 0 {
            seconds_ends.push(seconds + 1 + fraction);
        }
        seconds_ends.push(seconds);
    }
    seconds_ends.push(minutes);
    for at in seconds_ends {
        if text.byte_is(at, b'Z') {
            out.push(at + 1);
        } else if text.at_in(at, &['+', '-']) && text.digits(at + 1, 2) == 2 {
            let hours = at + 3;
            if text.byte_is(hours, b':') && text.digits(hours + 1, 2) == 2 {
                out.push(hours + 3);
            }
            if text.digits(hours, 2) == 2 {
                out.push(hours + 2);
            }
            out.push(hours);
        }
        out.push(at);
    }
    out
}

fn read_iso(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let [month_start, month_end, day_start, day_end, ..] = hit.marks;
    let year = number(text.slice(hit.start, hit.start + 4));
    let month = u32::try_from(number(text.slice(month_start, month_end))).ok();
    let day = u32::try_from(number(text.slice(day_start, day_end))).ok();
    date(hit.start, hit.end, single(Some(year), month, day))
}

/// `1[0-9]{3}` or `20[0-9]{2}` from `p`: whether four digits of such a year start there.
fn year_digits(text: &Text<'_>, p: usize) -> bool {
    let q = p + 1;
    let second = (text.byte_is(p, b'1') && text.digit_at(q))
        || (text.byte_is(p, b'2') && text.byte_is(q, b'0'));
    second && text.digits(q + 1, 2) == 2
}

/// `[ ]?(?:--|[-–—])[ ]?` at `at`: its ends in backtracking order.
fn dash_ends(text: &Text<'_>, at: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let spaced = text.byte_is(at, b' ').then_some(at + 1);
    for dash_at in spaced.into_iter().chain([at]) {
        let double = text.has(dash_at, "--").then_some(dash_at + 2);
        let single = text
            .at(dash_at)
            .filter(|c| matches!(c, '-' | '–' | '—'))
            .map(|c| dash_at + c.len_utf8());
        for after in double.into_iter().chain(single) {
            if text.byte_is(after, b' ') {
                out.push(after + 1);
            }
            out.push(after);
        }
    }
    out
}

fn year_range(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if !not_after_date_mark(text, p) || !year_digits(text, p) {
        return None;
    }
    let first_end = p + 4;
    // A round pair before 1900 ("1200-1500 words") is a quantity range.
    let round = text.byte_is(p, b'1')
        && text.at(p + 1).is_some_and(|c| ('0'..='8').contains(&c))
        && text.at_in(p + 2, &['0', '5'])
        && text.byte_is(p + 3, b'0');
    let round_end = |at: usize| {
        text.at_in(at, &['0', '5']) && text.byte_is(at + 1, b'0') && !text.digit_at(at + 2)
    };
    if round
        && dash_ends(text, first_end)
            .into_iter()
            .any(|at| (text.digits(at, 2) == 2 && round_end(at + 2)) || round_end(at))
    {
        return None;
    }
    for second in dash_ends(text, first_end) {
        let full =
            (text.byte_is(second, b'1') && text.digit_at(second + 1)) || text.has(second, "20");
        let full = full && text.digits(second + 2, 2) == 2;
        let candidates = [
            full.then_some(second + 4),
            (text.digits(second, 2) == 2).then_some(second + 2),
        ];
        for end in candidates.into_iter().flatten() {
            let free = !text.at(end).is_some_and(|c| is_word(c) || c == '%');
            let mark = text.at_in(end, &['-', '–', '/', '.', ',']);
            let next_digit = text
                .at(end)
                .map(|c| end + c.len_utf8())
                .is_some_and(|n| text.digit_at(n));
            if free && !(mark && next_digit) {
                return Some(Hit::with(p, end, &[second]));
            }
        }
    }
    None
}

fn read_year_range(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let (start, end, second) = (hit.start, hit.end, hit.marks[0]);
    let first = number(text.slice(start, start + 4));
    let written = text.slice(second, end);
    if let Some(month) = years::iso_month(first, text.slice(start + 4, second), written) {
        return date(start, end, single(Some(first), Some(month), None));
    }
    match years::range_end(first, written) {
        None => Found::One(year_atom(text, start, start + 4)),
        Some(last) => Found::Two(
            year_atom(text, start, start + 4),
            Atom::date(second, end, vec![(Some(last), None, None)]),
        ),
    }
}

fn iso_month(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    let q = p + 1;
    let century = (text.byte_is(p, b'1') && text.byte_is(q, b'9'))
        || (text.byte_is(p, b'2') && text.byte_is(q, b'0'));
    if !not_after_date_mark(text, p)
        || !century
        || text.digits(q + 1, 2) != 2
        || !text.byte_is(q + 3, b'-')
    {
        return None;
    }
    let month = q + 4;
    let valid = (text.byte_is(month, b'0')
        && text.at(month + 1).is_some_and(|c| ('1'..='9').contains(&c)))
        || (text.byte_is(month, b'1')
            && text.at(month + 1).is_some_and(|c| ('0'..='2').contains(&c)));
    let end = month + 2;
    (valid && ends(text, end, &['-', '/', '.', ':', ','])).then(|| Hit::with(p, end, &[month]))
}

fn read_iso_month(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let year = number(text.slice(hit.start, hit.start + 4));
    let month = u32::try_from(number(text.slice(hit.marks[0], hit.end))).ok();
    date(hit.start, hit.end, single(Some(year), month, None))
}

fn numeric_date(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if !not_after_date_mark(text, p) {
        return None;
    }
    let first_end = p + 1 + text.digits(p + 1, 1);
    let separator = text
        .at(first_end)
        .filter(|c| cx.grammar.pack.date_separators.contains(c))?;
    let second = text.digits(first_end + 1, 3);
    let second_end = first_end + 1 + second;
    if !(1..=2).contains(&second) || text.at(second_end) != Some(separator) {
        return None;
    }
    let year = second_end + 1;
    [4, 2]
        .into_iter()
        .filter(|width| text.digits(year, *width) == *width)
        .map(|width| year + width)
        .find(|end| ends(text, *end, &['-', '/', '.', ',', ':']))
        .map(|end| Hit::with(p, end, &[first_end, second_end, year]))
}

fn read_numeric_date(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let [first_end, second_end, year, ..] = hit.marks;
    let readings = numeric_readings(
        text.slice(hit.start, first_end),
        text.slice(first_end + 1, second_end),
        text.slice(year, hit.end),
        scan.grammar.pack.date_orders,
    );
    date(hit.start, hit.end, readings)
}

// Worded ------------------------------------------------------------------------------------

fn day_month(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if text.back(p, 1) == Some('.') {
        return None;
    }
    let day_end = p + 1 + text.digits(p + 1, 1);
    let suffix_end = ordinal(text, day_end)
        .or_else(|| text.byte_is(day_end, b'.').then_some(day_end + 1))
        .unwrap_or(day_end);
    let spaced = space(text, suffix_end)?;
    let of = text.has(spaced, "of ").then_some(spaced + 3);
    for word_start in of.into_iter().chain([spaced]) {
        let word = cx
            .grammar
            .months_any_case
            .at(text, word_start)
            .map(|(_, end)| end)
            .find(|end| !text.at(*end).is_some_and(is_letterish));
        if let Some(word_end) = word {
            let dotted = if text.byte_is(word_end, b'.') {
                word_end + 1
            } else {
                word_end
            };
            let (year, end) = comma_year(text, dotted).unwrap_or((NO_YEAR, dotted));
            return Some(Hit::with(p, end, &[day_end, word_start, word_end, year]));
        }
    }
    None
}

fn read_day_month(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let [day_end, word_start, word_end, year_start, ..] = hit.marks;
    let year = year_of(text, year_start);
    let word = text.slice(word_start, word_end);
    let bare = year.is_none()
        && text
            .slice(day_end, word_start)
            .trim_matches(crate::extract::chars::is_space)
            .is_empty();
    if bare && is_word_month(word) && !led_as_date(text, hit.start, scan.floor, false) {
        return Found::Nothing; // "up to 30 may attend"
    }
    let month = scan
        .grammar
        .pack
        .month_of
        .get(py_lower(word).as_str())
        .copied();
    let day = u32::try_from(number(text.slice(hit.start, day_end))).ok();
    date(hit.start, hit.end, single(year, month, day))
}

/// `[0-9]{0,2}+SPACE` after the first digit: where the count ends and the word starts.
fn count_then_space(text: &Text<'_>, p: usize) -> Option<(usize, usize)> {
    let count_end = p + 1 + text.digits(p + 1, 2);
    space(text, count_end).map(|word| (count_end, word))
}

fn relative_ago(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    if !cx.anchored {
        return None;
    }
    let text = &cx.text;
    let (count_end, unit_start) = count_then_space(text, p)?;
    for (_, unit_end) in cx.grammar.day_units.at(text, unit_start) {
        if text.at(unit_end).is_some_and(is_letterish) {
            continue;
        }
        let Some(suffix_start) = space(text, unit_end) else {
            continue;
        };
        let suffix = cx
            .grammar
            .past_suffixes
            .at(text, suffix_start)
            .map(|(_, end)| end)
            .find(|end| !text.at(*end).is_some_and(is_letterish));
        if let Some(end) = suffix {
            return Some(Hit::with(p, end, &[count_end, unit_start, unit_end]));
        }
    }
    None
}

fn relative_days(scan: &Scan<'_>, start: usize, end: usize, days: i64) -> Found {
    match scan.anchor {
        Some(anchor) => date(start, end, shifted(anchor, days)),
        None => Found::Nothing,
    }
}

fn unit_days(scan: &Scan<'_>, unit: &str) -> i64 {
    let unit = py_lower(unit);
    scan.grammar
        .pack
        .day_units
        .iter()
        .find(|(word, _)| *word == unit)
        .map_or(0, |(_, days)| *days)
}

fn read_relative_ago(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let [count_end, unit_start, unit_end, ..] = hit.marks;
    let count = number(text.slice(hit.start, count_end));
    let days = -count * unit_days(scan, text.slice(unit_start, unit_end));
    relative_days(scan, hit.start, hit.end, days)
}

/// Whether a prefix ("in", "vor", "il y a") and one space stand before `p`, in any case, after
/// a word boundary.
fn prefixed_by(text: &Text<'_>, p: usize, prefixes: &[&str]) -> bool {
    if text.back(p, 1) != Some(' ') {
        return false;
    }
    let head = text.slice(0, p - 1);
    prefixes.iter().any(|prefix| {
        let letters = prefix.chars().count();
        ignorecase_ends_with(head, prefix)
            && !text
                .back(text.back_pos(p - 1, letters), 1)
                .is_some_and(is_word)
    })
}

fn relative_prefixed(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    if !cx.anchored {
        return None;
    }
    let text = &cx.text;
    let pack = cx.grammar.pack;
    let past = prefixed_by(text, p, pack.past_prefixes);
    if !past && !prefixed_by(text, p, pack.future_prefixes) {
        return None;
    }
    let (count_end, unit_start) = count_then_space(text, p)?;
    let unit_end = cx
        .grammar
        .day_units
        .at(text, unit_start)
        .map(|(_, end)| end)
        .find(|end| !text.at(*end).is_some_and(is_letterish))?;
    Some(Hit::with(
        p,
        unit_end,
        &[count_end, unit_start, usize::from(past)],
    ))
}

fn read_relative_prefixed(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let [count_end, unit_start, past, ..] = hit.marks;
    let past = past == 1;
    let count = number(text.slice(hit.start, count_end));
    let days = count * unit_days(scan, text.slice(unit_start, hit.end));
    let before = py_lower(text.slice(text.back_pos(hit.start, 8), hit.start - 1));
    let pack = scan.grammar.pack;
    let prefixes = if past {
        pack.past_prefixes
    } else {
        pack.future_prefixes
    };
    let start = match prefixes.iter().find(|prefix| before.ends_with(*prefix)) {
        Some(prefix) => hit.start - prefix.len() - 1,
        None => hit.start,
    };
    relative_days(scan, start, hit.end, if past { -days } else { days })
}

// Month names -------------------------------------------------------------------------------

fn lowercase_month_first(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    let gap = text.back(p, 1).filter(|c| SPACES.contains(c))?;
    if !text
        .back(p, 2)
        .is_some_and(|c| cx.grammar.month_last_letters.contains(&c))
    {
        return None;
    }
    let name_end = p - gap.len_utf8();
    let head = text.slice(0, name_end);
    let named = cx.grammar.months_lower.iter().any(|month| {
        head.ends_with(month) && !text.back(name_end - month.len(), 1).is_some_and(is_word)
    });
    if !named {
        return None;
    }
    let day_end = p + 1 + text.digits(p + 1, 1);
    let suffix_end = ordinal(text, day_end).unwrap_or(day_end);
    if day_ends(text, suffix_end) {
        let (year, end) = comma_year(text, suffix_end).unwrap_or((NO_YEAR, suffix_end));
        return Some(Hit::with(p, end, &[day_end, year, 0]));
    }
    let end = p + 4;
    (text.digits(p + 1, 3) == 3 && year_ends(text, end))
        .then(|| Hit::with(p, end, &[end, NO_YEAR, 1]))
}

fn read_lowercase_month_first(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let [day_end, year_start, year_only, ..] = hit.marks;
    let digit_start = hit.start;
    let Some(gap) = text.back(digit_start, 1) else {
        return Found::Nothing;
    };
    let name_end = digit_start - gap.len_utf8();
    let mut start = name_end;
    let reach = text.back_pos(name_end, 10);
    while start > reach
        && text
            .back(start, 1)
            .is_some_and(crate::extract::chars::is_alpha)
    {
        start = text.back_pos(start, 1);
    }
    if start < scan.floor {
        return Found::Nothing;
    }
    let word = text.slice(start, name_end);
    let (day, year) = if year_only == 1 {
        (None, Some(number(text.slice(digit_start, hit.end))))
    } else {
        let year = year_of(text, year_start);
        let bare = year.is_none() && day_end == hit.end;
        if bare && is_word_month(word) && !led_as_date(text, start, scan.floor, true) {
            return Found::Nothing; // "you may 30 days later"
        }
        (
            u32::try_from(number(text.slice(digit_start, day_end))).ok(),
            year,
        )
    };
    let month = scan.grammar.pack.month_of.get(word).copied();
    date(start, hit.end, single(year, month, day))
}

fn month_first(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    let text = &cx.text;
    if text.back(p, 1).is_some_and(is_word) {
        return None;
    }
    for (_, word_end) in cx.grammar.months_titled.at(text, p) {
        if text.at(word_end).is_some_and(is_letterish) {
            continue;
        }
        let dotted = text.byte_is(word_end, b'.').then_some(word_end + 1);
        for after in dotted.into_iter().chain([word_end]) {
            if let Some(day_start) = space(text, after) {
                let digits = text.digits(day_start, 3);
                let day_end = day_start + digits;
                let suffix_end = ordinal(text, day_end).unwrap_or(day_end);
                if (1..=2).contains(&digits) && day_ends(text, suffix_end) {
                    let (year, end) = comma_year(text, suffix_end).unwrap_or((NO_YEAR, suffix_end));
                    return Some(Hit::with(p, end, &[word_end, day_start, day_end, year]));
                }
            }
            if let Some((year, end)) = comma_year(text, after) {
                return Some(Hit::with(p, end, &[word_end, NO_YEAR, NO_YEAR, year]));
            }
        }
    }
    None
}

fn read_month_first(scan: &Scan<'_>, hit: &Hit) -> Found {
    let text = &scan.text;
    let [word_end, day_start, day_end, year_start, ..] = hit.marks;
    let month = scan
        .grammar
        .pack
        .month_of
        .get(py_lower(text.slice(hit.start, word_end)).as_str())
        .copied();
    let day = (day_start != NO_YEAR).then(|| number(text.slice(day_start, day_end)));
    let day = day.and_then(|day| u32::try_from(day).ok());
    date(
        hit.start,
        hit.end,
        single(year_of(text, year_start), month, day),
    )
}

fn relative_word(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    if !cx.anchored {
        return None;
    }
    let text = &cx.text;
    if text.back(p, 1).is_some_and(is_word) {
        return None;
    }
    cx.grammar
        .relative_words
        .at(text, p)
        .map(|(_, end)| end)
        .find(|end| !text.at(*end).is_some_and(is_letterish))
        .map(|end| Hit::new(p, end))
}

fn read_relative_word(scan: &Scan<'_>, hit: &Hit) -> Found {
    let word = py_lower(scan.text.slice(hit.start, hit.end)).replace('’', "'");
    let days = scan
        .grammar
        .pack
        .relative_days
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(_, d)| *d);
    match days {
        Some(days) => relative_days(scan, hit.start, hit.end, days),
        None => Found::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use crate::kinds::testing::{atoms, read};

    #[test]
    fn written_and_numeric_dates() {
        let found = read("On March 3, 2025 and 14 April and 2025-04-15T14:05:00Z.");
        let readings: Vec<&str> = found.iter().map(|(_, _, r)| r.as_str()).collect();
        assert_eq!(
            readings,
            [
                "[(Some(2025), Some(3), Some(3))]",
                "[(None, Some(4), Some(14))]",
                "[(Some(2025), Some(4), Some(15))]"
            ]
        );
        assert_eq!(atoms("am 03.04.2025", "de-DE").len(), 1);
    }

    #[test]
    fn ranges_relative_days_and_word_months() {
        assert_eq!(read("1810–1865").len(), 2);
        assert_eq!(read("3 days ago")[0].2, "[(Some(2025), Some(4), Some(12))]");
        assert!(read("up to 30 may attend").is_empty());
        assert_eq!(read("due may 30")[0].1, "may 30");
    }
}
