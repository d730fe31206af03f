//! `TableBook` of `scoring/table_book.py`: the tables of one call's evidence, read on first use
//! and paid for before each step (a probe per 32 characters of text read and per JSON array, a
//! candidate per cell made). Text tables first, then JSON tables; `cells_within` offers the cells
//! of the text tables and the noted JSON tables sorted by their value at scale.

use std::borrow::Cow;
use std::sync::Arc;

use crate::budget::{BudgetSpent, WorkBudget, CANDIDATE, PROBE};
use crate::corpus::Corpus;
use crate::fxhash::FxHashSet as HashSet;
use crate::hit::{CellOrigin, Hit, Origin};
use crate::pyhtml::ReferenceTooLong;
use crate::pytext::{len_chars, lossy};
use crate::table_json::{head_has_note, json_grid};
use crate::table_model::{make_table, Cell, Grid, Place, RawCell, Table};
use crate::table_text::{may_hold_table, text_tables};
use crate::tables::{scale_note, MAX_TABLES};
use crate::value::{Node, NodeId};

const CHARS_PER_PROBE: usize = 32;
/// Characters of one string beside a JSON table read for its scale note.
const CAPTION_VALUE: usize = 200;
const CAPTION_VALUES: usize = 8;
const PER_LOOKUP: usize = 8;

/// Why a read stopped: the work budget is spent (`BudgetSpent`), or Python's `html.unescape`
/// raises (`ValueError`: a character reference of more than 4300 digits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookError {
    Budget,
    TooLong,
}

impl From<BudgetSpent> for BookError {
    fn from(_: BudgetSpent) -> Self {
        BookError::Budget
    }
}

impl From<ReferenceTooLong> for BookError {
    fn from(_: ReferenceTooLong) -> Self {
        BookError::TooLong
    }
}

/// Which list a looked-up cell sits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The text tables.
    Text,
    /// The JSON tables with a scale note.
    Noted,
}

/// A looked-up cell: its list, its table there, its position in the table's cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellRef {
    pub part: Part,
    pub table: usize,
    pub cell: usize,
}

/// The evidence's tables (at most `MAX_TABLES`), read in two parts on first use. Cell texts
/// are owned, so the book does not borrow the corpus.
#[derive(Debug, Default)]
pub struct TableBook {
    text: Option<Vec<Table<'static>>>,
    /// The fragment (position in `Corpus::fragments`) each text table was read from.
    fragments: Vec<usize>,
    noted: Option<Vec<Table<'static>>>,
    all: Option<Vec<Table<'static>>>,
    /// `[figures, percents]`, once sorted.
    sorted: Option<[(Vec<f64>, Vec<CellRef>); 2]>,
}

fn owned(grid: Grid<'_>) -> Grid<'static> {
    grid.into_iter()
        .map(|row| {
            row.into_iter()
                .map(|cell| RawCell {
                    text: Cow::Owned(cell.text.into_owned()),
                    place: cell.place,
                    number: cell.number,
                    currency: cell.currency,
                    record: cell.record,
                })
                .collect()
        })
        .collect()
}

fn add(tables: &mut Vec<Table<'static>>, table: Option<Table<'static>>) -> bool {
    if let Some(table) = table {
        if tables.len() < MAX_TABLES {
            tables.push(table);
            return true;
        }
    }
    false
}

fn cells_in(grid: &Grid<'_>) -> i64 {
    i64::try_from(grid.iter().map(Vec::len).sum::<usize>()).unwrap_or(i64::MAX)
}

/// The short strings of the object holding a JSON table (`"unit": "(In millions)"`).
pub fn caption(corpus: &Corpus, siblings: Option<NodeId>) -> String {
    let Some(siblings) = siblings else {
        return String::new();
    };
    let arena = &corpus.arena;
    let texts: Vec<Cow<'_, str>> = arena
        .entries(siblings)
        .filter_map(|(_, value)| match arena.node(value) {
            Node::Str(span) | Node::StrSubclass(span) => {
                let bytes = arena.bytes(span);
                (len_chars(bytes) <= CAPTION_VALUE).then(|| lossy(bytes))
            }
            _ => None,
        })
        .take(CAPTION_VALUES)
        .collect();
    texts.join(" ")
}

/// `value * 10.0 ** power`, as Python computes it.
pub fn at_scale(cell: &Cell<'_>) -> f64 {
    cell.value * 10.0_f64.powf(f64::from(cell.power))
}

/// The cell as evidence a verdict cites (`cell_hit`): its value (at scale when `scaled`), its row
/// label and column headers (a record's cell: its JSON path), and where it sits.
pub fn cell_hit(corpus: &Corpus, cell: &Cell<'_>, scaled: bool) -> Arc<Hit> {
    let raw = &cell.raw;
    let value = if scaled { at_scale(cell) } else { cell.value };
    // A record's cell is cited by its JSON path, as keyed evidence always was; its record gives
    // its label words.
    let label = match raw.record {
        Some(_) => None,
        None => Some(cell.cited()),
    };
    let chars = match raw.place {
        Place::Text {
            fragment: Some(fragment),
            start,
            end,
            ..
        } => corpus.fragments.get(fragment).map(|fragment| {
            let text = corpus.arena.bytes(fragment.text);
            let chars = |byte: usize| len_chars(text.get(..byte).unwrap_or(text));
            (chars(start), chars(end))
        }),
        _ => None,
    };
    let origin = CellOrigin {
        source: cell.source,
        place: raw.place,
        text: raw.text.as_bytes().to_vec(),
        currency: cell.currency,
        record: raw.record,
        chars,
        label,
    };
    Hit::new(
        Arc::from("raw"),
        Origin::Cell(Arc::new(origin)),
        None,
        value,
        0.0,
    )
}

impl TableBook {
    pub fn new() -> Self {
        TableBook::default()
    }

    /// Every table, text ones first.
    pub fn tables(
        &mut self,
        corpus: &Corpus,
        budget: &mut WorkBudget,
    ) -> Result<&[Table<'static>], BookError> {
        if self.all.is_none() {
            let mut all = self.text_tables(corpus, budget)?.to_vec();
            all.extend(json_tables(corpus, budget, false)?);
            all.truncate(MAX_TABLES);
            self.all = Some(all);
        }
        Ok(self.all.as_deref().unwrap_or_default())
    }

    /// Cells (percents, or figures) whose value at scale is in [low, high] (at most eight) of
    /// the tables a direct lookup reads.
    pub fn cells_within(
        &mut self,
        corpus: &Corpus,
        budget: &mut WorkBudget,
        low: f64,
        high: f64,
        percent: bool,
    ) -> Result<&[CellRef], BookError> {
        if self.sorted.is_none() {
            self.sort_cells(corpus, budget)?;
        }
        let Some(sorted) = &self.sorted else {
            return Ok(&[]);
        };
        let (values, cells) = &sorted[usize::from(percent)];
        // bisect_left, then bisect_right within the next eight
        let start = values.partition_point(|value| *value < low);
        let stop = values.len().min(start + PER_LOOKUP);
        let end = start
            + values
                .get(start..stop)
                .unwrap_or_default()
                .partition_point(|value| high.partial_cmp(value) != Some(std::cmp::Ordering::Less));
        Ok(cells.get(start..end).unwrap_or_default())
    }

    /// The cell a `CellRef` names.
    pub fn cell(&self, at: CellRef) -> Option<&Cell<'static>> {
        let tables = match at.part {
            Part::Text => self.text.as_ref()?,
            Part::Noted => self.noted.as_ref()?,
        };
        tables.get(at.table)?.cells.get(at.cell)
    }

    fn sort_cells(&mut self, corpus: &Corpus, budget: &mut WorkBudget) -> Result<(), BookError> {
        if self.noted.is_none() {
            self.noted = Some(json_tables(corpus, budget, true)?);
        }
        self.text_tables(corpus, budget)?;
        let parts = [
            (Part::Text, self.text.as_deref().unwrap_or_default()),
            (Part::Noted, self.noted.as_deref().unwrap_or_default()),
        ];
        let sorted = [false, true].map(|percent| {
            let mut ordered: Vec<(f64, CellRef)> = Vec::new();
            for (part, tables) in parts {
                for (table_at, table) in tables.iter().enumerate() {
                    for (cell_at, cell) in table.cells.iter().enumerate() {
                        if cell.percent == percent {
                            let at = CellRef {
                                part,
                                table: table_at,
                                cell: cell_at,
                            };
                            ordered.push((at_scale(cell), at));
                        }
                    }
                }
            }
            // Python's sorted: stable, by `<`
            ordered.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
            ordered.into_iter().unzip()
        });
        self.sorted = Some(sorted);
        Ok(())
    }

    fn text_tables(
        &mut self,
        corpus: &Corpus,
        budget: &mut WorkBudget,
    ) -> Result<&[Table<'static>], BookError> {
        if self.text.is_none() {
            let arena = &corpus.arena;
            let mut found: Vec<Table<'static>> = Vec::new();
            let mut seen = HashSet::default();
            let mut fragments = Vec::new();
            for (at, fragment) in corpus.fragments.iter().enumerate() {
                let bytes = arena.bytes(fragment.text);
                // Most fragments are one-line values: a table needs a line break or a "<table".
                if !bytes.contains(&b'\n') && !bytes.contains(&b'<') {
                    continue;
                }
                let key = (fragment.text.start, fragment.text.len);
                let text = lossy(bytes);
                if found.len() >= MAX_TABLES || seen.contains(&key) || !may_hold_table(&text) {
                    continue;
                }
                seen.insert(key);
                let chars =
                    i64::try_from(len_chars(bytes) / CHARS_PER_PROBE + 1).unwrap_or(i64::MAX);
                budget.pay(PROBE.saturating_mul(chars))?;
                for table in text_tables(&text)? {
                    let grid: Grid<'_> = table
                        .grid
                        .into_iter()
                        .map(|row| {
                            row.into_iter()
                                .map(|cell| {
                                    let place = Place::Text {
                                        path: fragment.path,
                                        fragment: Some(at),
                                        start: cell.start,
                                        end: cell.end,
                                    };
                                    RawCell::text(cell.text, place)
                                })
                                .collect()
                        })
                        .collect();
                    budget.pay(CANDIDATE.saturating_mul(cells_in(&grid)))?;
                    let table = make_table(owned(grid), fragment.source, &table.caption);
                    if add(&mut found, table) {
                        fragments.push(at);
                    }
                }
            }
            self.text = Some(found);
            self.fragments = fragments;
        }
        Ok(self.text.as_deref().unwrap_or_default())
    }
}

/// The JSON tables (`noted`: only those with a scale note beside or above them).
fn json_tables(
    corpus: &Corpus,
    budget: &mut WorkBudget,
    noted: bool,
) -> Result<Vec<Table<'static>>, BookError> {
    let arena = &corpus.arena;
    let mut found = Vec::new();
    for array in &corpus.arrays {
        if found.len() >= MAX_TABLES {
            break;
        }
        budget.pay(PROBE)?;
        let caption = caption(corpus, array.siblings);
        if noted && scale_note(&caption).is_none() && !head_has_note(arena, array.rows) {
            continue;
        }
        if let Some(grid) = json_grid(arena, array.rows, array.path) {
            budget.pay(CANDIDATE.saturating_mul(cells_in(&grid)))?;
            add(&mut found, make_table(owned(grid), array.source, &caption));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::hit::Citation;
    use crate::test_evidence::corpus_of;

    const INCOME: &str = r#"{"unit": "(In millions)", "rows": [["", "2024", "2023"], ["Revenue", 1502.7, 1400], ["Margin %", "12%", "11%"]], "note": "| Item | 2024 |\n|---|---|\n| Fee | 1.26 |"}"#;

    #[test]
    fn noted_json_and_text_tables_are_looked_up_at_scale() {
        let corpus = corpus_of(&[INCOME]);
        let mut book = TableBook::new();
        let mut budget = WorkBudget::new(10_000);
        let found = book
            .cells_within(&corpus, &mut budget, 1.5027e9, 1.5027e9, false)
            .map(<[CellRef]>::to_vec)
            .unwrap_or_default();
        assert_eq!(found.len(), 1);
        let cell = found.first().and_then(|at| book.cell(*at));
        assert_eq!(cell.map(|cell| (cell.value, cell.power)), Some((1502.7, 6)));
        let fee = book
            .cells_within(&corpus, &mut budget, 1.26, 1.26, false)
            .map(<[CellRef]>::to_vec)
            .unwrap_or_default();
        assert_eq!(fee.first().map(|at| at.part), Some(Part::Text));
        let tables = book.tables(&corpus, &mut budget).map(<[_]>::len);
        assert_eq!(tables, Ok(2));
    }

    const TABLES: [&str; 2] = [
        r#"{"unit": "(In millions)", "rows": [["", "2024", "2023"], ["Revenue", 1502.7, 1400], ["Margin %", "12%", "11%"]], "note": "Résumé – \ud83d\ude00 Q\n| Item | 2024 |\n|---|---|\n| Fee | $1.26 |"}"#,
        r#"{"report": {"unit": "(In thousands)", "lines": [{"line_item": "Net sales", "fy2024": 2500, "fy2023": 2100, "currency": "EUR"}]}}"#,
    ];

    /// (number, text, currency, key unit, sorted words, citation) of a cell hit.
    type Said = (
        f64,
        String,
        Option<String>,
        Option<&'static str>,
        Vec<String>,
        Citation,
    );

    /// What the hit of the first cell at `low` says.
    fn cited(low: f64, scaled: bool) -> Option<Said> {
        let corpus = corpus_of(&TABLES);
        let mut book = TableBook::new();
        let mut budget = WorkBudget::new(100_000);
        let at = *book
            .cells_within(&corpus, &mut budget, low, low, false)
            .ok()?
            .first()?;
        let hit = cell_hit(&corpus, book.cell(at)?, scaled);
        let mut words: Vec<String> = hit.words(&corpus).iter().cloned().collect();
        words.sort();
        let text = String::from_utf8(hit.text(&corpus)).ok()?;
        let (currency, unit) = (hit.currency(&corpus), hit.key_unit(&corpus));
        assert_eq!((hit.kind.as_ref(), hit.unit()), ("raw", None));
        Some((
            hit.number,
            text,
            currency,
            unit,
            words,
            hit.citation(&corpus),
        ))
    }

    fn citation(
        path: &str,
        offsets: Option<(usize, usize)>,
        text: &str,
        cell: Option<&str>,
    ) -> Citation {
        Citation {
            evidence_index: Some(if cell.is_some() { 0 } else { 1 }),
            source_id: None,
            source_kind: b"tool_result".to_vec(),
            name: None,
            path: Some(path.as_bytes().to_vec()),
            start: offsets.map(|(start, _)| start),
            end: offsets.map(|(_, end)| end),
            text: text.as_bytes().to_vec(),
            cell: cell.map(|cell| cell.as_bytes().to_vec()),
        }
    }

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_owned()).collect()
    }

    // Each as the former Python engine gives it (`cell_hit(cell, scaled)`, its text, currency, key_unit,
    // words and citation).
    #[test]
    fn a_markdown_cell_is_cited_in_code_points_with_its_labels() {
        let expected = citation("$.note", Some((47, 52)), "$1.26", Some("Fee / 2024"));
        let found = cited(1.26, true);
        assert_eq!(
            found,
            Some((
                1.26,
                "$1.26".to_owned(),
                Some("USD".to_owned()),
                None,
                strings(&["fee", "note"]),
                expected
            ))
        );
    }

    #[test]
    fn a_json_rows_cell_is_cited_by_its_path_at_scale_or_not() {
        let expected = citation("$.rows[1][1]", None, "1502.7", Some("Revenue / 2024"));
        let words = strings(&["revenue", "row"]);
        let row = |number: f64| {
            Some((
                number,
                "1502.7".to_owned(),
                None,
                None,
                words.clone(),
                expected.clone(),
            ))
        };
        assert_eq!(cited(1.5027e9, true), row(1.5027e9));
        assert_eq!(cited(1.5027e9, false), row(1502.7));
    }

    #[test]
    fn a_record_cell_is_cited_by_its_json_path_without_a_label() {
        let expected = citation("$.report.lines[0].fy2024", None, "2500", None);
        let words = strings(&["line", "report"]);
        let found = cited(2.5e6, true);
        assert_eq!(
            found,
            Some((
                2.5e6,
                "2500".to_owned(),
                Some("EUR".to_owned()),
                None,
                words,
                expected
            ))
        );
    }

    #[test]
    fn the_index_makes_its_book_once() {
        use crate::index::{EvidenceIndex, EvidenceNeeds};
        let corpus = corpus_of(&[INCOME]);
        let mut index = EvidenceIndex::new(corpus, |_| Vec::new(), &EvidenceNeeds::everything());
        let mut budget = WorkBudget::new(10_000);
        let (book, corpus) = index.tables();
        assert_eq!(book.tables(corpus, &mut budget).map(<[_]>::len), Ok(2));
        let left = budget.left;
        let (book, corpus) = index.tables();
        assert_eq!(book.tables(corpus, &mut budget).map(<[_]>::len), Ok(2));
        assert_eq!(budget.left, left); // read once, paid once
    }

    #[test]
    fn the_caption_is_the_short_strings_beside() {
        let corpus = corpus_of(&[INCOME]);
        let siblings = corpus.arrays.first().and_then(|array| array.siblings);
        assert!(caption(&corpus, siblings).starts_with("(In millions) | Item"));
        assert_eq!(caption(&corpus, None), "");
    }

    #[test]
    fn a_spent_budget_reads_nothing_and_retries() {
        let corpus = corpus_of(&[INCOME]);
        let mut book = TableBook::new();
        let mut budget = WorkBudget::new(1);
        let first = book.tables(&corpus, &mut budget).map(<[_]>::len);
        assert_eq!(first, Err(BookError::Budget));
        let mut budget = WorkBudget::new(10_000);
        assert_eq!(book.tables(&corpus, &mut budget).map(<[_]>::len), Ok(2));
    }
}
