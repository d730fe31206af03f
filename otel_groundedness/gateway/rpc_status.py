"""gRPC statuses with ``google.rpc.RetryInfo``: built by the receiver, read by the sender.

The Collector's OTLP exporter retries ``RESOURCE_EXHAUSTED`` only when the status carries a
``RetryInfo``, and then waits the delay it names.
"""

from __future__ import annotations

import grpc
from google.protobuf.any_pb2 import Any as AnyMessage
from google.protobuf.duration_pb2 import Duration
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status


def retry_status(code: grpc.StatusCode, message: str, retry_after_s: float) -> grpc.Status:
    """A status asking the caller to retry after ``retry_after_s``."""
    detail = AnyMessage()
    detail.Pack(error_details_pb2.RetryInfo(retry_delay=_duration(retry_after_s)))
    status = status_pb2.Status(code=code.value[0], message=message, details=[detail])
    result: grpc.Status = rpc_status.to_status(status)
    return result


def retry_delay_s(error: grpc.RpcError) -> float | None:
    """The delay a failed call's ``RetryInfo`` asks for, if it has one."""
    try:
        status = rpc_status.from_call(error)
    except ValueError:
        return None
    if status is None:
        return None
    for detail in status.details:
        info = error_details_pb2.RetryInfo()
        if detail.Unpack(info):
            return float(info.retry_delay.seconds + info.retry_delay.nanos / 1e9)
    return None


def _duration(seconds: float) -> Duration:
    whole = int(seconds)
    return Duration(seconds=whole, nanos=int((seconds - whole) * 1e9))
