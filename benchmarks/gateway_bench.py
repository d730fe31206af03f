"""One ``otel-groundedness gateway`` process, OTLP/gRPC in -> scored -> OTLP/gRPC out, on 127.0.0.1.

Two phases against the same process: non-GenAI pass-through spans (100 per request) and demo-shaped
GenAI traffic (``benchmarks/recording.py``: content on spans and in log records, several traces per
request), scored turns counted by the ``gen_ai.evaluation.result`` records that come out. This
process is the sender (8 requests in flight, pre-serialized, refusals retried after their
``RetryInfo`` delay) and the receiving sink (counts only). Request latency is the sender's, from
send to OK. Targets on the 2-core machine: >= 20,000 pass-through spans/s and >= 500 scored turns/s.
The gateway's own CPU time is reported too, since the machine is shared.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from benchmarks.recording import write_recording
from otel_groundedness.gateway.rpc_status import retry_delay_s
from otel_groundedness.otlp.json_documents import prepare_for_parse
from otel_groundedness.telemetry import names

TRACES_METHOD = "/opentelemetry.proto.collector.trace.v1.TraceService/Export"
LOGS_METHOD = "/opentelemetry.proto.collector.logs.v1.LogsService/Export"
IN_FLIGHT = 8
SPANS_PER_REQUEST = 100
TARGET_SPANS_PER_S = 20_000
TARGET_TURNS_PER_S = 500
TRACE_IDLE_S = 0.5


@dataclass
class Sink:
    """Counts what the gateway exports: spans, evaluation records, and when each record arrived."""

    spans: int = 0
    record_times: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def traces(self, body: bytes, _context: grpc.ServicerContext) -> bytes:
        request = ExportTraceServiceRequest.FromString(body)
        count = sum(len(scope.spans) for rs in request.resource_spans for scope in rs.scope_spans)
        with self.lock:
            self.spans += count
        return b""

    def logs(self, body: bytes, _context: grpc.ServicerContext) -> bytes:
        request = ExportLogsServiceRequest.FromString(body)
        now = time.perf_counter()
        evaluations = sum(
            1
            for rl in request.resource_logs
            for scope in rl.scope_logs
            for record in scope.log_records
            if record.event_name == names.EVENT_EVALUATION_RESULT
        )
        with self.lock:
            self.record_times.extend([now] * evaluations)
        return b""

    def serve(self) -> tuple[grpc.Server, int]:
        server = grpc.server(ThreadPoolExecutor(max_workers=4))
        for service, method, handler in (
            ("opentelemetry.proto.collector.trace.v1.TraceService", "Export", self.traces),
            ("opentelemetry.proto.collector.logs.v1.LogsService", "Export", self.logs),
        ):
            server.add_generic_rpc_handlers(
                (
                    grpc.method_handlers_generic_handler(
                        service, {method: grpc.unary_unary_rpc_method_handler(handler)}
                    ),
                )
            )
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        return server, port


@dataclass
class Sent:
    latencies_s: list[float]
    refusals: int
    seconds: float


def send_all(channel: grpc.Channel, requests: list[tuple[str, bytes]]) -> Sent:
    """Send every (method, body) with IN_FLIGHT outstanding; refused ones are retried as asked."""
    calls = {method: channel.unary_unary(method) for method in (TRACES_METHOD, LOGS_METHOD)}
    latencies: list[float] = []
    failures: list[grpc.RpcError] = []
    refusals = 0
    slots = threading.Semaphore(IN_FLIGHT)
    lock = threading.Lock()
    pending = threading.Event()
    outstanding = [0]

    def send(method: str, body: bytes) -> None:
        started = time.perf_counter()
        future = calls[method].future(body, timeout=60)

        def done(call: grpc.Future) -> None:
            nonlocal refusals
            error = call.exception()
            if error is not None:
                delay = retry_delay_s(error)  # type: ignore[arg-type]
                if delay is None:  # not retryable: the run is invalid
                    failures.append(error)  # type: ignore[arg-type]
                    pending.set()
                    return
                with lock:
                    refusals += 1
                threading.Timer(delay, send, (method, body)).start()
                return
            with lock:
                latencies.append(time.perf_counter() - started)
                outstanding[0] -= 1
                if outstanding[0] == 0:
                    pending.set()
            slots.release()

        future.add_done_callback(done)

    began = time.perf_counter()
    outstanding[0] = len(requests)
    for method, body in requests:
        slots.acquire()
        if failures:
            break
        send(method, body)
    pending.wait()
    if failures:
        raise SystemExit(f"the gateway failed a request: {failures[0]}")
    return Sent(latencies, refusals, time.perf_counter() - began)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until(what: str, done: Callable[[], bool], timeout: float) -> float:
    deadline = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.01)
    return time.perf_counter()


def plain_requests(count: int) -> list[tuple[str, bytes]]:
    requests = []
    for _ in range(count):
        request = ExportTraceServiceRequest()
        resource_spans = request.resource_spans.add()
        resource_spans.resource.attributes.append(
            KeyValue(key="service.name", value=AnyValue(string_value="shop"))
        )
        scope = resource_spans.scope_spans.add()
        scope.scope.name = "http.server"
        for _ in range(SPANS_PER_REQUEST):
            span = scope.spans.add(
                trace_id=os.urandom(16), span_id=os.urandom(8), parent_span_id=os.urandom(8), kind=2,
                name="GET /items", start_time_unix_nano=1_700_000_000_000_000_000,
                end_time_unix_nano=1_700_000_000_050_000_000,
            )  # fmt: skip
            for key, value in (
                ("http.request.method", "GET"), ("http.route", "/items"), ("url.path", "/items/42"),
                ("http.response.status_code", "200"), ("server.address", "shop.internal"),
                ("user_agent.original", "Mozilla/5.0 (X11; Linux x86_64)"),
            ):  # fmt: skip
                span.attributes.append(KeyValue(key=key, value=AnyValue(string_value=value)))
        requests.append((TRACES_METHOD, request.SerializeToString()))
    return requests


def demo_requests(path: Path, megabytes: float) -> tuple[list[tuple[str, bytes]], int, int]:
    """Demo-shaped requests (serialized), their span count and their trace count."""
    recording = write_recording(path, int(megabytes * 1024 * 1024))
    requests = []
    spans = 0
    for line in path.read_text().splitlines():
        document = json.loads(line)
        prepare_for_parse(document)
        if "resourceSpans" in document:
            trace_request = json_format.ParseDict(document, ExportTraceServiceRequest())
            spans += sum(len(scope.spans) for rs in trace_request.resource_spans for scope in rs.scope_spans)
            requests.append((TRACES_METHOD, trace_request.SerializeToString()))
        else:
            requests.append(
                (LOGS_METHOD, json_format.ParseDict(document, ExportLogsServiceRequest()).SerializeToString())
            )
    return requests, spans, recording.turns


def percentiles_ms(latencies: list[float]) -> str:
    cuts = statistics.quantiles(latencies, n=100)
    return f"p50 {cuts[49] * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms"


def _peak_rss_kib(pid: int) -> int | None:
    """The gateway's own resident high-water mark (Linux ``VmHWM``). Its ``ru_maxrss`` is not: Linux
    carries the forking process's figure across ``exec``, so after the other benchmarks had grown
    this process the gateway showed this process's size (297 MB for its 82 MB)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def main() -> None:
    quick = bool(os.environ.get("BENCH_QUICK"))
    passthrough_requests = 300 if quick else 1500
    demo_mb = 3 if quick else 24
    sink = Sink()
    server, port = sink.serve()
    with tempfile.TemporaryDirectory(prefix="gateway-bench-") as scratch:
        work = Path(scratch)
        plain = plain_requests(passthrough_requests)
        genai, genai_spans, traces = demo_requests(work / "recording.jsonl", demo_mb)
        env = {
            **os.environ,
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port}",
            "OTEL_METRICS_EXPORTER": "none",
        }
        command = [
            sys.executable, "-m", "otel_groundedness", "gateway", "--grpc-listen", "127.0.0.1:0",
            "--http-listen", "127.0.0.1:0", "--prometheus-listen", "off", "--trace-idle-s", str(TRACE_IDLE_S),
            "--max-trace-wait-s", "30", "--wal-dir", str(work / "wal"),
        ]  # fmt: skip
        log_path = work / "gateway.log"
        with log_path.open("w") as log:
            gateway = subprocess.Popen(command, env=env, stderr=log)
        grpc_port = _ready_port(log_path, gateway)
        channel = grpc.insecure_channel(f"127.0.0.1:{grpc_port}")
        try:
            _passthrough(channel, sink, plain, gateway.pid)
            _scored(channel, sink, genai, genai_spans, traces, gateway.pid)
        finally:
            channel.close()
            peak_kib = _peak_rss_kib(gateway.pid)
            gateway.terminate()
            _, status, usage = os.wait4(gateway.pid, 0)
            server.stop(None)
        cpu = usage.ru_utime + usage.ru_stime
        code = os.waitstatus_to_exitcode(status)
        peak_mb = (peak_kib if peak_kib is not None else usage.ru_maxrss) / 1024
        print(f"gateway process: {cpu:.1f} s CPU in all, peak RSS {peak_mb:.0f} MB, exit {code}")
    print(
        f"bench process (sender + sink): {resource.getrusage(resource.RUSAGE_SELF).ru_utime:.1f} s user CPU"
    )


def _ready_port(log_path: Path, gateway: subprocess.Popen[bytes]) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for line in log_path.read_text().splitlines():
            if '"gateway ready"' in line:
                return int(json.loads(line)["grpc_port"])
        if gateway.poll() is not None:
            raise SystemExit(f"gateway exited: {log_path.read_text()[-2000:]}")
        time.sleep(0.1)
    raise SystemExit("gateway not ready")


def _passthrough(channel: grpc.Channel, sink: Sink, requests: list[tuple[str, bytes]], pid: int) -> None:
    total = len(requests) * SPANS_PER_REQUEST
    send_all(channel, requests[:20])  # warm-up: connections, code paths
    wait_until("warm-up spans", lambda: sink.spans >= 20 * SPANS_PER_REQUEST, 60)
    start_spans = sink.spans
    began, cpu = time.perf_counter(), cpu_seconds(pid)
    sent = send_all(channel, requests[20:])
    ended = wait_until(
        "pass-through spans", lambda: sink.spans >= start_spans + total - 20 * SPANS_PER_REQUEST, 120
    )
    count = total - 20 * SPANS_PER_REQUEST
    rate = count / (ended - began)
    used = cpu_seconds(pid) - cpu
    verdict = "meets" if rate >= TARGET_SPANS_PER_S else "misses"
    print(
        f"pass-through: {count} non-GenAI spans in {ended - began:.2f} s = {rate:,.0f} spans/s "
        f"({verdict} the {TARGET_SPANS_PER_S:,} target); requests of {SPANS_PER_REQUEST} spans: "
        f"{percentiles_ms(sent.latencies_s)}; refused {sent.refusals}; gateway CPU {used:.2f} s = "
        f"{count / used:,.0f} spans per CPU-second"
    )


def _scored(
    channel: grpc.Channel, sink: Sink, requests: list[tuple[str, bytes]], spans: int, traces: int, pid: int
) -> None:
    start_spans = sink.spans
    began, cpu = time.perf_counter(), cpu_seconds(pid)
    sent = send_all(channel, requests)
    ended = wait_until("every GenAI span back", lambda: sink.spans >= start_spans + spans, 600)
    used = cpu_seconds(pid) - cpu
    time.sleep(1.0)  # evaluation records leave just after their spans
    with sink.lock:
        times = sorted(sink.record_times)
    turns = len(times)
    overall = turns / (ended - began - TRACE_IDLE_S)
    # Steady state: the rate at which records came out between the 10th and the 90th percentile.
    low, high = times[turns // 10], times[turns * 9 // 10]
    steady = (turns * 8 // 10) / (high - low)
    verdict = "meets" if steady >= TARGET_TURNS_PER_S else "misses"
    print(
        f"scored: {traces} demo-shaped traces, {spans} GenAI spans in {len(requests)} requests -> "
        f"{turns} scored turns; {overall:,.0f} turns/s from first send to last span out (less the "
        f"{TRACE_IDLE_S:g} s idle wait), {steady:,.0f} turns/s steady "
        f"({verdict} the {TARGET_TURNS_PER_S} target); "
        f"requests: {percentiles_ms(sent.latencies_s)}; refused {sent.refusals}; gateway CPU {used:.2f} s = "
        f"{turns / used:,.0f} turns per CPU-second"
    )


if __name__ == "__main__":
    main()
