"""One property over random classic games: for every call that wakes a character, the table hears its
matching « se rendort » exactly once, in order, whatever the operator takes back and wherever the game is
killed and resumed.

A game is killed at a journal point (an event that is never written: the process died just before) and
resumed in-process from the events written, as `narrator resume` does (tests/crash_rig_classic.py kills
real processes); the operator types « annule » at random prompts."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from test_session import ClockSpeaker, fake_render

from narrator.app.family import resolve_record
from narrator.app.record_play import RecordOperator, RecordVoices
from narrator.listen.french import Parser
from narrator.rules.classic import Options
from narrator.rules.classic.deal import random_record
from narrator.script.classic.narration import load_narration
from narrator.script.classic.script import load_classic
from narrator.script.prompts import load_prompts
from narrator.table import events as ev
from narrator.table.classic.operator import OperatorUndo
from narrator.table.classic.replay import inputs
from narrator.table.classic.session import ClassicSession
from narrator.table.clock import FakeClock
from narrator.table.voice import Voice

RULES = load_classic()
NARRATION = load_narration()
NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eva", "Fay", "Gus", "Hugo", "Iris", "Jules", "Karl", "Léa"]
CALL_OF = {}  # a call's wake or sleep line id -> (the call's index, "wake" or "sleep")
for index, call in enumerate(NARRATION.calls):
    for part in ("wake", "sleep"):
        for line in getattr(call, part):
            assert line.id not in CALL_OF, line.id  # each line belongs to one call
            CALL_OF[line.id] = (index, part)


class Killed(Exception):
    """The process died at a journal point."""


class DyingJournal:
    """A journal kept in memory that dies at the given attempts to write (counted over all runs)."""

    def __init__(self, kill_at: set[int]) -> None:
        self.events: list[ev.Event] = []
        self.kill_at = kill_at
        self.attempts = 0

    def append(self, event: ev.Event) -> None:
        if isinstance(event, ev.Tick):
            return  # the heartbeat's thread: not a point the table acts at
        self.attempts += 1
        if self.attempts in self.kill_at:
            raise Killed()
        self.events.append(ev.check(ev.to_json(event)))  # the journal's own definition of each event

    def close(self) -> None:
        pass


class CorrectingOperator(RecordOperator):
    """Types the record's answers, and « annule » at the given prompts (counted over all runs) before
    typing the same answer again."""

    def __init__(self, record: dict, undo_at: set[int], prompts: list[int]) -> None:
        super().__init__(record)
        self.undo_at = undo_at
        self.prompts = prompts  # one shared counter: [prompts so far]
        self.typed: list[tuple[str, str, bool]] = []  # (phase, key, many) of each entry typed

    def answer(self, ask, phase, words):
        if self.shown and self.shown[-1].startswith("Annulé") and self.typed:
            taken_phase, taken_key, many = self.typed.pop()  # his entry is asked again: the same answer
            if many:
                self.seen[(taken_phase, taken_key)] -= 1
        self.prompts[0] += 1
        if self.prompts[0] in self.undo_at:
            self.shown.append("(annule tapé)")
            raise OperatorUndo()
        self.typed.append((phase, ask.key, ask.many))
        return super().answer(ask, phase, words)


def session_for(record: dict, journal: DyingJournal, undo_at: set[int], prompts: list[int], events: list[ev.Event]):
    clock = FakeClock()
    speaker = ClockSpeaker(clock)
    operator = CorrectingOperator(record, undo_at, prompts)
    ear = RecordVoices(record)
    for answer in inputs(events)[0]:  # a resumed game: the record's lists go on where the journal stands
        if answer.many:
            who = operator if answer.by == "operator" else ear
            place = (answer.phase, answer.key)
            who.seen[place] = who.seen.get(place, 0) + 1
    deal = record["deal"]
    session = ClassicSession(
        prompts=load_prompts(),
        voice=Voice(fake_render, speaker),
        ear=ear,
        clock=clock,
        parser=Parser("thiercelieux", record["players"]),
        phrases=lambda phase: [],
        journal=journal,  # type: ignore[arg-type]
        rules=RULES,
        narration=NARRATION,
        players=tuple(record["players"]),
        deal=tuple(deal[p] for p in record["players"]),
        options=Options(**record["options"]),
        extra=tuple(deal.get("extra", ())),
        groups=tuple(deal["groups"][p] for p in record["players"]) if "groups" in deal else (),
        operator=operator,
        minutes=1,
    )
    ear.session = session
    return session, speaker


def every_wake_sleeps_once(runs: list[list[str]]) -> None:
    """Each call's sleep heard once, after its wake and before any other line; a resumed run may say the
    call it was in again (its wake), as its first line after the one that says where the game is."""
    open_call = None
    for number, run in enumerate(runs):
        # a resumed run first says where the game stands (« On reprend la partie… »), outside any call
        first = next((i for i, line_id in enumerate(run) if not line_id.startswith("resumed_")), len(run))
        for at, line_id in enumerate(run):
            if number > 0 and at < first:
                continue
            call, part = CALL_OF.get(line_id, (None, None))
            if part == "wake":
                again = open_call == call and number > 0 and at == first
                assert open_call is None or again, f"run {number}, {line_id}: call {open_call} not ended"
                open_call = call
            elif part == "sleep":
                assert open_call == call, f"run {number}, {line_id}: its call is not open ({open_call})"
                open_call = None
            else:
                assert open_call is None, f"run {number}, {line_id} said inside call {open_call}"
    assert open_call is None


# A random game: its deal and choices (seed, players), the journal points it is killed at, the operator's
# prompts he answers « annule » at.
GAMES = {
    "seed": st.integers(0, 2**32),
    "players": st.integers(6, len(NAMES)),
    "kill_at": st.sets(st.integers(1, 120), max_size=4),
    "undo_at": st.sets(st.integers(1, 40), max_size=4),
}


# 40 random games, and two the 150 found when a resumed night said again the wake of a call the table
# had already heard the end of (the check on what was last heard before the stop, ClassicSession's
# _wake_again): the default run keeps catching it.
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(seed=2231493, players=7, kill_at={15}, undo_at={6})
@example(seed=2231493, players=7, kill_at={8, 22, 32, 33}, undo_at={8, 22, 32, 33})
@given(**GAMES)
def test_every_wake_has_its_sleep_once_through_undo_and_resume(seed, players, kill_at, undo_at) -> None:
    every_call_heard_once(seed, players, kill_at, undo_at)


@pytest.mark.full  # the count the property was written with
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
def test_every_wake_has_its_sleep_once_through_undo_and_resume_full(seed, players, kill_at, undo_at) -> None:
    every_call_heard_once(seed, players, kill_at, undo_at)


def every_call_heard_once(seed: int, players: int, kill_at: set[int], undo_at: set[int]) -> None:
    record = random_record(RULES, random.Random(seed), players, seed, names=NAMES[:players], max_phases=30)
    expected = resolve_record(record)
    assume(expected["camp"] is not None)
    journal = DyingJournal(kill_at)
    prompts = [0]
    runs: list[list[str]] = []
    for _ in range(len(kill_at) + 1):
        events = list(journal.events)
        session, speaker = session_for(record, journal, undo_at, prompts, events)
        try:
            ending = session.run(events)
        except Killed:
            runs.append([line_id for _, line_id, _ in speaker.heard])
            continue
        runs.append([line_id for _, line_id, _ in speaker.heard])
        break
    every_wake_sleeps_once(runs)
    assert ending.winners == expected["winners"]
