"""`narrator parse` as one process, and the day's parser against the one before it, in one run.

First, what a user waits for: one `narrator parse` process from launch to exit, with a cold cache (a
fresh NARRATOR_CACHE_DIR: the phrasebook, the table's parser and the setup's compiled, then kept) and a
warm one (read from the cache: narrator/listen/compiled.py), median of `--runs` (goal warm ≤ 0.5 s).

Then, in this process: utterances of the test table's cases said at a seated table
(tests/utterances/*.yaml: votes, tallies, cards, controls, names, refusals; the spoken setup's, with
nobody seated, aside), each parsed in its own phase by a parser prepared once per table. "old" is the
whole-sentence template parser (narrator.listen.french.TemplateParser, hassil over the normalized
words); "new" the tagging parser (narrator.listen.french.Parser: tags, then a few rules). Printed for
each: accuracy on the table (the expected commands exactly), and the time to parse one utterance
(median and p95 over every utterance and round, on one core). Also printed: the one-time costs of a
table and each phase's grammar.

Run: python benchmarks/parse.py [--rounds N] [--runs N] [--process-only] [--tree DIR]
  (--tree: the source tree of narrator whose process is timed, default this one)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
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


def process_times(tree: Path, runs: int) -> None:
    """`narrator parse` from launch to exit, cold and warm, alternated; medians printed."""
    command = [sys.executable, "-m", "narrator", "parse", "--game", "poudlard", "--players", "Ana,Ben,Cleo,Dan,Eva"]
    command += ["--phase", "vote", "Ana vote contre Ben"]
    times: dict[str, list[float]] = {"cold": [], "warm": []}
    cpu: dict[str, list[float]] = {"cold": [], "warm": []}  # the process's own CPU: what a busy machine hides less
    with tempfile.TemporaryDirectory() as folder:
        for i in range(runs):
            env = {**os.environ, "PYTHONPATH": str(tree), "NARRATOR_CACHE_DIR": str(Path(folder) / str(i))}
            for kind in ("cold", "warm"):
                used = _children_cpu()
                start = time.perf_counter()
                run = subprocess.run(command, env=env, capture_output=True, text=True, cwd=tree)  # -m: cwd first
                times[kind].append(time.perf_counter() - start)
                cpu[kind].append(_children_cpu() - used)
                if run.returncode != 0 or "vote" not in run.stdout:
                    raise SystemExit(f"narrator parse a échoué : {run.stderr}")
    cold, warm = statistics.median(times["cold"]), statistics.median(times["warm"])
    print(
        f"narrator parse, un processus (médiane de {runs}) : cache vide {cold:.2f} s, cache chaud {warm:.2f} s"
        f" (objectif chaud ≤ 0.5 s ; chaud de {min(times['warm']):.2f} à {max(times['warm']):.2f} s) ;"
        f" temps de processeur : {statistics.median(cpu['cold']):.2f} s et {statistics.median(cpu['warm']):.2f} s ;"
        f" charge moyenne {os.getloadavg()[0]:.2f} sur {os.cpu_count()} cœurs",
        flush=True,
    )


def _children_cpu() -> float:
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=10, help="processus à froid et à chaud (médiane)")
    parser.add_argument("--process-only", action="store_true", help="seulement le temps d'un processus")
    parser.add_argument("--tree", type=Path, default=ROOT, help="l'arbre de sources de narrator à mesurer")
    args = parser.parse_args()
    process_times(args.tree.resolve(), args.runs)
    if args.process_only:
        return
    # the grammars below are timed as built: a cache of their own, empty
    os.environ["NARRATOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="narrator-parse-")
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
