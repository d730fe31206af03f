"""``make fuzz``: the long hostile-traffic run (``python -m tests.fuzz --spans 200000``)."""

from __future__ import annotations

import argparse
import resource
import sys
import time

from tests.fuzz.hostile_spans import run


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz")
    parser.add_argument("--spans", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    started = time.monotonic()
    outcome = run(args.spans, args.seed)
    elapsed = time.monotonic() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"fuzz seed={args.seed}: {outcome.spans_in} spans in, {outcome.spans_out} out, "
        f"{outcome.missing} missing, {outcome.duplicates} duplicated, "
        f"{outcome.caller_exceptions} exceptions reached the caller, {outcome.worker_errors} worker errors; "
        f"{elapsed:.0f} s, peak RSS {peak_mb:.0f} MB"
    )
    clean = outcome.spans_in == outcome.spans_out and not (
        outcome.missing or outcome.duplicates or outcome.caller_exceptions or outcome.worker_errors
    )
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
