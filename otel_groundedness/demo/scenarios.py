"""Scripted conversations for the demo: five families of tool-calling turns with realistic data.

Each family drafts a ``Scenario`` from a seeded RNG: the user prompt, the tool calls the model
makes, the JSON records the tools return, and an answer template whose facts come from those
records. ``plan_turns`` turns drafts into ``PlannedTurn``s, a chosen share of them with a fault.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from otel_groundedness.demo.facts import Fact
from otel_groundedness.demo.faults import (
    FAULT_KINDS,
    LEGIT_VARIANTS,
    FaultKind,
    applies_to,
    invent_identifier,
    rewrite,
)
from otel_groundedness.demo.tools import ToolBackend

MODELS = ("gpt-4o-mini", "gpt-4.1-mini")
_CENT = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class ToolRequest:
    """A tool call the scripted model makes, and the record the tool returns for it."""

    name: str
    arguments: Mapping[str, str]
    result: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Scenario:
    """One drafted conversation, before any fault is injected."""

    family: str
    agent_name: str
    model: str
    system_prompt: str
    prompt: str
    tools: tuple[ToolRequest, ...]
    template: str  # the answer, with ``{fact}`` placeholders
    facts: Mapping[str, Fact]
    invented_sentence: str  # appended by the invented-id fault; has an ``{invented}`` placeholder
    invented_prefix: str
    known_ids: tuple[str, ...]  # every id in the evidence (an invented id must be far from all)

    def answer(self, facts: Mapping[str, Fact] | None = None) -> str:
        """The answer text with ``facts`` (default: the true facts) filled in."""
        chosen = facts if facts is not None else self.facts
        return self.template.format(**{name: fact.text for name, fact in chosen.items()})


@dataclass(frozen=True, slots=True)
class PlannedTurn:
    """A turn of the demo: the scenario, the injected fault (if any) and the scripted answer."""

    index: int
    scenario: Scenario
    fault: FaultKind | None
    faulted_fact: str | None  # name of the rewritten fact; None for clean turns and invented ids
    answer: str
    stream: bool
    rewritten: Fact | None = None  # the fact as the faulty answer states it


def plan_turns(turns: int, *, fault_rate: float, stream_share: float, seed: int) -> list[PlannedTurn]:
    """Draft ``turns`` turns; ``round(turns * fault_rate)`` of them carry one fault each.

    Fault kinds are dealt in rotation so every kind appears once the run is long enough.
    """
    rng = random.Random(seed)
    faulty = set(rng.sample(range(turns), round(turns * fault_rate)))
    rotation = list(FAULT_KINDS)
    rng.shuffle(rotation)
    planned: list[PlannedTurn] = []
    dealt = 0
    for index in range(turns):
        fault: FaultKind | None = None
        if index in faulty:
            fault = rotation[dealt % len(rotation)]
            dealt += 1
        planned.append(_plan_one(index, fault, rng, stream=rng.random() < stream_share))
    return planned


def backend_for(planned: list[PlannedTurn]) -> ToolBackend:
    """A tool backend holding every record the planned turns ask for."""
    backend = ToolBackend()
    for turn in planned:
        for request in turn.scenario.tools:
            backend.add(request.name, request.arguments, request.result)
    return backend


def _plan_one(index: int, fault: FaultKind | None, rng: random.Random, *, stream: bool) -> PlannedTurn:
    # Families rotate with the index; a fault that cannot apply to this draft moves to the next family.
    for offset in range(len(_FAMILIES)):
        scenario = _FAMILIES[(index + offset) % len(_FAMILIES)](rng, index)
        if fault is None:
            return PlannedTurn(index, scenario, None, None, scenario.answer(), stream)
        if fault == "invented_ticket_id":
            invented = invent_identifier(scenario.invented_prefix, 4, scenario.known_ids, rng)
            answer = scenario.answer() + " " + scenario.invented_sentence.format(invented=invented)
            return PlannedTurn(index, scenario, fault, None, answer, stream)
        targets = [name for name, fact in scenario.facts.items() if applies_to(fault, fact)]
        rng.shuffle(targets)
        for name in targets:
            rewritten = _rewrite_away_from_evidence(scenario, scenario.facts[name], fault, rng)
            if rewritten is not None:
                facts = {**scenario.facts, name: rewritten}
                return PlannedTurn(index, scenario, fault, name, scenario.answer(facts), stream, rewritten)
    raise ValueError(f"no scenario family supports fault {fault!r}")


def _rewrite_away_from_evidence(
    scenario: Scenario, fact: Fact, fault: FaultKind, rng: random.Random, attempts: int = 20
) -> Fact | None:
    """Rewrite ``fact``; a harmful fault must not land on another value the evidence states.

    A day shifted onto the ticket's opening date, or an edited id equal to the linked ticket, is
    a different true fact, not a corruption: such draws are retried.
    """
    if fault in LEGIT_VARIANTS:
        return rewrite(fact, fault, rng)
    stated = _stated_values(scenario)
    for _ in range(attempts):
        rewritten = rewrite(fact, fault, rng)
        if not any(_same_value(rewritten, value) for value in stated):
            return rewritten
    return None


def _stated_values(scenario: Scenario) -> list[object]:
    """Every date, number and string the tool results and the prompt state."""
    values: list[object] = list(scenario.prompt.split())
    pending: list[object] = [request.result for request in scenario.tools]
    while pending:
        item = pending.pop()
        if isinstance(item, Mapping):
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
        else:
            values.append(item)
    return values


def _same_value(fact: Fact, stated: object) -> bool:
    if isinstance(fact.value, dt.date):
        return isinstance(stated, str) and stated[:10] == fact.value.isoformat()
    if isinstance(fact.value, Decimal):
        if isinstance(stated, bool) or not isinstance(stated, int | float):
            return False
        candidates = (fact.value, fact.value / 100) if fact.kind == "percent" else (fact.value,)
        return any(abs(Decimal(str(stated)) - value) < _CENT for value in candidates)
    return isinstance(stated, str) and stated.strip(" ?.,") == fact.value


# --- data helpers -----------------------------------------------------------------------------


def _money(value: float | Decimal) -> Decimal:
    return Decimal(str(value)).quantize(_CENT, rounding=ROUND_HALF_UP)


def _day(rng: random.Random, start: dt.date = dt.date(2025, 1, 6), span_days: int = 300) -> dt.date:
    return start + dt.timedelta(days=rng.randrange(span_days))


def _one_year_after(day: dt.date) -> dt.date:
    # A contract starting on 29 February renews on 1 March.
    try:
        return day.replace(year=day.year + 1)
    except ValueError:
        return dt.date(day.year + 1, 3, 1)


def _id(prefix: str, index: int, rng: random.Random, *, base: int = 1000, stride: int = 41) -> str:
    # Unique per turn index (prompts must be unique for the scripted server), varied by the RNG.
    return f"{prefix}-{base + index * stride + rng.randrange(stride)}"


def _iso_z(day: dt.date, rng: random.Random) -> str:
    return f"{day.isoformat()}T{rng.randrange(7, 19):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}Z"


_INVOICE_PRODUCTS = [
    ("PLT-ENT", "Platform licence, enterprise tier"),
    ("SUP-PRM", "Premium support"),
    ("SEAT-ADD", "Additional seats"),
    ("PS-DAYS", "Professional services (days)"),
    ("STO-TB", "Storage, per TB-month"),
]
_CUSTOMERS = (
    "Northwind Traders", "Contoso Pharmaceuticals", "Fabrikam Logistics", "Tailspin Toys",
    "Wide World Importers", "Adventure Works", "Litware Labs", "Proseware Health",
)  # fmt: skip


# --- families ---------------------------------------------------------------------------------


def _invoice(rng: random.Random, index: int) -> Scenario:
    invoice_id = _id("INV", index, rng, base=2000)
    customer = rng.choice(_CUSTOMERS)
    issued = _day(rng)
    due = issued + dt.timedelta(days=rng.choice((15, 30, 45, 60)))
    lines: list[dict[str, Any]] = []
    subtotal = Decimal(0)
    for line, (sku, description) in enumerate(rng.sample(_INVOICE_PRODUCTS, 3), start=1):
        quantity = rng.randrange(2, 40)
        unit_price = _money(rng.randrange(15_000, 2_500_000) / 100)
        subtotal += unit_price * quantity
        lines.append(
            {"line": line, "sku": sku, "description": description, "quantity": quantity,
             "unit_price": float(unit_price), "amount": float(unit_price * quantity)}
        )  # fmt: skip
    tax_rate = Decimal(rng.choice(("0.0725", "0.0825", "0.06", "0.19")))
    tax = _money(subtotal * tax_rate)
    total = subtotal + tax
    paid = _money(total * Decimal(rng.choice(("0.25", "0.4", "0.5")))) if rng.random() < 0.7 else Decimal(0)
    payment_ids = [_id("PAY", index, rng, base=70000)] if paid else []
    payments = [
        {"payment_id": payment_id, "amount": float(paid),
         "received": (issued + dt.timedelta(days=rng.randrange(1, 14))).isoformat(), "method": "wire"}
        for payment_id in payment_ids
    ]  # fmt: skip
    balance = total - paid
    customer_id = _id("CUST", index, rng, base=400, stride=7)
    invoice = {
        "invoice_id": invoice_id,
        "customer": {"id": customer_id, "name": customer},
        "currency": "USD",
        "issued_date": issued.isoformat(),
        "due_date": due.isoformat(),
        "status": "open" if balance else "paid",
        "line_items": lines,
        "subtotal": float(subtotal),
        "tax_rate": float(tax_rate),
        "tax": float(tax),
        "total": float(total),
        "total_formatted": f"${total:,.2f}",
    }
    payments_record = {"invoice_id": invoice_id, "payments": payments, "balance_due": float(balance)}
    return Scenario(
        family="invoices",
        agent_name="billing-agent",
        model=MODELS[0],
        system_prompt="You are a billing assistant. Use the tools to look up invoices and payments.",
        prompt=f"What is the total of invoice {invoice_id}, when is it due, and how much is still owed?",
        tools=(
            ToolRequest("get_invoice", {"invoice_id": invoice_id}, invoice),
            ToolRequest("get_payments", {"invoice_id": invoice_id}, payments_record),
        ),
        template=(
            "Invoice {invoice_id} for " + customer + " totals {total}, including {tax} in tax, and is due on "
            "{due_date}. The outstanding balance is {balance}."
        ),
        facts={
            "invoice_id": Fact("identifier", invoice_id, "identifier"),
            "total": Fact("money", total, "money_cents"),
            "tax": Fact("money", tax, "money_cents"),
            "due_date": Fact("date", due, "date_long"),
            "balance": Fact("money", balance, "money_cents"),
        },
        invented_sentence="A billing dispute about it is open as {invented}.",
        invented_prefix="DSP",
        known_ids=(invoice_id, customer_id, *payment_ids),
    )


def _order(rng: random.Random, index: int) -> Scenario:
    order_id = _id("ORD", index, rng, base=58000)
    placed = _day(rng)
    shipped = placed + dt.timedelta(days=rng.randrange(1, 4))
    delivery = shipped + dt.timedelta(days=rng.randrange(2, 7))
    catalogue = [
        ("SKU-10442", "Ergonomic office chair", 349.00),
        ("SKU-20917", "Standing desk frame", 529.99),
        ("SKU-31780", "27-inch monitor", 289.95),
        ("SKU-44106", "USB-C docking station", 189.50),
        ("SKU-55023", "Noise-cancelling headset", 149.99),
    ]
    items: list[dict[str, Any]] = []
    subtotal = Decimal(0)
    for sku, name, price in rng.sample(catalogue, 3):
        quantity = rng.randrange(1, 12)
        subtotal += _money(price) * quantity
        line_total = _money(price) * quantity
        items.append(
            {"sku": sku, "name": name, "qty": quantity, "unit_price": price, "line_total": float(line_total)}
        )
    shipping = _money(rng.choice((0, 24.99, 49.0, 79.5)))
    total = subtotal + shipping
    order = {
        "order_id": order_id,
        "status": "shipped",
        "placed_at": _iso_z(placed, rng),
        "shipped_date": shipped.isoformat(),
        "estimated_delivery": delivery.isoformat(),
        "carrier": rng.choice(("UPS", "DHL", "FedEx")),
        "items": items,  # no subtotal: the agent adds up the line totals itself
        "shipping": float(shipping),
        "order_total": float(total),
        "currency": "USD",
    }
    return Scenario(
        family="orders",
        agent_name="orders-agent",
        model=MODELS[1],
        system_prompt="You are an order-status assistant. Use the tools to look up orders.",
        prompt=f"Where is order {order_id} and what did it cost?",
        tools=(ToolRequest("get_order", {"order_id": order_id}, order),),
        template=(
            "Order {order_id} shipped on {shipped} with " + str(order["carrier"]) + " and should arrive by "
            "{delivery}. Its three items add up to {items_total} before shipping, and the order total was "
            "{total}."
        ),
        facts={
            "order_id": Fact("identifier", order_id, "identifier"),
            "shipped": Fact("date", shipped, "date_long"),
            "delivery": Fact("date", delivery, "date_long"),
            "items_total": Fact("money", subtotal, "money_cents"),  # derived: a sum of the line totals
            "total": Fact("money", total, "money_cents"),
        },
        invented_sentence="A return request for it is already open as {invented}.",
        invented_prefix="RMA",
        known_ids=(order_id,),
    )


def _ticket(rng: random.Random, index: int) -> Scenario:
    ticket_id = _id("SUP", index, rng, base=4000, stride=53)
    linked = _id("SUP", index, rng, base=1000, stride=53)
    opened = _day(rng)
    sla_due = opened + dt.timedelta(days=rng.choice((1, 2, 3)))
    users = rng.randrange(1200, 98_000)
    ticket = {
        "ticket_id": ticket_id,
        "subject": rng.choice(
            ("Checkout fails with 502", "SSO login loop", "Export job stuck", "Webhook retries")
        ),
        "status": "escalated",
        "priority": "P1",
        "opened_at": _iso_z(opened, rng),
        "sla_due_date": sla_due.isoformat(),
        "linked_tickets": [linked],
        "affected_users": users,
        "assignee": rng.choice(("j.alvarez", "m.chen", "a.okafor", "s.novak")),
    }
    return Scenario(
        family="tickets",
        agent_name="support-agent",
        model=MODELS[0],
        system_prompt="You are a support triage assistant. Use the tools to look up tickets.",
        prompt=f"What is the status of ticket {ticket_id}?",
        tools=(ToolRequest("get_ticket", {"ticket_id": ticket_id}, ticket),),
        template=(
            "Ticket {ticket_id} is escalated at priority P1: it was opened on {opened} and its SLA is due on "
            "{sla_due}. It is linked to {linked} and affects {users} users."
        ),
        facts={
            "ticket_id": Fact("identifier", ticket_id, "identifier"),
            "opened": Fact("date", opened, "date_long"),
            "sla_due": Fact("date", sla_due, "date_long"),
            "linked": Fact("identifier", linked, "identifier"),
            "users": Fact("number", Decimal(users), "number_grouped"),
        },
        invented_sentence="Engineering tracks the fix in {invented}.",
        invented_prefix="ENG",
        known_ids=(ticket_id, linked),
    )


def _metrics(rng: random.Random, index: int) -> Scenario:
    service = rng.choice(("checkout-api", "search-api", "payments-gateway", "auth-service", "catalog-api"))
    # One week per turn index keeps prompts unique.
    week_ending = dt.date(2025, 1, 5) + dt.timedelta(weeks=index)
    requests = rng.randrange(2_000_000, 90_000_000)
    error_rate = Decimal(rng.randrange(11, 480)) / 10_000  # 0.11% .. 4.8%
    availability = Decimal(rng.randrange(9900, 10000)) / 100
    cost = _money(rng.randrange(1_200_000, 9_800_000) / 100)
    record = {
        "service": service,
        "week_ending": week_ending.isoformat(),
        "requests": requests,
        "errors": int(requests * error_rate),
        "error_rate": float(error_rate),
        "latency_ms": {
            "p50": rng.randrange(20, 90),
            "p95": rng.randrange(150, 600),
            "p99": rng.randrange(700, 2500),
        },
        "availability_pct": float(availability),
        "cost_usd": float(cost),
    }
    return Scenario(
        family="metrics",
        agent_name="metrics-agent",
        model=MODELS[1],
        system_prompt="You are an SRE assistant. Use the tools to read service metrics.",
        prompt=f"How did {service} do in the week ending {week_ending.isoformat()}?",
        tools=(
            ToolRequest(
                "get_service_metrics", {"service": service, "week_ending": week_ending.isoformat()}, record
            ),
        ),
        template=(
            service + " served {requests} requests in the week ending {week_ending} with an error rate of "
            "{error_rate} and {availability} availability; its infrastructure cost was {cost}."
        ),
        facts={
            "requests": Fact("number", Decimal(requests), "number_grouped"),
            "week_ending": Fact("date", week_ending, "date_long"),
            "error_rate": Fact("percent", error_rate * 100, "percent"),
            "availability": Fact("percent", availability, "percent"),
            "cost": Fact("money", cost, "money_cents"),
        },
        invented_sentence="The spike is tracked as incident {invented}.",
        invented_prefix="INC",
        known_ids=(),
    )


def _contract(rng: random.Random, index: int) -> Scenario:
    contract_id = _id("CTR", index, rng, base=7000)
    start = _day(rng, dt.date(2024, 1, 1), 360)
    end = _one_year_after(start) - dt.timedelta(days=1)
    renewal = end + dt.timedelta(days=1)
    notice_days = rng.choice((30, 60, 90))
    deadline = renewal - dt.timedelta(days=notice_days)
    annual_value = _money(rng.randrange(1_800_000, 48_000_000) / 100)
    contract = {
        "contract_id": contract_id,
        "customer": rng.choice(_CUSTOMERS),
        "start_date": start.isoformat(),
        "end_date": end.isoformat(),
        "renewal_date": renewal.isoformat(),
        "auto_renew": True,
        "notice_period_days": notice_days,
        "notice_deadline": deadline.isoformat(),
        "annual_value": float(annual_value),
        "currency": "USD",
    }
    return Scenario(
        family="contracts",
        agent_name="renewals-agent",
        model=MODELS[0],
        system_prompt="You are a contracts assistant. Use the tools to read contract terms.",
        prompt=f"When does contract {contract_id} renew, and by when must we give notice?",
        tools=(ToolRequest("get_contract", {"contract_id": contract_id}, contract),),
        template=(
            "Contract {contract_id} renews automatically on {renewal}; notice to cancel is due by "
            "{deadline}. Its annual value is {annual_value}."
        ),
        facts={
            "contract_id": Fact("identifier", contract_id, "identifier"),
            "renewal": Fact("date", renewal, "date_long"),
            "deadline": Fact("date", deadline, "date_long"),
            "annual_value": Fact("money", annual_value, "money_cents"),
        },
        invented_sentence="The renewal quote is filed as {invented}.",
        invented_prefix="QTE",
        known_ids=(contract_id,),
    )


_FAMILIES: tuple[Callable[[random.Random, int], Scenario], ...] = (
    _invoice,
    _order,
    _ticket,
    _metrics,
    _contract,
)
FAMILIES: tuple[str, ...] = ("invoices", "orders", "tickets", "metrics", "contracts")
