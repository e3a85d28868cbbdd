"""`narrator model check`: every word of every phase grammar the installed model cannot hear, and what to say instead.

The phase grammars are built as a table gets them (narrator/listen/grammar.py), with two seated
names that stand for any (a seated name is checked when the table sits down: model.check_names).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from narrator.listen.compiled import load, setup_parser, table_parser
from narrator.listen.french import PHASES, Listener, fold, phrasebook
from narrator.listen.grammar import FREE_PHASES, expansions_by_intent, spoken_lists
from narrator.listen.heard import character_forms, hears, symbol_of
from narrator.listen.model import known_words
from narrator.script.games import GAMES

__all__ = ["Unheard", "check", "report"]

SEATED = ("Ana", "Ben")  # stand for the names at a table: their own words are not the grammar's
CHARACTER_COMMANDS = ("reveal", "character")  # a character word: its own alternative is the one to say
SEATED_WORDS = frozenset(w for name in SEATED for w in name.lower().split())


@dataclass
class Unheard:
    """A word of the grammars the model lacks: where it is used and what the narrator accepts instead."""

    word: str
    phases: dict[str, list[str]] = field(default_factory=dict)  # grammar (a game, or the setup of one) -> phases
    characters: dict[str, str] = field(default_factory=dict)  # "game:role" -> what to say instead
    commands: dict[str, str | None] = field(default_factory=dict)  # command -> a phrase of it the model hears

    @property
    def instead(self) -> str:
        """In French: what the table can say instead, or that nothing replaces it."""
        ways = [f"{who} : {way}" for who, way in self.characters.items()]
        ways += [
            f"{c} : « {said} »" if said else f"{c} : plus aucune phrase entendue" for c, said in self.commands.items()
        ]
        return " ; ".join(ways) or "rien (un mot de remplissage : la phrase est comprise sans lui)"

    def where(self, everywhere: dict[str, list[str]]) -> str:
        """The grammars and phases that hold the word; « partout » when it is in all of them."""
        if self.phases == everywhere:
            return "partout"
        return " ; ".join(f"{grammar} : {', '.join(phases)}" for grammar, phases in self.phases.items())


def check(model: Any) -> list[Unheard]:
    """The grammars' words the model cannot hear, in alphabetical order."""
    found: dict[str, Unheard] = {}
    for grammar, game, listener, phase in _grammars():
        # the phrases by command: the same for every model, kept in the compiled cache (a walk takes 20 s)
        by_command = load("model check", (grammar, phase), functools.partial(_phrases, listener, phase))
        words_of = {command: set(" ".join(texts).split()) for command, texts in by_command.items()}
        words = set().union(*words_of.values()) - SEATED_WORDS
        known = known_words(model, words) | SEATED_WORDS
        examples: dict[str, str | None] = {}
        for word in sorted(words - known):
            entry = found.setdefault(word, Unheard(word))
            entry.phases.setdefault(grammar, []).append(phase)
            roles = _roles_by_word(game).get(word, [])
            commands_of = {command for command, said in words_of.items() if word in said}
            for role in roles:
                entry.characters.setdefault(f"{game}:{role}", _character_instead(model, game, role))
            for command in sorted(commands_of - {"", *(CHARACTER_COMMANDS if roles else ())}):
                if command not in examples:
                    examples[command] = _example(by_command[command], known)
                if entry.commands.get(command) is None:
                    entry.commands[command] = examples[command]
    return [found[w] for w in sorted(found, key=lambda w: (fold(w), w))]


def _example(phrases: set[str], known: set[str]) -> str | None:
    """The shortest phrase the model hears whole, two different players rather than one twice."""
    heard = [t for t in phrases if set(t.split()) <= known]
    return min(heard, key=lambda t: (len(set(t.split())) < len(t.split()), len(t), t)) if heard else None


def report(model: Any, where: str) -> Iterator[str]:
    """The lines `narrator model check` prints."""
    unheard = check(model)
    yield f"Modèle : {where}"
    if not unheard:
        yield "Le modèle connaît tous les mots des grammaires."
        return
    yield f"{len(unheard)} mots des grammaires sont inconnus du modèle (à la place, ce que le narrateur entend) :"
    everywhere: dict[str, list[str]] = {}
    for grammar, _, _, phase in _grammars():
        everywhere.setdefault(grammar, []).append(phase)
    for entry in unheard:
        yield f"« {entry.word} » [{entry.where(everywhere)}] → {entry.instead}"


def _grammars() -> Iterator[tuple[str, str, Listener, str]]:
    for game in GAMES:
        parser = table_parser(game, SEATED)
        for phase in PHASES:
            yield game, game, parser, phase
        setup = setup_parser(game)
        for phase in setup.phases:
            if phase not in FREE_PHASES:
                yield f"mise en place {game}", game, setup, phase


def _phrases(listener: Listener, phase: str) -> dict[str, set[str]]:
    """command -> the phrases of its templates in `phase`, as the recognizer's grammar holds them ("": fillers)."""
    book = listener.book
    out: dict[str, set[str]] = defaultdict(set)
    out[""] = {" ".join(t.lower().split()) for t in (*book.fillers, *book.not_names)}
    intents = book.intents(phase, spoken=True, commands=listener.commands)
    for command, texts in expansions_by_intent(intents, spoken_lists(listener)).items():
        for text in texts:
            said = " ".join(text.lower().split())
            out[command].update({said, said.replace("-", " ")})
    return dict(out)


@functools.cache
def _roles_by_word(game: str) -> dict[str, list[str]]:
    """word -> the characters of `game` one of whose names holds it."""
    roles: dict[str, set[str]] = defaultdict(set)
    for alias, rid in phrasebook().role_aliases(game):
        if ":" not in rid:
            for word in _words(alias):
                roles[word].add(rid)
    return {word: sorted(rids) for word, rids in roles.items()}


def _words(text: str) -> set[str]:
    said = text.lower()
    return {*said.split(), *said.replace("-", " ").split()}


def _character_instead(model: Any, game: str, role: str) -> str:
    heard = [f for f in character_forms(game, role) if hears(model, f)]
    symbol = symbol_of(game, role)
    if heard:
        return f"« {heard[0]} »"
    if symbol and hears(model, symbol):
        return f"son symbole « {symbol} »"
    return "son numéro dans la légende"
