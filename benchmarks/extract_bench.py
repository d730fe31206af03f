"""Micro-benchmark of the native engine's ``extract_atoms``: p50/p99 per call, µs per KB and MB/s on prose, on
number-dense JSON text and on adversarial strings, plus the linearity ratio (time per KB at 1 MB
divided by time per KB at 10 KB). Run: ``python -m benchmarks --only extract [--quick]``."""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from otel_groundedness import _native
from otel_groundedness.scoring.atoms import ATOM_KINDS

_SENTENCES = (
    "The invoice INV-{n} for order ORD-2024-{n:04d} totals ${a:,}.{c:02d}, due on March {d}, 2025.",
    "Revenue grew {p}.{q}% year over year to about ${m}.{q} million, while churn fell {q} pp.",
    "Ticket #{n} was escalated to support@example.com after {n} users reported latency of {d}00ms.",
    "Our quarterly summary covers the main accounts, the open questions and the next steps we agreed.",
    "Shipping to the warehouse took longer than planned because the carrier changed its schedule.",
    "Roughly {a:,} requests hit https://api.example.com/v2/orders between 2020-2024 in total.",
    "The team met on 2025-03-{d:02d} and agreed to review the budget of EUR {a:,} next week.",
    "Nothing in this paragraph carries a figure; it only explains what the report is for and why.",
)


def prose(size: int, seed: int = 7) -> str:
    """Answer-like English prose with a realistic density of figures, dates and ids."""
    rng = random.Random(seed)
    parts: list[str] = []
    length = 0
    while length < size:
        template = rng.choice(_SENTENCES)
        sentence = template.format(
            n=rng.randint(1000, 9999),
            a=rng.randint(1000, 9_999_999),
            c=rng.randint(0, 99),
            d=rng.randint(1, 28),
            p=rng.randint(1, 40),
            q=rng.randint(1, 9),
            m=rng.randint(1, 99),
        )
        parts.append(sentence)
        length += len(sentence) + 1
    return " ".join(parts)[:size]


def number_dense_json(size: int, seed: int = 11) -> str:
    """A tool output: JSON records full of amounts, counts, ids and dates."""
    rng = random.Random(seed)
    rows: list[dict[str, object]] = []
    text = "[]"
    while len(text) < size:
        rows.append(
            {
                "id": f"ORD-{rng.randint(1000, 99999)}",
                "amount": f"{rng.randint(100, 9_999_999) / 100:.2f}",
                "qty": rng.randint(1, 500),
                "price": rng.randint(1000, 999_999) / 100,
                "created": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T10:15:00Z",
                "margin": f"{rng.randint(1, 999) / 10}%",
            }
        )
        text = json.dumps(rows)
    return text[:size]


def adversarial(size: int, seed: int = 3) -> str:
    """Digits, separators and the characters patterns key on, in random runs."""
    rng = random.Random(seed)
    alphabet = "0123456789" * 3 + ",.,.$%@-/#: -"
    return "".join(rng.choice(alphabet) for _ in range(size))


def _timings(call: Callable[[], object], iterations: int) -> list[float]:
    samples = []
    for _ in range(iterations):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return samples


_KINDS: list[str] = list(ATOM_KINDS)


def extract(text: str) -> list[tuple[str, str, int, int, tuple[Any, ...]]]:
    """The native engine's atoms of ``text`` under the default policy (en-US, 4 digits, all kinds)."""
    return _native.extract_atoms(text, "en-US", 4, _KINDS, None)


def measure(name: str, text: str, iterations: int) -> float:
    """Print p50/p99, µs/KB and MB/s for one input; return the p50 in seconds."""
    samples = sorted(_timings(lambda: extract(text), iterations))
    p50 = statistics.median(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    kilobytes = len(text.encode()) / 1024
    atoms = len(extract(text))
    print(
        f"{name:<28} {kilobytes:>8.1f} KB  atoms {atoms:>6}  p50 {p50 * 1e3:>8.3f} ms  "
        f"p99 {p99 * 1e3:>8.3f} ms  {p50 * 1e6 / kilobytes:>7.1f} µs/KB  "
        f"{kilobytes / 1024 / p50:>6.1f} MB/s"
    )
    return p50 / kilobytes


def main() -> None:
    scale = 10 if os.environ.get("BENCH_QUICK") == "1" else 1  # ``python -m benchmarks --quick``
    print("extract_atoms (locale en-US, defaults)" + (" [quick]" if scale > 1 else ""))
    measure("prose 4 KB", prose(4096), 1000 // scale)
    measure("number-dense JSON 4 KB", number_dense_json(4096), 1000 // scale)
    for label, make in (
        ("prose", prose),
        ("number-dense JSON", number_dense_json),
        ("adversarial", adversarial),
    ):
        small = measure(f"{label} 10 KB", make(10 * 1024), 200 // scale)
        large = measure(f"{label} 1 MB", make(1024 * 1024), max(1, 5 // scale))
        print(f"{'':<28} linearity (µs/KB at 1 MB ÷ at 10 KB): {large / small:.2f}")
    for label, text in (
        ("1 MB of digits", "7" * (1 << 20)),
        ("1 MB of '1,'", "1," * (1 << 19)),
        ("1 MB of '$1.'", "$1." * ((1 << 20) // 3)),
        ("1 MB of 'a1-'", "a1-" * ((1 << 20) // 3)),
    ):
        measure(label, text, 1)


if __name__ == "__main__":
    main()
