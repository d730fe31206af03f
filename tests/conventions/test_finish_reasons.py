"""``finish_reasons`` in every form producers write it: absent, the SDK's tuple, a list, JSON, one string."""

from __future__ import annotations

from otel_groundedness.conventions._common import finish_reasons


class _Reason(str):
    pass


def test_every_form_reads_as_a_tuple_of_strings() -> None:
    assert finish_reasons(None) == ()
    assert finish_reasons(("stop", "tool_calls")) == ("stop", "tool_calls")
    assert finish_reasons(("stop", 3, None)) == ("stop",)
    assert finish_reasons(["length"]) == ("length",)
    assert finish_reasons('["tool_calls"]') == ("tool_calls",)
    assert finish_reasons("stop") == ("stop",)
    assert finish_reasons('["cut') == ()
    assert finish_reasons((_Reason("stop"),)) == ("stop",)
    assert finish_reasons(7) == ()
