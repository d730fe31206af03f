"""The live stack of the end-to-end tests, reused by the dashboard query test.

Fixtures in tests/e2e/conftest.py are visible only below tests/e2e, so they are imported here; pytest
then starts this directory's own instance of the session stack when both suites run.
"""

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
]
