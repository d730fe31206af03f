//! Table readers for JSON (`scoring/table_json.py`), over the evidence arena's nodes: an array of
//! rows whose first row(s) are headers, and an array of records whose first key names a line item
//! or a period, or whose other keys name periods (its keys are the header row, each record's first
//! value its row label). Other records (orders, invoices) and lists of more than `MAX_RECORDS`
//! records are data, left to the operand families. Linear in the cells read, capped at
//! `MAX_TABLE_CELLS`.
//!
//! A `List` or `Map` node is read; a container the conversion did not read (`Unread`, `Cut`) is
//! no row nor record here, where Python holds the whole object.

use std::borrow::Cow;

use crate::corpus::currency_of;
use crate::float_repr::py_float_repr;
use crate::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet};
use crate::keyed::parse_decimal;
use crate::label_words::words;
use crate::paths::{Key, PathId};
use crate::pytext::{at_most_chars, lossy};
use crate::pyunicode::{is_digit, is_word};
use crate::quantity_names::names_no_quantity;
use crate::table_model::{Currency, Grid, Place, RawCell};
use crate::tables::{scale_note, MAX_CELL_CHARS, MAX_TABLE_CELLS};
use crate::value::{Arena, Node, NodeId};

/// Lists of more records are data, not a table a person reads.
pub const MAX_RECORDS: usize = 200;

/// A record is a line of a table when its first key holds one of these words.
const LINE_KEY_WORDS: [&str; 21] = [
    "period",
    "year",
    "fiscal",
    "quarter",
    "month",
    "week",
    "day",
    "date",
    "item",
    "metric",
    "measure",
    "kpi",
    "label",
    "name",
    "account",
    "segment",
    "category",
    "region",
    "source",
    "product",
    "description",
];

/// The rows of a list node (none for any other node).
fn items(arena: &Arena, node: NodeId) -> &[NodeId] {
    match arena.node(node) {
        Node::List { links, .. } => arena.children(links),
        _ => &[],
    }
}

/// The grid of a JSON array of rows or of period-keyed records, or None.
pub fn json_grid(arena: &Arena, rows: NodeId, path: Option<PathId>) -> Option<Grid<'_>> {
    let first = *items(arena, rows).first()?;
    match arena.node(first) {
        Node::List { .. } => rows_grid(arena, rows, path),
        Node::Map { .. } => records_grid(arena, rows, path),
        _ => None,
    }
}

/// Whether the header holds a scale note: the first row's strings, or the first record's keys.
pub fn head_has_note(arena: &Arena, rows: NodeId) -> bool {
    let Some(first) = items(arena, rows).first().copied() else {
        return false;
    };
    let texts: Vec<&[u8]> = match arena.node(first) {
        Node::List { links, .. } => arena
            .children(links)
            .iter()
            .filter_map(|child| match arena.node(*child) {
                Node::Str(span) | Node::StrSubclass(span) => Some(arena.bytes(span)),
                _ => None,
            })
            .collect(),
        Node::Map { .. } => arena
            .entries(first)
            .filter_map(|(key, _)| match arena.node(key) {
                Node::Str(span) => Some(arena.bytes(span)),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    texts
        .into_iter()
        .any(|text| at_most_chars(text, MAX_CELL_CHARS) && scale_note(&lossy(text)).is_some())
}

/// `_cell`: a JSON value as a raw cell; a number keeps its value (and its record's currency), a
/// string of at most `MAX_CELL_CHARS` its text; anything else is an empty cell.
fn cell(
    arena: &Arena,
    value: Option<NodeId>,
    place: Place,
    currency: Option<Currency>,
    record: Option<NodeId>,
) -> RawCell<'_> {
    let node = value.map_or(Node::Null, |value| arena.node(value));
    let number = |number: f64, text: String| RawCell {
        text: Cow::Owned(text),
        place,
        number: Some(number),
        currency,
        record,
    };
    match node {
        Node::Null | Node::Bool(_) => RawCell::text(Cow::Borrowed(""), place),
        Node::Int(value) => {
            let float = value as f64;
            // `repr(float(value))` past 2**53, where the float is not the integer.
            if value.unsigned_abs() > 1 << 53 {
                number(float, py_float_repr(float))
            } else {
                number(float, value.to_string())
            }
        }
        Node::BigInt(span) => match parse_decimal(Some(arena.bytes(span))) {
            Some(float) if float.is_finite() => number(float, py_float_repr(float)),
            _ => RawCell::text(Cow::Borrowed(""), place),
        },
        Node::Float(value) if value.is_finite() => number(value, py_float_repr(value)),
        Node::Number { value, literal } if value.is_finite() => {
            number(value, lossy(arena.bytes(literal)).into_owned())
        }
        Node::HugeInt | Node::Float(_) | Node::Number { .. } => {
            RawCell::text(Cow::Borrowed(""), place)
        }
        Node::Str(span) | Node::StrSubclass(span) => {
            let text = arena.bytes(span);
            let text = if at_most_chars(text, MAX_CELL_CHARS) {
                lossy(text)
            } else {
                Cow::Borrowed("")
            };
            RawCell {
                record,
                ..RawCell::text(text, place)
            }
        }
        _ => RawCell {
            record,
            ..RawCell::text(Cow::Borrowed(""), place)
        },
    }
}

fn rows_grid(arena: &Arena, rows: NodeId, path: Option<PathId>) -> Option<Grid<'_>> {
    let mut grid = Vec::new();
    let mut cells = 0;
    for (number, row) in items(arena, rows).iter().take(MAX_TABLE_CELLS).enumerate() {
        let Node::List { links, .. } = arena.node(*row) else {
            return None; // a list of mixed things is no table
        };
        let values = arena.children(links);
        cells += values.len();
        if cells > MAX_TABLE_CELLS {
            break;
        }
        let number = u32::try_from(number).ok()?;
        let cells = values.iter().enumerate().map(|(column, value)| {
            let place = Place::Json {
                parent: path,
                row: Some(number),
                key: Key::Index(u32::try_from(column).unwrap_or(u32::MAX)),
            };
            match arena.node(*value) {
                // A JSON integer year in the first row is a header ("2024"), not a figure.
                Node::Int(year) if number == 0 && (1900..2100).contains(&year) => {
                    RawCell::text(Cow::Owned(year.to_string()), place)
                }
                _ => cell(arena, Some(*value), place, None, None),
            }
        });
        grid.push(cells.collect());
    }
    Some(grid)
}

/// `_PERIOD_KEY`: `(?:19|20)\d{2}|\bq[1-4]\b` (IGNORECASE) somewhere in `key`.
fn names_period(key: &str) -> bool {
    key.char_indices().any(|(at, c)| {
        let rest = key.get(at..).unwrap_or_default();
        let year = (rest.starts_with("19") || rest.starts_with("20"))
            && rest
                .chars()
                .skip(2)
                .take(2)
                .filter(|c| is_digit(*c))
                .count()
                == 2;
        let quarter = matches!(c, 'q' | 'Q')
            && !key
                .get(..at)
                .and_then(|head| head.chars().next_back())
                .is_some_and(is_word)
            && rest
                .as_bytes()
                .get(1)
                .is_some_and(|digit| (b'1'..=b'4').contains(digit))
            && !rest
                .get(2..)
                .and_then(|tail| tail.chars().next())
                .is_some_and(is_word);
        year || quarter
    })
}

fn records_grid(arena: &Arena, rows: NodeId, path: Option<PathId>) -> Option<Grid<'_>> {
    let records = items(arena, rows);
    let first = *records.first()?;
    let mut keys = Vec::new();
    for (key, _) in arena.entries(first) {
        let Node::Str(span) = arena.node(key) else {
            return None;
        };
        keys.push((span, lossy(arena.bytes(span))));
    }
    let first_value = arena
        .entries(first)
        .next()
        .map(|(_, value)| arena.node(value));
    if records.len() > MAX_RECORDS
        || keys.len() < 2
        || !matches!(first_value, Some(Node::Str(_) | Node::StrSubclass(_)))
    {
        return None;
    }
    let (_, line_key) = keys.first()?;
    let line_words = words(line_key);
    if !keys.iter().skip(1).any(|(_, key)| names_period(key))
        && !LINE_KEY_WORDS.iter().any(|word| line_words.contains(*word))
    {
        return None; // rows of data (orders, invoices): the operand families read their keys
    }
    // Ids, years, codes: no figures.
    let excluded: HashSet<usize> = (1..keys.len())
        .filter(|at| keys.get(*at).is_some_and(|(_, key)| names_no_quantity(key)))
        .collect();
    let header = keys.iter().map(|(span, key)| {
        let place = Place::Json {
            parent: path,
            row: None,
            key: Key::Text(*span),
        };
        RawCell::text(key.clone(), place)
    });
    let mut grid: Grid<'_> = vec![header.collect()];
    let mut cells = keys.len();
    for (number, record) in records.iter().enumerate() {
        if !matches!(arena.node(*record), Node::Map { .. }) {
            return None;
        }
        cells += keys.len();
        if cells > MAX_TABLE_CELLS {
            break;
        }
        let number = u32::try_from(number).ok()?;
        let currency = currency_of(arena, *record);
        let values: HashMap<&[u8], NodeId> = arena
            .entries(*record)
            .filter_map(|(key, value)| match arena.node(key) {
                Node::Str(span) => Some((arena.bytes(span), value)),
                _ => None,
            })
            .collect();
        let row = keys.iter().enumerate().map(|(at, (span, _))| {
            if excluded.contains(&at) {
                return RawCell::text(Cow::Borrowed(""), Place::Nowhere);
            }
            let place = Place::Json {
                parent: path,
                row: Some(number),
                key: Key::Text(*span),
            };
            let value = values.get(arena.bytes(*span)).copied();
            cell(arena, value, place, currency, Some(*record))
        });
        grid.push(row.collect());
    }
    Some(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json_text::{parse, Limits};

    fn document(text: &str) -> (Arena, NodeId) {
        let mut arena = Arena::default();
        let span = arena.push_text(text.as_bytes()).unwrap_or_default();
        let limits = Limits {
            max_nesting: 100,
            max_int_digits: 4300,
        };
        let root = parse(&mut arena, span, limits).unwrap_or_default();
        (arena, root)
    }

    fn texts(grid: &Grid) -> Vec<Vec<String>> {
        let row = |row: &Vec<RawCell>| row.iter().map(|c| c.text.to_string()).collect();
        grid.iter().map(row).collect()
    }

    #[test]
    fn rows_with_a_year_header() {
        let (arena, rows) = document(
            r#"[["", 2024, 2023], ["Revenue", 4812.6, 9007199254740993], ["x", true, null]]"#,
        );
        let grid = json_grid(&arena, rows, None).unwrap_or_default();
        assert_eq!(
            texts(&grid),
            [
                ["", "2024", "2023"],
                ["Revenue", "4812.6", "9007199254740992.0"],
                ["x", "", ""]
            ]
        );
        assert_eq!(
            grid.get(1)
                .and_then(|row| row.get(1))
                .and_then(|c| c.number),
            Some(4812.6)
        );
    }

    #[test]
    fn period_records_are_tables_and_orders_are_not() {
        let (arena, rows) =
            document(r#"[{"item": "Revenue", "2024": 4812.6, "order_id": 7, "currency": "eur"}]"#);
        let grid = json_grid(&arena, rows, None).unwrap_or_default();
        assert_eq!(
            texts(&grid),
            [
                ["item", "2024", "order_id", "currency"],
                ["Revenue", "4812.6", "", "eur"]
            ]
        );
        let revenue = grid.get(1).and_then(|row| row.get(1));
        assert_eq!(revenue.and_then(|c| c.currency), Some(*b"EUR"));
        let (arena, rows) = document(r#"[{"customer": "a", "total": 12}]"#);
        assert!(json_grid(&arena, rows, None).is_none());
        let (arena, rows) = document(r#"[["(In millions)", "2024"], ["a", 1]]"#);
        assert!(head_has_note(&arena, rows));
        assert!(names_period("Q3 sales") && names_period("fy2024") && !names_period("q12"));
    }
}
