"""A journal's events replayed: what « annule » left, for both families (pure, no I/O).

Each « undo » takes back the latest input left that the family's `UndoRule` lets it reach; the
family's own step logic (onenight/progress.py, classic/replay.py) then reads the events kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from narrator.table import events as ev


@dataclass(frozen=True)
class UndoRule:
    """What « annule » takes back in a family: the latest event left of one of the types `takes` that
    the table said (`Event.by_table`); a ballot said before an event of the types `closes_ballots` is out
    of its reach (that vote is decided, or asked again from nothing)."""

    takes: tuple[type[ev.Event], ...]
    closes_ballots: tuple[type[ev.Event], ...] = ()


@dataclass
class Replay:
    """The events « annule » left, each with its index in the journal's events (to name its line)."""

    kept: list[tuple[int, ev.Event]] = field(default_factory=list)
    closed: set[int] = field(default_factory=set)  # the indices of the ballots out of « annule »'s reach
    taken: dict[int, int] = field(default_factory=dict)  # an undo's index -> the index of what it took back

    def open_ballots(self) -> list[tuple[int, ev.VoteInput]]:
        """The ballots kept that are still within reach: those of a vote being said."""
        return [(i, e) for i, e in self.kept if isinstance(e, ev.VoteInput) and i not in self.closed]

    def events(self) -> list[ev.Event]:
        return [e for _, e in self.kept]


def replay(events: Sequence[ev.Event], rule: UndoRule) -> Replay:
    """The events, less every input an « undo » took back."""
    done = Replay()
    for index, event in enumerate(events):
        if isinstance(event, ev.Undo):
            target = next((n for n in range(len(done.kept) - 1, -1, -1) if _reachable(done, n, rule)), None)
            if target is not None:
                done.taken[index] = done.kept.pop(target)[0]
            continue
        done.kept.append((index, event))
        if isinstance(event, rule.closes_ballots):
            done.closed.update(i for i, _ in done.open_ballots())
    return done


def undoable(events: Sequence[ev.Event], rule: UndoRule) -> ev.Event | None:
    """The input « annule » would take back now, if any."""
    taken = replay([*events, ev.Undo()], rule).taken.get(len(events))
    return None if taken is None else events[taken]


def _reachable(done: Replay, position: int, rule: UndoRule) -> bool:
    index, event = done.kept[position]
    return isinstance(event, rule.takes) and event.by_table and index not in done.closed
