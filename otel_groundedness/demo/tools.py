"""The demo agent's tools: their OpenAI function schemas and a local backend that answers them.

The backend is a keyed store of realistic JSON records (invoices, payments, orders, tickets,
service metrics, contracts) filled by the scenario plan; a call looks its record up by the
call's arguments, as a thin API client would.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openai.types.chat import ChatCompletionFunctionToolParam


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: what the model is told about it, and which arguments identify a record."""

    name: str
    description: str
    parameters: Mapping[str, str]  # argument name -> description (all strings, all required)

    def openai_schema(self) -> ChatCompletionFunctionToolParam:
        """The ``tools=[...]`` entry for the Chat Completions API."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": {
                    "type": "object",
                    "properties": {
                        key: {"type": "string", "description": text} for key, text in self.parameters.items()
                    },
                    "required": list(self.parameters),
                    "additionalProperties": False,
                },
            },
        }


TOOL_SPECS: Mapping[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec(
            "get_invoice", "Fetch an invoice with its line items and totals.", {"invoice_id": "Invoice id"}
        ),
        ToolSpec("get_payments", "List payments received against an invoice.", {"invoice_id": "Invoice id"}),
        ToolSpec(
            "get_order",
            "Fetch an order with its items, shipping and delivery status.",
            {"order_id": "Order id"},
        ),
        ToolSpec(
            "get_ticket", "Fetch a support ticket with its status, SLA and links.", {"ticket_id": "Ticket id"}
        ),
        ToolSpec(
            "get_service_metrics",
            "Weekly service metrics: traffic, errors, latency, availability and cost.",
            {"service": "Service name", "week_ending": "Last day of the week, YYYY-MM-DD"},
        ),
        ToolSpec(
            "get_contract",
            "Fetch a customer contract with its renewal terms.",
            {"contract_id": "Contract id"},
        ),
    )
}


def record_key(arguments: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The lookup key of a call: its arguments, order-independent, values as strings."""
    return tuple(sorted((str(k), str(v).strip()) for k, v in arguments.items()))


class ToolBackend:
    """Answers tool calls from an in-memory store of JSON records."""

    def __init__(self) -> None:
        self._records: dict[tuple[str, tuple[tuple[str, str], ...]], Any] = {}

    def add(self, tool: str, arguments: Mapping[str, Any], record: Any) -> None:
        """Make ``tool(**arguments)`` return ``record``."""
        if tool not in TOOL_SPECS:
            raise ValueError(f"unknown tool {tool!r}")
        self._records[(tool, record_key(arguments))] = record

    def call(self, tool: str, arguments_json: str) -> str:
        """Run a tool call as the model sent it; the result is a JSON document (errors too)."""
        try:
            arguments = json.loads(arguments_json or "{}")
        except json.JSONDecodeError:
            return json.dumps({"error": "invalid_arguments", "detail": "arguments are not valid JSON"})
        if tool not in TOOL_SPECS:
            return json.dumps({"error": "unknown_tool", "tool": tool})
        if not isinstance(arguments, dict):
            return json.dumps({"error": "invalid_arguments", "detail": "arguments must be an object"})
        record = self._records.get((tool, record_key(arguments)))
        if record is None:
            return json.dumps({"error": "not_found", "tool": tool, "arguments": arguments})
        return json.dumps(record)
