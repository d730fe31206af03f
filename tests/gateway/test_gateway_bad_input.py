"""Bad input gets the status the OTLP specification names, and the gateway keeps serving: nothing it
accepted before or after is lost."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable

import grpc
import httpx

from otel_groundedness.gateway.service import Gateway
from otel_groundedness.otlp.json_documents import to_otlp_json

from .otlp_sink import OtlpSink
from .traffic import GrpcClient, plain_request, span_ids

PROTOBUF = {"Content-Type": "application/x-protobuf"}
JSON = {"Content-Type": "application/json"}
LIMIT = 64 * 1024


def test_http_bad_requests_get_their_status_and_good_ones_still_arrive(
    sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    gateway = start_gateway(max_request_bytes=LIMIT)
    base = f"http://127.0.0.1:{gateway.ports.http}"
    first, second, third = plain_request(5), plain_request(5), plain_request(5)
    with httpx.Client(base_url=base, timeout=10) as http:
        assert http.post("/v1/traces", content=first.SerializeToString(), headers=PROTOBUF).status_code == 200

        malformed = http.post("/v1/traces", content=b"\x0a\xff\xff\xff\xff\x0f", headers=PROTOBUF)
        assert malformed.status_code == 400
        assert (
            http.post("/v1/traces", content=b"{}", headers={"Content-Type": "text/plain"}).status_code == 415
        )
        assert http.post("/v1/logs", content=b"{not json", headers=JSON).status_code == 400
        assert http.post("/v1/traces", content=b'{"resourceSpans": 7}', headers=JSON).status_code == 400
        assert http.post("/v1/traces", content=b"x" * (LIMIT + 1), headers=PROTOBUF).status_code == 413
        bomb = gzip.compress(b"\0" * (LIMIT * 16))
        assert len(bomb) < LIMIT
        zipped = http.post("/v1/traces", content=bomb, headers={**PROTOBUF, "Content-Encoding": "gzip"})
        assert zipped.status_code == 413
        brotli = http.post("/v1/traces", content=b"", headers={**PROTOBUF, "Content-Encoding": "br"})
        assert brotli.status_code == 415
        assert http.post("/v1/metrics", content=b"", headers=PROTOBUF).status_code == 404
        assert http.get("/v1/traces").status_code == 405
        assert http.get("/healthz").status_code == 200
        assert http.get("/readyz").status_code == 200

        as_json = json.dumps(to_otlp_json(second)).encode()
        accepted = http.post("/v1/traces", content=as_json, headers=JSON)
        assert accepted.status_code == 200
        assert accepted.json() == {}  # an ExportTraceServiceResponse without partial success
        zipped_ok = gzip.compress(third.SerializeToString())
        assert (
            http.post(
                "/v1/traces", content=zipped_ok, headers={**PROTOBUF, "Content-Encoding": "gzip"}
            ).status_code
            == 200
        )

    sent = span_ids([first, second, third])
    sink.wait_for("the accepted spans", lambda: len(sink.spans()) >= len(sent), timeout=30)
    assert sorted(span.span_id for span in sink.spans()) == sorted(sent)


def test_grpc_bad_requests_fail_and_the_server_keeps_serving(
    sink: OtlpSink, start_gateway: Callable[..., Gateway]
) -> None:
    gateway = start_gateway(max_request_bytes=LIMIT)
    channel = grpc.insecure_channel(f"127.0.0.1:{gateway.ports.grpc}")
    raw_export = channel.unary_unary("/opentelemetry.proto.collector.trace.v1.TraceService/Export")
    try:
        raw_export(b"\x0a\xff\xff\xff\xff\x0f", timeout=10)
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.INTERNAL
    else:
        raise AssertionError("a malformed request was accepted")
    client = GrpcClient(gateway.ports.grpc)
    too_large = client.send(plain_request(1000))  # about 120 KiB of ids and attributes
    assert plain_request(1000).ByteSize() > LIMIT
    assert too_large is not None and too_large.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    good = plain_request(10)
    assert client.send(good) is None
    client.close()
    channel.close()
    sink.wait_for("the good request", lambda: len(sink.spans()) >= 10, timeout=30)
    assert sorted(span.span_id for span in sink.spans()) == sorted(span_ids([good]))
