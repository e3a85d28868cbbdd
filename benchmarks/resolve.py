"""One-night records resolved per second on one core, against a naive baseline, in one run.

Records: random valid records (narrator.rules.deal.random_record) of both one-night games,
3 to 13 players, using every role. "resolve" is the whole of `narrator resolve` after YAML
parsing: record checks, the night, the vote, the winners and the French explanation.

Baseline: the same engine written the naive immutable way — the whole game state (the record,
the cards, what each player was told, the face-up card) deep-copied before every change to it
(each card moved, each thing a player is told), as a copy-on-write engine without structural
sharing does. It is the engine's own code with its two state-changing methods wrapped, so both
figures resolve exactly the same games.

Run: python benchmarks/resolve.py [--records N]
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import time

from narrator.resolve import resolve_record
from narrator.rules import powers
from narrator.rules.deal import random_record
from narrator.script.game import ONE_NIGHT_GAMES, load_game


def make_records(n: int, seed: int = 2026) -> list[dict]:
    rng = random.Random(seed)
    return [random_record(load_game(rng.choice(ONE_NIGHT_GAMES)), rng, rng.randint(3, 13), i) for i in range(n)]


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
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
