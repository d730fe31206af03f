"""Records encoded one by one and joined give the bytes of the request encoded whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from otel_groundedness.otlp.codec import request_from_log_events, request_from_spans
from otel_groundedness.otlp.encoded import RecordEncoder, join_logs, join_spans
from otel_groundedness.otlp.files import iter_otlp_file, to_otlp_json

DATA = Path(__file__).resolve().parents[1] / "data" / "otlp"


@pytest.mark.parametrize("recording", sorted(DATA.glob("*.jsonl")), ids=lambda path: path.name)
@pytest.mark.parametrize("proto", [False, True], ids=["json", "protobuf"])
def test_joined_pieces_are_the_whole_request(recording: Path, proto: bool) -> None:
    chunks = list(iter_otlp_file(recording))
    spans = [span for chunk in chunks for span in chunk.spans]
    events = [event for chunk in chunks for event in chunk.log_events]
    encoder = RecordEncoder(proto=proto)
    joined_spans = join_spans([encoder.span(key, span) for key, span in enumerate(spans)], proto=proto)
    whole_spans = request_from_spans(spans)
    if proto:
        assert joined_spans == whole_spans.SerializeToString()
    else:
        assert joined_spans == json.dumps(to_otlp_json(whole_spans), separators=(",", ":")).encode()
    if events:
        joined_logs = join_logs([encoder.log(key, event) for key, event in enumerate(events)], proto=proto)
        whole_logs = request_from_log_events(events)
        if proto:
            assert joined_logs == whole_logs.SerializeToString()
        else:
            assert joined_logs == json.dumps(to_otlp_json(whole_logs), separators=(",", ":")).encode()
