"""Log records to their trace's owner: the records of a logs request whose trace another gateway owns
(``ring.RingView``) are moved out of it, into one request per owner under the same resource and scope.

Loop protection: a request that another gateway already sent here (the ``FORWARDED_HEADER``
metadata or header) is never split again, whatever this gateway's ring says: during a rollout two
gateways may briefly disagree on the ring, and a record then stays where it is, sent once at most.
"""

from __future__ import annotations

import hashlib

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.logs.v1.logs_pb2 import ScopeLogs

from otel_groundedness.gateway.ring import RingView

# Set on requests a gateway sends to a trace's owner (gRPC metadata keys are lower case).
FORWARDED_HEADER = "x-otel-groundedness-forwarded"


def peer_part(endpoint: str) -> bytes:
    """The write-ahead log part of the records sent to ``endpoint`` (16 bytes, as trace ids are)."""
    return hashlib.blake2b(endpoint.encode(), digest_size=16).digest()


def split_by_owner(request: ExportLogsServiceRequest, ring: RingView) -> dict[str, ExportLogsServiceRequest]:
    """Move the records other gateways own out of ``request``; one request per owner. Records
    without a trace id stay (the exporter sends them anywhere)."""
    moved: dict[str, ExportLogsServiceRequest] = {}
    for resource_index in reversed(range(len(request.resource_logs))):
        resource_logs = request.resource_logs[resource_index]
        for scope_index in reversed(range(len(resource_logs.scope_logs))):
            scope_logs = resource_logs.scope_logs[scope_index]
            targets: dict[str, ScopeLogs] = {}
            leaving = []
            for index, record in enumerate(scope_logs.log_records):
                owner = ring.owner(record.trace_id) if record.trace_id else None
                if owner is None:
                    continue
                target = targets.get(owner)
                if target is None:
                    out = moved.setdefault(owner, ExportLogsServiceRequest())
                    out_resource = out.resource_logs.add(schema_url=resource_logs.schema_url)
                    out_resource.resource.CopyFrom(resource_logs.resource)
                    target = targets[owner] = out_resource.scope_logs.add(schema_url=scope_logs.schema_url)
                    target.scope.CopyFrom(scope_logs.scope)
                target.log_records.append(record)
                leaving.append(index)
            for index in reversed(leaving):
                del scope_logs.log_records[index]
            if not scope_logs.log_records:
                del resource_logs.scope_logs[scope_index]
        if not resource_logs.scope_logs:
            del request.resource_logs[resource_index]
    return moved
