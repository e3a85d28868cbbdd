"""The classic game: the engine's speed, and what a resumed or undone game costs at the table, in one run.

Games: random legal Thiercelieux games (narrator.rules.classic.deal.random_record) dealing every
character of 002 and 003, 6 to 14 players, played to their end.

1. `narrator resolve` of those records: records and phases per second on one core.
2. The table's « annule » and `narrator resume` replay every journaled answer through the engine,
   silently, before going on. The longest game of the set is replayed through the table
   (`ClassicSession`, nothing spoken) from its full journal, and compared with resolving the same
   record: the ratio is what the table's replay adds to the engine; the time is how long the table
   is silent after « annule » at the very end of that game, against a listening turn (8 s).

Run: python benchmarks/classic.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

from narrator.app.family import resolve_record
from narrator.app.record_play import answer_of
from narrator.rules.classic import Options
from narrator.rules.classic.deal import random_record
from narrator.rules.phase import PhaseId
from narrator.script.classic.narration import load_narration
from narrator.script.classic.script import load_classic
from narrator.script.prompts import load_prompts
from narrator.table import events as ev
from narrator.table.classic.session import ClassicSession
from narrator.table.clock import FakeClock
from narrator.table.host import LISTEN_S

NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eva", "Fay", "Gus", "Hugo", "Iris", "Jules", "Karl", "Lea", "Marc", "Nina"]


def games(n: int, seed: int = 2026) -> list[dict]:
    rules = load_classic()
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        players = rng.randint(6, len(NAMES))
        record = random_record(rules, rng, players, len(out), names=NAMES[:players], max_phases=80)
        if resolve_record(record)["camp"] is not None:
            out.append(record)
    return out


def journal_of(record: dict) -> list[ev.Event]:
    """The journal the table would hold after playing `record`: one answer event per question, each as
    the operator or the table gives it (`record_play.answer_of`)."""
    from functools import partial

    from narrator.rules.classic.engine import play_phase, start
    from narrator.rules.classic.record import RecordDecider, parse_record
    from narrator.script.classic.script import say

    rules = load_classic()
    parsed = parse_record(rules, record)
    state = start(rules, parsed)
    events: list[ev.Event] = []
    phases = [next(iter(p.values())) or {} for p in record["phases"]]
    seen: dict = {}
    for phase in parsed.phases:
        decider = RecordDecider(phase, partial(say, rules))
        at = PhaseId("night" if phase.kind == "night" else "day", phase.number)

        def journaled(method: str, decider=decider, at=at):
            def answer(ask):
                value = answer_of(phases, seen, ask, at)
                events.append(ev.Answer(at, ask.key, value, "operator", many=ask.many, field=ask.field))
                return getattr(decider, method)(ask)

            return answer

        state, _ = play_phase(rules, state, phase.kind, phase.number, Journaling(journaled))
    return events


class Journaling:
    """The engine's Decider: each question answered by `answer(method)`."""

    def __init__(self, answer) -> None:
        self.answer = answer

    def __getattr__(self, method: str):
        return self.answer(method)


def replay(record: dict, events: list[ev.Event]) -> float:
    """Seconds the table takes to replay `events` of `record`, up to its verdict."""
    deal = record["deal"]
    players = tuple(record["players"])

    class Nobody:
        def parse(self, text: str, phase: str = "any") -> list:
            return []

    session = ClassicSession(
        prompts=load_prompts(),
        voice=None,  # type: ignore[arg-type]  # nothing is said: see below
        ear=None,
        clock=FakeClock(),
        parser=Nobody(),
        phrases=lambda phase: [],
        rules=load_classic(),
        narration=load_narration(),
        players=players,
        deal=tuple(deal[p] for p in players),
        options=Options(**record["options"]),
        extra=tuple(deal.get("extra", ())),
        groups=tuple(deal["groups"][p] for p in players) if "groups" in deal else (),
        operator=None,  # type: ignore[arg-type]
        minutes=1,
    )
    # what follows the last answer (the verdict) is said aloud at a table: here, to nobody
    session._heard = lambda reason: None  # type: ignore[method-assign]
    session._speak = lambda steps: None  # type: ignore[method-assign]
    debates: list[ev.Event] = [ev.DebateOver(d) for d in range(1, len(record["phases"]) + 1)]
    start = time.perf_counter()
    ending = session.run(debates + events)
    took = time.perf_counter() - start
    assert resolve_record(ending.record)["winners"] == resolve_record(record)["winners"]
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    records = games(args.games)
    phases = sum(len(r["phases"]) for r in records)
    start = time.perf_counter()
    for record in records:
        resolve_record(record)
    took = time.perf_counter() - start
    print(f"{len(records)} jeux classiques, {phases} phases, tous les personnages de 002 et 003")
    print(f"narrator resolve : {len(records) / took:,.0f} parties/s, {phases / took:,.0f} phases/s (un cœur)")
    longest = max(records, key=lambda r: len(r["phases"]))
    events = journal_of(longest)
    runs = 20
    engine = min(_timed(lambda: resolve_record(longest)) for _ in range(runs))
    table = min(replay(longest, events) for _ in range(runs))
    print(
        f"partie la plus longue : {len(longest['phases'])} phases, {len(events)} réponses ; "
        f"resolve {engine * 1000:.1f} ms, rejeu silencieux de la table {table * 1000:.1f} ms "
        f"(× {table / engine:.1f} ; {LISTEN_S / table:,.0f} fois moins qu'un tour d'écoute de {LISTEN_S:.0f} s)"
    )


def _timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
