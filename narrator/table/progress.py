"""Where a journaled game stands: replaying its events gives the step to resume at (pure)."""

from __future__ import annotations

from dataclasses import dataclass, field

from narrator.listen.commands import Command
from narrator.rules import Vote


@dataclass
class Progress:
    """A game's state as its journal tells it."""

    stage: str = "night"  # night, debate, vote, cards, verdict, done
    night_at: float = 0.0  # seconds of the night's audio already heard
    debate_left: float | None = None  # None: the debate has not started
    inputs: list[Command] = field(default_factory=list)  # the vote's inputs so far, not yet confirmed
    vote: Vote | None = None
    cards: dict[str, str] = field(default_factory=dict)
    cards_confirmed: bool = False
    pointing: dict[str, str | None] = field(default_factory=dict)


UNDOABLE = ("start_vote", "vote_input", "vote", "card", "cards", "pointing")


def undoable(events: list[dict]) -> dict | None:
    """The input « annule » would take back, if any."""
    return next((e for e in reversed(_without_undone(events)) if e["type"] in UNDOABLE), None)


def _without_undone(events: list[dict]) -> list[dict]:
    """The events less every input an « undo » took back (each undo takes the latest one left)."""
    kept: list[dict] = []
    for event in events:
        if event["type"] != "undo":
            kept.append(event)
            continue
        for i in range(len(kept) - 1, -1, -1):
            if kept[i]["type"] in UNDOABLE:
                del kept[i]
                break
    return kept


def progress(events: list[dict]) -> Progress:
    """Replay journal events (in order) into the point where the game goes on; an « undo » replays all but
    the input it takes back."""
    state = Progress()
    for event in _without_undone(events):
        kind = event["type"]
        if kind == "tick" and event.get("phase") == "night":
            state.night_at = float(event["at"])
        elif kind == "night_done":
            state.stage = "debate"
        elif kind == "tick" and event.get("phase") == "debate":
            state.debate_left = float(event["left"])
        elif kind == "more_time" and state.debate_left is not None:
            state.debate_left += event["seconds"]
        elif kind in ("start_vote", "debate_done"):
            state.stage = "vote"
        elif kind == "vote_input":
            state.inputs.append(Command(**event["command"]))
        elif kind == "votes_again":
            state.inputs.clear()
        elif kind == "vote":
            state.vote = Vote(event["counts"], event["pointing"])
            state.stage = "cards"
        elif kind == "card":
            state.cards[event["player"]] = event["role"]
        elif kind == "cards":
            state.cards = dict(event["cards"])
            state.cards_confirmed = True
            state.stage = "verdict"
        elif kind == "pointing":
            state.pointing[event["player"]] = event["target"]
        elif kind == "outcome":
            state.stage = "done"
    return state
