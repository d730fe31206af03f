"""Run the benchmark modules: every ``benchmarks/*_bench.py`` exposing ``main()``.

``--only NAME`` runs the modules whose name contains NAME (``scoring``, ``adversarial``, ``extract``,
``processor``);
``--quick`` sets ``BENCH_QUICK=1``, which the scoring and adversarial cases read to run fewer iterations.
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
    args = parser.parse_args(argv)
    if args.quick:
        os.environ["BENCH_QUICK"] = "1"
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
