"""One-night records resolved per second on one core, against a naive baseline, in one run.

Records: random valid records (narrator.rules.onenight.deal.random_record) of both one-night games,
3 to 13 players, using every role. "resolve" is the whole of `narrator resolve` after YAML
parsing: record checks, the night, the vote, the winners and the French explanation.

Baseline: the same engine written the naive immutable way — the whole game state (the record,
the cards, what each player was told, the face-up card) deep-copied before every change to it
(each card moved, each thing a player is told), as a copy-on-write engine without structural
sharing does. It is the engine's own code with its two state-changing methods wrapped, so both
figures resolve exactly the same games.

Long inputs, read as a stream (`narrator resolve FILE`, a process of its own, its output to /dev/null):
100,000 one-night records as JSON Lines (one record a line), and a YAML list of 10,000 records; the
seconds each takes and the most memory the process held.

Run: python benchmarks/resolve.py [--records N] [--lines 100000] [--yaml 10000]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from narrator.app.family import resolve_record
from narrator.rules.onenight import powers
from narrator.rules.onenight.deal import random_record
from narrator.script.games import ONE_NIGHT, games_of
from narrator.script.onenight.script import load_game


def make_records(n: int, seed: int = 2026) -> list[dict]:
    rng = random.Random(seed)
    return [random_record(load_game(rng.choice(games_of(ONE_NIGHT))), rng, rng.randint(3, 13), i) for i in range(n)]


def rate(records: list[dict]) -> float:
    start = time.perf_counter()
    for record in records:
        resolve_record(record)
    return len(records) / (time.perf_counter() - start)


def naive_rate(records: list[dict]) -> float:
    Table = powers.Table
    fast = Table.tell, Table.swap
    current: list = [None]

    def copy_state(table):
        _, table.cards, table.learned, table.visible = copy.deepcopy(
            (current[0], table.cards, table.learned, table.visible)
        )

    def tell(table, *args):
        copy_state(table)
        fast[0](table, *args)

    def swap(table, *args):
        copy_state(table)
        fast[1](table, *args)

    Table.tell, Table.swap = tell, swap
    try:
        start = time.perf_counter()
        for record in records:
            current[0] = record
            resolve_record(record)
        return len(records) / (time.perf_counter() - start)
    finally:
        Table.tell, Table.swap = fast


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--lines", type=int, default=100_000, help="records of the JSON Lines file")
    parser.add_argument("--yaml", type=int, default=10_000, help="records of the YAML list")
    parser.add_argument("--write-inputs", nargs=3, metavar=("DIR", "LINES", "YAML"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write_inputs:
        write_inputs(args.write_inputs[0], int(args.write_inputs[1]), int(args.write_inputs[2]))
        return
    streams(args.lines, args.yaml)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    records = make_records(args.records)
    rate(records[:500])  # warm the caches (scripts loaded once)
    ours = rate(records)
    naive = naive_rate(records[: max(1, args.records // 4)])
    print(f"records: {args.records} random valid one-night records (onuw and poudlard, 3–13 players)")
    print(f"narrator resolve: {ours:,.0f} records/s")
    print(f"naive baseline (whole state deep-copied at every change): {naive:,.0f} records/s")
    print(f"ratio: {ours / naive:.1f}x")


def streams(lines: int, listed: int) -> None:
    """`narrator resolve` on a long JSON Lines file and a long YAML list: seconds and peak memory."""
    with tempfile.TemporaryDirectory() as folder:
        # the inputs are written by a process of their own: a child forked from a parent that holds
        # them would count the parent's memory as its own
        subprocess.run([sys.executable, __file__, "--write-inputs", folder, str(lines), str(listed)], check=True)
        jsonl, listing = Path(folder) / "records.jsonl", Path(folder) / "records.yaml"
        for path, what in ((jsonl, f"{lines:,} records, JSON Lines"), (listing, f"a YAML list of {listed:,} records")):
            seconds, peak_mb = _resolve_file(path)
            size = path.stat().st_size / 2**20
            print(f"narrator resolve, {what} ({size:.0f} MB): {seconds:.1f} s, {peak_mb:.0f} MB at most")


def write_inputs(folder: str, lines: int, listed: int) -> None:
    records = make_records(max(lines, listed), seed=7)
    with open(Path(folder) / "records.jsonl", "w", encoding="utf-8") as out:
        out.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records[:lines])
    with open(Path(folder) / "records.yaml", "w", encoding="utf-8") as out:
        yaml.safe_dump(records[:listed], out, allow_unicode=True, sort_keys=False)


def _resolve_file(path: Path) -> tuple[float, float]:
    start = time.perf_counter()
    with open(os.devnull, "wb") as nowhere:
        child = subprocess.Popen([sys.executable, "-m", "narrator", "resolve", str(path)], stdout=nowhere)
        _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    assert child.returncode == 0, f"narrator resolve {path}: exit {child.returncode}"
    return time.perf_counter() - start, usage.ru_maxrss / 1024


if __name__ == "__main__":
    main()
