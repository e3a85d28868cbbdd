"""A classic game's journal read back: the answers « annule » left, the ballots of a vote in progress,
the time a debate had left, the lines the table has heard, and each answer put where a game record
holds it (pure, no I/O)."""

from __future__ import annotations

from collections.abc import Sequence

from narrator.rules.classic.record import hold as held_by_record
from narrator.table import events as ev
from narrator.table.replay import UndoRule, replay

# « annule » takes back the latest ballot of the vote being said, else the latest answer; a vote's
# ballots are out of its reach once the vote is an answer, or is asked again
UNDO = UndoRule(takes=(ev.VoteInput, ev.Answer), closes_ballots=(ev.Answer, ev.VotesAgain))

Ballots = dict[str, str | None]


def inputs(events: Sequence[ev.Event]) -> tuple[list[ev.Answer], Ballots]:
    """The journaled answers, and the ballots of the vote being said, less what « annule » took back."""
    answers, ballots = journaled(events)
    return [answer for _, answer in answers], {voter: target for voter, (_, target) in ballots.items()}


def journaled(
    events: Sequence[ev.Event],
) -> tuple[list[tuple[int, ev.Answer]], dict[str, tuple[int, str | None]]]:
    """`inputs`, each with its event's index in `events` (to name its journal line when it is refused)."""
    done = replay(events, UNDO)
    answers = [(i, e) for i, e in done.kept if isinstance(e, ev.Answer)]
    return answers, {b.voter: (i, b.target) for i, b in done.open_ballots() if b.voter is not None}


def debated(events: Sequence[ev.Event]) -> set[int]:
    """The days whose debate is over."""
    return {e.day for e in events if isinstance(e, ev.DebateOver)}


def debate_left(events: Sequence[ev.Event]) -> float | None:
    """The time a debate cut short had left (its last heartbeat, plus « encore une minute »), if one was."""
    left = None
    for event in events:
        if isinstance(event, ev.Tick) and event.left is not None:
            left = float(event.left)
        elif isinstance(event, ev.MoreTime) and left is not None:
            left += event.seconds
        elif isinstance(event, (ev.DebateOver, ev.Answer)):
            left = None
    return left


def heard(events: Sequence[ev.Event]) -> int:
    """How many lines of the night and of the engine the table has heard and need not hear again: the last
    `said` mark, less what followed an answer the table's « annule » took back (its consequences, said
    anew). The operator's « annule » lowers nothing: the same calls come back in the same order."""
    taken = replay(events, UNDO).taken
    said = 0
    said_at: dict[int, int] = {}  # an answer's index -> the lines heard when it was given
    for index, event in enumerate(events):
        if isinstance(event, ev.Said):
            said = event.lines
        elif isinstance(event, ev.Answer):
            said_at[index] = said
        elif index in taken:
            back = events[taken[index]]
            if isinstance(back, ev.Answer) and back.by == "voice":
                said = said_at[taken[index]]
    return said


def hold(choices: dict[str, object], answer: ev.Answer) -> None:
    """One journaled answer put where a record holds it (the record's own `hold`)."""
    held_by_record(choices, answer.key, answer.value, answer.field, answer.many)
