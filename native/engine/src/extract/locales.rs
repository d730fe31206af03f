//! Locale packs: the words and separators extraction reads in each supported locale (the former Python engine's
//! `extract/locales.py`). English words are understood in every locale; a pack adds its own.

use std::collections::HashMap;
use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateOrder {
    Mdy,
    Dmy,
}

/// Every date order, in the former Python engine's declared order (`DateOrder = Literal["MDY", "DMY"]`).
pub const DATE_ORDERS: [DateOrder; 2] = [DateOrder::Mdy, DateOrder::Dmy];

/// Word maps keep the former Python engine's dict order (a locale's words after the English ones, an override in
/// the English word's place); lookups go through the `HashMap`s.
pub struct Pack {
    pub name: &'static str,
    pub group_separators: &'static [char],
    pub decimal: char,
    pub date_orders: &'static [DateOrder],
    pub date_separators: &'static [char],
    pub months: Vec<(&'static str, u32)>,
    pub month_of: HashMap<&'static str, u32>,
    pub magnitudes: Vec<(&'static str, i32)>,
    pub percent_words: Vec<(&'static str, &'static str)>,
    pub hedges: Vec<&'static str>,
    pub relative_days: Vec<(&'static str, i64)>,
    pub day_units: Vec<(&'static str, i64)>,
    pub past_suffixes: &'static [&'static str],
    pub past_prefixes: &'static [&'static str],
    pub future_prefixes: &'static [&'static str],
}

const ENGLISH_MONTHS: &[(&str, u32)] = &[
    ("january", 1),
    ("jan", 1),
    ("february", 2),
    ("feb", 2),
    ("march", 3),
    ("mar", 3),
    ("april", 4),
    ("apr", 4),
    ("may", 5),
    ("june", 6),
    ("jun", 6),
    ("july", 7),
    ("jul", 7),
    ("august", 8),
    ("aug", 8),
    ("september", 9),
    ("sept", 9),
    ("sep", 9),
    ("october", 10),
    ("oct", 10),
    ("november", 11),
    ("nov", 11),
    ("december", 12),
    ("dec", 12),
];
const GERMAN_MONTHS: &[(&str, u32)] = &[
    ("januar", 1),
    ("jänner", 1),
    ("februar", 2),
    ("märz", 3),
    ("maerz", 3),
    ("mär", 3),
    ("mrz", 3),
    ("mai", 5),
    ("juni", 6),
    ("juli", 7),
    ("oktober", 10),
    ("okt", 10),
    ("dezember", 12),
    ("dez", 12),
];
const GERMAN_MAGNITUDES: &[(&str, i32)] = &[
    ("tsd", 3),
    ("tsd.", 3),
    ("mio", 6),
    ("mio.", 6),
    ("millionen", 6),
    ("mrd", 9),
    ("mrd.", 9),
    ("milliarde", 9),
    ("milliarden", 9),
];
const FRENCH_MONTHS: &[(&str, u32)] = &[
    ("janvier", 1),
    ("janv", 1),
    ("février", 2),
    ("fevrier", 2),
    ("févr", 2),
    ("fevr", 2),
    ("mars", 3),
    ("avril", 4),
    ("avr", 4),
    ("mai", 5),
    ("juin", 6),
    ("juillet", 7),
    ("juil", 7),
    ("août", 8),
    ("aout", 8),
    ("septembre", 9),
    ("octobre", 10),
    ("novembre", 11),
    ("décembre", 12),
    ("decembre", 12),
    ("déc", 12),
];
const ENGLISH_MAGNITUDES: &[(&str, i32)] = &[
    ("thousand", 3),
    ("million", 6),
    ("billion", 9),
    ("trillion", 12),
];
const ENGLISH_PERCENT: &[(&str, &str)] = &[
    ("%", "%"),
    ("percent", "%"),
    ("per cent", "%"),
    ("pct", "%"),
    ("percentage points", "pp"),
    ("percentage point", "pp"),
    ("pp", "pp"),
    ("ppt", "pp"),
    ("ppts", "pp"),
    ("pts", "pp"),
    ("basis points", "bp"),
    ("basis point", "bp"),
    ("bps", "bp"),
    ("bp", "bp"),
];
const ENGLISH_HEDGES: &[&str] = &[
    "about",
    "around",
    "approximately",
    "approx.",
    "approx",
    "roughly",
    "nearly",
    "almost",
    "some",
    "circa",
    "ca.",
    "close to",
    "an estimated",
    "estimated",
    "~",
    "≈",
];
const ENGLISH_RELATIVE: &[(&str, i64)] = &[("today", 0), ("yesterday", -1), ("tomorrow", 1)];
const ENGLISH_DAY_UNITS: &[(&str, i64)] = &[("day", 1), ("days", 1), ("week", 7), ("weeks", 7)];

/// `{**base, **extra}`: an override keeps the base key's place.
fn merged<V: Copy>(
    base: &[(&'static str, V)],
    extra: &[(&'static str, V)],
) -> Vec<(&'static str, V)> {
    let mut out: Vec<(&'static str, V)> = base.to_vec();
    for &(word, value) in extra {
        match out.iter_mut().find(|(known, _)| *known == word) {
            Some(entry) => entry.1 = value,
            None => out.push((word, value)),
        }
    }
    out
}

struct Spec {
    name: &'static str,
    groups: &'static [char],
    decimal: char,
    orders: &'static [DateOrder],
    date_separators: &'static [char],
    months: &'static [(&'static str, u32)],
    magnitudes: &'static [(&'static str, i32)],
    percent_words: &'static [(&'static str, &'static str)],
    hedges: &'static [&'static str],
    relative_days: &'static [(&'static str, i64)],
    day_units: &'static [(&'static str, i64)],
    past_prefixes: &'static [&'static str],
    future_prefixes: &'static [&'static str],
}

fn pack(spec: Spec) -> Pack {
    let months = merged(ENGLISH_MONTHS, spec.months);
    Pack {
        name: spec.name,
        group_separators: spec.groups,
        decimal: spec.decimal,
        date_orders: spec.orders,
        date_separators: spec.date_separators,
        month_of: months.iter().copied().collect(),
        months,
        magnitudes: merged(ENGLISH_MAGNITUDES, spec.magnitudes),
        percent_words: merged(ENGLISH_PERCENT, spec.percent_words),
        hedges: ENGLISH_HEDGES.iter().chain(spec.hedges).copied().collect(),
        relative_days: merged(ENGLISH_RELATIVE, spec.relative_days),
        day_units: merged(ENGLISH_DAY_UNITS, spec.day_units),
        past_suffixes: &["ago"],
        past_prefixes: spec.past_prefixes,
        future_prefixes: spec.future_prefixes,
    }
}

const SPACES: &[char] = &[' ', '\u{a0}', '\u{202f}'];

/// The supported locales, in the former Python engine's order (`SUPPORTED_LOCALES`).
pub const SUPPORTED_LOCALES: [&str; 4] = ["en-US", "en-GB", "de-DE", "fr-FR"];

fn build() -> Vec<Pack> {
    let english = |name, orders, date_separators| Spec {
        name,
        groups: &[','],
        decimal: '.',
        orders,
        date_separators,
        months: &[],
        magnitudes: &[],
        percent_words: &[],
        hedges: &[],
        relative_days: &[],
        day_units: &[],
        past_prefixes: &[],
        future_prefixes: &["in"],
    };
    vec![
        pack(english("en-US", &[DateOrder::Mdy], &['/', '-'])),
        pack(english("en-GB", &[DateOrder::Dmy], &['/', '-', '.'])),
        pack(Spec {
            name: "de-DE",
            groups: &['.'],
            decimal: ',',
            orders: &[DateOrder::Dmy],
            date_separators: &['.', '/'],
            months: GERMAN_MONTHS,
            magnitudes: GERMAN_MAGNITUDES,
            percent_words: &[
                ("prozent", "%"),
                ("prozentpunkte", "pp"),
                ("prozentpunkt", "pp"),
                ("basispunkte", "bp"),
            ],
            hedges: &[
                "etwa",
                "rund",
                "ungefähr",
                "circa",
                "knapp",
                "annähernd",
                "fast",
            ],
            relative_days: &[("heute", 0), ("gestern", -1), ("morgen", 1)],
            day_units: &[
                ("tag", 1),
                ("tage", 1),
                ("tagen", 1),
                ("woche", 7),
                ("wochen", 7),
            ],
            past_prefixes: &["vor"],
            future_prefixes: &["in"],
        }),
        pack(Spec {
            name: "fr-FR",
            groups: SPACES,
            decimal: ',',
            orders: &[DateOrder::Dmy],
            date_separators: &['/', '.', '-'],
            months: FRENCH_MONTHS,
            magnitudes: &[
                ("mille", 3),
                ("millions", 6),
                ("milliard", 9),
                ("milliards", 9),
                ("md", 9),
                ("mds", 9),
            ],
            percent_words: &[
                ("pour cent", "%"),
                ("points de pourcentage", "pp"),
                ("point de pourcentage", "pp"),
                ("points de base", "bp"),
                ("pb", "bp"),
            ],
            hedges: &[
                "environ",
                "près de",
                "presque",
                "quelque",
                "à peu près",
                "autour de",
                "env.",
            ],
            relative_days: &[("aujourd'hui", 0), ("hier", -1), ("demain", 1)],
            day_units: &[("jour", 1), ("jours", 1), ("semaine", 7), ("semaines", 7)],
            past_prefixes: &["il y a"],
            future_prefixes: &["in", "dans"],
        }),
    ]
}

/// The pack of `locale`, or `None` when it is not supported.
pub fn pack_for(locale: &str) -> Option<&'static Pack> {
    static PACKS: OnceLock<Vec<Pack>> = OnceLock::new();
    PACKS
        .get_or_init(build)
        .iter()
        .find(|pack| pack.name == locale)
}
