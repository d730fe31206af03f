"""The memory bound, proven by the kernel: every adversarial shape of benchmarks/adversarial_bench.py
completes in a child process whose address space is capped at 1 GiB above its own baseline."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HEADROOM_BYTES = 1 << 30
ROOT = Path(__file__).resolve().parents[2]

CHILD = f"""
import resource, sys
from benchmarks.adversarial_bench import shapes

built = shapes()  # inputs are built before the limit: they are the caller's memory, not ours
built[0].run()  # the grammar compiles once per process
with open("/proc/self/statm") as statm:
    baseline = int(statm.read().split()[0]) * resource.getpagesize()
limit = baseline + {HEADROOM_BYTES}
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
for shape in built:
    report = shape.run()
    print("ok", shape.name, report.total_atoms, flush=True)
"""


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux /proc and RLIMIT_AS")
def test_every_adversarial_shape_completes_under_an_address_space_limit() -> None:
    from benchmarks.adversarial_bench import shapes

    names = [shape.name for shape in shapes()]
    result = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    done = [line.split(" ", 1)[1].rsplit(" ", 1)[0] for line in result.stdout.splitlines()]
    assert done == names
