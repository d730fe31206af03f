"""The live stack of the end-to-end tests, reused by the dashboard query test, and a small stack of its
own where one service scores with two policies.

Fixtures in tests/e2e/conftest.py are visible only below tests/e2e, so they are imported here; pytest
then starts this directory's own instance of the session stack when both suites run.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from two_policies import TwoPolicies, two_policies

from tests.e2e.conftest import (
    alert_webhook,
    alertmanager,
    collector,
    collector_binary,
    demo_app,
    demo_metrics_port,
    prometheus_server,
    prometheus_with_demo_traffic,
)

__all__ = [
    "alert_webhook",
    "alertmanager",
    "collector",
    "collector_binary",
    "demo_app",
    "demo_metrics_port",
    "prometheus_server",
    "prometheus_with_demo_traffic",
    "prometheus_with_two_policies",
]


@pytest.fixture(scope="session")
def prometheus_with_two_policies(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoPolicies]:
    """A Prometheus that has scraped one policy on job ``steady`` and two on job ``changed``."""
    with two_policies(tmp_path_factory.mktemp("two-policies")) as running:
        yield running
