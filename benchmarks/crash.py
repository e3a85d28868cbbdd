"""The crash test at full size: scripted games killed with SIGKILL at 50 random points each, each resumed.

A kill lands just after the game journaled its k-th event (k drawn at random over the whole game:
night, debate, mid-vote, mid-confirmation, cards; for the classic game, the operator's night entries,
the ballots, the hunter's shot). Prints how many resumed games ended exactly as the uninterrupted
one — same confirmed inputs and outcome: 0 lost, 0 duplicated. A one-night game (poudlard) and a
classic one (thiercelieux).

Run: python benchmarks/crash.py [--points 50]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import crash_rig_classic  # noqa: E402
from crash_rig import kill_and_resume, play_through  # noqa: E402

from narrator.table.journal import read_journal  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=50)
    args = parser.parse_args()
    env = {**os.environ, "PULSE_SERVER": "unix:/nonexistent", "PYTHONPATH": str(ROOT)}
    rng = random.Random(50)
    games = [("poudlard", play_through, kill_and_resume, "whole.jsonl")]
    games.append(
        ("thiercelieux", crash_rig_classic.play_through, crash_rig_classic.kill_and_resume, "whole-classic.jsonl")
    )
    for game, whole_game, kill, name in games:
        with tempfile.TemporaryDirectory() as folder:
            tmp = Path(folder)
            whole = whole_game(tmp, env)
            _, events, _ = read_journal(tmp / name)
            last = len(events)
            same, stages = 0, Counter()
            for _ in range(args.points):
                k = rng.randint(1, last)
                resumed, seen = kill(tmp, env, k)
                same += resumed == whole
                stages[events[min(seen, last) - 1].kind] += 1
        print(
            f"{game} : {args.points} parties tuées (SIGKILL) puis reprises : {same} identiques à la partie sans arrêt"
        )
        print("  tuées juste après : " + ", ".join(f"{k} ×{n}" for k, n in stages.most_common()))


if __name__ == "__main__":
    main()
