//! The pure readings of a table's cells (`scoring/tables.py`): the figure a cell states, the scale
//! note of a caption or header, the label tokens of a row or column, header spans and row labels.
//! `make_table` (which cites its cells by corpus path) is ported with the corpus.
//!
//! Each Python regular expression is re-expressed as a scan with Python's character classes
//! (`pyunicode`), its backtracking resolved by hand where the grammar allows only one reading.

use crate::fxhash::FxHashSet as HashSet;
use crate::label_words::words;
use crate::pyunicode::{
    digit_value, ignorecase_prefix, is_digit, is_space, is_word, letter_runs, lower, strip,
};

/// A table reader never makes more than this many cells of one table, nor more tables per call.
pub const MAX_TABLE_CELLS: usize = 4096;
pub const MAX_TABLES: usize = 64;
/// A longer cell is prose, never a figure or a label.
pub const MAX_CELL_CHARS: usize = 80;

/// The figure a cell states: its value as written (sign read), whether it is a percent, and its
/// currency code.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub value: f64,
    pub percent: bool,
    pub currency: Option<&'static str>,
}

fn char_at(text: &str, at: usize) -> Option<char> {
    text.get(at..)?.chars().next()
}

fn char_before(text: &str, at: usize) -> Option<char> {
    text.get(..at)?.chars().next_back()
}

/// The byte offset after the run of characters of `class` from `at`.
fn skip(text: &str, at: usize, class: impl Fn(char) -> bool) -> usize {
    let rest = text.get(at..).unwrap_or_default();
    at + rest.find(|c: char| !class(c)).unwrap_or(rest.len())
}

/// The byte offset after `c` at `at`, if it is there.
fn eat(text: &str, at: usize, accept: impl Fn(char) -> bool) -> Option<usize> {
    char_at(text, at)
        .filter(|c| accept(*c))
        .map(|c| at + c.len_utf8())
}

/// `text` without a trailing footnote marker: Python's
/// `(?<=[\w%)\]])\s*(?:\([a-z0-9]\)|\[[a-z0-9]\]|[*†‡]+)$` (IGNORECASE) replaced by "". The text
/// is stripped (no final newline for `$` to stop before), so the marker is the text's last token
/// and the match starts where the spaces before it start.
fn without_footnote(text: &str) -> &str {
    let marker = |c: char| matches!(c, '*' | '†' | '‡');
    let token_start = match text.chars().next_back() {
        Some(close @ (')' | ']')) => {
            let open = if close == ')' { '(' } else { '[' };
            let mut tail = text.char_indices().rev().skip(1);
            match (tail.next(), tail.next()) {
                (Some((_, inner)), Some((at, c)))
                    if c == open && (inner.is_ascii_digit() || ignorecase_alpha(inner)) =>
                {
                    at
                }
                _ => return text,
            }
        }
        Some(c) if marker(c) => text.trim_end_matches(marker).len(),
        _ => return text,
    };
    let head = text
        .get(..token_start)
        .unwrap_or_default()
        .trim_end_matches(is_space);
    match head.chars().next_back() {
        Some(c) if is_word(c) || matches!(c, '%' | ')' | ']') => head,
        _ => text,
    }
}

/// `[a-z]` under IGNORECASE.
fn ignorecase_alpha(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '\u{130}' | '\u{131}' | '\u{17f}' | '\u{212a}')
}

/// (value, percent, currency) of a cell's text, or None when it states no figure.
pub fn figure(text: &str) -> Option<Figure> {
    let cleaned = strip(text);
    if cleaned.chars().count() > MAX_CELL_CHARS || is_dash(&lower(cleaned)) {
        return None;
    }
    read_figure(without_footnote(cleaned))
}

fn is_dash(lowered: &str) -> bool {
    matches!(
        lowered,
        "" | "-" | "—" | "–" | "−" | "n/a" | "na" | "nm" | "n.m." | "*"
    )
}

/// The fullmatch of Python's `_FIGURE`: `(`? minus? currency? minus? digits %? `)`? %? with
/// spaces between. Its tokens are disjoint, so each optional one is read when present; the
/// digits are the whole run of digits, commas and points (nothing after them may hold one).
fn read_figure(text: &str) -> Option<Figure> {
    let spaces = |at| skip(text, at, is_space);
    let open = eat(text, 0, |c| c == '(');
    let mut at = spaces(open.unwrap_or(0));
    let minus = eat(text, at, |c| matches!(c, '-' | '−' | '–'));
    at = spaces(minus.unwrap_or(at));
    let currency = ["US$", "$", "€", "£", "¥", "USD", "EUR", "GBP", "CHF", "JPY"]
        .into_iter()
        .find(|code| text.get(at..).is_some_and(|rest| rest.starts_with(code)));
    at = spaces(at + currency.map_or(0, str::len));
    let minus2 = eat(text, at, |c| matches!(c, '-' | '−'));
    at = spaces(minus2.unwrap_or(at));
    let digits_end = skip(text, at, |c| is_digit(c) || c == ',' || c == '.');
    let digits = text.get(at..digits_end)?;
    if !is_figure_digits(digits) {
        return None;
    }
    at = spaces(digits_end);
    let percent = eat(text, at, |c| c == '%');
    at = spaces(percent.unwrap_or(at));
    let close = eat(text, at, |c| c == ')');
    at = spaces(close.unwrap_or(at));
    let percent2 = eat(text, at, |c| c == '%');
    if percent2.unwrap_or(at) != text.len() {
        return None;
    }
    let plain: String = digits
        .chars()
        .filter_map(|c| match c {
            ',' => None,
            '.' => Some('.'),
            _ => digit_value(c).and_then(|d| char::from_digit(d, 10)),
        })
        .collect();
    let mut value: f64 = plain.parse().ok()?;
    if (open.is_some() && close.is_some()) || minus.is_some() || minus2.is_some() {
        value = -value;
    } else if open.is_some() || close.is_some() {
        return None;
    }
    let currency = currency.map(|code| match code {
        "$" | "US$" => "USD",
        "€" => "EUR",
        "£" => "GBP",
        "¥" => "JPY",
        other => other,
    });
    Some(Figure {
        value,
        percent: percent.is_some() || percent2.is_some(),
        currency,
    })
}

/// `\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+` as a whole.
fn is_figure_digits(text: &str) -> bool {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let all_digits = |part: &str| !part.is_empty() && part.chars().all(is_digit);
    if fraction.is_some_and(|fraction| !all_digits(fraction)) {
        return false;
    }
    let mut groups = whole.split(',');
    let first = groups.next().unwrap_or_default();
    if whole.is_empty() {
        return fraction.is_some();
    }
    if !whole.contains(',') {
        return all_digits(whole);
    }
    all_digits(first)
        && first.chars().count() <= 3
        && groups.all(|group| all_digits(group) && group.chars().count() == 3)
}

/// The fullmatch of `(?:fy|cy|q[1-4])?\s*'?(?:19|20)\d{2}[a-z]?` (IGNORECASE): a period header
/// ("2024", "FY 2025", "Q1 2025", "'24" is not one).
fn is_year_cell(text: &str) -> bool {
    let text = strip(text);
    let quarter =
        ignorecase_prefix(text, 0, "q").and_then(|at| eat(text, at, |c| ('1'..='4').contains(&c)));
    let prefix = ["fy", "cy"]
        .into_iter()
        .find_map(|name| ignorecase_prefix(text, 0, name))
        .or(quarter);
    let at = skip(text, prefix.unwrap_or(0), is_space);
    let at = eat(text, at, |c| c == '\'').unwrap_or(at);
    let Some(rest) = text.get(at..) else {
        return false;
    };
    if !(rest.starts_with("19") || rest.starts_with("20")) {
        return false;
    }
    let mut tail = rest.get(2..).unwrap_or_default().chars();
    let two_digits = tail.next().is_some_and(is_digit) && tail.next().is_some_and(is_digit);
    let suffix: Vec<char> = tail.collect();
    two_digits
        && matches!(suffix.as_slice(), [] | [_])
        && suffix.iter().all(|c| ignorecase_alpha(*c))
}

/// A header cell's text: no figure, or a period ("2024", "Q1 2025").
pub fn is_header_text(text: &str) -> bool {
    figure(text).is_none() || is_year_cell(text)
}

/// The years `(?<!\d)(?:19|20)\d{2}(?!\d)` finds in `text`: runs of exactly four digits of any
/// script starting with ASCII "19" or "20", read as numbers.
pub fn years(text: &str) -> impl Iterator<Item = i32> + '_ {
    text.split(|c: char| !is_digit(c)).filter_map(|run| {
        let digits: Vec<char> = run.chars().collect();
        match digits.as_slice() {
            [first @ ('1' | '2'), second @ ('9' | '0'), third, fourth]
                if matches!((first, second), ('1', '9') | ('2', '0')) =>
            {
                let low = digit_value(*third)? * 10 + digit_value(*fourth)?;
                let century = if *first == '1' { 1900 } else { 2000 };
                i32::try_from(century + low).ok()
            }
            _ => None,
        }
    })
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The month a label word abbreviates ("feb", "sept"), as `_MONTH_WORDS` maps it.
fn month_word(word: &str) -> Option<&'static str> {
    if word == "sept" {
        return Some("september");
    }
    MONTHS.into_iter().find(|name| name.get(..3) == Some(word))
}

/// Label words of a label or a question, with the years, quarters and months it names ("2025-02"
/// and "Feb" name February).
pub fn tokens(text: &str) -> HashSet<String> {
    let mut found: HashSet<String> = words(text)
        .into_iter()
        .map(|word| month_word(&word).map_or(word, str::to_owned))
        .collect();
    found.extend(period_tokens(text).map(lower));
    found.extend(short_fiscal_years(text).map(|digits| format!("20{digits}")));
    found.extend(numbered_periods(text));
    found.extend(iso_months(text).map(str::to_owned));
    found
}

/// `(?<![^\W_])(?:fy|cy)?'?((?:19|20)\d{2}|q[1-4])(?![\w])` (IGNORECASE), group 1 of each match.
fn period_tokens(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < text.len() {
            let start = at;
            at = next_char(text, at);
            let allowed = char_before(text, start).map_or(true, |c| !is_word(c) || c == '_');
            if !allowed {
                continue;
            }
            if let Some((token, end)) = period_at(text, start) {
                at = end;
                return Some(token);
            }
        }
        None
    })
}

fn next_char(text: &str, at: usize) -> usize {
    at + char_at(text, at).map_or(1, char::len_utf8)
}

/// A period token from `start`: the optional prefix is tried present first, then absent.
fn period_at(text: &str, start: usize) -> Option<(&str, usize)> {
    let prefixed = ["fy", "cy"]
        .into_iter()
        .find_map(|name| ignorecase_prefix(text, start, name));
    prefixed
        .and_then(|at| period_body(text, at))
        .or_else(|| period_body(text, start))
}

fn period_body(text: &str, at: usize) -> Option<(&str, usize)> {
    let at = eat(text, at, |c| c == '\'').unwrap_or(at);
    let rest = text.get(at..)?;
    let end = if rest.starts_with("19") || rest.starts_with("20") {
        let after = eat(text, at + 2, is_digit)?;
        eat(text, after, is_digit)?
    } else {
        let after = ignorecase_prefix(text, at, "q")?;
        eat(text, after, |c| ('1'..='4').contains(&c))?
    };
    if char_at(text, end).is_some_and(is_word) {
        return None;
    }
    Some((text.get(at..end)?, end))
}

/// Group 1 of `\bfy'?(\d{2})\b` (IGNORECASE): "FY24" names 2024.
fn short_fiscal_years(text: &str) -> impl Iterator<Item = &str> + '_ {
    word_starts(text).filter_map(move |start| {
        let at = ignorecase_prefix(text, start, "fy")?;
        let at = eat(text, at, |c| c == '\'').unwrap_or(at);
        let end = eat(text, eat(text, at, is_digit)?, is_digit)?;
        if char_at(text, end).is_some_and(is_word) {
            return None;
        }
        text.get(at..end)
    })
}

/// Byte offsets where `\b` precedes a word character. Matches found from them never overlap:
/// each pattern scanned from here ends at a word end, past which the next word starts.
fn word_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let mut previous_word = false;
    text.char_indices().filter_map(move |(at, c)| {
        let word = is_word(c);
        let starts = word && !previous_word;
        previous_word = word;
        starts.then_some(at)
    })
}

/// `\b(week|wk|month|period|day|h)\s*(\d{1,2})\b` (IGNORECASE) as `w18`, `m3`: "Week 18".
fn numbered_periods(text: &str) -> impl Iterator<Item = String> + '_ {
    let mut resume = 0;
    word_starts(text).filter_map(move |start| {
        if start < resume {
            return None; // inside the previous match
        }
        let (name, at) = ["week", "wk", "month", "period", "day", "h"]
            .into_iter()
            .find_map(|name| Some((name, ignorecase_prefix(text, start, name)?)))?;
        let digits_start = skip(text, at, is_space);
        let first = eat(text, digits_start, is_digit)?;
        let end = eat(text, first, is_digit).unwrap_or(first);
        if char_at(text, end).is_some_and(is_word) {
            return None;
        }
        resume = end;
        let initial = name.get(..1)?;
        Some(format!("{initial}{}", text.get(digits_start..end)?))
    })
}

/// The months `(?<!\d)((?:19|20)\d{2})-(0[1-9]|1[0-2])(?!\d)` names ("2025-02": february).
fn iso_months(text: &str) -> impl Iterator<Item = &'static str> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < text.len() {
            let start = at;
            at = next_char(text, at);
            if char_before(text, start).is_some_and(is_digit) {
                continue;
            }
            let Some(rest) = text.get(start..) else {
                continue;
            };
            if !(rest.starts_with("19") || rest.starts_with("20")) {
                continue;
            }
            let Some(dash) = eat(text, start + 2, is_digit).and_then(|at| eat(text, at, is_digit))
            else {
                continue;
            };
            let month = text
                .get(dash..)
                .and_then(|rest| rest.strip_prefix('-'))
                .and_then(|rest| rest.get(..2));
            let number = match month.map(str::as_bytes) {
                Some([b'0', digit @ b'1'..=b'9']) => usize::from(digit - b'0'),
                Some([b'1', digit @ b'0'..=b'2']) => 10 + usize::from(digit - b'0'),
                _ => continue,
            };
            let end = dash + 3;
            if char_at(text, end).is_some_and(is_digit) {
                continue;
            }
            at = end;
            return MONTHS.get(number - 1).copied();
        }
        None
    })
}

/// Initials of runs of three to five words ("average revenue per account": `arpa`): a key
/// abbreviates what a question spells out.
pub fn acronyms(text: &str) -> HashSet<String> {
    let initials: Vec<String> = letter_runs(text)
        .filter_map(|word| word.chars().next())
        .map(|initial| lower(initial.encode_utf8(&mut [0; 4])))
        .collect();
    (3..6)
        .flat_map(|size| initials.windows(size).map(|run| run.concat()))
        .collect()
}

/// The scale note in `text` and the currency it names: "(In millions)" (6), "$000s" (3), "€m"
/// (6, EUR); None without one. Python's `_SCALE.search`, its three alternatives tried in order at
/// each position (at most one can start at a position: "in", a currency, or "(").
pub fn scale_note(text: &str) -> Option<(i32, Option<&'static str>)> {
    let mut previous_word = false;
    for (at, c) in text.char_indices() {
        let boundary = !previous_word;
        previous_word = is_word(c);
        let found = (if boundary {
            scale_after_in(text, at)
        } else {
            None
        })
        .or_else(|| scale_after_currency(text, at))
        .or_else(|| scale_in_parentheses(text, at));
        if let Some((word, symbol)) = found {
            return power(word).map(|power| (power, symbol));
        }
    }
    None
}

/// The currencies a scale note names, in the order Python tries them, with the code each gives
/// (`_CURRENCIES.get(symbol.upper(), symbol.upper())`).
const MONEY: [(&str, &str); 12] = [
    ("us$", "USD"),
    ("$", "USD"),
    ("€", "EUR"),
    ("£", "GBP"),
    ("¥", "JPY"),
    ("usd", "USD"),
    ("eur", "EUR"),
    ("gbp", "GBP"),
    ("chf", "CHF"),
    ("jpy", "JPY"),
    ("cad", "CAD"),
    ("aud", "AUD"),
];

/// `(?:us\$|[$€£¥]|usd|eur|gbp|chf|jpy|cad|aud)` (IGNORECASE) at `at`: (currency code, end).
fn money_at(text: &str, at: usize) -> Option<(&'static str, usize)> {
    MONEY
        .into_iter()
        .find_map(|(symbol, code)| Some((code, ignorecase_prefix(text, at, symbol)?)))
}

/// The first of `options` (IGNORECASE) at `at` followed by `\b`: (word, end).
fn word_at<'t>(text: &'t str, at: usize, options: &[&str]) -> Option<&'t str> {
    options.iter().find_map(|option| {
        let end = ignorecase_prefix(text, at, option)?;
        let word = text.get(at..end)?;
        // The word ends in a word character: `\b` is a non-word character or the end after it.
        (!char_at(text, end).is_some_and(is_word)).then_some(word)
    })
}

/// The scale word and the currency code of a scale note.
type ScaleMatch<'t> = (&'t str, Option<&'static str>);

/// `\bin\s+(?:(money)\s*)?(thousands|millions|billions|bn|mn|m|k)\b`.
fn scale_after_in(text: &str, at: usize) -> Option<ScaleMatch<'_>> {
    let after = ignorecase_prefix(text, at, "in")?;
    let at = skip(text, after, is_space);
    if at == after {
        return None;
    }
    let words = ["thousands", "millions", "billions", "bn", "mn", "m", "k"];
    // No currency symbol starts like a scale word: with the symbol, or not at all.
    match money_at(text, at) {
        Some((symbol, end)) => Some((
            word_at(text, skip(text, end, is_space), &words)?,
            Some(symbol),
        )),
        None => Some((word_at(text, at, &words)?, None)),
    }
}

/// `(money)\s*'?(000s?|thousands|millions|billions|m|mn|bn|k)\b`.
fn scale_after_currency(text: &str, at: usize) -> Option<ScaleMatch<'_>> {
    let (symbol, end) = money_at(text, at)?;
    let at = skip(text, end, is_space);
    let at = eat(text, at, |c| c == '\'').unwrap_or(at);
    let words = [
        "000s",
        "000",
        "thousands",
        "millions",
        "billions",
        "m",
        "mn",
        "bn",
        "k",
    ];
    Some((word_at(text, at, &words)?, Some(symbol)))
}

/// `\(\s*(thousands|millions|billions|'?000s?)(?![\w,.])[^)]{0,40}\)`.
fn scale_in_parentheses(text: &str, at: usize) -> Option<ScaleMatch<'_>> {
    let at = skip(text, eat(text, at, |c| c == '(')?, is_space);
    let words = [
        "thousands",
        "millions",
        "billions",
        "'000s",
        "'000",
        "000s",
        "000",
    ];
    let (word, end) = words.into_iter().find_map(|option| {
        let end = ignorecase_prefix(text, at, option)?;
        let free = !char_at(text, end).is_some_and(|c| is_word(c) || c == ',' || c == '.');
        free.then(|| Some((text.get(at..end)?, end))).flatten()
    })?;
    let closes = text.get(end..)?.chars().take(41).position(|c| c == ')');
    closes.map(|_| (word, None))
}

/// `_POWERS.get(word.lower().lstrip("'"))`: `('000)` is thousands; a word matched only through a
/// non-ASCII case fold (`MİLLİONS`) is no scale word, so the text holds no note.
fn power(word: &str) -> Option<i32> {
    let lowered = lower(word);
    match lowered.trim_start_matches('\'') {
        "thousands" | "000" | "000s" | "k" => Some(3),
        "millions" | "m" | "mn" => Some(6),
        "billions" | "bn" => Some(9),
        _ => None,
    }
}

/// A header row with each empty cell after a filled one taking its text (a spanning header);
/// the label column never spans, nor does a cell naming a year.
pub fn spanned(texts: &[&str], width: usize) -> Vec<String> {
    let mut spanned: Vec<String> = texts.iter().map(|text| (*text).to_owned()).collect();
    spanned.resize(spanned.len().max(width), String::new());
    for column in 2..width {
        let previous = spanned.get(column - 1).cloned().unwrap_or_default();
        if let Some(cell) = spanned.get_mut(column) {
            if cell.is_empty() && !previous.is_empty() && years(&previous).next().is_none() {
                *cell = previous;
            }
        }
    }
    spanned
}

/// The row's label (its first non-numeric cell, footnote dropped) and its column; None for a
/// row of bare numbers.
pub fn label(texts: &[&str]) -> (Option<String>, usize) {
    for (column, text) in texts.iter().enumerate() {
        if !text.is_empty() && is_header_text(text) {
            return (Some(strip(without_footnote(text)).to_owned()), column);
        }
        if !text.is_empty() {
            return (None, 0);
        }
    }
    (None, 0)
}

/// A total row ("Total revenue"): its section's words do not label it.
pub fn total(label: &str) -> bool {
    lower(label).starts_with("total")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure_of(text: &str) -> Option<(f64, bool, Option<&'static str>)> {
        figure(text).map(|found| (found.value, found.percent, found.currency))
    }

    #[test]
    fn cells_state_figures_as_reports_write_them() {
        assert_eq!(figure_of("(1,234)"), Some((-1234.0, false, None)));
        assert_eq!(
            figure_of("$ 8,092.1 (1)"),
            Some((8092.1, false, Some("USD")))
        );
        assert_eq!(figure_of("−12.5 %*"), Some((-12.5, true, None)));
        assert_eq!(figure_of("20٢٤"), Some((2024.0, false, None)));
        assert_eq!(figure_of("(12"), None);
        assert_eq!(figure_of("1,23"), None);
        assert_eq!(figure_of("N/A"), None);
        assert!(is_header_text("FY 2024") && is_header_text("Revenue") && !is_header_text("12"));
    }

    #[test]
    fn scale_notes_set_a_power_and_a_currency() {
        assert_eq!(
            scale_note("(In millions, except per share)"),
            Some((6, None))
        );
        assert_eq!(scale_note("in € millions"), Some((6, Some("EUR"))));
        assert_eq!(scale_note("USD 000s"), Some((3, Some("USD"))));
        assert_eq!(scale_note("CHF m"), Some((6, Some("CHF"))));
        assert_eq!(scale_note("min"), None);
        assert_eq!(scale_note("('000)"), Some((3, None)));
        assert_eq!(scale_note("(In MİLLİONS)"), None);
    }

    #[test]
    fn tokens_name_periods_and_months() {
        let found = tokens("Week 18 revenue FY24, Q3 and 2025-02 (Feb)");
        for token in ["w18", "revenue", "2024", "q3", "february", "2025"] {
            assert!(found.contains(token), "{token} in {found:?}");
        }
        assert!(acronyms("average revenue per account").contains("arpa"));
    }

    #[test]
    fn header_spans_and_row_labels() {
        assert_eq!(
            spanned(&["", "Year ended", "", "2024", ""], 5),
            ["", "Year ended", "Year ended", "2024", ""]
        );
        assert_eq!(
            label(&["", "Revenue (1)", "12"]),
            (Some("Revenue".to_owned()), 1)
        );
        assert_eq!(label(&["12", "Revenue"]), (None, 0));
        assert!(total("TOTAL assets") && !total("Subtotal"));
    }
}
