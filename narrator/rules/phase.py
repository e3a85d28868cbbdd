"""Which phase of a multi-night game: a night or a day, and its number. The program identifies a phase
by this data; its French label (« nuit 2 ») is made here only, for what is shown or said."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["night", "day"]
KINDS: tuple[Kind, ...] = ("night", "day")  # the order of a round: night 1, day 1, night 2…


@dataclass(frozen=True, slots=True)
class PhaseId:
    kind: Kind
    number: int  # from 1

    @property
    def label(self) -> str:
        return label(self.kind, self.number)

    @property
    def index(self) -> int:
        """Its place in a game record's list of phases (night 1 is 0, day 1 is 1, night 2 is 2…)."""
        return (self.number - 1) * 2 + KINDS.index(self.kind)


def label(kind: str, number: int) -> str:
    """« nuit 2 », « jour 1 »: for the operator's screen, a record's paths and the resolver's output."""
    return f"{'nuit' if kind == 'night' else 'jour'} {number}"
