"""Run the benchmark modules: every ``benchmarks/*_bench.py`` exposing ``main()``.

``--only NAME`` runs the modules whose name contains NAME (``scoring``, ``adversarial``,
``extract``, ``processor``, ``replay``, ``gateway``, ``parrot``, ``threads``); ``--quick`` sets
``BENCH_QUICK=1``, which the scoring and adversarial cases read to run fewer iterations, the replay
case to replay a smaller recording and the gateway case to send less. ``--replay-mb N`` sets the size
of the recording the replay case generates, ``--replay-turns N`` its number of turns instead,
``--replay-file PATH`` replays that file instead; ``--replay-jobs 1,2`` replays it once per number of
jobs and compares them. ``--against REV`` times the scoring cases with REV's engine and this tree's,
side by side (``benchmarks/side_by_side.py``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path


def discover() -> list[str]:
    return sorted(path.stem for path in Path(__file__).parent.glob("*_bench.py"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--only", metavar="NAME", help="run only modules whose name contains NAME")
    parser.add_argument("--quick", action="store_true", help="fewer iterations where a module supports it")
    parser.add_argument("--replay-mb", type=int, metavar="N", help="size of the generated replay recording")
    parser.add_argument("--replay-turns", type=int, metavar="N", help="turns of the generated recording")
    parser.add_argument("--replay-file", type=Path, metavar="PATH", help="replay this recording instead")
    parser.add_argument(
        "--replay-jobs", metavar="N,M", help="replay once per --jobs value, side by side (default: 1)"
    )
    parser.add_argument("--against", metavar="REV", help="time the scoring cases against REV's engine")
    args = parser.parse_args(argv)
    if args.quick:
        os.environ["BENCH_QUICK"] = "1"
    if args.replay_mb is not None:
        os.environ["BENCH_REPLAY_MB"] = str(args.replay_mb)
    if args.replay_turns is not None:
        os.environ["BENCH_REPLAY_TURNS"] = str(args.replay_turns)
    if args.replay_jobs is not None:
        os.environ["BENCH_REPLAY_JOBS"] = args.replay_jobs
    if args.replay_file is not None:
        os.environ["BENCH_REPLAY_FILE"] = str(args.replay_file.resolve())
    if args.against is not None:
        from benchmarks.side_by_side import compare

        compare(args.against)
        return 0
    names = [name for name in discover() if args.only is None or args.only in name]
    if not names:
        print(f"no benchmark module matches {args.only!r}; have: {', '.join(discover())}", file=sys.stderr)
        return 2
    for name in names:
        print(f"\n=== {name} ===", flush=True)
        importlib.import_module(f"benchmarks.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
