"""The evaluation written onto a received span: the scored span names its turn's agent, and an
instrumentation's own value is never replaced. Export requests joined from encoded spans and records."""

from __future__ import annotations

import pytest
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import InstrumentationScope
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from otel_groundedness.core import Evaluation, evaluate
from otel_groundedness.evaluator import describe
from otel_groundedness.gateway.otlp_out import logs_request, scored_output, trace_request
from otel_groundedness.gateway.trace_buffer import Origin
from otel_groundedness.otlp.values import ValueReader, add_key_values, set_any_value
from otel_groundedness.records import Turn, TurnContext
from otel_groundedness.scoring import Evidence, GroundednessPolicy
from otel_groundedness.telemetry import names

POLICY = GroundednessPolicy()
EVIDENCE = (Evidence('{"invoice_id": "INV-2210", "total": 1243500}', "call_1"),)
ANSWER = "Invoice INV-2210 totals $1,234,500."


def scored(own: dict[str, object], agent: str | None) -> dict[str, object]:
    span = Span(trace_id=b"\x01" * 16, span_id=b"\x02" * 8, name="chat gpt-4o")
    add_key_values(span.attributes, {"gen_ai.request.model": "gpt-4o", **own})
    context = TurnContext(operation="chat", request_model="gpt-4o", agent_name=agent)
    turn = Turn(1, 2, ANSWER, EVIDENCE, None, context)
    present = ValueReader().attributes(span.attributes)
    evaluation = evaluate(turn, POLICY, describe(POLICY))
    written, _ = scored_output(span, span.SerializeToString(), present, evaluation, 1)
    span = Span.FromString(written)
    keys = [item.key for item in span.attributes]
    assert len(keys) == len(set(keys))  # every key once
    return ValueReader().attributes(span.attributes)


def test_the_scored_span_gets_its_turns_agent_name() -> None:
    attributes = scored({}, "billing")
    assert attributes[names.ATTR_LABEL] == "ungrounded"
    assert attributes[names.ATTR_AGENT_NAME] == "billing"


def test_an_instrumentations_own_agent_name_is_kept() -> None:
    attributes = scored({names.ATTR_AGENT_NAME: "billing (own)"}, "billing")
    assert attributes[names.ATTR_AGENT_NAME] == "billing (own)"


def test_a_turn_without_an_agent_adds_no_agent_name() -> None:
    assert names.ATTR_AGENT_NAME not in scored({}, None)


def origin(service: str, scope: str, schema_url: str = "") -> Origin:
    resource = Resource()
    add_key_values(resource.attributes, {"service.name": service})
    return Origin(
        resource.SerializeToString(),
        schema_url,
        InstrumentationScope(name=scope).SerializeToString(),
        schema_url,
    )


def test_a_trace_request_joined_from_encoded_spans_is_the_request_built_of_them() -> None:
    shop, shop_again, bank = origin("shop", "openai"), origin("shop", "openai"), origin("bank", "x", "s/1")
    spans = [Span(span_id=bytes([index]) * 8, name=f"chat {index}") for index in range(4)]
    held = [(shop, spans[0]), (bank, spans[1]), (shop_again, spans[2]), (bank, spans[3])]

    joined = ExportTraceServiceRequest.FromString(
        trace_request((where, span.SerializeToString()) for where, span in held)
    )

    expected = ExportTraceServiceRequest()
    for where, members in ((shop, [spans[0], spans[2]]), (bank, [spans[1], spans[3]])):
        block = expected.resource_spans.add(schema_url=where.resource_schema_url)
        block.resource.ParseFromString(where.resource)
        scope_block = block.scope_spans.add(schema_url=where.scope_schema_url)
        scope_block.scope.ParseFromString(where.scope)
        scope_block.spans.extend(members)
    assert joined == expected


def test_a_logs_request_puts_each_record_under_its_resource_in_the_products_scope() -> None:
    shop, bank = origin("shop", "openai"), origin("bank", "x", "s/1")
    records = [
        (shop, LogRecord(event_name="a").SerializeToString()),
        (bank, LogRecord(event_name="b").SerializeToString()),
        (shop, LogRecord(event_name="c").SerializeToString()),
    ]

    joined = ExportLogsServiceRequest.FromString(logs_request(records))

    assert [block.resource.SerializeToString() for block in joined.resource_logs] == [
        shop.resource,
        bank.resource,
    ]
    assert [block.schema_url for block in joined.resource_logs] == ["", "s/1"]
    assert [
        [
            (scope.scope.name, [record.event_name for record in scope.log_records])
            for scope in block.scope_logs
        ]
        for block in joined.resource_logs
    ] == [[(names.INSTRUMENTATION_SCOPE, ["a", "c"])], [(names.INSTRUMENTATION_SCOPE, ["b"])]]


def reference_evaluation(span: Span, evaluation: Evaluation) -> None:
    """``write_evaluation`` written field by field with protobuf's API."""
    added, defaults = evaluation.span_attributes, evaluation.span_defaults
    replaced = set()
    for item in span.attributes:
        if item.key in added:
            item.value.Clear()
            set_any_value(item.value, added[item.key])
            replaced.add(item.key)
        elif item.key in defaults:
            replaced.add(item.key)
    add_key_values(span.attributes, {k: v for k, v in {**defaults, **added}.items() if k not in replaced})
    event = span.events.add(time_unix_nano=span.end_time_unix_nano, name=names.EVENT_EVALUATION_RESULT)
    add_key_values(event.attributes, evaluation.event_attributes)


def reference_record(span: Span, evaluation: Evaluation, now_ns: int) -> bytes:
    """The evaluation record built field by field with protobuf's API, encoded."""
    record = LogRecord(
        time_unix_nano=now_ns,
        observed_time_unix_nano=now_ns,
        trace_id=span.trace_id,
        span_id=span.span_id,
        flags=span.flags & 0xFF,
        event_name=names.EVENT_EVALUATION_RESULT,
    )
    add_key_values(record.attributes, evaluation.event_attributes)
    return record.SerializeToString()  # type: ignore[no-any-return]


@pytest.mark.parametrize("own_label", [False, True])  # with an own label: replaced, encoded again
@pytest.mark.parametrize("own_agent", [False, True])  # neither: the span's attributes are not walked
@pytest.mark.parametrize("end_ns", [0, 1_700_000_000_123_456_789])
def test_the_evaluation_is_written_as_protobufs_api_writes_it(
    end_ns: int, own_agent: bool, own_label: bool
) -> None:
    span = Span(
        trace_id=b"\x01" * 16, span_id=b"\x02" * 8, name="chat", end_time_unix_nano=end_ns, flags=0x301
    )
    own = {"gen_ai.request.model": "gpt-4o", **({names.ATTR_AGENT_NAME: "own"} if own_agent else {})}
    add_key_values(span.attributes, {**own, names.ATTR_LABEL: "stale"} if own_label else own)
    span.events.add(name="gen_ai.choice")
    turn = Turn(1, 2, ANSWER, EVIDENCE, None, TurnContext(agent_name="billing", response_id="r-1"))
    evaluation = evaluate(turn, POLICY, describe(POLICY))
    expected = Span()
    expected.CopyFrom(span)
    reference_evaluation(expected, evaluation)

    present = ValueReader().attributes(span.attributes)
    written, record = scored_output(span, span.SerializeToString(), present, evaluation, 7)

    assert Span.FromString(written) == expected
    assert record == reference_record(span, evaluation, 7)
    assert LogRecord.FromString(record).flags == 0x01


@pytest.mark.parametrize("now_ns", [0, 7, 2**64 - 1])
@pytest.mark.parametrize("flags", [0, 0x01, 0x301])
@pytest.mark.parametrize("ids", [(b"", b""), (b"\x01" * 16, b"\x02" * 8)])
def test_the_evaluation_record_is_the_bytes_protobuf_writes(
    now_ns: int, flags: int, ids: tuple[bytes, bytes]
) -> None:
    """Encoded by hand, zero and empty fields left out as protobuf leaves them out."""
    span = Span(trace_id=ids[0], span_id=ids[1], name="chat", flags=flags)
    turn = Turn(1, 2, ANSWER, EVIDENCE, None, TurnContext())
    evaluation = evaluate(turn, POLICY, describe(POLICY))

    _, record = scored_output(span, span.SerializeToString(), {}, evaluation, now_ns)

    assert record == reference_record(span, evaluation, now_ns)
