"""A classic game record played at the table: the operator's entries and the players' words read from it.

`narrator demo thiercelieux` plays a random legal game this way, and the tests play every
character through the table so. `RecordOperator` types what the record says each night role chose;
`RecordVoices` is an ear: whenever the table listens, the player the question is for says what the
record says he decided (« Ana vote contre Ben », « Dan », « oui »), through a voice of his own when
the demo gives one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from narrator.listen.ear import Heard
from narrator.rules.classic.asks import Ask, Kind, Words
from narrator.rules.phase import PhaseId
from narrator.table.classic.operator import OnScreen, typed_as
from narrator.table.classic.replay import debated

Speak = Callable[[str, str, Sequence[str], float], str | None]  # (who, words, phrases, timeout) -> heard text


class RecordOperator(OnScreen):
    """Types what a record says each night role chose (the operator's screen, scripted)."""

    def __init__(self, record: dict, show: Callable[[str], None] | None = None) -> None:
        self.phases = _phases(record)
        self.seen: dict[tuple[PhaseId, str], int] = {}
        self.shown: list[str] = []
        self._show = show

    def show(self, text: str) -> None:
        self.shown.append(text)
        if self._show is not None:
            self._show(text)

    def answer(self, ask: Ask, phase: PhaseId, words: Words) -> object:
        value = answer_of(self.phases, self.seen, ask, phase)
        if self._show is not None:
            self._show(f"{phase.label} : {words(ask.context)} — entré : {typed_as(value)}")
        return value


class RecordVoices:
    """An ear: the player a question is for says the record's answer; « on vote » ends each debate.

    `session` is the `ClassicSession` it listens for (its `asking`, `number`, `label`, `events`);
    `speak` says the words aloud and returns what the recognizer heard (None: the words as text)."""

    def __init__(self, record: dict, speak: Speak | None = None, at_the_end: str = "non") -> None:
        self.phases = _phases(record)
        self.at_the_end = at_the_end  # the answer to « Voulez-vous l'histoire de la partie ? »
        self.session: Any = None
        self.speak = speak
        self.seen: dict[tuple[PhaseId, str], int] = {}
        self.queue: list[tuple[str, str]] = []
        self.for_ask: object = None

    def listen(self, phrases: Sequence[str], timeout_s: float) -> Heard | None:
        who, words = self._next()
        heard = self.speak(who, words, phrases, timeout_s) if self.speak is not None else None
        return Heard(words if heard is None else heard)

    def _next(self) -> tuple[str, str]:
        session = self.session
        if session.story_offered:  # the game is over: the first player answers the offer of its story
            return session.players[0], self.at_the_end
        ask = session.asking
        # who speaks: the player the question is for, else one who may answer it (alive)
        who = ask.who or (ask.ballots[0][0] if ask.ballots else ask.choices[0] if ask.choices else session.players[0])
        if ask.key == "votes" and session.number not in debated(session.events):
            return who, "on vote"
        if ask is not self.for_ask:
            self.for_ask = ask
            value = answer_of(self.phases, self.seen, ask, session.phase)
            if ask.kind is Kind.BALLOTS and isinstance(value, dict):
                self.queue = [(v, f"{v} vote contre {t or 'personne'}") for v, t in value.items()]
            else:
                self.queue = [(who, str(value or "personne"))]
            self.queue.append((who, "oui"))
        return self.queue.pop(0)

    def close(self) -> None:
        """Nothing to release."""


def answer_of(phases: list[dict], seen: dict, ask: Ask, phase: PhaseId) -> object:
    """The record's answer to `ask`, one answer at a time (one field of a mapping, one of a list)."""
    value = phases[phase.index].get(ask.key)
    if ask.field:
        value = value.get(ask.field) if isinstance(value, dict) else None
    if ask.many and isinstance(value, list):
        nth = seen.get((phase, ask.key), 0)
        seen[(phase, ask.key)] = nth + 1
        value = value[nth]
    if ask.again and value is True:
        value = ask.choices[0]
    if ask.again and value not in ask.choices:
        value = None  # she takes the place of someone who dies later in the phase
    return value


def _phases(record: dict) -> list[dict]:
    return [next(iter(p.values())) or {} for p in record["phases"]]
