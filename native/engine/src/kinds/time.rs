//! Times of day: "7:30 PM", "19:30", "7.30pm", "7 pm", "14:05 UTC", "2:05 p.m. PT", "14:05Z".
//! The clock of an ISO timestamp stays inside its date atom; `iso_clock` reads it for the index.
//!
//! What reads as a time (docs/decisions.md, 2026-12-02), everything else keeps its old reading:
//! - `H:MM` / `HH:MM` (hour 0-23, minutes two digits), `:SS` only with am/pm or a zone;
//! - `H.MM` only with am/pm ("7.30pm"): a bare "7.30" stays a number;
//! - an hour alone only with am/pm ("7 pm");
//! - a bare one-digit `H:MM` only after a time word ("at 7:30") or before a range's second clock
//!   ("9:00-17:00"): "John 3:16" is no time;
//! - never a ratio or score with one-digit minutes ("3:2", "16:9"), a `H:MM:SS` duration
//!   without am/pm or zone ("1:30:00"), a longer chain ("1:2:3:4"), or a price ("$7.30 pm").

use super::{Branch, Family, Found, Hit, Kind};
use crate::atoms::{Atom, Clock, Zone};
use crate::extract::calendar::number;
use crate::extract::chars::is_word;
use crate::extract::scan::{Cx, Scan};
use crate::extract::text::Text;

pub struct Times;

impl Kind for Times {
    fn branches(&self) -> &'static [Branch] {
        &BRANCHES
    }
}

static BRANCHES: [Branch; 1] = [Branch {
    name: "clock",
    family: Family::Clock,
    yields: false,
    attempt,
    read,
}];

const SPACES: [char; 3] = [' ', '\u{a0}', '\u{202f}'];
/// Words after which a bare one-digit `H:MM` is a time.
const TIME_WORDS: [&str; 12] = [
    "at", "by", "until", "till", "from", "to", "before", "after", "around", "since", "between", "@",
];
/// Zone abbreviations with the offsets (minutes) they stand for: standard and daylight time
/// for a generic zone ("PT"), the one offset twice for a fixed zone. Upper case only ("pt" may
/// be points). Ambiguous abbreviations (IST) are left out; CST is read as US Central.
const ZONES: [(&str, i16, i16); 34] = [
    ("UTC", 0, 0),
    ("GMT", 0, 0),
    ("Z", 0, 0),
    ("WET", 0, 0),
    ("WEST", 60, 60),
    ("BST", 60, 60),
    ("CET", 60, 60),
    ("CEST", 120, 120),
    ("EET", 120, 120),
    ("EEST", 180, 180),
    ("MSK", 180, 180),
    ("SGT", 480, 480),
    ("HKT", 480, 480),
    ("JST", 540, 540),
    ("KST", 540, 540),
    ("AEST", 600, 600),
    ("AEDT", 660, 660),
    ("AET", 600, 660),
    ("NZST", 720, 720),
    ("NZDT", 780, 780),
    ("EST", -300, -300),
    ("EDT", -240, -240),
    ("ET", -300, -240),
    ("CST", -360, -360),
    ("CDT", -300, -300),
    ("CT", -360, -300),
    ("MST", -420, -420),
    ("MDT", -360, -360),
    ("MT", -420, -360),
    ("PST", -480, -480),
    ("PDT", -420, -420),
    ("PT", -480, -420),
    ("AKST", -540, -540),
    ("HST", -600, -600),
];

fn attempt(cx: &Cx<'_>, p: usize) -> Option<Hit> {
    clock_at(&cx.text, p).map(|(end, _)| Hit::new(p, end))
}

fn read(scan: &Scan<'_>, hit: &Hit) -> Found {
    clock_at(&scan.text, hit.start).map_or(Found::Nothing, |(end, clock)| {
        Found::One(Atom::time(hit.start, end, clock))
    })
}

/// Whether a clock may start at the digit before `q`: one more hour digit at most, then ":" or
/// "." and a digit, or am/pm (the scan's cheap guard).
pub fn clock_ahead(text: &Text<'_>, q: usize) -> bool {
    let at = q + text.digits(q, 2);
    if at > q + 1 {
        return false;
    }
    if text.at_in(at, &[':', '.']) && text.digit_at(at + 1) {
        return true;
    }
    let letter = if text.at_in(at, &SPACES) {
        text.at(at).map_or(at, |c| at + c.len_utf8())
    } else {
        at
    };
    text.at(letter)
        .is_some_and(|c| matches!(c.to_ascii_lowercase(), 'a' | 'p'))
}

/// The time of day whose hour starts at the digit `p`, and where it ends.
fn clock_at(text: &Text<'_>, p: usize) -> Option<(usize, Clock)> {
    if text
        .back(p, 1)
        .is_some_and(|c| matches!(c, ':' | '.' | '$' | '€' | '£' | '¥'))
    {
        return None; // inside a chain ("1:30:00"), or a price
    }
    let hour_digits = 1 + text.digits(p + 1, 2);
    if hour_digits > 2 {
        return None;
    }
    let hour = number(text.slice(p, p + hour_digits));
    let mut at = p + hour_digits;
    let separator = text
        .at(at)
        .filter(|c| matches!(c, ':' | '.') && text.digits(at + 1, 3) == 2);
    let mut minute = 0;
    let mut second = None;
    if separator.is_some() {
        minute = number(text.slice(at + 1, at + 3));
        at += 3;
        if separator == Some(':') && text.byte_is(at, b':') && text.digits(at + 1, 3) == 2 {
            second = Some(number(text.slice(at + 1, at + 3)));
            at += 3;
        }
    }
    if text.at_in(at, &[':', '.', ',']) && text.digit_at(at + 1) {
        return None; // "1:2:3:4", "7.30.2", "7:30,5"
    }
    let meridiem = meridiem(text, at);
    if let Some((_, end)) = meridiem {
        at = end;
    }
    let zone = zone(text, at);
    if let Some((_, end)) = &zone {
        at = *end;
    }
    if text.at(at).is_some_and(is_word) {
        return None;
    }
    let cued = meridiem.is_some() || zone.is_some();
    let bare_short =
        !cued && hour_digits == 1 && !after_time_word(text, p) && !opens_a_range(text, at);
    if (separator != Some(':') && meridiem.is_none()) || (second.is_some() && !cued) || bare_short {
        return None;
    }
    let hour = match meridiem {
        Some((pm, _)) if (1..=12).contains(&hour) => hour % 12 + if pm { 12 } else { 0 },
        Some(_) => return None,
        None => hour,
    };
    if hour > 23 || minute > 59 || second.is_some_and(|s| s > 59) {
        return None;
    }
    let clock = Clock {
        hour: u8::try_from(hour).ok()?,
        minute: u8::try_from(minute).ok()?,
        second: second.and_then(|s| u8::try_from(s).ok()),
        zone: zone.map(|(zone, _)| zone),
    };
    Some((at, clock))
}

/// "am", "pm", "a.m.", "p.m." (any case), after at most one space: (pm, end).
fn meridiem(text: &Text<'_>, at: usize) -> Option<(bool, usize)> {
    let start = text
        .at(at)
        .filter(|c| SPACES.contains(c))
        .map_or(at, |c| at + c.len_utf8());
    let pm = match text.at(start)?.to_ascii_lowercase() {
        'a' => false,
        'p' => true,
        _ => return None,
    };
    let is_m = |at: usize| text.at(at).is_some_and(|c| c.eq_ignore_ascii_case(&'m'));
    let end = if is_m(start + 1) {
        start + 2
    } else if text.byte_is(start + 1, b'.') && is_m(start + 2) {
        start + 3 + usize::from(text.byte_is(start + 3, b'.'))
    } else {
        return None;
    };
    (!text.at(end).is_some_and(is_word)).then_some((pm, end))
}

/// A zone after the time: "Z" glued to it, or after at most one space an abbreviation of
/// `ZONES` (upper case), or "UTC"/"GMT" with an offset ("UTC+2", "GMT-07:00").
fn zone(text: &Text<'_>, at: usize) -> Option<(Zone, usize)> {
    if text.byte_is(at, b'Z') && !text.at(at + 1).is_some_and(is_word) {
        return Some((fixed("UTC", 0), at + 1));
    }
    let start = text
        .at(at)
        .filter(|c| SPACES.contains(c))
        .map_or(at, |c| at + c.len_utf8());
    let letters = text.run(start, 5, |b| b.is_ascii_uppercase());
    let word = text.slice(start, start + letters);
    let end = start + letters;
    if matches!(word, "UTC" | "GMT") && text.at_in(end, &['+', '-']) {
        if let Some((offset, after)) = offset(text, end) {
            return Some((
                fixed(&format!("UTC{}", offset_label(offset)), offset),
                after,
            ));
        }
    }
    if text.at(end).is_some_and(is_word) {
        return None;
    }
    let (name, standard, daylight) = ZONES.iter().find(|(name, _, _)| *name == word)?;
    let label = if *name == "GMT" || *name == "Z" {
        "UTC"
    } else {
        name
    };
    Some((
        Zone {
            label: label.to_owned(),
            offsets: [*standard, *daylight],
        },
        end,
    ))
}

fn fixed(label: &str, offset: i16) -> Zone {
    Zone {
        label: label.to_owned(),
        offsets: [offset, offset],
    }
}

/// `[+-]H{1,2}(:?MM)?` at `at`: the offset in minutes and where it ends.
fn offset(text: &Text<'_>, at: usize) -> Option<(i16, usize)> {
    let sign: i16 = if text.byte_is(at, b'-') { -1 } else { 1 };
    let hours = text.digits(at + 1, 3);
    if !(1..=2).contains(&hours) {
        return None;
    }
    let mut end = at + 1 + hours;
    let hour = number(text.slice(at + 1, end));
    let colon = usize::from(text.byte_is(end, b':'));
    let mut minute = 0;
    if text.digits(end + colon, 3) == 2 && (hours == 2 || colon == 1) {
        minute = number(text.slice(end + colon, end + colon + 2));
        end += colon + 2;
    }
    if hour > 14 || minute > 59 || text.at(end).is_some_and(is_word) {
        return None;
    }
    Some((sign * i16::try_from(hour * 60 + minute).ok()?, end))
}

/// "+HH:MM" / "-HH:MM".
fn offset_label(offset: i16) -> String {
    let sign = if offset < 0 { '-' } else { '+' };
    let minutes = offset.unsigned_abs();
    format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60)
}

/// Whether a dash and another clock follow at `at` ("9:00-17:00", "9:00 – 17:30").
fn opens_a_range(text: &Text<'_>, at: usize) -> bool {
    let skip_space = |at: usize| {
        text.at(at)
            .filter(|c| SPACES.contains(c))
            .map_or(at, |c| at + c.len_utf8())
    };
    let dash = skip_space(at);
    let Some(mark) = text.at(dash).filter(|c| matches!(c, '-' | '–' | '—')) else {
        return false;
    };
    let hour = skip_space(dash + mark.len_utf8());
    let digits = text.digits(hour, 3);
    (1..=2).contains(&digits)
        && text.byte_is(hour + digits, b':')
        && text.digits(hour + digits + 1, 3) == 2
}

/// Whether the word before the digit `p` (one space between) is one of `TIME_WORDS`.
fn after_time_word(text: &Text<'_>, p: usize) -> bool {
    if text.back(p, 1) == Some('@') {
        return true;
    }
    if !text.back(p, 1).is_some_and(|c| SPACES.contains(&c)) {
        return false;
    }
    let gap = text.back_pos(p, 1);
    let head = text.slice(0, gap);
    let word_len = head
        .bytes()
        .rev()
        .take(7)
        .take_while(|b| b.is_ascii_alphabetic() || *b == b'@')
        .count();
    let word = head.get(gap - word_len..).unwrap_or_default();
    let glued = text.back(gap - word_len, 1).is_some_and(is_word);
    !glued && TIME_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
}

/// The clock of an ISO timestamp (`2025-04-15T14:05:00Z`, `2025-04-15 14:05-07:00`) as its date
/// atom was written, with the timestamp's zone (`Z`, an offset) if it has one.
pub fn iso_clock(written: &str) -> Option<Clock> {
    let text = Text::new(written, written.len());
    let at = written
        .char_indices()
        .skip(8)
        .find(|(_, c)| matches!(c, 'T' | ' '))
        .map(|(at, _)| at + 1)?;
    if text.digits(at, 3) != 2 || !text.byte_is(at + 2, b':') || text.digits(at + 3, 3) != 2 {
        return None;
    }
    let hour = number(text.slice(at, at + 2));
    let minute = number(text.slice(at + 3, at + 5));
    let mut end = at + 5;
    let mut second = None;
    if text.byte_is(end, b':') && text.digits(end + 1, 3) == 2 {
        second = Some(number(text.slice(end + 1, end + 3)));
        end += 3;
        if text.at_in(end, &['.', ',']) {
            end += 1 + text.digits(end + 1, 9);
        }
    }
    let zone = if text.byte_is(end, b'Z') {
        Some(fixed("UTC", 0))
    } else if text.at_in(end, &['+', '-']) {
        offset(&text, end).map(|(offset, _)| fixed(&offset_label(offset), offset))
    } else {
        None
    };
    if hour > 23 || minute > 59 || second.is_some_and(|s| s > 59) {
        return None;
    }
    Some(Clock {
        hour: u8::try_from(hour).ok()?,
        minute: u8::try_from(minute).ok()?,
        second: second.and_then(|s| u8::try_from(s).ok()),
        zone,
    })
}

#[cfg(test)]
mod tests {
    use super::iso_clock;
    use crate::kinds::testing::read;

    fn times(text: &str) -> Vec<(String, String)> {
        read(text)
            .into_iter()
            .filter(|(kind, _, _)| *kind == "time")
            .map(|(_, written, form)| (written, form))
            .collect()
    }

    fn forms(text: &str) -> Vec<String> {
        times(text).into_iter().map(|(_, form)| form).collect()
    }

    #[test]
    fn clock_forms_with_meridiem_and_zone() {
        assert_eq!(
            forms("7:30 PM, 19:30, 7.30pm, 7 pm, 12:15 a.m. and 2:05 p.m. PT"),
            ["19:30", "19:30", "19:30", "19:00", "00:15", "14:05 PT"]
        );
        assert_eq!(
            forms("14:05 UTC, 14:05Z, 09:00 GMT, 9:00 UTC+2, 8:00 am CET"),
            [
                "14:05 UTC",
                "14:05 UTC",
                "09:00 UTC",
                "09:00 UTC+02:00",
                "08:00 CET"
            ]
        );
        assert_eq!(times("at 7:30, ends 10:45:30 pm")[0].0, "7:30");
        assert_eq!(
            forms("open 9:00-17:00, 9:30 – 12:00"),
            ["09:00", "17:00", "09:30", "12:00"]
        );
        assert!(forms("John 3:16-18").is_empty());
        assert_eq!(forms("ends 10:45:30 pm"), ["22:45:30"]);
    }

    #[test]
    fn ratios_scores_durations_prices_and_numbers_are_no_times() {
        for text in [
            "won 3:2",
            "a 16:9 screen",
            "John 3:16",
            "ran 1:30:00",
            "costs $7.30 pm",
            "grew 7.30 points",
            "v1.2.3",
            "13 pm",
            "25:00",
            "1:2:3:4",
            "2025-04-15T14:05:00Z",
        ] {
            assert!(forms(text).is_empty(), "{text}");
        }
        assert_eq!(read("grew 7.30 percent")[0].0, "percent");
        assert_eq!(read("2025-04-15T14:05:00Z")[0].0, "date");
    }

    #[test]
    fn the_clock_of_an_iso_timestamp() {
        let clock = iso_clock("2025-04-15T14:05:00-07:00").map(|c| c.normalized());
        assert_eq!(clock.as_deref(), Some("14:05:00 -07:00"));
        let clock = iso_clock("2025-04-15T14:05:00.123Z").map(|c| c.normalized());
        assert_eq!(clock.as_deref(), Some("14:05:00 UTC"));
        let clock = iso_clock("2025-04-15 14:05").map(|c| c.normalized());
        assert_eq!(clock.as_deref(), Some("14:05"));
        assert!(iso_clock("2025-04-15").is_none());
    }
}
