"""What a one-night table hears before the day's questions: the legend, the night, the debate's
opening, its reminders and the vote call — chosen for the characters in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from narrator.script.line import Step
from narrator.script.onenight.announce import Announcements
from narrator.table.host import Debate
from narrator.table.voice import to_items
from narrator.voice import Item


@dataclass(frozen=True)
class Plan:
    """One table's narration: what is read straight through, then the timed day."""

    opening: list[Item]  # the legend, the night and the day's first lines, played as one
    sections: list[int]  # where in `opening` a resumed game may restart: the legend, each call, the day
    debate: Debate  # its length and reminders
    vote: list[Item]
    night: int = 0  # where in `opening` the night begins (after the legend), for « répète la nuit »
    callers: tuple[tuple[str, ...], ...] = ()  # for each section, the characters its call wakes (none: no call)


def plan(announce: Announcements, in_play: Sequence[str], minutes: int | None = None, legend: bool = True) -> Plan:
    """Choose the lines for the characters in play (dealt or in the center) and the debate's length."""
    minutes = minutes if minutes is not None else announce.minutes
    pieces = [announce.setup_steps(in_play)] if legend else []
    pieces += announce.night_sections(in_play) + [announce.opening_steps(minutes)]
    steps: list[Step] = []
    sections: list[int] = []
    for piece in pieces:
        sections.append(len(steps))
        steps += piece
    night = sections[1] if legend else 0
    callers = ((),) * (1 if legend else 0) + tuple(announce.night_callers(in_play)) + ((),)
    debate = Debate.of(minutes, announce.reminders)
    return Plan(to_items(steps), sections, debate, to_items(announce.vote), night, callers)
