"""``takes_span_keys`` (the gateway's lazy form) decides as ``takes_span`` does, for every gate key."""

from __future__ import annotations

import pytest

from otel_groundedness.conventions.registry import AGENT_SPAN_NAMES, GATE_KEYS
from otel_groundedness.core import takes_span, takes_span_keys

OTHER_KEYS = ["http.route", "url.path", "gen_ai.not.a.gate.key", "service.name"]
NAMES = ["chat gpt-4o", "GET /items", "invoke_agent billing", *sorted(AGENT_SPAN_NAMES)]
KEY_SETS = [
    [],
    OTHER_KEYS,
    *([key] for key in sorted(GATE_KEYS)),
    *([*OTHER_KEYS, key] for key in sorted(GATE_KEYS)),  # the gate key last: read to the end
    *([key, *OTHER_KEYS] for key in sorted(GATE_KEYS)),
]


@pytest.mark.parametrize("name", NAMES)
def test_the_lazy_form_decides_as_takes_span(name: str) -> None:
    for keys in KEY_SETS:
        expected = takes_span(dict.fromkeys(keys), name)
        assert takes_span_keys(iter(keys), name) is expected, (keys, name)
        assert takes_span_keys(keys, name) is expected, (keys, name)


def test_a_gate_key_is_enough() -> None:
    keys = iter([next(iter(GATE_KEYS)), "never read"])
    assert takes_span_keys(keys, "chat")
    assert list(keys) == ["never read"]
