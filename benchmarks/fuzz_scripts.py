"""Mutated copies of every shipped YAML file: how many load, fail with the documented error, or crash.

The mutator and the verdict are tests/test_fuzz_scripts.py's (deleted keys, wrong types, unknown
role ids, duplicate line ids, broken indentation, random bytes, truncation, aliases…; a crash is
any other exception, an error line that is not `file:line:column: ` then French, or a mutant that
loads and then breaks the game when its texts are used). The test suite runs 60 mutants per file;
this runs the full count, on seeds that follow the test's. How long a mutant takes is a figure here, not an
assertion of the tests (a loaded machine made them flaky): « slowest ms » per file, meant to stay well
under a second, and the time a billion laughs (ten million values once expanded) takes to be refused.

Run: python benchmarks/fuzz_scripts.py [--mutants N] [--first SEED]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_fuzz_scripts import LAUGHS, SHIPPED, run  # noqa: E402

from narrator.script.marks import YamlError, load_marked  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=1000, help="mutants per file (default 1,000)")
    parser.add_argument("--first", type=int, default=0, help="first seed number (the test suite uses 0–59)")
    args = parser.parse_args()
    crashes = []
    total: Counter[str] = Counter()
    print(f"{'file':24} {'mutants':>8} {'valid':>7} {'error':>7} {'crash':>7} {'ms/mutant':>10} {'slowest ms':>11}")
    for file in SHIPPED:
        start = time.perf_counter()
        found = run(file, args.mutants, args.first)
        seconds = time.perf_counter() - start
        counts = {kind: len(found[kind]) for kind in ("valid", "error", "crash")}
        total.update(counts)
        slowest = max(v.seconds for kind in found.values() for _, _, v in kind)
        print(
            f"{file:24} {args.mutants:>8,} {counts['valid']:>7,} {counts['error']:>7,} {counts['crash']:>7,}"
            f" {seconds / args.mutants * 1000:>10.1f} {slowest * 1000:>11.0f}"
        )
        crashes += [(seed, mutations, verdict) for seed, mutations, verdict in found["crash"]]
    mutants = args.mutants * len(SHIPPED)
    print(f"{'all':24} {mutants:>8,} {total['valid']:>7,} {total['error']:>7,} {total['crash']:>7,}")
    start = time.perf_counter()
    try:
        load_marked(LAUGHS, "laughs.yaml")
        refused = False
    except YamlError:
        refused = True
    print(f"billion laughs: {'refused' if refused else 'LOADED'} in {(time.perf_counter() - start) * 1000:.0f} ms")
    for seed, mutations, verdict in crashes:
        print(f"CRASH {seed} ({'+'.join(mutations)}): {verdict.detail}")
    return 1 if crashes or not refused else 0


if __name__ == "__main__":
    sys.exit(main())
