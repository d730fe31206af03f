"""Fixtures of the Node agent tests: the agent's pinned Node runtime and the custom Collector."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import collector_binary
from tests.node_agent.harness import install_node_agent

__all__ = ["collector_binary", "node_binary"]


@pytest.fixture(scope="session")
def node_binary() -> Path:
    """The Node that runs agents/vercel-ai, after scripts/install-node-agent.sh (a no-op when up to date)."""
    return install_node_agent()
