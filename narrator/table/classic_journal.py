"""A classic game's journal read back: the answers « annule » left, the ballots of a vote in progress,
the time a debate had left, and each answer put where a game record holds it (pure, no I/O)."""

from __future__ import annotations

from narrator.rules.classic.record import hold as held_by_record


def inputs(events: list[dict]) -> tuple[list[dict], dict[str, str | None]]:
    """The journaled answers, and the ballots said since the last one (a vote not yet confirmed), less
    what « annule » took back: each undo takes the latest ballot left, else the latest answer."""
    answers: list[dict] = []
    ballots: list[dict] = []
    for event in events:
        kind = event["type"]
        if kind == "answer":
            answers.append(event)
            ballots = []
        elif kind == "vote_input":
            ballots.append(event)
        elif kind == "votes_again":
            ballots = []
        elif kind == "undo" and ballots:
            ballots.pop()
        elif kind == "undo" and answers:
            answers.pop()
    return answers, {b["voter"]: b["target"] for b in ballots}


def debate_left(events: list[dict]) -> float | None:
    """The time a debate cut short had left (its last heartbeat, plus « encore une minute »), if one was."""
    left = None
    for event in events:
        kind = event["type"]
        if kind == "tick" and event.get("phase") == "debate":
            left = float(event["left"])
        elif kind == "more_time" and left is not None:
            left += event["seconds"]
        elif kind in ("debate_over", "answer"):
            left = None
    return left


def hold(choices: dict[str, object], answer: dict) -> None:
    """One journaled answer put where a record holds it (the record's own `hold`)."""
    held_by_record(choices, answer["key"], answer["value"], answer.get("field", ""), bool(answer.get("many")))
