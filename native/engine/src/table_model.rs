//! The table model of `scoring/tables.py`: `RawCell` (a reader's cell), `Cell` (a figure with its
//! row label, column headers, scale and period), `Table`, and `make_table`, which reads a grid the
//! way a person reads an annual-report table (header rows and blocks, spanning headers, section
//! rows, scale notes except in per-share and percent rows and columns).
//!
//! The pure readings of one cell (figure, scale note, tokens, labels) are `tables.rs`'s.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::fxhash::FxHashSet as HashSet;
use crate::paths::{Key, PathId, Paths};
use crate::pyunicode::{ignorecase_prefix, is_space, is_word, strip};
use crate::tables::{
    figure, is_header_text, label, scale_note, spanned, tokens, total, years, MAX_TABLE_CELLS,
};
use crate::value::NodeId;

/// A three-letter currency code ("USD").
pub type Currency = [u8; 3];

/// The code of a `&'static str` currency the cell readers name.
pub fn currency_code(code: &str) -> Option<Currency> {
    code.as_bytes().try_into().ok()
}

/// Where a raw cell sits: Python's `RawCell.path` (and offsets). JSON cells get paths of their
/// own; they are kept as (parent, row, key) and made into corpus paths only when cited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the string at `path` (a text table), at byte offsets; `fragment`: that string's
    /// position in `Corpus::fragments` (None for a text read outside a corpus).
    Text {
        path: Option<PathId>,
        fragment: Option<usize>,
        start: usize,
        end: usize,
    },
    /// `((parent, row), key)`, or `(parent, key)` for a record table's header (`row` None).
    Json {
        parent: Option<PathId>,
        row: Option<u32>,
        key: Key,
    },
    /// No path (a record's excluded column).
    Nowhere,
}

impl Place {
    /// The cell's path, pushed onto `paths` for a JSON cell.
    pub fn path(&self, paths: &mut Paths) -> Option<PathId> {
        match *self {
            Place::Text { path, .. } => path,
            Place::Json { parent, row, key } => {
                let parent = match row {
                    Some(row) => Some(paths.push(parent, Key::Index(row))?),
                    None => parent,
                };
                paths.push(parent, key)
            }
            Place::Nowhere => None,
        }
    }

    /// The cell's path as the path it hangs under and its own keys, nearest the value first
    /// (none for a text cell, whose path is its string's).
    pub fn beneath(&self) -> (Option<PathId>, Vec<Key>) {
        match *self {
            Place::Text { path, .. } => (path, Vec::new()),
            Place::Json { parent, row, key } => {
                let mut keys = vec![key];
                keys.extend(row.map(Key::Index));
                (parent, keys)
            }
            Place::Nowhere => (None, Vec::new()),
        }
    }
}

/// A cell as a reader found it. `number` is a JSON number's value, `currency` the currency its
/// record names, `record` the record of a keyed cell.
#[derive(Clone, Debug, PartialEq)]
pub struct RawCell<'t> {
    pub text: Cow<'t, str>,
    pub place: Place,
    pub number: Option<f64>,
    pub currency: Option<Currency>,
    pub record: Option<NodeId>,
}

impl<'t> RawCell<'t> {
    /// A cell with text only.
    pub fn text(text: Cow<'t, str>, place: Place) -> Self {
        RawCell {
            text,
            place,
            number: None,
            currency: None,
            record: None,
        }
    }
}

pub type Grid<'t> = Vec<Vec<RawCell<'t>>>;

/// A figure of a table: `value` as written (sign read), `power` the scale note's power of ten
/// that applies to it (0: none), `label` the row label and `columns` the column headers, top
/// first; `year` the latest year its headers (else its row, else its section) name; `source`
/// the evidence item (corpus source index); `raw` where it sits.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell<'t> {
    pub value: f64,
    pub power: i32,
    pub percent: bool,
    pub currency: Option<Currency>,
    pub row: usize,
    pub column: usize,
    pub label: Arc<str>,
    pub columns: Arc<[String]>,
    pub year: Option<i32>,
    pub source: usize,
    pub raw: RawCell<'t>,
}

impl Cell<'_> {
    /// `Operating income / 2024 (Cloud)`: the row label, the lowest header, the ones above.
    pub fn cited(&self) -> String {
        let Some((head, upper)) = self.columns.split_last() else {
            return self.label.to_string();
        };
        let above: Vec<&str> = upper
            .iter()
            .map(String::as_str)
            .filter(|text| !text.is_empty())
            .collect();
        let mut cited = format!("{} / {head}", self.label);
        if !above.is_empty() {
            cited.push_str(&format!(" ({})", above.join(", ")));
        }
        cited
    }
}

/// A table's figures and the label words of its rows and columns by number (Python's dicts,
/// whose insertion order is ascending here).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table<'t> {
    pub cells: Vec<Cell<'t>>,
    pub row_words: BTreeMap<usize, HashSet<String>>,
    pub column_words: BTreeMap<usize, HashSet<String>>,
}

/// Python's `re.search` of `_UNSCALED`:
/// `per[\s-]share|per\s+unit|\beps\b|%|percent|margin|ratio|\brate\b` (IGNORECASE).
pub fn unscaled(text: &str) -> bool {
    text.char_indices().any(|(at, c)| {
        c == '%'
            || ["percent", "margin", "ratio"]
                .iter()
                .any(|word| ignorecase_prefix(text, at, word).is_some())
            || ignorecase_prefix(text, at, "per").is_some_and(|after| {
                let dashed = text
                    .get(after..)
                    .and_then(|rest| rest.chars().next())
                    .filter(|c| is_space(*c) || *c == '-');
                let share =
                    dashed.and_then(|c| ignorecase_prefix(text, after + c.len_utf8(), "share"));
                let spaces = text.get(after..).map_or(0, |rest| {
                    rest.find(|c: char| !is_space(c)).unwrap_or(rest.len())
                });
                share.is_some()
                    || (spaces > 0 && ignorecase_prefix(text, after + spaces, "unit").is_some())
            })
            || whole_word(text, at, "eps")
            || whole_word(text, at, "rate")
    })
}

/// Python's `re.search` of `_PERCENTISH`:
/// `pct|percent|%|\brate\b|_rate|margin|churn|\bshare\b` (IGNORECASE).
pub fn percentish(text: &str) -> bool {
    text.char_indices().any(|(at, c)| {
        c == '%'
            || ["pct", "percent", "_rate", "margin", "churn"]
                .iter()
                .any(|word| ignorecase_prefix(text, at, word).is_some())
            || whole_word(text, at, "rate")
            || whole_word(text, at, "share")
    })
}

/// `\bword\b` (IGNORECASE) at byte `at`, for a word of word characters.
fn whole_word(text: &str, at: usize, word: &str) -> bool {
    let before = text.get(..at).and_then(|head| head.chars().next_back());
    if before.is_some_and(is_word) {
        return false;
    }
    ignorecase_prefix(text, at, word).is_some_and(|end| {
        !text
            .get(end..)
            .and_then(|rest| rest.chars().next())
            .is_some_and(is_word)
    })
}

/// The table a grid holds (`caption`: text just above it, read for a scale note), or None when
/// it holds no figure under a header.
pub fn make_table<'t>(
    grid: Vec<Vec<RawCell<'t>>>,
    source: usize,
    caption: &str,
) -> Option<Table<'t>> {
    if grid.len() < 2 {
        return None;
    }
    let mut note = scale_note(caption);
    let width = grid.iter().map(Vec::len).max().unwrap_or(0);
    let mut headers: Vec<Vec<String>> = Vec::new();
    let mut in_header = true;
    let mut section = String::new();
    let mut table = Table::default();
    let mut columns: Vec<Arc<[String]>> = vec![Arc::from(Vec::new()); width];
    let full = |table: &Table| table.cells.len() >= MAX_TABLE_CELLS;
    for (number, row) in grid.into_iter().enumerate() {
        let owned: Vec<&str> = row.iter().map(|cell| strip(&cell.text)).collect();
        let texts = owned.as_slice();
        if note.is_none() {
            for text in texts {
                if let Some(found) = scale_note(text) {
                    note = Some(found);
                    break;
                }
            }
        }
        let values = texts.get(1..).unwrap_or_default();
        let header_row =
            values.iter().any(|text| !text.is_empty()) && values.iter().all(|t| is_header_text(t));
        if header_row
            && (in_header
                || table.cells.is_empty()
                || values.iter().any(|text| years(text).next().is_some()))
        {
            if !in_header {
                headers.clear(); // a new block repeats its header: its headers replace the old ones
            }
            headers.push(spanned(texts, width));
            in_header = true;
            for (column, heads) in columns.iter_mut().enumerate() {
                let named: Vec<String> = headers
                    .iter()
                    .filter_map(|header| header.get(column).filter(|text| !text.is_empty()))
                    .cloned()
                    .collect();
                table.column_words.insert(column, tokens(&named.join(" ")));
                *heads = Arc::from(named);
            }
            continue;
        }
        in_header = false;
        let (Some(row_label), first) = label(texts) else {
            continue;
        };
        let rest = texts.get(first + 1..).unwrap_or_default();
        if rest.iter().all(|text| text.is_empty()) {
            if scale_note(&row_label).is_none() {
                section = row_label; // a section heading: labels the rows under it
            }
            continue;
        }
        let mut own = tokens(&row_label);
        if !section.is_empty() && !total(&row_label) {
            own.extend(tokens(&section));
        }
        table.row_words.insert(number, own);
        let unscaled_row = unscaled(&row_label);
        let row_label: Arc<str> = Arc::from(row_label);
        let mut row_years: Option<Option<i32>> = None; // the row's (else its section's) latest year
        for (column, cell) in row.iter().enumerate().skip(first + 1) {
            let heads = columns
                .get(column)
                .cloned()
                .unwrap_or_else(|| Arc::from(Vec::new()));
            let read = match cell.number {
                // A JSON number: a percent when its labels say so.
                Some(value) => {
                    let named = percentish(&row_label) || heads.iter().any(|text| percentish(text));
                    Some((value, named, cell.currency))
                }
                None => figure(&cell.text).map(|found| {
                    (
                        found.value,
                        found.percent,
                        found.currency.and_then(currency_code),
                    )
                }),
            };
            let Some((value, percent, mut currency)) = read else {
                continue;
            };
            let unscaled = unscaled_row || percent || heads.iter().any(|text| unscaled(text));
            let power = match note {
                Some((power, _)) if !unscaled => power,
                _ => 0,
            };
            if currency.is_none() && !unscaled {
                if let Some((_, code)) = note {
                    currency = code.and_then(currency_code);
                }
            }
            // The period: named by the column, else by the row or the section above it.
            let year = match heads.iter().flat_map(|text| years(text)).max() {
                Some(year) => Some(year),
                None => *row_years.get_or_insert_with(|| {
                    years(&row_label).max().or_else(|| years(&section).max())
                }),
            };
            table.cells.push(Cell {
                value,
                power,
                percent,
                currency,
                row: number,
                column,
                label: Arc::clone(&row_label),
                columns: heads,
                year,
                source,
                raw: cell.clone(),
            });
            if full(&table) {
                break;
            }
        }
        if full(&table) {
            break;
        }
    }
    (!table.cells.is_empty()).then_some(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid of text cells (no places: the tests read values and labels).
    pub(crate) fn grid(rows: &[&[&'static str]]) -> Grid<'static> {
        let cell = |text: &&'static str| RawCell::text(Cow::Borrowed(*text), Place::Nowhere);
        rows.iter()
            .map(|row| row.iter().map(cell).collect())
            .collect()
    }

    #[test]
    fn reads_an_annual_report_table() {
        let rows = grid(&[
            &["", "Year Ended December 31,", ""],
            &["", "2024", "2023"],
            &["Revenue", "$ 8,092.1", "(12)"],
            &["Operating expenses:", "", ""],
            &["  Research (1)", "690.7", "—"],
            &["Diluted earnings per share", "$ 2.44", "$ 1.14"],
        ]);
        let table = make_table(rows, 3, "(In millions)");
        let table = table.unwrap_or_default();
        type Seen<'a> = (f64, i32, Option<Currency>, &'a str, Option<i32>);
        let seen: Vec<Seen> = table
            .cells
            .iter()
            .map(|c| (c.value, c.power, c.currency, &*c.label, c.year))
            .collect();
        assert_eq!(
            seen,
            [
                (8092.1, 6, Some(*b"USD"), "Revenue", Some(2024)),
                (-12.0, 6, None, "Revenue", Some(2023)),
                (690.7, 6, None, "Research", Some(2024)),
                (
                    2.44,
                    0,
                    Some(*b"USD"),
                    "Diluted earnings per share",
                    Some(2024)
                ),
                (
                    1.14,
                    0,
                    Some(*b"USD"),
                    "Diluted earnings per share",
                    Some(2023)
                ),
            ]
        );
        let cited = table.cells.first().map(Cell::cited);
        assert_eq!(
            cited.as_deref(),
            Some("Revenue / 2024 (Year Ended December 31,)")
        );
        // The section's words label the rows under it.
        assert!(table
            .row_words
            .get(&4)
            .is_some_and(|w| w.contains("operating")));
    }

    #[test]
    fn a_grid_without_figures_under_a_header_is_no_table() {
        assert_eq!(make_table(grid(&[&["a", "b"]]), 0, ""), None);
        assert_eq!(make_table(grid(&[&["a", "b"], &["c", "d"]]), 0, ""), None);
        // "('000)" is a thousands note.
        let table = make_table(grid(&[&["", "2024"], &["x", "1"]]), 0, "('000)");
        assert_eq!(table.map(|table| table.cells[0].power), Some(3));
    }

    #[test]
    fn unscaled_and_percentish_labels() {
        assert!(unscaled("EPS") && unscaled("Per-share") && unscaled("per  unit"));
        assert!(!unscaled("steps") && !unscaled("peruse"));
        assert!(percentish("churn") && percentish("tax_rate") && !percentish("shares"));
    }
}
