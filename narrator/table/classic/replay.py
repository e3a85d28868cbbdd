"""A classic game's journal read back: the answers « annule » left, the ballots of a vote in progress,
the time a debate had left, and each answer put where a game record holds it (pure, no I/O)."""

from __future__ import annotations

from narrator.rules.classic.record import hold as held_by_record
from narrator.table import events as ev


def inputs(events: list[dict]) -> tuple[list[dict], dict[str, str | None]]:
    """The journaled answers, and the ballots said since the last one (a vote not yet confirmed), less
    what « annule » took back: each undo takes the latest ballot left, else the latest answer."""
    answers, ballots = journaled(events)
    return [answer for _, answer in answers], {voter: target for voter, (_, target) in ballots.items()}


def journaled(events: list[dict]) -> tuple[list[tuple[int, dict]], dict[str, tuple[int, str | None]]]:
    """`inputs`, each with its event's index in `events` (to name its journal line when it is refused)."""
    answers: list[tuple[int, dict]] = []
    ballots: list[tuple[int, ev.VoteInput]] = []
    for index, raw in enumerate(events):
        event = ev.check(raw)
        if isinstance(event, ev.Answer):
            answers.append((index, raw))
            ballots = []
        elif isinstance(event, ev.VoteInput) and event.voter is not None:
            ballots.append((index, event))
        elif isinstance(event, ev.VotesAgain):
            ballots = []
        elif isinstance(event, ev.Undo) and ballots:
            ballots.pop()
        elif isinstance(event, ev.Undo) and answers:
            answers.pop()
    return answers, {b.voter: (index, b.target) for index, b in ballots if b.voter is not None}


def debate_left(events: list[dict]) -> float | None:
    """The time a debate cut short had left (its last heartbeat, plus « encore une minute »), if one was."""
    left = None
    for event in map(ev.check, events):
        if isinstance(event, ev.Tick) and event.left is not None:
            left = float(event.left)
        elif isinstance(event, ev.MoreTime) and left is not None:
            left += event.seconds
        elif isinstance(event, (ev.DebateOver, ev.Answer)):
            left = None
    return left


def hold(choices: dict[str, object], answer: dict) -> None:
    """One journaled answer put where a record holds it (the record's own `hold`)."""
    held_by_record(choices, answer["key"], answer["value"], answer.get("field", ""), bool(answer.get("many")))
