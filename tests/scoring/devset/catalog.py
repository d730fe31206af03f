"""The tables of the dev set: annual-report statements, segment and product tables, bank and
airline key figures, a SaaS dashboard, a SQL result, plant output and headcount.

Each builder takes the seeded generator and returns a ``Table``; most draw their numbers (a
start and a yearly drift, totals summed from their parts, margins computed), and the ``fixed_*``
ones are typed by hand. Columns run newest first, as annual reports print them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from decimal import Decimal

from tests.scoring.devset.tables import Metric, Scale, Table

Values = list[Decimal | None]


def drift(rng: random.Random, start: float, periods: int, decimals: int, low: float = -0.12) -> Values:
    """A series newest first: ``start`` for the oldest period, then a yearly change in [low, 0.25]."""
    values = [start]
    for _ in range(periods - 1):
        values.append(values[-1] * (1 + rng.uniform(low, 0.25)))
    return [round(Decimal(repr(v)), decimals) for v in reversed(values)]


def add(*rows: Values) -> Values:
    return [
        None if any(r[i] is None for r in rows) else sum((r[i] or Decimal(0) for r in rows), Decimal(0))
        for i in range(len(rows[0]))
    ]


def sub(a: Values, b: Values) -> Values:
    return [None if x is None or y is None else x - y for x, y in zip(a, b, strict=True)]


def share(part: Values, whole: Values, decimals: int) -> Values:
    return [
        None if x is None or not y else round(x / y * 100, decimals) for x, y in zip(part, whole, strict=True)
    ]


def table(values: Sequence[Sequence[Decimal | None]], **kwargs: object) -> Table:
    return Table(values=tuple(tuple(row) for row in values), **kwargs)  # type: ignore[arg-type]


def income_statement(rng: random.Random) -> Table:
    years = ("2024", "2023", "2022")
    revenue = drift(rng, rng.uniform(1800, 9000), 3, 1)
    cost = [round(v * Decimal(repr(rng.uniform(0.42, 0.6))), 1) for v in revenue if v is not None]
    gross = sub(revenue, list(cost))
    rnd = drift(rng, float(revenue[2] or 0) * 0.12, 3, 1)
    sales = drift(rng, float(revenue[2] or 0) * 0.1, 3, 1)
    admin = drift(rng, float(revenue[2] or 0) * 0.05, 3, 1)
    opex = add(rnd, sales, admin)
    operating = sub(gross, opex)
    net = [None if v is None else round(v * Decimal(repr(rng.uniform(0.7, 0.82))), 1) for v in operating]
    shares = Decimal(repr(rng.uniform(180, 900)))
    eps = [None if v is None else round(v / shares, 2) for v in net]
    paired = rng.random() < 0.35  # "Amount" and "% of revenue" under each year
    return table(
        [revenue, list(cost), gross, rnd, sales, admin, opex, operating, net, eps, share(gross, revenue, 1)],
        title=rng.choice(["Consolidated Statements of Operations", "Selected Financial Data"]),
        metrics=(
            Metric("Revenue", whole=True),
            Metric("Cost of revenue"),
            Metric("Gross profit"),
            Metric("Research and development", part=True, section="Operating expenses:", indent=True),
            Metric("Sales and marketing", part=True, section="Operating expenses:", indent=True),
            Metric("General and administrative", part=True, section="Operating expenses:", indent=True),
            Metric("Total operating expenses", total=True),
            Metric("Operating income"),
            Metric("Net income"),
            Metric("Diluted earnings per share", kind="per_share", words="diluted earnings per share"),
            Metric("Gross margin", kind="percent"),
        ),
        columns=years,
        decimals=1,
        scale=Scale("(In millions, except per share amounts and percentages)", "million", "$"),
        group="" if paired else "Year Ended December 31,",
        paired=paired,
    )


def balance_sheet(rng: random.Random) -> Table:
    cash = drift(rng, rng.uniform(90_000, 600_000), 2, 0)
    receivables = drift(rng, rng.uniform(50_000, 300_000), 2, 0)
    inventories = drift(rng, rng.uniform(40_000, 250_000), 2, 0)
    prepaid = drift(rng, rng.uniform(5_000, 40_000), 2, 0)
    current = add(cash, receivables, inventories, prepaid)
    ppe = drift(rng, rng.uniform(150_000, 900_000), 2, 0)
    goodwill = drift(rng, rng.uniform(20_000, 200_000), 2, 0, low=0.0)
    assets = add(current, ppe, goodwill)
    return table(
        [cash, receivables, inventories, prepaid, current, ppe, goodwill, assets],
        title="Condensed Consolidated Balance Sheets",
        ratios=(("Total current assets", "Property and equipment, net"),),
        metrics=(
            Metric("Cash and cash equivalents", part=True),
            Metric("Accounts receivable, net", part=True, words="accounts receivable"),
            Metric("Inventories", part=True),
            Metric("Prepaid expenses and other current assets", part=True, words="prepaid expenses"),
            Metric("Total current assets"),
            Metric("Property and equipment, net", words="property and equipment"),
            Metric("Goodwill"),
            Metric("Total assets", total=True),
        ),
        columns=("December 31, 2024", "December 31, 2023"),
        names=("2024", "2023"),
        phrase="at the end of {}",
        decimals=0,
        scale=Scale(
            rng.choice(["(in thousands)", "$000s", "(In thousands of U.S. dollars)"]), "thousand", "$"
        ),
        group=rng.choice(["", "As of"]),
    )


def telecom_segments(rng: random.Random) -> Table:
    parts = [drift(rng, rng.uniform(300, 4000), 2, 1) for _ in range(4)]
    return table(
        [*parts, add(*parts)],
        title="Revenue by segment",
        metrics=(
            Metric("Mobile", part=True, words="Mobile revenue"),
            Metric(
                "Fixed broadband",
                part=True,
                footnote=rng.choice(["", "(1)"]),
                words="Fixed broadband revenue",
            ),
            Metric("Enterprise", part=True, words="Enterprise revenue"),
            Metric("Wholesale", part=True, footnote=rng.choice(["", "*"]), words="Wholesale revenue"),
            Metric("Total revenue", total=True),
        ),
        columns=("2024", "2023"),
        decimals=1,
        scale=Scale(rng.choice(["€m", "(€m)", "(in € millions)"]), "million", "€", "m"),
        extras=rng.choice([(), ("pct_change",), ("share",), ("pct_change", "share")]),
        axis="Segment",
        intro="Segment performance. Revenue by business segment for the financial year.",
    )


def retail_quarters(rng: random.Random) -> Table:
    quarters = ("Q1", "Q2", "Q3", "Q4")
    sales = drift(rng, rng.uniform(200_000, 900_000), 8, 0)
    gross = [None if v is None else round(v * Decimal(repr(rng.uniform(0.3, 0.42))), 0) for v in sales]
    operating = [round(Decimal(repr(rng.uniform(-0.03, 0.08))) * (v or Decimal(0)), 0) for v in sales]
    comps = [round(Decimal(repr(rng.uniform(-4.5, 7.5))), 1) for _ in sales]
    return table(
        [sales, gross, operating, comps],
        title="Quarterly Results (unaudited)",
        metrics=(
            Metric("Net sales"),
            Metric("Gross profit"),
            Metric("Operating income (loss)", words="operating income"),
            Metric("Comparable sales growth", kind="percent"),
        ),
        columns=quarters,
        blocks=("Fiscal 2024", "Fiscal 2023"),
        decimals=0,
        scale=Scale(rng.choice(["$000s", "(in thousands)"]), "thousand", "$"),
    )


def bank_key_figures(rng: random.Random) -> Table:
    nii = drift(rng, rng.uniform(6, 14), 3, 2)
    other = drift(rng, rng.uniform(2, 6), 3, 2)
    income = add(nii, other)
    costs = [None if v is None else round(v * Decimal(repr(rng.uniform(0.45, 0.62))), 2) for v in income]
    loans = drift(rng, rng.uniform(280, 460), 3, 1, low=-0.03)
    deposits = drift(rng, rng.uniform(300, 500), 3, 1, low=-0.03)
    return table(
        [
            nii,
            other,
            income,
            costs,
            loans,
            deposits,
            [round(Decimal(repr(rng.uniform(2.6, 3.2))), 2) for _ in range(3)],
            share(costs, income, 2),
            [round(Decimal(repr(rng.uniform(13.2, 15.8))), 2) for _ in range(3)],
        ],
        title="Key financial metrics",
        ratios=(("Loans and advances to customers", "Customer deposits"),),
        metrics=(
            Metric("Net interest income", part=True),
            Metric("Other income", part=True),
            Metric("Total income", total=True),
            Metric("Operating costs"),
            Metric("Loans and advances to customers", words="customer loans"),
            Metric("Customer deposits"),
            Metric("Net interest margin", kind="percent"),
            Metric("Cost:income ratio", kind="percent", words="cost to income ratio"),
            Metric("CET1 ratio", kind="percent", words="CET1 ratio"),
        ),
        columns=("2024", "2023", "2022"),
        decimals=2,
        percent_decimals=2,
        scale=Scale(rng.choice(["£bn", "(£ in bn)", "in bn"]), "billion", "£", "bn"),
    )


def airline_traffic(rng: random.Random) -> Table:
    passengers = drift(rng, rng.uniform(18_000, 95_000), 2, 0)
    ask = drift(rng, rng.uniform(60_000, 260_000), 2, 0)
    rpk = [round(v * Decimal(repr(rng.uniform(0.78, 0.89))), 0) for v in ask if v is not None]
    return table(
        [
            passengers,
            ask,
            list(rpk),
            share(list(rpk), ask, 1),
            drift(rng, rng.uniform(120_000, 600_000), 2, 0),
        ],
        title="Traffic statistics",
        metrics=(
            Metric("Passengers carried (thousands)", kind="count", words="passengers carried"),
            Metric(
                "Available seat kilometres (millions)",
                kind="count",
                words="available seat kilometres",
                whole=True,
            ),
            Metric(
                "Revenue passenger kilometres (millions)",
                kind="count",
                words="revenue passenger kilometres",
                part=True,
            ),
            Metric("Load factor", kind="percent"),
            Metric("Departures", kind="count"),
        ),
        columns=("2024", "2023"),
        decimals=0,
        scale=Scale("", "", ""),
        axis="Operating statistics",
    )


def saas_dashboard(rng: random.Random) -> Table:
    months = ("2025-01", "2025-02", "2025-03", "2025-04", "2025-05", "2025-06")
    names = ("January 2025", "February 2025", "March 2025", "April 2025", "May 2025", "June 2025")
    mrr = list(reversed(drift(rng, rng.uniform(80_000, 900_000), 6, 2, low=-0.06)))
    customers = list(reversed(drift(rng, rng.uniform(300, 4_000), 6, 0, low=-0.05)))
    arpa = [None if c is None or m is None else round(m / c, 2) for m, c in zip(mrr, customers, strict=True)]
    churn = [round(Decimal(repr(rng.uniform(0.8, 4.2))), 2) for _ in months]
    return table(
        [mrr, customers, arpa, churn],
        title="Revenue dashboard",
        metrics=(
            Metric("MRR", key="mrr_usd", words="MRR"),
            Metric("Paying customers", kind="count", key="paying_customers"),
            Metric("ARPA", kind="per_share", key="arpa_usd", words="average revenue per account"),
            Metric("Logo churn", kind="percent", key="logo_churn_pct", words="logo churn rate"),
        ),
        columns=months,
        names=names,
        decimals=2,
        percent_decimals=2,
        scale=Scale("", "", "$"),
        axis="month",
        record_key="month",
        newest_first=False,
    )


def orders_by_region(rng: random.Random) -> Table:
    regions = ("EMEA", "North America", "APAC", "LATAM")
    orders = [Decimal(rng.randint(1_200, 48_000)) for _ in regions]
    aov = [round(Decimal(repr(rng.uniform(38, 140))), 2) for _ in regions]
    revenue = [round(o * a, 2) for o, a in zip(orders, aov, strict=True)]
    returns = [round(Decimal(repr(rng.uniform(1.5, 9.5))), 2) for _ in regions]
    return table(
        [list(orders), list(revenue), list(aov), list(returns)],
        title="orders_by_region (last 30 days)",
        metrics=(
            Metric("orders", kind="count", key="orders", words="orders"),
            Metric("revenue_eur", key="revenue_eur", words="revenue"),
            Metric(
                "avg_order_value_eur",
                kind="per_share",
                key="avg_order_value_eur",
                words="average order value",
            ),
            Metric("return_rate_pct", kind="percent", key="return_rate_pct", words="return rate"),
        ),
        columns=regions,
        phrase="for {}",
        decimals=2,
        percent_decimals=2,
        scale=Scale("", "", "€"),
        axis="region",
        record_key="region",
        temporal=False,
    )


def power_generation(rng: random.Random) -> Table:
    years = ("2024", "2023", "2022")
    sources = [drift(rng, rng.uniform(800, 9_000), 3, 1) for _ in range(4)]
    coal: Values = [None, *drift(rng, rng.uniform(1_500, 4_000), 2, 1, low=-0.3)]
    return table(
        [*sources, coal, add(*sources)],
        title="Net generation by source",
        metrics=(
            Metric("Wind", part=True, words="wind generation"),
            Metric("Solar", part=True, words="solar generation"),
            Metric("Hydro", part=True, words="hydro generation"),
            Metric("Natural gas", part=True, words="natural gas generation"),
            Metric("Coal", part=True, footnote="(1)", words="coal generation"),
            Metric("Total excluding coal", total=True, words="total generation excluding coal"),
        ),
        columns=years,
        decimals=1,
        scale=Scale("(GWh)", "", "", unit="GWh"),
        extras=rng.choice([(), ("share",)]),
        axis="Source",
    )


def pharma_products(rng: random.Random) -> Table:
    parts = [drift(rng, rng.uniform(200, 6_000), 2, 0) for _ in range(5)]
    return table(
        [*parts, add(*parts)],
        title="Net sales by product",
        metrics=(
            Metric("Kavestra", part=True, words="Kavestra sales", section="Oncology", indent=True),
            Metric(
                "Lumoxin", part=True, words="Lumoxin sales", section="Oncology", indent=True, footnote="(1)"
            ),
            Metric("Theravel", part=True, words="Theravel sales", section="Immunology", indent=True),
            Metric("Orsana", part=True, words="Orsana sales", section="Immunology", indent=True),
            Metric("Other products", part=True, words="sales of other products"),
            Metric("Group net sales", total=True),
        ),
        columns=("2024", "2023"),
        decimals=0,
        scale=Scale(rng.choice(["(CHF millions)", "CHF m", "(in CHF m)"]), "million", "CHF ", "m"),
        extras=("pct_change",),
        intro="Product sales. Net sales grew in both divisions; the table shows sales by product.",
    )


def headcount(rng: random.Random) -> Table:
    regions = [drift(rng, rng.uniform(900, 24_000), 3, 0, low=-0.08) for _ in range(4)]
    return table(
        [*regions, add(*regions)],
        title="Employees by region at year end",
        metrics=(
            Metric("North America", part=True, words="North America headcount"),
            Metric("Europe, Middle East and Africa", part=True, words="EMEA headcount"),
            Metric("Asia Pacific", part=True, words="Asia Pacific headcount"),
            Metric("Latin America", part=True, words="Latin America headcount"),
            Metric("Total employees", total=True),
        ),
        columns=("2024", "2023", "2022"),
        decimals=0,
        scale=Scale("", "", ""),
        extras=rng.choice([(), ("share",)]),
        axis="Region",
    )


def cash_flows(rng: random.Random) -> Table:
    operating = drift(rng, rng.uniform(80_000, 600_000), 2, 0)
    investing = [None if v is None else -v for v in drift(rng, rng.uniform(40_000, 300_000), 2, 0)]
    financing = [None if v is None else -v for v in drift(rng, rng.uniform(10_000, 200_000), 2, 0)]
    capex = [None if v is None else -v for v in drift(rng, rng.uniform(30_000, 250_000), 2, 0)]
    return table(
        [operating, investing, financing, capex, add(operating, capex)],
        title="Summary of cash flows",
        metrics=(
            Metric("Net cash provided by operating activities", part=True, words="operating cash flow"),
            Metric(
                "Net cash used in investing activities", part=True, words="cash used in investing activities"
            ),
            Metric(
                "Net cash used in financing activities", part=True, words="cash used in financing activities"
            ),
            Metric("Purchases of property, plant and equipment", words="capital expenditures"),
            Metric("Free cash flow", footnote="*"),
        ),
        columns=("FY2024", "FY2023"),
        record_key="fiscal_year",
        names=("fiscal 2024", "fiscal 2023"),
        decimals=0,
        scale=Scale(rng.choice(["(Millions of yen)", "(¥ in millions)"]), "million", "¥"),
    )


def hotel_kpis(rng: random.Random) -> Table:
    quarters = ("Q1 2025", "Q2 2025", "Q3 2025", "Q4 2025")
    occupancy = [round(Decimal(repr(rng.uniform(58, 88))), 1) for _ in quarters]
    adr = [round(Decimal(repr(rng.uniform(120, 340))), 2) for _ in quarters]
    revpar = [round(a * o / 100, 2) for a, o in zip(adr, occupancy, strict=True)]
    rooms = [round(r * Decimal(rng.randint(180_000, 420_000)) / 1000, 0) for r in revpar]
    return table(
        [list(rooms), list(occupancy), list(adr), list(revpar)],
        title="Portfolio operating metrics",
        metrics=(
            Metric("Rooms revenue"),
            Metric("Occupancy", kind="percent"),
            Metric("Average daily rate (ADR)", kind="per_share", words="average daily rate"),
            Metric("RevPAR", kind="per_share", words="RevPAR"),
        ),
        columns=quarters,
        decimals=0,
        scale=Scale("(in thousands, except ADR, RevPAR and percentages)", "thousand", "$"),
        record_key="quarter",
        newest_first=False,
    )


def insurance(rng: random.Random) -> Table:
    gwp = drift(rng, rng.uniform(2_000, 14_000), 2, 1)
    nep = [None if v is None else round(v * Decimal(repr(rng.uniform(0.82, 0.93))), 1) for v in gwp]
    claims = [None if v is None else round(v * Decimal(repr(rng.uniform(0.58, 0.74))), 1) for v in nep]
    expenses = [None if v is None else round(v * Decimal(repr(rng.uniform(0.24, 0.33))), 1) for v in nep]
    result = sub(sub(nep, claims), expenses)
    return table(
        [gwp, nep, claims, expenses, result, share(claims, nep, 1), share(add(claims, expenses), nep, 1)],
        title="Property & Casualty",
        metrics=(
            Metric("Gross written premiums"),
            Metric("Net earned premiums", whole=True),
            Metric("Claims incurred, net", part=True, words="net claims incurred"),
            Metric("Operating expenses", part=True),
            Metric("Underwriting result"),
            Metric("Loss ratio", kind="percent"),
            Metric("Combined ratio", kind="percent"),
        ),
        columns=("2024", "2023"),
        decimals=1,
        scale=Scale(rng.choice(["(€ in millions)", "€m"]), "million", "€", "m"),
    )


def per_share_data(rng: random.Random) -> Table:
    net = drift(rng, rng.uniform(40_000, 400_000), 3, 0)
    basic = drift(rng, rng.uniform(30_000, 150_000), 3, 0, low=-0.04)
    diluted = [None if v is None else v + Decimal(rng.randint(300, 2_500)) for v in basic]
    dividends = drift(rng, rng.uniform(0.4, 2.4), 3, 2, low=0.0)
    return table(
        [
            net,
            basic,
            diluted,
            [None if n is None or b is None else round(n / b, 2) for n, b in zip(net, basic, strict=True)],
            [None if n is None or d is None else round(n / d, 2) for n, d in zip(net, diluted, strict=True)],
            dividends,
        ],
        title="Earnings per share",
        metrics=(
            Metric("Net income"),
            Metric(
                "Weighted-average shares outstanding — basic",
                kind="count",
                words="basic weighted-average shares",
            ),
            Metric(
                "Weighted-average shares outstanding — diluted",
                kind="count",
                words="diluted weighted-average shares",
            ),
            Metric("Basic earnings per share", kind="per_share"),
            Metric("Diluted earnings per share", kind="per_share"),
            Metric("Cash dividends declared per share", kind="per_share", words="dividends per share"),
        ),
        columns=("2024", "2023", "2022"),
        decimals=0,
        scale=Scale("(in thousands, except per share data)", "thousand", "$"),
        group="Fiscal Year Ended",
    )


def budget_vs_actual(rng: random.Random) -> Table:
    """A spreadsheet export: spend by department against budget."""
    budget = [Decimal(rng.randrange(400, 9_000) * 250) for _ in range(4)]
    actual = [round(b * Decimal(repr(rng.uniform(0.86, 1.12))), 0) for b in budget]
    prior = [round(a * Decimal(repr(rng.uniform(0.8, 1.05))), 0) for a in actual]
    rows: list[Values] = [[a, b, p] for a, b, p in zip(actual, budget, prior, strict=True)]
    return table(
        [*rows, add(*rows)],
        title="Opex by department",
        metrics=(
            Metric("Engineering", part=True, words="Engineering spend"),
            Metric("Marketing", part=True, words="Marketing spend"),
            Metric("Sales", part=True, words="Sales spend"),
            Metric("G&A", part=True, words="G&A spend"),
            Metric("Total", total=True, words="total spend"),
        ),
        columns=("FY2025 Actual", "FY2025 Budget", "FY2024 Actual"),
        names=("FY2025 actuals", "the FY2025 budget", "FY2024 actuals"),
        decimals=0,
        scale=Scale("", "", rng.choice(["$", "£"])),
        axis="Department",
        temporal=False,
        across_columns=False,
    )


def five_year_summary(rng: random.Random) -> Table:
    """A five-year summary: many rows and years, so many candidate operands."""
    revenue = drift(rng, rng.uniform(900, 6_000), 5, 1, low=-0.08)
    operating = [None if v is None else round(v * Decimal(repr(rng.uniform(0.08, 0.22))), 1) for v in revenue]
    net = [None if v is None else round(v * Decimal(repr(rng.uniform(0.62, 0.8))), 1) for v in operating]
    assets = drift(rng, rng.uniform(2_000, 12_000), 5, 1, low=-0.05)
    debt = drift(rng, rng.uniform(300, 3_000), 5, 1, low=-0.2)
    shares = Decimal(repr(rng.uniform(90, 600)))
    eps = [None if v is None else round(v / shares, 2) for v in net]
    dividends = drift(rng, rng.uniform(0.2, 1.6), 5, 2, low=0.0)
    employees = drift(rng, rng.uniform(4_000, 40_000), 5, 0, low=-0.05)
    roe = [round(Decimal(repr(rng.uniform(6, 24))), 1) for _ in range(5)]
    return table(
        [revenue, operating, net, assets, debt, eps, dividends, employees, roe],
        title="Five-year summary",
        ratios=(("Total assets", "Long-term borrowings"),),
        metrics=(
            Metric("Net sales", whole=True),
            Metric("Operating profit"),
            Metric("Profit for the year", words="profit for the year"),
            Metric("Total assets"),
            Metric("Long-term borrowings", words="long-term borrowings", footnote="(2)"),
            Metric("Earnings per share — diluted", kind="per_share", words="diluted earnings per share"),
            Metric("Dividend per share", kind="per_share", words="dividend per share"),
            Metric("Employees at year end", kind="count", words="employees at year end"),
            Metric("Return on equity", kind="percent"),
        ),
        columns=("2024", "2023", "2022", "2021", "2020"),
        decimals=1,
        scale=Scale(rng.choice(["(£ million, unless otherwise stated)", "£m"]), "million", "£", "m"),
    )


def segment_geography(rng: random.Random) -> Table:
    """Revenue by segment and region: the same row labels under each section row."""
    values: list[Values] = []
    metrics: list[Metric] = []
    for segment in ("Cloud", "Devices"):
        regions = [drift(rng, rng.uniform(300, 3_000), 3, 1) for _ in range(2)]
        values += [*regions, add(*regions)]
        metrics += [
            Metric(
                region,
                section=f"{segment}:",
                indent=True,
                part=True,
                words=f"{segment} revenue from {region}",
                key=f"{segment.lower()}_{key}",
            )
            for region, key in (("United States", "us"), ("International", "international"))
        ]
        metrics.append(
            Metric(f"Total {segment}", words=f"total {segment} revenue", key=f"{segment.lower()}_total")
        )
    values.append(add(values[2], values[5]))
    metrics.append(Metric("Total revenue", total=True, key="total_revenue"))
    return table(
        values,
        title="Revenue by segment and geography",
        metrics=tuple(metrics),
        columns=("2024", "2023", "2022"),
        decimals=1,
        scale=Scale(rng.choice(["(In millions)", "($ in millions)"]), "million", "$"),
        group=rng.choice(["", "Year Ended June 30,"]),
    )


def logistics_weekly(rng: random.Random) -> Table:
    """A carrier's weekly operations export."""
    weeks = ("2025-W18", "2025-W19", "2025-W20", "2025-W21")
    names = ("week 18", "week 19", "week 20", "week 21")
    shipments = [Decimal(rng.randint(8_000, 60_000)) for _ in weeks]
    cost = [round(Decimal(repr(rng.uniform(6.5, 24.0))), 2) for _ in weeks]
    spend = [round(s * c / 1000, 1) for s, c in zip(shipments, cost, strict=True)]
    return table(
        [
            list(shipments),
            list(spend),
            list(cost),
            [round(Decimal(repr(rng.uniform(86, 99))), 1) for _ in weeks],
        ],
        title="Weekly operations",
        metrics=(
            Metric("Shipments", kind="count", key="shipments"),
            Metric("Freight spend ($000s)", key="freight_spend_usd_k", words="freight spend"),
            Metric(
                "Cost per shipment", kind="per_share", key="cost_per_shipment_usd", words="cost per shipment"
            ),
            Metric("On-time delivery", kind="percent", key="on_time_pct", words="on-time delivery rate"),
        ),
        columns=weeks,
        names=names,
        decimals=1,
        scale=Scale("", "thousand", "$"),
        axis="week",
        record_key="week",
        newest_first=False,
    )


def fixed_issue_example(rng: random.Random) -> Table:
    """The table of issue 17, typed by hand."""
    del rng
    return table(
        [[Decimal("4812.6"), Decimal("4377.9")], [Decimal("1502.7"), Decimal("1084.4")]],
        title="Operating results",
        metrics=(Metric("Revenue"), Metric("Operating income")),
        columns=("2024", "2023"),
        decimals=1,
        scale=Scale("(In millions)", "million", "$"),
    )


def fixed_chip_segments(rng: random.Random) -> Table:
    """A semiconductor segment table typed by hand: fiscal years named by their last day."""
    del rng
    d = Decimal
    return table(
        [
            [d("9417.3"), d("6138.9")],
            [d("7054.8"), d("7512.2")],
            [d("2611.5"), d("2947.0")],
            [d("3386.1"), d("4093.7")],
            [d("22469.7"), d("20691.8")],
            [d("3482.6"), d("1267.4")],
            [d("-317.4"), d("-86.1")],
        ],
        title="Segment information",
        metrics=(
            Metric("Data Center", part=True, footnote="(1)", words="Data Center revenue"),
            Metric("Client", part=True, words="Client revenue"),
            Metric("Gaming", part=True, words="Gaming revenue"),
            Metric("Embedded", part=True, words="Embedded revenue"),
            Metric("Total net revenue", total=True),
            Metric("Data Center operating income", words="Data Center operating income"),
            Metric("Gaming operating income (loss)", words="Gaming operating income"),
        ),
        columns=("Dec 28, 2024", "Dec 30, 2023"),
        names=("fiscal 2024", "fiscal 2023"),
        decimals=1,
        scale=Scale("(In millions)", "million", "$"),
        group="Year Ended",
    )


def fixed_mining(rng: random.Random) -> Table:
    """A mining production summary typed by hand, in a retrieved document."""
    del rng
    d = Decimal
    return table(
        [
            [d("1247.3"), d("1198.6"), d("1121.9")],
            [d("2684.1"), d("2815.7"), d("2903.2")],
            [d("48.6"), d("51.1"), None],
            [d("72.4"), d("69.8"), d("71.5")],
        ],
        title="Production summary",
        metrics=(
            Metric("Copper (kt)", kind="amount", words="copper production"),
            Metric("Gold (koz)", kind="amount", words="gold production"),
            Metric("Zinc (kt)", kind="amount", words="zinc production", footnote="(1)"),
            Metric("Mill recovery rate", kind="percent", words="mill recovery rate"),
        ),
        columns=("2024", "2023", "2022"),
        decimals=1,
        scale=Scale("", "", ""),
        intro="Operating review. Attributable production by commodity for the last three years.",
        axis="Attributable production",
    )


Builder = Callable[[random.Random], Table]
BUILDERS: tuple[Builder, ...] = (
    income_statement,
    balance_sheet,
    telecom_segments,
    retail_quarters,
    bank_key_figures,
    airline_traffic,
    saas_dashboard,
    orders_by_region,
    power_generation,
    pharma_products,
    headcount,
    cash_flows,
    hotel_kpis,
    insurance,
    per_share_data,
    budget_vs_actual,
    five_year_summary,
    segment_geography,
    logistics_weekly,
    fixed_issue_example,
    fixed_chip_segments,
    fixed_mining,
)
