"""French utterances understood per second (narrator.listen.french.Parser.parse), in one run.

Utterances: the test table (tests/utterances/*.yaml: votes, tallies, reveals, control words,
misheard names, refusals), each parsed in its own phase by a parser prepared once per table.
"hassil alone" is one `recognize_all` over the utterance's normalized words, all of them kept:
the floor under which a template matcher cannot go; ours adds folding, number words, names,
fillers and the split into several commands (which calls hassil once per candidate piece).
Also printed: the one-time costs of a table (the Parser, and each phase's grammar phrases, whole
and as a bigram cover).

Run: python benchmarks/parse.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import yaml
from hassil import recognize_all

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.listen.french import PHASES, Parser, words  # noqa: E402
from narrator.listen.grammar import phrases  # noqa: E402


def load_cases() -> list[dict]:
    """The utterance table's cases said at a seated table (the setup's, with nobody seated, aside)."""
    cases = []
    for path in sorted((ROOT / "tests" / "utterances").glob("*.yaml")):
        cases += yaml.safe_load(path.read_text(encoding="utf-8"))
    return [c for c in cases if c.get("players")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    cases = load_cases()
    start = time.perf_counter()
    for game in ("onuw", "poudlard"):  # the first tables also load the phrasebook and the game scripts
        Parser(game, ["Alice", "Bob"])
    first = time.perf_counter() - start
    start = time.perf_counter()
    keys = {(c["game"], tuple(c["players"])) for c in cases}
    tables = {(game, players): Parser(game, players) for game, players in keys}
    setup = (time.perf_counter() - start) / len(tables)
    work = [(tables[c["game"], tuple(c["players"])], c["text"], c["phase"]) for c in cases]
    for table, text, phase in work:  # warm up
        table.parse(text, phase)

    def rate(items: list) -> float:
        start = time.perf_counter()
        for _ in range(args.rounds):
            for table, text, phase in items:
                table.parse(text, phase)
        return len(items) * args.rounds / (time.perf_counter() - start)

    understood = [w for w in work if w[0].parse(w[1], w[2])]
    refused = [w for w in work if not w[0].parse(w[1], w[2])]
    ours = rate(work)
    plain = [(t, " ".join(words(text, t.book.spellings)), phase) for t, text, phase in work]
    start = time.perf_counter()
    for _ in range(args.rounds):
        for table, text, phase in plain:
            list(recognize_all(text, table.book.intents(phase), slot_lists=table.lists))
    bare = len(plain) * args.rounds / (time.perf_counter() - start)

    big = Parser("onuw", ["Alice", "Bob", "Chloé", "Dan", "Éric", "Jean-Marc", "Zoë", "Léa", "Léo", "Marc"])
    grammar = {}
    for phase in PHASES:
        start = time.perf_counter()
        count = len(phrases(big, phase))
        grammar[phase] = (count, time.perf_counter() - start, len(phrases(big, phase, compact=True)))

    print(f"utterances: {len(work)} from tests/utterances ({len(understood)} understood, {len(refused)} refused)")
    print(f"narrator parse: {ours:,.0f} utterances/s ({1e6 / ours:.0f} µs each)")
    print(f"  understood only: {rate(understood):,.0f}/s; refused only: {rate(refused):,.0f}/s")
    print(f"hassil alone (one recognize_all over the normalized words): {bare:,.0f} utterances/s")
    print(f"ratio hassil alone / narrator parse: {bare / ours:.1f}x")
    print(f"Parser setup: {first * 1000:.0f} ms for the first two games, then {setup * 1000:.1f} ms per table")
    for phase, (count, seconds, compact) in grammar.items():
        print(
            f"grammar, onuw, 10 players, {phase}: {count:,} phrases in {seconds * 1000:.0f} ms;"
            f" {compact:,} with compact=True"
        )


if __name__ == "__main__":
    main()
