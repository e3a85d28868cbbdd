"""Kill a scripted classic game (`narrator play thiercelieux`) with SIGKILL after its journal reached some
event, resume it with what was not yet typed or said, compare with the uninterrupted game.

Used by tests/test_crash.py (a few points) and benchmarks/crash.py (random points)."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from crash_rig import kill_at

from narrator.table.events import Answer, DebateOver, Event, Outcome, VoteInput
from narrator.table.journal import finished, read_journal

PLAYERS = ["Ana", "Ben", "Cleo", "Dan", "Eva"]
ROLES = ["loup", "voyante", "sorciere", "chasseur", "villageois"]
# the operator's lines for each night entry: the voyante looks at Ana, the pack devours Eva, no potion
TYPED = {"voyante": ["1"], "loup": ["Eva"], "sorciere": ["n", ""]}
VOTES = {"Ana": "Dan", "Ben": "Dan", "Cleo": "Dan", "Dan": "Ana"}  # Dan, the hunter, is voted out…
SHOT = "ana"  # …and shoots Ana, the last wolf


def inputs(events: list[Event]) -> tuple[str, list[str]]:
    """What the operator still has to type and the table still has to say, given the journal so far
    (no « annule » in this game)."""
    answered = {e.key for e in events if isinstance(e, Answer)}
    typed = [line for key, lines in TYPED.items() if key not in answered for line in lines]
    said: list[str] = []
    if not any(isinstance(e, DebateOver) for e in events):
        said.append("on vote")
    if "votes" not in answered:
        voted = {e.voter for e in events if isinstance(e, VoteInput)}
        said += [f"{v.lower()} vote contre {t.lower()}" for v, t in VOTES.items() if v not in voted]
        said.append("oui")
    if "chasseur" not in answered:
        said += [f"je tire sur {SHOT}", "oui"]
    return "".join(line + "\n" for line in typed), said


def command(tmp: Path, journal: Path, said: list[str], resume: bool) -> list[str]:
    script = tmp / f"voix-{time.monotonic_ns()}.txt"
    script.write_text("\n".join(said) + "\n", encoding="utf-8")
    common = ["--ear", f"script:{script}", "--no-wait", "--wav", str(tmp / "out.wav")]
    if resume:
        return [sys.executable, "-m", "narrator", "resume", str(journal), *common]
    table = ["--players", ",".join(PLAYERS), "--roles", ",".join(ROLES), "--minutes", "2"]
    return [sys.executable, "-m", "narrator", "play", "thiercelieux", *table, "--journal", str(journal), *common]


def confirmed(journal: Path) -> list[Event]:
    """Each answer the game used (whoever gave it) and its outcome: what must be neither lost nor doubled."""
    _, events, _ = read_journal(journal)
    return [replace(e, by="") if isinstance(e, Answer) else e for e in events if isinstance(e, (Answer, Outcome))]


def play_through(tmp: Path, env: dict) -> list[Event]:
    journal = tmp / "whole-classic.jsonl"
    typed, said = inputs([])
    run = subprocess.run(
        command(tmp, journal, said, False), input=typed, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return confirmed(journal)


def kill_and_resume(tmp: Path, env: dict, after_events: int) -> tuple[list[Event], int]:
    """Kill the game once its journal holds `after_events` events (or at its end), then resume it."""
    journal = tmp / f"crash-classic-{after_events}-{time.monotonic_ns()}.jsonl"
    typed, said = inputs([])
    seen = kill_at(command(tmp, journal, said, False), env, journal, after_events, typed)
    _, events, _ = read_journal(journal)
    if not finished(events):
        typed, said = inputs(events)
        run = subprocess.run(
            command(tmp, journal, said, True), input=typed, env=env, capture_output=True, text=True, timeout=120
        )
        assert run.returncode == 0, run.stderr
    return confirmed(journal), seen
