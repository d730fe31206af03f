//! Table readers for text (`scoring/table_text.py`): markdown pipe tables, CSV and TSV blocks,
//! HTML `<table>` fragments. Each gives grids of cells with their offsets in the text, and the text
//! just above the table (its caption, read for a scale note). One linear pass over the lines
//! (HTML: over the `<table>` matches), at most `MAX_TABLES` grids and `MAX_TABLE_CELLS` cells each.
//!
//! Cells carry byte offsets; the Python cells' `Path` is the caller's (the corpus walk).

use std::borrow::Cow;

use crate::offsets::CharOffsets;
use crate::pyhtml::{unescape, ReferenceTooLong};
use crate::pyunicode::{chars_back, chars_forward, ignorecase_prefix, is_space, is_word, strip};
use crate::tables::{MAX_TABLES, MAX_TABLE_CELLS};

/// Characters of text read above a table for its caption.
const CAPTION_CHARS: usize = 200;
/// Characters an HTML table may span between `<table` and `</table>`.
const MAX_HTML_TABLE_CHARS: usize = 200_000;

/// A cell as a reader found it: its text, and where it starts. `end` is Python's `start +
/// len(text)` (a quoted CSV field's `""` read as `"` makes it fall short of the field's end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextCell<'t> {
    pub text: Cow<'t, str>,
    pub start: usize,
    pub end: usize,
}

pub type Grid<'t> = Vec<Vec<TextCell<'t>>>;

/// A table found in a text: its grid and its caption.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextTable<'t> {
    pub grid: Grid<'t>,
    pub caption: Cow<'t, str>,
}

/// `\b` after a word character at byte `at`: the end, or a character that is no word character.
fn boundary_at(text: &str, at: usize) -> bool {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(true, |c| !is_word(c))
}

/// `<name\b` (IGNORECASE) at byte `at`: the offset after the name.
fn opening_name(text: &str, at: usize, name: &str) -> Option<usize> {
    ignorecase_prefix(text, at, name).filter(|after| boundary_at(text, *after))
}

/// The byte offsets of every `<table\b` in `text`, in order.
fn html_opens(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    text.match_indices('<')
        .filter_map(|(at, _)| Some((at, opening_name(text, at, "<table")?)))
}

/// A cheap test before reading: a pipe, tab or comma and two lines, or a `<table`.
pub fn may_hold_table(text: &str) -> bool {
    if text.contains('\n') && (text.contains('|') || text.contains('\t') || text.contains(',')) {
        return true;
    }
    text.contains('<') && html_opens(text).next().is_some()
}

/// Every table in `text`, with its caption. Err where Python's `html.unescape` raises (a decimal
/// character reference of more than 4300 digits in an HTML cell).
pub fn text_tables(text: &str) -> Result<Vec<TextTable<'_>>, ReferenceTooLong> {
    if html_opens(text).next().is_some() {
        return html_tables(text);
    }
    let lines = lines(text);
    let mut found = Vec::new();
    let mut position = 0;
    while position < lines.len() && found.len() < MAX_TABLES {
        let block_end = position + run_length(text, &lines, position);
        if block_end - position < 2 {
            position += 1;
            continue;
        }
        let line_start = lines.get(position).map_or(0, |line| line.0);
        let caption = slice(
            text,
            chars_back(text, line_start, CAPTION_CHARS),
            line_start,
        );
        let grid = grid(text, lines.get(position..block_end).unwrap_or_default());
        if !grid.is_empty() {
            found.push(TextTable {
                grid,
                caption: Cow::Borrowed(caption),
            });
        }
        position = block_end;
    }
    Ok(found)
}

fn slice(text: &str, start: usize, end: usize) -> &str {
    crate::pyunicode::slice(text, start, end)
}

/// (start, end) of each line, split at `\r?\n`.
fn lines(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for (newline, _) in text.match_indices('\n') {
        let end = if newline > start && text.as_bytes().get(newline - 1) == Some(&b'\r') {
            newline - 1
        } else {
            newline
        };
        spans.push((start, end));
        start = newline + 1;
    }
    spans.push((start, text.len()));
    spans
}

/// The delimiter of a table row: `|`, tab or comma.
fn kind(line: &str) -> Option<char> {
    let stripped = line.trim_matches(|c| c == ' ' || c == '\r'); // not tabs: a TSV row of empty cells ends in them
    let after_first = stripped
        .strip_prefix('|')
        .is_some_and(|rest| rest.contains('|'));
    if stripped.matches('|').count() >= 2 || after_first {
        Some('|')
    } else if stripped.contains('\t') {
        Some('\t')
    } else if stripped.contains(',') {
        Some(',')
    } else {
        None
    }
}

/// How many lines from `position` on are rows of one table: pipe rows, or delimited rows with as
/// many fields as the first (a CSV header and its records).
fn run_length(text: &str, lines: &[(usize, usize)], position: usize) -> usize {
    let line_at = |(start, end): (usize, usize)| slice(text, start, end);
    let Some(first) = lines.get(position).copied().map(line_at) else {
        return 0;
    };
    let Some(delimiter) = kind(first) else {
        return 0;
    };
    let count = if delimiter == '|' {
        0
    } else {
        field_count(first, delimiter)
    };
    lines
        .get(position..)
        .unwrap_or_default()
        .iter()
        .map(|span| line_at(*span))
        .take_while(|line| {
            !strip(line).is_empty()
                && kind(line) == Some(delimiter)
                && (delimiter == '|' || field_count(line, delimiter) == count)
        })
        .count()
}

/// The number of fields of a line without building them, but for quoted CSV.
fn field_count(line: &str, delimiter: char) -> usize {
    if delimiter == ',' && line.contains('"') {
        return split(line, delimiter, 0).len();
    }
    line.matches(delimiter).count() + 1
}

/// Fields of a line with their offsets (`offset`: the line's); a CSV field may be quoted ("1,234"
/// is one field, `""` in it a quote).
fn split(line: &str, delimiter: char, offset: usize) -> Vec<TextCell<'_>> {
    let mut cells = Vec::new();
    let length = line.len();
    let mut position = 0;
    let find = |needle: char, from: usize| {
        line.get(from..)
            .and_then(|rest| rest.find(needle))
            .map(|i| from + i)
    };
    while position <= length {
        if delimiter == ','
            && line
                .get(position..)
                .is_some_and(|rest| rest.starts_with('"'))
        {
            let mut close = find('"', position + 1);
            while let Some(quote) =
                close.filter(|quote| line.get(quote + 1..quote + 2) == Some("\""))
            {
                close = find('"', quote + 2);
            }
            let close = close.unwrap_or(length);
            let raw = slice(line, position + 1, close);
            let text = if raw.contains("\"\"") {
                Cow::Owned(raw.replace("\"\"", "\""))
            } else {
                Cow::Borrowed(raw)
            };
            cells.push(TextCell {
                text,
                start: offset + position + 1,
                end: offset + close,
            });
            position = find(delimiter, close).map_or(length + 1, |following| following + 1);
            continue;
        }
        let end = find(delimiter, position).unwrap_or(length);
        cells.push(TextCell {
            text: Cow::Borrowed(slice(line, position, end)),
            start: offset + position,
            end: offset + end,
        });
        position = end + 1;
    }
    cells
}

/// The fullmatch of `\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*`: a markdown separator row.
fn is_separator_row(line: &str) -> bool {
    let spaces = |rest: &str| rest.trim_start_matches(is_space).len();
    let rule = |rest: &str| -> Option<usize> {
        // `:?-{2,}:?` then spaces: what is left after them.
        let after_colon = rest.strip_prefix(':').unwrap_or(rest);
        let dashes = after_colon.len() - after_colon.trim_start_matches('-').len();
        if dashes < 2 {
            return None;
        }
        let after = after_colon.get(dashes..)?;
        Some(spaces(after.strip_prefix(':').unwrap_or(after)))
    };
    let start = line.trim_start_matches(is_space);
    let start = start
        .strip_prefix('|')
        .unwrap_or(start)
        .trim_start_matches(is_space);
    let Some(mut left) = rule(start) else {
        return false;
    };
    loop {
        let rest = line.get(line.len() - left..).unwrap_or_default();
        let Some(after_pipe) = rest.strip_prefix('|') else {
            return rest.is_empty();
        };
        match rule(after_pipe.trim_start_matches(is_space)) {
            Some(next) => left = next,
            // A last pipe: only spaces may follow it.
            None => return after_pipe.trim_start_matches(is_space).is_empty(),
        }
    }
}

fn grid<'t>(text: &'t str, lines: &[(usize, usize)]) -> Grid<'t> {
    let mut grid = Vec::new();
    let Some(delimiter) = lines
        .first()
        .and_then(|(start, end)| kind(slice(text, *start, *end)))
    else {
        return grid;
    };
    let mut cells = 0;
    for (start, end) in lines {
        let line = slice(text, *start, *end);
        if delimiter == '|' && is_separator_row(line) {
            continue;
        }
        let mut fields = split(line, delimiter, *start);
        if delimiter == '|' {
            // The outer pipes open and close the row: drop the empty fields they leave.
            if fields
                .first()
                .is_some_and(|field| strip(&field.text).is_empty())
                && line.trim_start_matches(is_space).starts_with('|')
            {
                fields.remove(0);
            }
            if fields
                .last()
                .is_some_and(|field| strip(&field.text).is_empty())
                && line.trim_end_matches(is_space).ends_with('|')
            {
                fields.pop();
            }
        }
        let row: Vec<TextCell<'t>> = fields
            .into_iter()
            .map(|field| placed(text, field))
            .collect();
        cells += row.len();
        if cells > MAX_TABLE_CELLS {
            break;
        }
        grid.push(row);
    }
    grid
}

/// The field trimmed, its offsets moved to the trimmed text.
fn placed<'t>(source: &'t str, cell: TextCell<'t>) -> TextCell<'t> {
    let lead = cell.text.len() - cell.text.trim_start_matches(is_space).len();
    let start = cell.start + lead;
    let (text, end) = match cell.text {
        Cow::Borrowed(raw) => {
            let text = strip(raw);
            (Cow::Borrowed(text), start + text.len())
        }
        // A quoted field with `""` read as `"`: Python's `start + len(text)` counts its characters.
        Cow::Owned(raw) => {
            let text = strip(&raw).to_owned();
            let end = chars_forward(source, start, text.chars().count());
            (Cow::Owned(text), end)
        }
    };
    TextCell { text, start, end }
}

/// The first `needle` (ASCII, IGNORECASE) at or after byte `from`.
fn find_ignorecase(text: &str, from: usize, needle: &str) -> Option<usize> {
    let first = needle.chars().next()?;
    text.get(from..)?
        .match_indices(first)
        .map(|(at, _)| from + at)
        .find(|at| ignorecase_prefix(text, *at, needle).is_some())
}

/// The first occurrence of `needle` (IGNORECASE) at or after positions asked in increasing order.
/// A search resumes from the last one's answer, so openings without a closing tag (which Python's
/// regular expressions rescan each time) cost linear time in all.
struct Next<'t> {
    text: &'t str,
    needle: &'static str,
    last: Option<(usize, Option<usize>)>,
}

impl<'t> Next<'t> {
    fn new(text: &'t str, needle: &'static str) -> Self {
        Next {
            text,
            needle,
            last: None,
        }
    }

    fn from(&mut self, from: usize) -> Option<usize> {
        if let Some((asked, found)) = self.last {
            // Nothing lies in [asked, found): the answer stands for any `from` in between.
            if asked <= from && found.map_or(true, |at| at >= from) {
                return found;
            }
        }
        let found = find_ignorecase(self.text, from, self.needle);
        self.last = Some((from, found));
        found
    }
}

/// `<table\b.{0,200000}?</table>` (IGNORECASE, DOTALL): every table's (start, end), non-overlapping.
fn html_table_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut resume = 0;
    let mut closes = Next::new(text, "</table>");
    // Code-point offsets of openings and of closing tags, each asked in increasing order.
    let (mut body_chars, mut close_chars) = (CharOffsets::new(text), CharOffsets::new(text));
    for (start, body) in html_opens(text) {
        if start < resume {
            continue;
        }
        let Some(close) = closes.from(body) else {
            break; // no closing tag after this opening, nor after any later one
        };
        if close_chars.of(close).saturating_sub(body_chars.of(body)) > MAX_HTML_TABLE_CHARS {
            continue;
        }
        resume = close + "</table>".len();
        spans.push((start, resume));
    }
    spans
}

fn html_tables(text: &str) -> Result<Vec<TextTable<'_>>, ReferenceTooLong> {
    let mut found = Vec::new();
    for (offset, end) in html_table_spans(text) {
        let body = slice(text, offset, end);
        let mut caption =
            Cow::Borrowed(slice(text, chars_back(text, offset, CAPTION_CHARS), offset));
        if let Some(inner) = html_caption(body) {
            caption = Cow::Owned(format!("{caption} {}", without_tags(inner)));
        }
        let mut grid: Grid<'_> = Vec::new();
        let mut cells = 0;
        for (row_start, row) in html_rows(body) {
            let mut cells_of_row = Vec::new();
            for (content_start, attributes, content) in html_cells(row) {
                let content = cut_at_cell_end(content);
                // Python also replaces NBSP by a space first: `split()` splits at it anyway.
                let tagless = without_tags(content);
                let inner = unescape(&tagless)?;
                let clean = inner
                    .split(is_space)
                    .filter(|part| !part.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ");
                let start = offset + row_start + content_start;
                cells_of_row.push(TextCell {
                    text: Cow::Owned(clean),
                    start,
                    end: start + content.len(),
                });
                for _ in 1..colspan(attributes).min(16) {
                    cells_of_row.push(TextCell {
                        text: Cow::Borrowed(""),
                        start,
                        end: start,
                    });
                }
            }
            cells += cells_of_row.len();
            if cells > MAX_TABLE_CELLS {
                break;
            }
            if !cells_of_row.is_empty() {
                grid.push(cells_of_row);
            }
        }
        if grid.len() >= 2 {
            found.push(TextTable { grid, caption });
            if found.len() >= MAX_TABLES {
                break;
            }
        }
    }
    Ok(found)
}

/// `re.sub(r"</t[hd]>.*", "", content)` (IGNORECASE, DOTALL): the content before its first `</th>`
/// or `</td>`.
fn cut_at_cell_end(content: &str) -> &str {
    let mut from = 0;
    while let Some(at) = find_ignorecase(content, from, "</t") {
        let tail = content.get(at + 3..).unwrap_or_default();
        let mut chars = tail.chars();
        if matches!(chars.next(), Some('h' | 'H' | 'd' | 'D')) && chars.next() == Some('>') {
            return content.get(..at).unwrap_or_default();
        }
        from = at + 1;
    }
    content
}

/// `_TAG.sub(" ", text)`: each `<...>` replaced by a space.
fn without_tags(text: &str) -> Cow<'_, str> {
    let mut out = String::new();
    let mut copied = 0;
    while let Some(open) = text
        .get(copied..)
        .and_then(|rest| rest.find('<'))
        .map(|i| copied + i)
    {
        let Some(close) = text
            .get(open..)
            .and_then(|rest| rest.find('>'))
            .map(|i| open + i)
        else {
            break; // no later `<` closes either
        };
        out.push_str(text.get(copied..open).unwrap_or_default());
        out.push(' ');
        copied = close + 1;
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    Cow::Owned(out)
}

/// An element opening `<name\b[^>]*>` at byte `at` (`closes`: the text's `>`, asked in order):
/// (offset after its name, offset after `>`).
fn opening(text: &str, at: usize, name: &str, closes: &mut Next<'_>) -> Option<(usize, usize)> {
    let after_name = opening_name(text, at, name)?;
    Some((after_name, closes.from(after_name)? + 1))
}

/// Group 1 of `<caption\b[^>]*>(.*?)</caption>` (IGNORECASE, DOTALL).
fn html_caption(body: &str) -> Option<&str> {
    let (mut closes, mut ends) = (Next::new(body, ">"), Next::new(body, "</caption>"));
    body.match_indices('<').find_map(|(at, _)| {
        let (_, inner) = opening(body, at, "<caption", &mut closes)?;
        body.get(inner..ends.from(inner)?)
    })
}

/// Where a lazy `(.*?)` from `from` stops before `(?=<tag\b|literal|$)`: the first `<tag\b` or
/// `literal` (IGNORECASE), else `$`: the end, or just before a final newline.
fn first_stop(text: &str, from: usize, tags: &[&str], literal: &str) -> usize {
    let dollar = match text.len().checked_sub(1) {
        Some(last) if text.ends_with('\n') && from <= last => last,
        _ => text.len(),
    };
    let stop = text
        .get(from..)
        .unwrap_or_default()
        .match_indices('<')
        .map(|(at, _)| from + at)
        .take_while(|at| *at < dollar)
        .find(|at| {
            tags.iter()
                .any(|tag| opening_name(text, *at, tag).is_some())
                || ignorecase_prefix(text, *at, literal).is_some()
        });
    stop.unwrap_or(dollar)
}

/// `<tr\b[^>]*>(.*?)(?=<tr\b|</table>|$)` (IGNORECASE, DOTALL): each row's (start, group 1).
fn html_rows(body: &str) -> Vec<(usize, &str)> {
    let mut rows = Vec::new();
    let mut closes = Next::new(body, ">");
    let mut at = 0;
    while let Some(open) = body
        .get(at..)
        .and_then(|rest| rest.find('<'))
        .map(|i| at + i)
    {
        let Some((_, inner)) = opening(body, open, "<tr", &mut closes) else {
            at = open + 1;
            continue;
        };
        let end = first_stop(body, inner, &["<tr"], "</table>");
        rows.push((inner, slice(body, inner, end)));
        at = end.max(open + 1);
    }
    rows
}

/// `<t([hd])\b([^>]*)>(.*?)(?=<t[hd]\b|</tr>|$)` (IGNORECASE, DOTALL) in a row: each cell's
/// (content start, attributes, content).
fn html_cells(row: &str) -> Vec<(usize, &str, &str)> {
    let mut cells = Vec::new();
    let mut closes = Next::new(row, ">");
    let mut at = 0;
    while let Some(open) = row
        .get(at..)
        .and_then(|rest| rest.find('<'))
        .map(|i| at + i)
    {
        let opened = opening(row, open, "<th", &mut closes)
            .or_else(|| opening(row, open, "<td", &mut closes));
        let Some((after_name, inner)) = opened else {
            at = open + 1;
            continue;
        };
        let end = first_stop(row, inner, &["<th", "<td"], "</tr>");
        cells.push((
            inner,
            slice(row, after_name, inner - 1),
            slice(row, inner, end),
        ));
        at = end.max(open + 1);
    }
    cells
}

/// The span `colspan\s*=\s*["']?(\d{1,2})` (IGNORECASE) names in a cell's attributes (1: none).
fn colspan(attributes: &str) -> u32 {
    let mut from = 0;
    while let Some(at) = find_ignorecase_any(attributes, from, "colspan") {
        from = at + 1;
        let Some(name_end) = ignorecase_prefix(attributes, at, "colspan") else {
            continue;
        };
        let rest = attributes
            .get(name_end..)
            .unwrap_or_default()
            .trim_start_matches(is_space);
        let Some(rest) = rest.strip_prefix('=') else {
            continue;
        };
        let rest = rest.trim_start_matches(is_space);
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
        let value: Vec<u32> = rest
            .chars()
            .map_while(crate::pyunicode::digit_value)
            .take(2)
            .collect();
        if let Some(first) = value.first() {
            return value.get(1).map_or(*first, |second| first * 10 + second);
        }
    }
    1
}

/// The first offset at or after `from` where `needle` matches under IGNORECASE (its first letter
/// may be any of the characters folding onto it).
fn find_ignorecase_any(text: &str, from: usize, needle: &str) -> Option<usize> {
    text.get(from..)?
        .char_indices()
        .map(|(at, _)| from + at)
        .find(|at| ignorecase_prefix(text, *at, needle).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'t>(table: &'t TextTable<'_>) -> Vec<Vec<&'t str>> {
        table
            .grid
            .iter()
            .map(|row| row.iter().map(|cell| cell.text.as_ref()).collect())
            .collect()
    }

    #[test]
    fn markdown_rows_without_outer_pipes_or_separator() {
        let text = "Revenue (In millions)\n| Item | 2024 |\n|---|:--:|\n| Sales | 1 |";
        let found = text_tables(text).unwrap_or_default();
        let table = found.first();
        assert_eq!(
            table.map(texts),
            Some(vec![vec!["Item", "2024"], vec!["Sales", "1"]])
        );
        assert_eq!(
            table.map(|table| table.caption.as_ref()),
            Some("Revenue (In millions)\n")
        );
        let cell = table.and_then(|table| table.grid.get(1)?.get(1));
        assert_eq!(
            cell.map(|cell| (cell.start, cell.end)),
            text.rfind('1').map(|at| (at, at + 1))
        );
    }

    #[test]
    fn csv_fields_may_be_quoted_and_rows_must_agree_in_width() {
        let found = text_tables("a,b\n\"1,234\",\"x \"\"y\"\"\"\n1,2,3").unwrap_or_default();
        assert_eq!(
            found.first().map(texts),
            Some(vec![vec!["a", "b"], vec!["1,234", "x \"y\""]])
        );
        assert!(may_hold_table("a\tb\nc\td") && !may_hold_table("no table"));
    }

    #[test]
    fn html_cells_are_unescaped_and_spanned() {
        let text = "<TABLE><caption>In €m</caption><tr><th colspan=2>FY&nbsp;2024<tr><td>A &amp; B</td><td>3</td></table>";
        let found = text_tables(text).unwrap_or_default();
        let table = found.first();
        assert_eq!(
            table.map(texts),
            Some(vec![vec!["FY 2024", ""], vec!["A & B", "3"]])
        );
        assert_eq!(table.map(|table| table.caption.as_ref()), Some(" In €m"));
        let too_long = format!("<table><tr><td>&#{};</table>", "1".repeat(4301));
        assert_eq!(text_tables(&too_long), Err(ReferenceTooLong)); // Python's int() refuses it
    }

    #[test]
    fn separator_rows() {
        assert!(is_separator_row("|---|:---:| --: |"));
        assert!(is_separator_row(" --- "));
        assert!(!is_separator_row("|-|---|"));
        assert!(!is_separator_row("| --- | x |"));
    }
}
