"""An operator that answers from a list: the operator's screen scripted, for tests and rehearsals."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from narrator.rules.classic.asks import Ask, Words
from narrator.rules.phase import PhaseId
from narrator.table.classic.operator import UNDO, OnScreen, OperatorUndo


class ScriptedOperator(OnScreen):
    """Answers from a list of (record key, answer), in order (tests, rehearsals); shows go to `shown`.
    An entry « annule » (the bare word) is the operator taking back his previous entry."""

    def __init__(self, answers: Iterable[tuple[str, object] | str]) -> None:
        self._answers: Iterator[tuple[str, object] | str] = iter(answers)
        self.shown: list[str] = []
        self.asked: list[tuple[str, str]] = []  # (phase's label, key) of every question

    def show(self, text: str) -> None:
        self.shown.append(text)

    def answer(self, ask: Ask, phase: PhaseId, words: Words) -> object:
        self.asked.append((phase.label, ask.key))
        try:
            entry = next(self._answers)
        except StopIteration:
            raise EOFError(f"{phase.label} : plus de réponse de l'opérateur pour « {ask.key} »") from None
        if isinstance(entry, str):  # the bare word: « annule »
            if entry in UNDO:
                raise OperatorUndo()
            raise EOFError(f"{phase.label} : l'opérateur écrit « {entry} », la partie demande « {ask.key} »")
        key, value = entry
        if key != ask.key:
            raise EOFError(f"{phase.label} : l'opérateur répond à « {key} », la partie demande « {ask.key} »")
        return value
