"""One phase in progress: the rules, who answers, and what the phase has done so far."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from narrator.rules.classic.asks import Decider
from narrator.rules.classic.model import PhaseReport, Rules
from narrator.rules.reason import Reason


@dataclass
class Turn:
    """The scratchpad of one phase (mutable, never outlives it): deaths, what was told, reasons."""

    rules: Rules
    decider: Decider
    kind: str  # "night" | "day"
    number: int
    dead: list[str] = field(default_factory=list)
    learned: dict[str, dict[str, object]] = field(default_factory=dict)
    why: list[Reason] = field(default_factory=list)
    replaced: set[str] = field(default_factory=set)  # the eliminated whose place and role the servante took
    first_vote: bool = False  # the day's first vote is being counted (003, Ange: "le premier tour de vote")
    listener: Callable[[Reason], None] | None = None  # hears each reason as it happens (the table speaks it)

    def say(self, key: str, **params: object) -> None:
        reason = Reason(key, params)
        self.why.append(reason)
        if self.listener is not None:
            self.listener(reason)

    def say_together(self, aloud: Reason, reasons: list[Reason]) -> None:
        """Several reasons the table hears as one sentence, `aloud` (the morning's dead, without their
        causes: RULINGS 23); `why` keeps each of them, for the operator and the story."""
        self.why.extend(reasons)
        if self.listener is not None:
            self.listener(aloud)

    def tell(self, player: str, what: str, value: object) -> None:
        self.learned.setdefault(player, {})[what] = value

    def name(self, role_id: str) -> str:
        return self.rules.roles[role_id].name

    def report(self) -> PhaseReport:
        return PhaseReport(self.kind, self.number, tuple(self.dead), self.learned, tuple(self.why))
