"""The operator's screen: what only the narrator may know, and the night's choices typed in.

003: "Le narrateur ne joue pas : il mène la partie. Il est le seul à connaître tous les rôles, et
le seul à manipuler le téléphone." The operator reads plain lines (a screen reader reads them
too: no colours, no cursor tricks, every choice numbered) and types the answer: a name or its
number, "o" or "n", Entrée alone for "nothing", « annule » to take back the previous entry of the
phase. Nothing here is ever spoken aloud.

An answer is returned in the shape a game record gives it (docs/record.md), so the
table checks it with the record's own rules and journals it as it is.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TextIO

import yaml

from narrator.rules.classic.asks import Ask, Kind, Words
from narrator.rules.phase import PhaseId

YES = ("o", "oui", "y", "yes")
UNDO = ("annule", "annuler", "retour")


Part = tuple[str, Callable[[dict[str, object]], object]]  # a part of a question: its name, and asking it


class OperatorUndo(Exception):
    """The operator typed « annule »: his previous entry of this phase is to be asked again."""


NO = ("n", "non", "no")


class Operator(Protocol):
    by: str  # who answers, as the journal says it: operator, phone

    def answer(self, ask: Ask, phase: PhaseId, words: Words) -> object:
        """The answer to `ask`, as a record writes it (None: the power is not used); `words` words its
        reasons (why it is asked, what is expected)."""
        ...

    def show(self, text: str) -> None:
        """A line for the operator's eyes only."""
        ...

    def note(self, text: str, seats: Sequence[str]) -> None:
        """What these players may know now (a choice refused, the only choice left): the operator's
        screen, or their phones."""
        ...

    def refuse(self, text: str, seats: Sequence[str]) -> None:
        """The rules refused the answer just given (`text`: why), before the question is asked again: the
        operator's screen, or next to the question on the phones (never among what a player learned)."""
        ...

    def confide(self, number: int, text: str, seats: Sequence[str], replayed: bool) -> None:
        """The game's `number`th private sentence (the voyante's look, the lovers…), which `seats` learn
        (the script's `confided`); `replayed`: the game is replaying its journal, and says it again."""
        ...

    def public(self, status: str, living: Sequence[str] | None = None, night: bool | None = None) -> None:
        """What the whole table knows now: where the game is (« Nuit 2 », the verdict), who is alive
        (None: as it was), whether it is night (the phones' look)."""
        ...


class OnScreen:
    """An operator who reads everything on his own screen: the private sentences as they come."""

    by = "operator"

    def show(self, text: str) -> None:
        raise NotImplementedError

    def note(self, text: str, seats: Sequence[str]) -> None:
        self.show(text)

    def refuse(self, text: str, seats: Sequence[str]) -> None:
        self.show(text)

    def confide(self, number: int, text: str, seats: Sequence[str], replayed: bool) -> None:
        if not replayed:
            self.show(text)

    def public(self, status: str, living: Sequence[str] | None = None, night: bool | None = None) -> None:
        """The table hears it all: nothing more to show."""


class KeyboardOperator(OnScreen):
    """Asks on a text screen and reads typed lines; `read_line` raises EOFError when input ends.

    `seats`: the players in seat order. A player then has the same number in every list of the
    game (his seat), whichever players a question offers, so « 3 » always means the same person.
    """

    def __init__(
        self, read_line: Callable[[], str] | None = None, out: TextIO | None = None, seats: Sequence[str] = ()
    ) -> None:
        self.read_line = read_line or _stdin_line
        self.out = out if out is not None else sys.stdout
        self.seats = tuple(seats)
        self.hinted = False

    def show(self, text: str) -> None:
        print(f"[opérateur] {text}", file=self.out, flush=True)

    def answer(self, ask: Ask, phase: PhaseId, words: Words) -> object:
        if not self.hinted:
            self.show("À chaque question, « annule » reprend votre choix précédent de la même phase.")
            self.hinted = True
        self.show(f"{phase.label} : {words(ask.context)}.")
        plain = words(ask.plain)
        if ask.kind is Kind.PLAYER:
            return self._player(ask, plain, ask.choices)
        if ask.kind is Kind.PAIR:
            self._list(ask.choices)
            pair = self._parts(
                [
                    ("premier des deux", lambda got: self._player(ask, "premier des deux", ask.choices, listed=True)),
                    ("second des deux", lambda got: self._player(ask, "second des deux", ask.choices, listed=True)),
                ],
                until=lambda got: None in got.values(),
            )
            return None if None in pair.values() else list(pair.values())
        if ask.kind is Kind.POTIONS:
            parts: list[Part] = []
            if ask.heal is not None:
                question = f"Potion de vie pour {ask.heal}, la victime des loups-garous ?"
                parts.append(("la potion de vie", lambda got: self._yes(question)))
            elif ask.no_heal is not None:
                self.show(f"Pas de potion de vie : {words(ask.no_heal)}.")
            if ask.choices:
                parts.append(
                    (
                        "la potion de mort",
                        lambda got: self._player(ask, "Potion de mort pour qui ?", ask.choices, optional=True),
                    )
                )
            potions = self._parts(parts)
            if not ask.choices and ask.no_poison is not None:
                self.show(f"Pas de potion de mort : {words(ask.no_poison)}.")
            return {"heal": potions.get("la potion de vie", False), "poison": potions.get("la potion de mort")}
        if ask.kind is Kind.SPY:
            spy = self._parts(
                [
                    ("l'espionnage", lambda got: self._yes("A-t-elle espionné ?")),
                    ("la surprise", lambda got: self._yes("Les loups-garous l'ont-ils surprise ?")),
                ],
                until=lambda got: got.get("l'espionnage") is False,
            )
            return {"spied": spy["l'espionnage"], "caught": spy.get("la surprise", False)}
        if ask.kind is Kind.BALLOTS:
            ballots = self._parts([self._ballot(ask, voter, targets) for voter, targets in ask.ballots])
            return {v: ballots[f"le vote de {v}"] for v, _ in ask.ballots}
        if ask.kind is Kind.PLAYERS:
            return self._players(ask, plain)
        if ask.kind is Kind.OPTION:
            return self._option(ask, plain)
        if ask.kind is Kind.YES_NO:
            return self._yes(f"{plain[:1].upper()}{plain[1:]} ?")
        # a kind this screen has no form for: the record's own notation, as `expected` describes it
        self.show(f"Réponse attendue : {words(ask.expected)}.")
        text = self._line("Réponse (comme dans un enregistrement) > ")
        try:
            return yaml.safe_load(text) if text else None
        except yaml.YAMLError:
            return text

    # -- forms ------------------------------------------------------------------------------

    def _ballot(self, ask: Ask, voter: str, targets: Sequence[str]) -> Part:
        """One voter's ballot as a part of the vote's question."""
        return f"le vote de {voter}", lambda got: self._player(
            ask, f"Vote de {voter} (Entrée : blanc)", targets, optional=True
        )

    def _parts(self, parts: list[Part], until: Callable[[dict[str, object]], bool] = lambda got: False) -> dict:
        """A question in parts (Cupidon's two lovers, the two potions, each ballot), asked in order until
        `until` says the rest is moot: « annule » at a part takes back the part before it and says so;
        at the first part, it is the previous question's (OperatorUndo)."""
        got: dict[str, object] = {}
        while len(got) < len(parts) and not until(got):
            label, ask_part = parts[len(got)]
            try:
                got[label] = ask_part(got)
            except OperatorUndo:
                if not got:
                    raise
                back = list(got)[-1]
                self.show(f"Annulé : {back}, {typed_as(got.pop(back))} ; à nouveau.")
        return got

    def _player(
        self, ask: Ask, question: str, choices: Iterable[str], listed: bool = False, optional: bool | None = None
    ) -> str | None:
        choices = tuple(choices)
        if not listed:
            self._list(choices)
        optional = not ask.forced if optional is None else optional
        hint = " (numéro ou nom" + (", Entrée : personne)" if optional else ")")
        while True:
            text = self._line(f"{question}{hint} > ")
            if not text:
                if optional:
                    return None
                self.show("Une réponse est obligatoire.")
                continue
            return pick(text, choices, self.seats)

    def _players(self, ask: Ask, plain: str) -> list[str]:
        self._list(ask.choices)
        many = f"{ask.count} joueurs" if ask.count is not None else "des joueurs (Entrée : aucun)"
        text = self._line(f"{plain} : {many}, numéros ou noms séparés par des virgules > ")
        words = [w for w in re.split(r"[,;]" if re.search(r"[,;]", text) else r"\s+", text) if w.strip()]
        return [pick(w.strip(), ask.choices, self.seats) for w in words]

    def _option(self, ask: Ask, plain: str) -> object:
        self.show("Choix : " + ", ".join(f"{i} {label}" for i, (_, label) in enumerate(ask.options, 1)) + ".")
        hint = " (numéro" + ("" if ask.forced else ", Entrée : rien") + ")"
        while True:
            text = self._line(f"{plain}{hint} > ")
            if not text and not ask.forced:
                return None
            if text.isdigit() and 1 <= int(text) <= len(ask.options):
                return ask.options[int(text) - 1][0]
            self.show(f"Un numéro de 1 à {len(ask.options)}.")

    def _list(self, choices: tuple[str, ...]) -> None:
        self.show("Choix : " + ", ".join(f"{i} {name}" for i, name in numbered(choices, self.seats)) + ".")

    def _yes(self, question: str) -> bool:
        while True:
            text = self._line(f"{question} (o/n) > ").lower()
            if text in YES:
                return True
            if text in NO:
                return False
            self.show("Répondez o ou n.")

    def _line(self, prompt: str) -> str:
        print(f"[opérateur] {prompt}", end="", file=self.out, flush=True)
        text = self.read_line().strip()
        if text.lower() in UNDO:
            raise OperatorUndo()
        return text


def typed_as(value: object) -> str:
    """An answer as the operator would have typed it: names, oui/non, rien."""
    if isinstance(value, list):
        return ", ".join(typed_as(v) for v in value) or "rien"
    if isinstance(value, dict):
        return ", ".join(f"{k} {typed_as(v)}" for k, v in value.items()) or "rien"
    if isinstance(value, bool):
        return "oui" if value else "non"
    return "rien" if value is None else str(value)


def numbered(choices: tuple[str, ...], seats: tuple[str, ...] = ()) -> list[tuple[int, str]]:
    """Each choice with its number: its seat when every choice is a seated player, else its rank."""
    if seats and all(c in seats for c in choices):
        return [(seats.index(c) + 1, c) for c in choices]
    return list(enumerate(choices, 1))


def pick(text: str, choices: tuple[str, ...], seats: tuple[str, ...] = ()) -> str:
    """A typed number or name as the player it means; else the text as typed (the check refuses it)."""
    if text.isdigit():
        by_number = dict(numbered(choices, seats))
        if int(text) in by_number:
            return by_number[int(text)]
        if seats and 1 <= int(text) <= len(seats):
            return seats[int(text) - 1]  # a player this question does not offer: the check says why
    folded = _fold(text)
    same = [c for c in choices if _fold(c) == folded]
    return same[0] if same else text


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold().strip()


def _stdin_line() -> str:
    line = sys.stdin.readline()
    if not line:
        raise EOFError("fin des entrées de l'opérateur")
    return line
