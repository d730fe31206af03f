"""The scripted model the Node agent talks to: the project's FakeModelServer, answering the invoice
prompts of ``prompts.jsonl`` from the records the agent's ``get_invoice`` tool returns (``invoices.json``).

For every prompt the model first calls ``get_invoice``, then answers. One answer carries a realistic
fault: INV-2211's total comes back with two digits transposed ($84,612.75 for $86,412.75).

    .venv/bin/python agents/vercel-ai/fake_model.py     # prints OPENAI_BASE_URL=..., serves until Ctrl-C

The end-to-end test (tests/node_agent/) builds its model from ``script()`` too.
"""

from __future__ import annotations

import contextlib
import json
import signal
import threading
from pathlib import Path

from otel_groundedness.demo.fake_model_server import FakeModelServer, ScriptedToolCall, ScriptedTurn

HERE = Path(__file__).resolve().parent
INVOICES: dict[str, dict[str, object]] = json.loads((HERE / "invoices.json").read_text())
PROMPT = "What is the total and due date of invoice {}?"
ANSWERS = {
    "INV-2210": "Invoice INV-2210 totals $1,243,500.00 and is due on March 3, 2025.",
    # The fault: the record says 86412.75.
    "INV-2211": "Invoice INV-2211 totals $84,612.75 and is due on April 15, 2025.",
    "INV-2212": "Invoice INV-2212 for $318,900.40 was due on May 30, 2025 and is paid.",
}
FAULTY = frozenset({"INV-2211"})


def prompt_for(invoice_id: str) -> str:
    return PROMPT.format(invoice_id)


def script() -> dict[str, ScriptedTurn]:
    """Prompt → the model's turn: a ``get_invoice`` call, then the scripted answer."""
    turns = {}
    for invoice_id, answer in ANSWERS.items():
        lookup = ScriptedToolCall("get_invoice", {"invoice_id": invoice_id})
        turns[prompt_for(invoice_id)] = ScriptedTurn((lookup,), answer)
    return turns


def main() -> None:
    with FakeModelServer(script()) as server:
        print(f"OPENAI_BASE_URL={server.base_url}", flush=True)
        for invoice_id in ANSWERS:
            note = "  (the answer has a transposed total)" if invoice_id in FAULTY else ""
            print(f"  {prompt_for(invoice_id)}{note}", flush=True)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C ends it as quietly as SIGTERM
            stop.wait()


if __name__ == "__main__":
    main()
