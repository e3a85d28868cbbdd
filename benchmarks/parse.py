"""The day's parser against the one before it, on the utterance table, in one run.

Utterances: the test table's cases said at a seated table (tests/utterances/*.yaml: votes,
tallies, cards, controls, names, refusals; the spoken setup's, with nobody seated, aside), each
parsed in its own phase by a parser prepared once per table. "old" is the whole-sentence
template parser (narrator.listen.french.TemplateParser, hassil over the normalized words);
"new" the tagging parser (narrator.listen.french.Parser: tags, then a few rules). Printed for
each: accuracy on the table (the expected commands exactly), and the time to parse one
utterance (median and p95 over every utterance and round, on one core). Also printed: the
one-time costs of a table and each phase's grammar.

Run: python benchmarks/parse.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.listen.commands import Command  # noqa: E402
from narrator.listen.french import PHASES, Parser, TemplateParser  # noqa: E402
from narrator.listen.grammar import phrases  # noqa: E402


def load_cases() -> list[dict]:
    """The utterance table's cases said at a seated table (the setup's, with nobody seated, aside)."""
    cases = []
    for path in sorted((ROOT / "tests" / "utterances").glob("*.yaml")):
        cases += yaml.safe_load(path.read_text(encoding="utf-8"))
    return [c for c in cases if c.get("players")]


def measure(kind: type, cases: list[dict], rounds: int) -> tuple[float, list[float], float]:
    """Accuracy, the milliseconds of every parse, and the setup milliseconds per table."""
    start = time.perf_counter()
    tables = {(c["game"], tuple(c["players"])): None for c in cases}
    built = {key: kind(*key) for key in tables}
    setup = (time.perf_counter() - start) / len(built) * 1000
    work = [(built[c["game"], tuple(c["players"])], c) for c in cases]
    right = 0
    for table, case in work:
        got = [c.to_json() for c in table.parse(case["text"], case["phase"])]
        right += got == [Command(**e).to_json() for e in case["expect"]]
    times = []
    for _ in range(rounds):
        for table, case in work:
            start_ns = time.perf_counter_ns()
            table.parse(case["text"], case["phase"])
            times.append((time.perf_counter_ns() - start_ns) / 1e6)
    return right / len(work), times, setup


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    cases = load_cases()
    Parser("onuw", ["Alice", "Bob"])  # the first table also loads the phrasebook and the game scripts
    Parser("poudlard", ["Alice", "Bob"])
    print(f"utterances: {len(cases)} said at a seated table, from tests/utterances")
    figures = {}
    for name, kind in (("old", TemplateParser), ("new", Parser)):
        accuracy, times, setup = measure(kind, cases, args.rounds)
        figures[name] = (accuracy, statistics.median(times), p95(times), setup)
    for name, (accuracy, median, high, setup) in figures.items():
        print(
            f"{name} ({'TemplateParser' if name == 'old' else 'Parser'}): accuracy {accuracy:.1%};"
            f" {median:.2f} ms median, {high:.2f} ms p95 per utterance; {setup:.1f} ms per table"
        )
    print(f"ratio old p95 / new p95: {figures['old'][2] / figures['new'][2]:.1f}x")

    big = Parser("onuw", ["Alice", "Bob", "Chloé", "Dan", "Éric", "Jean-Marc", "Zoë", "Léa", "Léo", "Marc"])
    for phase in PHASES:
        start = time.perf_counter()
        count = len(phrases(big, phase))
        seconds = time.perf_counter() - start
        compact = len(phrases(big, phase, compact=True))
        print(
            f"grammar, onuw, 10 players, {phase}: {count:,} phrases in {seconds * 1000:.0f} ms;"
            f" {compact:,} with compact=True"
        )
    print(f"accuracy old {figures['old'][0]:.1%}, new {figures['new'][0]:.1%}; p95 new {figures['new'][2]:.2f} ms")


if __name__ == "__main__":
    main()
