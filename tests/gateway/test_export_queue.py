"""The export queue's wake-ups: each request queued reaches a waiting worker (one is woken per
request, none is lost), and closing wakes every worker still waiting."""

from __future__ import annotations

import queue
import threading

from otel_groundedness.gateway.export_queue import ExportQueue, Outgoing

NEVER = 60.0  # a worker's wait: a lost wake-up would keep it waiting past the test's patience
PATIENCE = 20.0


def test_each_request_reaches_a_waiting_worker_and_closing_wakes_the_rest() -> None:
    waiting = ExportQueue(1 << 20)
    taken: queue.Queue[Outgoing | None] = queue.Queue()
    workers = [threading.Thread(target=lambda: taken.put(waiting.get(NEVER))) for _ in range(3)]
    for worker in workers:
        worker.start()
    sent = [Outgoing("logs", bytes([index]), 1) for index in range(2)]

    for item in sent:
        assert waiting.try_put([item])
    received = [taken.get(timeout=PATIENCE) for _ in sent]
    waiting.close()
    for worker in workers:
        worker.join(PATIENCE)

    assert sorted(item.body for item in received if item is not None) == [b"\x00", b"\x01"]
    assert taken.get(timeout=PATIENCE) is None  # the third worker, woken by ``close``
    assert not any(worker.is_alive() for worker in workers)
