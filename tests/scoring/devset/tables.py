"""A table of the dev set and how a tool or a retrieved document prints it.

A ``Table`` holds metrics (its rows in a report) over periods or entities (its columns), and
optional percent columns computed per metric. ``render`` prints it in one of the forms an agent
sees: a markdown pipe table, a JSON array of rows, an array of records, CSV or TSV text, or an
HTML fragment in a document. ``Style`` holds the printing choices a form leaves open.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

Kind = Literal["amount", "per_share", "percent", "count"]
Form = Literal["markdown", "json_rows", "records", "csv", "tsv", "html"]
FORMS: tuple[Form, ...] = ("markdown", "json_rows", "records", "csv", "tsv", "html")
Extra = Literal["pct_change", "share"]


@dataclass(frozen=True)
class Metric:
    """One row of a report table (a column of a query result)."""

    name: str
    kind: Kind = "amount"
    words: str = ""  # how a question names it; the lower-cased name when empty
    key: str = ""  # its key in records
    section: str = ""  # a section row printed before it ("Operating expenses:")
    indent: bool = False
    footnote: str = ""  # "(1)" or "*" after the label
    total: bool = False  # a total row: annual reports print the currency on it
    whole: bool = False  # the denominator of "what percentage of ..." questions (else the total row)
    part: bool = False  # one of the rows that add up to a total: two of them may be summed

    @property
    def said(self) -> str:
        return self.words or self.name.lower()


@dataclass(frozen=True)
class Scale:
    """A table's scale note and how answers write an amount at that scale."""

    note: str  # "(In millions)", "€m", "$000s"; "" for none
    word: str  # "million", "thousand", "billion"; "" for units
    currency: str  # "$", "€", "£", "CHF ", "¥", ""
    suffix: str = ""  # the short form answers may use instead of the word ("m", "bn")
    unit: str = ""  # a unit answers may write after a figure ("GWh")


@dataclass(frozen=True)
class Table:
    title: str
    metrics: tuple[Metric, ...]
    columns: tuple[str, ...]  # period or entity names, as printed in the header
    values: tuple[tuple[Decimal | None, ...], ...]  # [metric][period]
    decimals: int  # of amounts (per-share figures have 2, percents their own)
    scale: Scale
    axis: str = ""  # the label column's header ("Segment", "Month"); empty in report tables
    group: str = ""  # a header row spanning the columns ("Year Ended December 31,")
    blocks: tuple[str, ...] = ()  # repeated header per block ("Fiscal 2024", "Fiscal 2023")
    extras: tuple[Extra, ...] = ()  # percent columns: change of the first two columns, share of total
    percent_decimals: int = 1
    phrase: str = "in {}"  # how a question places a period ("in 2024", "for EMEA")
    names: tuple[str, ...] = ()  # how a question names each period; the header when empty
    intro: str = ""  # the prose around an HTML table
    record_key: str = "period"  # the key naming a record's period or entity
    ratios: tuple[tuple[str, str], ...] = ()  # ratios of two rows people ask for (loans to deposits)
    paired: bool = False  # each period's column followed by the metric's "% of" the whole
    across_columns: bool = True  # a sum or average across its columns means something (not budget and actual)
    temporal: bool = True  # columns are periods (a change runs from the older to the newer)
    newest_first: bool = True

    def age(self, period: int) -> int:
        """Chronological rank of a period (0 is the oldest)."""
        if self.blocks:
            block, column = divmod(period, len(self.columns))
            return (len(self.blocks) - 1 - block) * len(self.columns) + column
        return len(self.periods) - 1 - period if self.newest_first else period

    @property
    def periods(self) -> tuple[str, ...]:
        """Every data column: with blocks, each column of each block ("Q3 Fiscal 2024")."""
        if not self.blocks:
            return self.columns
        return tuple(f"{column} {block}" for block in self.blocks for column in self.columns)

    def name(self, period: int) -> str:
        return self.names[period] if self.names else self.periods[period]

    def place(self, period: int) -> str:
        return self.phrase.format(self.name(period))

    def extra_values(self, metric: int) -> list[Decimal | None]:
        """The percent columns of one metric, rounded as the table prints them."""
        row = self.values[metric]
        out: list[Decimal | None] = []
        for extra in self.extras:
            value: Decimal | None = None
            if self.metrics[metric].kind == "percent":
                value = None
            elif extra == "pct_change" and row[0] is not None and row[1]:
                value = (row[0] - row[1]) / abs(row[1]) * 100
            elif extra == "share":
                total = self.total_row()
                whole = None if total is None else self.values[total][0]
                if whole and row[0] is not None:
                    value = row[0] / whole * 100
            out.append(None if value is None else round(value, self.percent_decimals))
        return out

    def paired_values(self, metric: int) -> list[Decimal | None]:
        """With ``paired``, the metric's percentage of the whole in each period, as printed."""
        whole = self.total_row()
        if not self.paired or whole is None or self.metrics[metric].kind != "amount":
            return [None] * len(self.periods)
        return [
            None if v is None or not w else round(v / w * 100, self.percent_decimals)
            for v, w in zip(self.values[metric], self.values[whole], strict=True)
        ]

    def grid(self) -> list[list[float | None]]:
        """Every value as a float, metric by metric, its percent columns after its periods."""
        return [
            [
                None if v is None else float(v)
                for v in (*self.values[m], *self.extra_values(m), *self.paired_values(m))
            ]
            for m in range(len(self.metrics))
        ]

    def total_row(self) -> int | None:
        """The row shares are taken of: the one marked ``whole``, else the total row."""
        found = [i for i, metric in enumerate(self.metrics) if metric.whole]
        found += [i for i, metric in enumerate(self.metrics) if metric.total]
        return found[0] if found else None


@dataclass(frozen=True)
class Style:
    """Printing choices: which of the annual-report habits this rendering shows."""

    separator: bool = True  # markdown: the |---| row
    empty: str = "—"  # an empty cell: em dash, "", "-"
    parens: bool = True  # negatives as (1,234)
    currency_cells: bool = True  # "$ 4,812.6" on the first row and total rows
    note_at: Literal["corner", "caption", "row"] = "corner"
    as_string: bool = False  # JSON forms: the tool result serialized as a str
    raw_numbers: bool = False  # records: JSON numbers rather than printed cells
    by_metric: bool = False  # records: one per line item rather than one per period
    percent_space: bool = False  # "42.3 %"
    indent: str = "  "
    caption: bool = True
    extra_headers: tuple[str, ...] = field(default=())


def number_text(value: Decimal, decimals: int, parens: bool = False) -> str:
    body = f"{abs(value):,.{decimals}f}"
    if value < 0:
        return f"({body})" if parens else f"-{body}"
    return body


def cell_text(table: Table, metric: int, period: int, style: Style, first_row: bool) -> str:
    value = table.values[metric][period]
    spec = table.metrics[metric]
    if value is None:
        return style.empty
    if spec.kind == "percent":
        return number_text(value, table.percent_decimals) + (" %" if style.percent_space else "%")
    if spec.kind == "per_share":
        text = number_text(value, 2, style.parens)
        return f"{table.scale.currency.strip() or '$'} {text}" if style.currency_cells else text
    decimals = 0 if spec.kind == "count" else table.decimals
    text = number_text(value, decimals, style.parens)
    marked = spec.kind == "amount" and table.scale.currency and (first_row or spec.total)
    return f"{table.scale.currency.strip()} {text}" if marked and style.currency_cells else text


def extra_text(value: Decimal | None, table: Table, style: Style) -> str:
    if value is None:
        return style.empty
    return number_text(value, table.percent_decimals, style.parens) + "%"


def extra_header(extra: Extra, table: Table) -> str:
    if extra == "pct_change":
        return "% Change"
    return f"% of total {table.columns[0]}"


def label_text(spec: Metric, style: Style) -> str:
    note = f" {spec.footnote}" if spec.footnote else ""
    return (style.indent if spec.indent else "") + spec.name + note


def grid(table: Table, style: Style) -> tuple[list[list[str]], int]:
    """The table as rows of printed cells, and how many leading rows are headers."""
    corner = table.scale.note if style.note_at == "corner" else table.axis
    width = 2 * len(table.columns) if table.paired else len(table.columns) + len(table.extras)
    extras = [extra_header(extra, table) for extra in table.extras]
    header: list[list[str]] = []
    if style.note_at == "row" and table.scale.note:
        header.append([table.scale.note] + [""] * width)
    if table.paired:  # a year over each pair of columns: "Amount" and "% of revenue"
        whole = table.metrics[table.total_row() or 0].name.lower()
        header.append([corner, *(text for column in table.columns for text in (column, ""))])
        header.append(["", *(text for _ in table.columns for text in ("Amount", f"% of {whole}"))])
    elif table.group and not table.blocks:
        header.append([corner, table.group] + [""] * (width - 1))
        header.append(["", *list(table.columns), *extras])
    else:
        header.append([corner, *list(table.columns), *extras])
    rows: list[list[str]] = []
    blocks = table.blocks or ("",)
    for b, block in enumerate(blocks):
        if table.blocks and b:
            rows.append(["", *list(table.columns), *extras])
        if table.blocks:
            rows.append([block] + [""] * width)
        sections_seen: set[str] = set()
        for m, spec in enumerate(table.metrics):
            if spec.section and spec.section not in sections_seen:
                sections_seen.add(spec.section)
                rows.append([spec.section] + [""] * width)
            cells = [
                cell_text(table, m, b * len(table.columns) + c, style, first_row=m == 0)
                for c in range(len(table.columns))
            ]
            cells += [extra_text(v, table, style) for v in table.extra_values(m)]
            if table.paired:
                shares = [extra_text(v, table, style) for v in table.paired_values(m)]
                cells = [text for pair in zip(cells, shares, strict=True) for text in pair]
            rows.append([label_text(spec, style), *cells])
    return header + rows, len(header)


def caption(table: Table, style: Style) -> str:
    note = f" {table.scale.note}" if style.note_at == "caption" and table.scale.note else ""
    return f"{table.title}{note}" if style.caption or note else ""


def markdown(table: Table, style: Style) -> str:
    rows, headers = grid(table, style)
    lines = [caption(table, style), ""] if caption(table, style) else []
    for i, row in enumerate(rows):
        lines.append("| " + " | ".join(row) + " |")
        if i == 0 and style.separator:
            lines.append("|" + "|".join(["---"] + ["---:"] * (len(row) - 1)) + "|")
    del headers
    return "\n".join(lines)


def delimited(table: Table, style: Style, sep: str) -> str:
    rows, _ = grid(table, style)
    lines = [f"# {caption(table, style)}"] if caption(table, style) else []
    for row in rows:
        if sep == ",":
            row = [f'"{cell}"' if ("," in cell or '"' in cell) else cell for cell in row]
        lines.append(sep.join(cell.strip() if sep == "," else cell for cell in row))
    return "\n".join(lines)


def html(table: Table, style: Style) -> str:
    rows, headers = grid(table, style)
    out = [f"<p>{table.intro}</p>"] if table.intro else []
    out.append("<table>")
    if caption(table, style):
        out.append(f"<caption>{caption(table, style)}</caption>")
    for i, row in enumerate(rows):
        tag = "th" if i < headers else "td"
        cells = []
        if table.group and not table.blocks and i == headers - 2:
            span = len(row) - 1
            cells = [f"<th>{row[0]}</th>", f'<th colspan="{span}">{row[1]}</th>']
        else:
            for cell in row:
                text = (
                    cell.replace(style.indent, "&nbsp;&nbsp;", 1) if cell.startswith(style.indent) else cell
                )
                cells.append(f"<{tag}>{text}</{tag}>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def json_rows(table: Table, style: Style) -> Any:
    rows, _ = grid(table, style)
    trimmed = [[cell.strip() for cell in row] for row in rows]
    return json.dumps(trimmed) if style.as_string else trimmed


def key_of(text: str) -> str:
    keep = "".join(ch.lower() if ch.isalnum() else "_" for ch in text)
    return "_".join(part for part in keep.split("_") if part)


def records(table: Table, style: Style) -> Any:
    """A query result with the scale note beside it: one record per period (metrics are its keys),
    or with ``by_metric`` one per line item (periods are its keys), as report extractors return."""
    out: list[dict[str, Any]] = []

    def cell(m: int, p: int) -> Any:
        value = table.values[m][p]
        if style.raw_numbers:
            return None if value is None else float(value)
        return cell_text(table, m, p, style, first_row=False)

    if style.by_metric:
        for m, spec in enumerate(table.metrics):
            record = {"line_item": spec.name}
            record.update((period, cell(m, p)) for p, period in enumerate(table.periods))
            out.append(record)
    else:
        for p, period in enumerate(table.periods):
            row: dict[str, Any] = {table.record_key: period}
            row.update((spec.key or key_of(spec.name), cell(m, p)) for m, spec in enumerate(table.metrics))
            out.append(row)
    payload: dict[str, Any] = {"title": table.title, "rows": out}
    if table.scale.note:
        payload["unit"] = table.scale.note
    return json.dumps(payload) if style.as_string else payload


def render(table: Table, form: Form, style: Style) -> Any:
    if form == "markdown":
        return markdown(table, style)
    if form == "csv":
        return delimited(table, style, ",")
    if form == "tsv":
        return delimited(table, style, "\t")
    if form == "html":
        return html(table, style)
    if form == "json_rows":
        return json_rows(table, style)
    return records(table, style)
