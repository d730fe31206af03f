//! The word tables of one locale pack (the former Python engine's `grammar.py` minus the pattern text): what may
//! follow a figure, what may stand before it, month and relative-day words, scan anchors.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::chars::is_word;
use super::locales::{pack_for, Pack, SUPPORTED_LOCALES};
use super::words::{any_case, capitalize, CharMap, Words};

pub const CURRENCY_SYMBOLS: &[(char, &str)] = &[
    ('$', "USD"),
    ('€', "EUR"),
    ('£', "GBP"),
    ('¥', "JPY"),
    ('₹', "INR"),
    ('₩', "KRW"),
    ('₽', "RUB"),
    ('₺', "TRY"),
    ('₪', "ILS"),
    ('₫', "VND"),
    ('฿', "THB"),
    ('₱', "PHP"),
    ('₦', "NGN"),
    ('₴', "UAH"),
];
/// Letters glued before "$" that name another dollar ("US$", "C$", "HK$").
pub const DOLLAR_PREFIXES: &[(&str, &str)] = &[
    ("US", "USD"),
    ("AU", "AUD"),
    ("A", "AUD"),
    ("CA", "CAD"),
    ("C", "CAD"),
    ("NZ", "NZD"),
    ("HK", "HKD"),
    ("S", "SGD"),
    ("R", "BRL"),
    ("MX", "MXN"),
];
const ISO_CURRENCIES: &[&str] = &[
    "USD", "EUR", "GBP", "JPY", "CNY", "INR", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK",
    "PLN", "CZK", "HUF", "BRL", "MXN", "ZAR", "SGD", "HKD", "KRW", "RUB", "TRY", "ILS", "AED",
    "SAR", "THB", "IDR", "MYR", "PHP", "VND", "NGN", "EGP", "ARS", "CLP", "COP", "TWD", "PKR",
    "BDT", "KES", "KWD", "QAR", "RON", "BGN", "ISK", "UAH", "KZT",
];
const CURRENCY_WORDS: &[(&str, &str)] = &[
    ("dollar", "USD"),
    ("dollars", "USD"),
    ("euro", "EUR"),
    ("euros", "EUR"),
    ("buck", "USD"),
    ("bucks", "USD"),
    ("quid", "GBP"),
];
/// Characters that lead a figure into the atom when written just before it.
pub const LEAD_CHARS: &[char] = &[
    '$', '€', '£', '¥', '₹', '₩', '₽', '₺', '₪', '₫', '฿', '₱', '₦', '₴', '-', '−', '+',
];
const MAGNITUDE_LETTERS: &[(&str, i32)] = &[
    ("k", 3),
    ("K", 3),
    ("M", 6),
    ("B", 9),
    ("bn", 9),
    ("Bn", 9),
    ("BN", 9),
    ("tn", 12),
    ("Tn", 12),
    ("mln", 6),
    ("Mln", 6),
    ("MLN", 6),
    ("bln", 9),
    ("Bln", 9),
    ("BLN", 9),
];
const MONEY_ONLY_MAGNITUDES: &[(&str, i32)] = &[("m", 6), ("mn", 6), ("mm", 6), ("b", 9)];
const MONEY_ONLY_ABBREVIATIONS: &[(&str, i32)] = &[("Mn", 6), ("MN", 6), ("MM", 6)];
const UNITS: &[&str] = &[
    "ns", "µs", "μs", "us", "ms", "sec", "secs", "min", "mins", "hr", "hrs", "kg", "mg", "lb",
    "lbs", "oz", "km", "cm", "mm", "mi", "ft", "kB", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB",
    "GiB", "TiB", "kbps", "Kbps", "Mbps", "Gbps", "Hz", "kHz", "MHz", "GHz", "kW", "kWh", "MW",
    "MWh", "GW", "GWh", "mAh", "rpm", "fps", "rps", "qps", "tps", "°C", "°F",
];
const GLUED_UNITS: &[&str] = &["s", "h", "d", "g", "W", "V", "x"];

/// The ISO code of a currency code read before or after a figure ("RMB" is the yuan).
pub fn currency_code(code: &str) -> Option<&'static str> {
    // Every code is three ASCII capitals: anything else is refused before the list is read.
    if code.len() != 3 || !code.bytes().all(|byte| byte.is_ascii_uppercase()) {
        return None;
    }
    if code == "RMB" {
        return Some("CNY");
    }
    ISO_CURRENCIES.iter().find(|iso| **iso == code).copied()
}

/// Every code `currency_code` reads.
pub fn currency_codes() -> impl Iterator<Item = &'static str> {
    ISO_CURRENCIES.iter().copied().chain(["RMB"])
}

pub fn currency_symbol(symbol: char) -> Option<&'static str> {
    CURRENCY_SYMBOLS
        .iter()
        .find(|(s, _)| *s == symbol)
        .map(|(_, code)| *code)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Magnitude,
    MoneyMagnitude,
    Percent,
    Currency,
    Unit,
    GluedUnit,
}

/// Meaning of a word written after a figure: `exponent` is its power of ten, `label` the unit,
/// percent unit ("%"/"pp") or ISO currency code it stands for.
#[derive(Clone, Debug)]
pub struct Suffix {
    pub role: Role,
    pub exponent: i32,
    pub label: Option<&'static str>,
}

fn suffix(role: Role, exponent: i32, label: Option<&'static str>) -> Suffix {
    Suffix {
        role,
        exponent,
        label,
    }
}

/// The former Python engine's `suffix_table`: later entries override earlier ones, as its dict updates do.
fn suffix_table(pack: &Pack) -> HashMap<String, Suffix> {
    let mut table: HashMap<String, Suffix> = HashMap::new();
    for unit in UNITS {
        table.insert(unit.to_string(), suffix(Role::Unit, 0, Some(unit)));
    }
    for unit in GLUED_UNITS {
        table.insert(unit.to_string(), suffix(Role::GluedUnit, 0, Some(unit)));
    }
    for (symbol, code) in CURRENCY_SYMBOLS {
        table.insert(symbol.to_string(), suffix(Role::Currency, 0, Some(code)));
    }
    for code in currency_codes() {
        table.insert(
            code.to_string(),
            suffix(Role::Currency, 0, currency_code(code)),
        );
    }
    for (word, code) in CURRENCY_WORDS {
        for spelling in any_case([*word]) {
            table.insert(spelling, suffix(Role::Currency, 0, Some(code)));
        }
    }
    for (word, kind) in &pack.percent_words {
        let meaning = if *kind == "bp" {
            suffix(Role::Percent, -2, Some("pp"))
        } else {
            suffix(Role::Percent, 0, Some(kind))
        };
        for spelling in any_case([*word]) {
            table.insert(spelling, meaning.clone());
        }
    }
    for (word, exponent) in &pack.magnitudes {
        for spelling in any_case([*word]) {
            table.insert(spelling, suffix(Role::Magnitude, *exponent, None));
        }
    }
    for (letters, exponent) in MAGNITUDE_LETTERS {
        table.insert(
            letters.to_string(),
            suffix(Role::Magnitude, *exponent, None),
        );
    }
    for (letters, exponent) in MONEY_ONLY_MAGNITUDES {
        table.insert(
            letters.to_string(),
            suffix(Role::MoneyMagnitude, *exponent, Some(letters)),
        );
    }
    for (letters, exponent) in MONEY_ONLY_ABBREVIATIONS {
        table.insert(
            letters.to_string(),
            suffix(Role::MoneyMagnitude, *exponent, None),
        );
    }
    table
}

/// The tables of one pack; the relative-date words are read only by anchored scans.
pub struct Grammar {
    pub pack: &'static Pack,
    pub suffixes: HashMap<String, Suffix>,
    pub suffix_words: Words,
    pub currency_words: Words,
    /// First characters of suffix words that are no word characters ("%", "$", "°").
    pub suffix_starts: Vec<char>,
    /// Month names in any case (a day written first), capitalised and upper case (month first),
    /// and as the pack lists them (lower case, found from the digit after them).
    pub months_any_case: Words,
    pub months_titled: Words,
    pub months_lower: Vec<&'static str>,
    pub month_last_letters: Vec<char>,
    /// What may follow "3 " in a date or relative date: month initials, and day-unit initials.
    pub worded_initials: Vec<char>,
    pub worded_initials_anchored: Vec<char>,
    pub relative_words: Words,
    pub day_units: Words,
    pub past_suffixes: Words,
    /// Hedge words read leftwards before a figure, and every spelling for the quick test.
    pub hedge_words: CharMap<Vec<String>>,
    pub hedge_signs: Vec<char>,
    /// The same spellings by their last character (the character before the figure's space).
    pub hedge_tails_by_last: CharMap<Vec<String>>,
    /// Bytes a match may start at: digits and the initials of the words that start a date.
    anchors: [bool; 256],
    anchors_anchored: [bool; 256],
}

impl Grammar {
    pub fn anchor_bytes(&self, anchored: bool) -> &[bool; 256] {
        if anchored {
            &self.anchors_anchored
        } else {
            &self.anchors
        }
    }
}

/// Digits and the given initials (all ASCII: the packs' words start with ASCII letters).
fn anchor_table(initials: impl Iterator<Item = char>) -> [bool; 256] {
    let mut table = [false; 256];
    for c in ('0'..='9').chain(initials.filter(char::is_ascii)) {
        if let Some(slot) = table.get_mut(c as usize) {
            *slot = true;
        }
    }
    table
}

fn build(pack: &'static Pack) -> Grammar {
    let suffixes = suffix_table(pack);
    let suffix_words = Words::new(suffixes.keys().cloned());
    let currency_words = Words::new(
        suffixes
            .iter()
            .filter(|(_, s)| s.role == Role::Currency)
            .map(|(w, _)| w.clone()),
    );
    let mut suffix_starts: Vec<char> = suffixes
        .keys()
        .filter_map(|w| w.chars().next())
        .filter(|c| !is_word(*c))
        .collect();
    suffix_starts.sort_unstable();
    suffix_starts.dedup();
    let months_any_case = Words::new(any_case(pack.months.iter().map(|(w, _)| *w)));
    let months_titled = Words::new(
        pack.months
            .iter()
            .flat_map(|(w, _)| [capitalize(w), w.to_uppercase()]),
    );
    let mut month_last_letters: Vec<char> = pack
        .months
        .iter()
        .filter_map(|(w, _)| w.chars().last())
        .collect();
    month_last_letters.sort_unstable();
    month_last_letters.dedup();
    let day_units = Words::new(any_case(pack.day_units.iter().map(|(w, _)| *w)));
    let worded_initials: Vec<char> = months_any_case.initials().collect();
    let mut worded_initials_anchored = worded_initials.clone();
    worded_initials_anchored.extend(day_units.initials());
    let mut relative = any_case(pack.relative_days.iter().map(|(w, _)| *w));
    relative.extend(relative.clone().iter().map(|w| w.replace('\'', "’")));
    let hedge_tails = any_case(pack.hedges.iter().copied());
    let relative_words = Words::new(relative);
    let lasts = hedge_tails
        .iter()
        .filter_map(|tail| Some((tail.chars().last()?, tail.clone())));
    let hedge_tails_by_last =
        CharMap::gather(lasts, |tails: &mut Vec<String>, tail| tails.push(tail));
    let anchors = anchor_table(months_titled.initials());
    let anchors_anchored = anchor_table(months_titled.initials().chain(relative_words.initials()));
    Grammar {
        anchors,
        anchors_anchored,
        pack,
        suffix_words,
        currency_words,
        suffix_starts,
        months_any_case,
        months_titled,
        months_lower: pack.months.iter().map(|(w, _)| *w).collect(),
        month_last_letters,
        worded_initials,
        worded_initials_anchored,
        relative_words,
        day_units,
        past_suffixes: Words::new(any_case(pack.past_suffixes.iter().copied())),
        // By last letter: the one nearest the figure, where the leftward reading starts.
        hedge_words: CharMap::gather(
            hedge_tails
                .iter()
                .filter(|h| {
                    h.ends_with('.') || h.chars().last().is_some_and(super::chars::is_alpha)
                })
                .filter_map(|h| Some((h.chars().last()?, h.clone()))),
            |words: &mut Vec<String>, word| words.push(word),
        ),
        hedge_signs: pack
            .hedges
            .iter()
            .filter(|h| !(h.ends_with('.') || h.chars().last().is_some_and(super::chars::is_alpha)))
            .flat_map(|h| h.chars())
            .collect(),
        hedge_tails_by_last,
        suffixes,
    }
}

/// The grammar of `locale` (built once per process).
pub fn grammar_for(locale: &str) -> Option<&'static Grammar> {
    static GRAMMARS: OnceLock<Vec<Grammar>> = OnceLock::new();
    let all = GRAMMARS.get_or_init(|| {
        SUPPORTED_LOCALES
            .iter()
            .filter_map(|name| pack_for(name))
            .map(build)
            .collect()
    });
    all.iter().find(|grammar| grammar.pack.name == locale)
}

#[cfg(test)]
mod tests {
    use super::{currency_code, currency_codes};

    #[test]
    fn every_currency_code_is_three_capitals() {
        for code in currency_codes() {
            assert!(
                code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()),
                "{code}"
            );
            assert!(currency_code(code).is_some(), "{code}");
        }
        assert_eq!(currency_code("usd"), None);
        assert_eq!(currency_code("US"), None);
    }
}
