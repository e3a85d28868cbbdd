"""The journal's full sweeps, per game family (poudlard: one-night; thiercelieux: classic), in-process:

- cuts: the whole game's journal cut at every byte offset of its last three lines, then resumed:
  the journal must then read to its last line with exactly one outcome and what the whole game
  confirmed (none lost, none doubled), and a second resume must not play again;
- faults: the whole game played again with its n-th `open`, `write` or `fsync` failing (ENOSPC),
  for every n: one French line and exit 2 (or the game goes on), no traceback, and the game,
  resumed without fault, ends as the whole game did.

Prints the cases tried and the failures of each family (the first few failures in full).

Run: python benchmarks/journal_faults.py [--only cuts|faults] [--every K]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import journal_rig  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["cuts", "faults"])
    parser.add_argument("--every", type=int, default=1, help="one case in K (default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        os.environ.update(HOME=str(tmp), NARRATOR_STATE_DIR=str(tmp / "games"), PULSE_SERVER="unix:/nonexistent")
        for name, family in journal_rig.FAMILIES.items():
            data, whole = journal_rig.whole_game(family, tmp)
            if args.only != "faults":
                offsets = journal_rig.cut_offsets(data)[:: args.every]
                began = time.perf_counter()
                failures = [(k, journal_rig.after_cut(family, tmp, data, whole, k)) for k in offsets]
                report(name, "coupures", len(offsets), [f for f in failures if f[1]], time.perf_counter() - began)
            if args.only != "cuts":
                _, counted = journal_rig.with_fault(lambda f=family: f.play(tmp, tmp / f"count-{f.name}.jsonl"), None)
                calls = range(1, counted.calls + 1, args.every)
                began = time.perf_counter()
                results = [(n, *journal_rig.after_fault(family, tmp, whole, n)) for n in calls]
                failures = [(f"{n} ({failed})", problems) for n, problems, failed in results if problems]
                report(name, "pannes d'écriture", len(calls), failures, time.perf_counter() - began)


def report(family: str, what: str, tried: int, failures: list, seconds: float) -> None:
    print(f"{family} : {what} : {tried} cas essayés, {len(failures)} échecs ({seconds:.0f} s)")
    for case, problems in failures[:5]:
        print(f"  {case} : {problems}")


if __name__ == "__main__":
    main()
