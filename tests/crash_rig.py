"""Kill a scripted game with SIGKILL after its journal reached some event, resume it, compare.

Used by tests/test_crash.py (a few points) and benchmarks/crash.py (50 random points)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from narrator.table.events import Cards, Event, Outcome, Vote
from narrator.table.journal import finished, read_journal
from narrator.table.onenight.progress import Progress, progress

PLAYERS = ["Ana", "Ben", "Chloé", "Dan"]
ROLES = ["mangemort", "mangemort", "hermione", "sirius", "eleve", "eleve", "harry"]
VOTES = {"Ana": "Ben", "Ben": "Chloé", "Chloé": "Ben", "Dan": "Ana"}
CARDS = {"Ana": "eleve", "Ben": "mangemort", "Chloé": "harry", "Dan": "sirius"}


def answers(done: dict | None = None) -> list[str]:
    """What the players say, skipping what the journal shows they already said."""
    state = progress(done["events"]) if done else None
    said = vote_words(state, VOTES)
    if state is None or state.stage != "verdict":
        known = state.cards if state else {}
        said += [CARDS[p] for p in PLAYERS if p not in known]
        said.append("oui")
    return said


def vote_words(state: Progress | None, votes: dict[str, str]) -> list[str]:
    """« on vote », each ballot the journal does not hold yet, « oui »: what the table says to vote."""
    said: list[str] = []
    if state is None or state.stage in ("night", "debate"):
        said.append("on vote")
    if state is None or state.stage in ("night", "debate", "vote"):
        voted = {c.voter for c in state.inputs} if state else set()
        said += [f"{v.lower()} vote contre {t.lower()}" for v, t in votes.items() if v not in voted]
        said.append("oui")
    return said


def command(tmp: Path, journal: Path, said: list[str], resume: bool) -> list[str]:
    script = tmp / f"answers-{time.monotonic_ns()}.txt"
    script.write_text("\n".join(said) + "\n", encoding="utf-8")
    common = ["--ear", f"script:{script}", "--no-wait", "--wav", str(tmp / "out.wav")]
    if resume:
        return [sys.executable, "-m", "narrator", "resume", str(journal), *common]
    table = ["--players", ",".join(PLAYERS), "--roles", ",".join(ROLES), "--no-legend", "--minutes", "2"]
    return [sys.executable, "-m", "narrator", "play", "poudlard", *table, "--journal", str(journal), *common]


def confirmed(journal: Path) -> list[Event]:
    """The inputs a game confirmed: what must be neither lost nor doubled."""
    _, events, _ = read_journal(journal)
    return [e for e in events if isinstance(e, (Vote, Cards, Outcome))]


def play_through(tmp: Path, env: dict) -> list[Event]:
    journal = tmp / "whole.jsonl"
    run = subprocess.run(command(tmp, journal, answers(), False), env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return confirmed(journal)


def kill_at(command: list[str], env: dict, journal: Path, after_events: int, typed: str = "") -> int:
    """Run `command` (`typed` on its standard input) and SIGKILL it once `journal` holds `after_events`
    events; how many it held then (all of them if the game ended first)."""
    process = subprocess.Popen(
        command, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdin is not None
    process.stdin.write(typed)
    process.stdin.close()
    seen = 0
    while process.poll() is None:
        if journal.exists():
            seen = journal.read_bytes().count(b"\n") - 1  # less the header
            if seen >= after_events:
                os.kill(process.pid, signal.SIGKILL)
                break
        time.sleep(0.001)
    process.wait()
    return seen


def kill_and_resume(tmp: Path, env: dict, after_events: int) -> tuple[list[Event], int]:
    """Kill the game once its journal holds `after_events` events (or at its end), then resume it."""
    journal = tmp / f"crash-{after_events}-{time.monotonic_ns()}.jsonl"
    seen = kill_at(command(tmp, journal, answers(), False), env, journal, after_events)
    header, events, _ = read_journal(journal)
    if not finished(events):
        said = answers({"events": events})
        run = subprocess.run(command(tmp, journal, said, True), env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr + repr(events)
    return confirmed(journal), seen
