"""Cases typed by hand: the wordings and layouts the generator does not write.

Each names its operation and operands; ``generate`` checks the figure is the operation's result
at the figure's precision and draws its corruption like a generated case's. ``phrasing``
``inline`` marks an answer whose own sentence names the computation (the issue's first example).
"""

from __future__ import annotations

from typing import Any

ISSUE_TABLE = (
    "| (In millions) | 2024 | 2023 |\n|---|---|---|\n"
    "| Revenue | $ 4,812.6 | $ 4,377.9 |\n| Operating income | 1,502.7 | 1,084.4 |"
)
ISSUE_ANSWER = (
    "Operating income grew 38.6% from 2023 to 2024, to $1,502.7 million; revenue rose by $434.7 million."
)

QUARTERLY_BLOCKS = (
    "| (In millions) | Three Months Ended | |\n"
    "| | March 31, 2025 | March 31, 2024 |\n"
    "| Net revenue | 1,842.1 | 1,655.0 |\n"
    "| Operating income | 402.7 | 351.2 |\n"
    "| (In millions) | Twelve Months Ended | |\n"
    "| | March 31, 2025 | March 31, 2024 |\n"
    "| Net revenue | 7,012.8 | 6,390.4 |\n"
    "| Operating income | 1,611.9 | 1,437.5 |"
)

TEN_K = (
    "<p>Item 7. Management's Discussion and Analysis. The following table sets forth selected "
    "results of operations.</p>\n<table>\n"
    '<tr><th>(in thousands, except per share data)</th><th colspan="2">Year Ended December 31,</th></tr>\n'
    "<tr><th></th><th>2024</th><th>2023</th></tr>\n"
    "<tr><td>Revenues:</td><td></td><td></td></tr>\n"
    "<tr><td>&nbsp;&nbsp;Product</td><td>$ 412,906</td><td>$ 388,415</td></tr>\n"
    "<tr><td>&nbsp;&nbsp;Services</td><td>97,318</td><td>84,772</td></tr>\n"
    "<tr><td>Total revenues</td><td>510,224</td><td>473,187</td></tr>\n"
    "<tr><td>Net income</td><td>$ 84,512</td><td>$ 71,203</td></tr>\n"
    "<tr><td>Diluted earnings per share</td><td>$ 1.87</td><td>$ 1.58</td></tr>\n"
    "</table>\n<p>Services revenue grew on new maintenance contracts.</p>"
)

EBITDA_TABLE = (
    "| €m | 2024 | 2023 | Change % |\n|---|---:|---:|---:|\n"
    "| Revenue | 2,418.6 | 2,207.3 | 9.6% |\n"
    "| EBITDA | 612.4 | 540.9 | 13.2% |\n"
    "| EBITDA margin | 25.3% | 24.5% | 0.8pp |"
)

HANDWRITTEN: list[dict[str, Any]] = [
    {
        "form": "markdown",
        "features": ["scale_note"],
        "operation": "pct_change",
        "phrasing": "inline",
        "evidence": [ISSUE_TABLE],
        "user_prompt": None,
        "answer": ISSUE_ANSWER,
        "figure": "38.6%",
        "operands": ["1502.7", "1084.4"],
    },
    {
        "form": "markdown",
        "features": ["scale_note"],
        "operation": "grew_to",
        "phrasing": "inline",
        "evidence": [ISSUE_TABLE],
        "user_prompt": None,
        "answer": ISSUE_ANSWER,
        "figure": "$1,502.7 million",
        "operands": ["1502.7"],
    },
    {
        "form": "markdown",
        "features": ["scale_note", "currency_in_cells"],
        "operation": "change",
        "phrasing": "inline",
        "evidence": [ISSUE_TABLE],
        "user_prompt": None,
        "answer": ISSUE_ANSWER,
        "figure": "$434.7 million",
        "operands": ["4812.6", "4377.9"],
    },
    {
        "form": "markdown",
        "features": ["scale_note"],
        "operation": "change",
        "phrasing": "prompt_only",
        "evidence": [
            "| (In millions) | 2024 | 2023 |\n|---|---:|---:|\n| Interest expense | 186 | 198 |\n"
            "| Income tax expense | 1,307 | 1,244 |"
        ],
        "user_prompt": "What was the change in interest expense from 2023 to 2024?",
        "answer": "It was a decrease of 12 million.",
        "figure": "12 million",
        "operands": ["186", "198"],
    },
    {
        "form": "tsv",
        "features": [],
        "operation": "pct_change",
        "phrasing": "restated",
        "evidence": [
            "Model\tUnits shipped 2024\tUnits shipped 2023\nKX-200\t9,600\t12,000\nKX-300\t14,215\t13,870"
        ],
        "user_prompt": None,
        "answer": "How did KX-200 shipments change from 2023 to 2024? They fell by 20%.",
        "figure": "20%",
        "operands": ["9600", "12000"],
    },
    {
        "form": "markdown",
        "features": ["percent_rows", "no_separator_row"],
        "operation": "pp_diff",
        "phrasing": "prompt_only",
        "evidence": [
            "| Margin | 2024 | 2023 |\n| Gross margin | 41.7% | 43.2% |\n| Operating margin | 18.4% | 21.6% |"
        ],
        "user_prompt": "How did the operating margin change in 2024 compared with 2023?",
        "answer": "It was down 3.2 points.",
        "figure": "3.2 points",
        "operands": ["18.4", "21.6"],
    },
    {
        "form": "tsv",
        "features": ["scale_note"],
        "operation": "grew_to",
        "phrasing": "restated",
        "evidence": ["Subscribers (000s)\t2024\t2023\nPostpaid\t14,382\t13,907\nPrepaid\t6,114\t6,652"],
        "user_prompt": None,
        "answer": "How did postpaid subscribers change in 2024? They grew to 14,382 thousand.",
        "figure": "14,382 thousand",
        "operands": ["14382"],
    },
    {
        "form": "html",
        "features": ["scale_note", "multi_row_header", "per_share_rows", "section_rows", "indented_rows"],
        "operation": "pct_change",
        "phrasing": "prompt_only",
        "evidence": [TEN_K],
        "user_prompt": "What was the percentage change in diluted earnings per share from 2023 to 2024?",
        "answer": "It is 18.35%.",
        "figure": "18.35%",
        "operands": ["1.87", "1.58"],
    },
    {
        "form": "html",
        "features": ["scale_note", "multi_row_header", "section_rows", "indented_rows"],
        "operation": "share",
        "phrasing": "restated",
        "evidence": [TEN_K],
        "user_prompt": None,
        "answer": "What percentage of total revenues came from services in 2024? "
        "Services were 19.07% of the total.",
        "figure": "19.07%",
        "operands": ["97318", "510224"],
    },
    {
        "form": "html",
        "features": ["scale_note", "multi_row_header", "section_rows", "indented_rows"],
        "operation": "change",
        "phrasing": "prompt_only",
        "evidence": [TEN_K],
        "user_prompt": "By how much did net income increase from 2023 to 2024?",
        "answer": "Net income increased by $13,309 thousand.",
        "figure": "$13,309 thousand",
        "operands": ["84512", "71203"],
    },
    {
        "form": "csv",
        "features": ["quoted_fields"],
        "operation": "ratio",
        "phrasing": "prompt_only",
        "evidence": [
            'product,units,revenue_usd\n"Widget, large",1204,"18,060.00"\n"Widget, small",3310,"26,149.00"\n'
            '"Gadget",874,"12,323.40"'
        ],
        "user_prompt": "What was the average price per unit of the large widget?",
        "answer": "It was $15.00.",
        "figure": "$15.00",
        "operands": ["18060", "1204"],
    },
    {
        "form": "markdown",
        "features": ["no_separator_row", "empty_cells"],
        "operation": "sum",
        "phrasing": "restated",
        "evidence": [
            "| Region | Q1 | Q2 | Q3 |\n| North | 1,204.5 | 1,318.2 | — |\n"
            "| South | 987.3 | 1,021.6 | 1,105.8 |"
        ],
        "user_prompt": None,
        "answer": "What were South's total sales from Q1 to Q3? The total was 3,114.7.",
        "figure": "3,114.7",
        "operands": ["987.3", "1021.6", "1105.8"],
    },
    {
        "form": "json_rows",
        "features": ["scale_note", "multi_row_header", "currency_in_cells"],
        "operation": "share",
        "phrasing": "prompt_only",
        "evidence": [
            [
                ["(In millions)", "", ""],
                ["", "Year Ended December 31,", ""],
                ["", "2024", "2023"],
                ["Total assets", "$ 4,812.6", "$ 4,377.9"],
                ["Total liabilities", "$ 2,936.4", "$ 2,802.5"],
            ]
        ],
        "user_prompt": "What were total liabilities as a percentage of total assets in 2024?",
        "answer": "It was 61.01%.",
        "figure": "61.01%",
        "operands": ["2936.4", "4812.6"],
    },
    {
        "form": "markdown",
        "features": ["scale_note", "percent_columns", "percent_rows"],
        "operation": "pp_diff",
        "phrasing": "restated",
        "evidence": [EBITDA_TABLE],
        "user_prompt": None,
        "answer": "What was the change in EBITDA margin from 2023 to 2024? It rose by 0.8 percentage points.",
        "figure": "0.8 percentage points",
        "operands": ["25.3", "24.5"],
    },
    {
        "form": "markdown",
        "features": ["scale_note", "percent_columns", "percent_rows"],
        "operation": "average",
        "phrasing": "prompt_only",
        "evidence": [EBITDA_TABLE],
        "user_prompt": "What was the average EBITDA in 2023 and 2024?",
        "answer": "It was €576.65m.",
        "figure": "€576.65m",
        "operands": ["612.4", "540.9"],
    },
    {
        "form": "tsv",
        "features": ["scale_note"],
        "operation": "share",
        "phrasing": "prompt_only",
        "evidence": ["($000s)\tFY24\tFY23\nRevenue\t52,418\t47,906\nGross profit\t21,144\t18,372"],
        "user_prompt": "What was the gross margin in FY24?",
        "answer": "It was 40.34%.",
        "figure": "40.34%",
        "operands": ["21144", "52418"],
    },
    {
        "form": "markdown",
        "features": ["scale_note", "multi_row_header", "header_per_block", "no_separator_row"],
        "operation": "pct_change",
        "phrasing": "restated",
        "evidence": [QUARTERLY_BLOCKS],
        "user_prompt": None,
        "answer": "What was the percentage change in net revenue for the twelve months ended March 31, 2025? "
        "It is 9.74%.",
        "figure": "9.74%",
        "operands": ["7012.8", "6390.4"],
    },
    {
        "form": "markdown",
        "features": ["scale_note", "multi_row_header", "header_per_block", "no_separator_row"],
        "operation": "change",
        "phrasing": "prompt_only",
        "evidence": [QUARTERLY_BLOCKS],
        "user_prompt": "By how much did quarterly operating income change "
        "in the three months ended March 31, 2025?",
        "answer": "It increased by $51.5 million.",
        "figure": "$51.5 million",
        "operands": ["402.7", "351.2"],
    },
    {
        "form": "json_rows",
        "features": ["scale_note", "negatives_in_parens", "negatives", "json_string"],
        "operation": "change",
        "phrasing": "restated",
        "evidence": [
            '[["(In millions)", "2024", "2023"], ["Operating income", "1,204.7", "1,088.2"], '
            '["Other income (expense), net", "(1,234.5)", "(987.1)"], '
            '["Income before taxes", "(29.8)", "101.1"]]'
        ],
        "user_prompt": None,
        "answer": "What was the change in other income (expense), net from 2023 to 2024? "
        "It is -247.4 million.",
        "figure": "-247.4 million",
        "operands": ["-1234.5", "-987.1"],
    },
    {
        "form": "records",
        "features": ["raw_numbers"],
        "operation": "pct_change",
        "phrasing": "prompt_only",
        "evidence": [
            {
                "rows": [
                    {"quarter": "2024-Q4", "revenue_usd_thousands": 18342.5, "orders": 4120},
                    {"quarter": "2025-Q1", "revenue_usd_thousands": 19877.1, "orders": 4388},
                ]
            }
        ],
        "user_prompt": "By what percentage did revenue grow from Q4 2024 to Q1 2025?",
        "answer": "It grew 8.37%.",
        "figure": "8.37%",
        "operands": ["19877.1", "18342.5"],
    },
    {
        "form": "markdown",
        "features": ["scale_note", "footnotes"],
        "operation": "change",
        "phrasing": "prompt_only",
        "evidence": [
            "Cash generation (US$ millions)\n\n| | 2024 | 2023 |\n|---|---:|---:|\n"
            "| Adjusted EBITDA (1) | 1,204.7 | 1,088.2 |\n| Capital expenditures* | 311.9 | 402.5 |\n\n"
            "(1) A non-GAAP measure. * Excludes capitalised interest."
        ],
        "user_prompt": "What was the difference between adjusted EBITDA and capital expenditures in 2024?",
        "answer": "The difference was US$892.8 million.",
        "figure": "US$892.8 million",
        "operands": ["1204.7", "311.9"],
    },
]
