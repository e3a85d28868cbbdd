"""Which ways of saying a character the installed speech model can hear, and what to say when it hears none.

A small model may lack a character's name (« mangemort », « dumbledore »): vosk then never
writes it, whatever the player says. The phrasebook's `respell` section gives other ways to say
it in common French words (« mange mort »); the forms kept are those whose every word the model
has (`vosk_model_find_word`). When none is left, the character can still be named by its tactile
symbol (Poudlard's cards, 001 « Adaptation ») or by its number in the legend read at the start.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from narrator.listen.ear_words import ear_words
from narrator.listen.french import phrasebook
from narrator.listen.model import known_words
from narrator.script.games import ONE_NIGHT, family_of
from narrator.script.onenight.script import script_path

__all__ = [
    *("Unheard", "character_forms", "heard_forms", "hears", "symbol_of", "unheard_characters", "unheard_in_play"),
    "with_respellings",
]


def character_forms(game: str, role: str) -> list[str]:
    """Every way the narrator understands `role` of `game`: its name, the phrasebook's aliases, the respellings."""
    said = [alias.lower() for alias, rid in phrasebook().role_aliases(game) if rid == role]
    return list(dict.fromkeys([*said, *ear_words().respell.get(game, {}).get(role, ())]))


def hears(model: Any, form: str) -> bool:
    """The model has every word of `form` (hyphens as one word, or as spaces)."""
    return any(
        words and len(known_words(model, words)) == len(set(words))
        for words in (form.split(), form.replace("-", " ").split())
    )


def heard_forms(model: Any, game: str, role: str) -> list[str]:
    """The forms of `role` the installed model can hear: its name and aliases first, then the respellings."""
    return [form for form in character_forms(game, role) if hears(model, form)]


def symbol_of(game: str, role: str) -> str | None:
    """The card's tactile symbol (lowercase), if its game's script gives one."""
    return _symbols(game).get(role)


@cache
def _symbols(game: str) -> dict[str, str]:
    if family_of(game) != ONE_NIGHT:
        return {}
    data = yaml.safe_load(script_path(game).read_text(encoding="utf-8"))  # the shipped script, already checked
    roles = data.get("roles") or {}
    return {rid: str(role["symbol"]).lower() for rid, role in roles.items() if role.get("symbol")}


@dataclass(frozen=True)
class Unheard:
    """A character in play the model cannot hear by any of its names, and what to say instead."""

    role: str
    name: str  # as the legend says it
    respellings: tuple[str, ...]  # respellings the model hears
    symbol: str | None  # the tactile symbol, when the model hears it
    number: int | None  # its place in the legend read at the start (from 1), when known

    @property
    def instead(self) -> str:
        """« dites … » in French: the first way the model can hear."""
        if self.respellings:
            return "dites " + " ou ".join(f"« {r} »" for r in self.respellings)
        if self.symbol:
            return f"dites son symbole, « {self.symbol} »"
        if self.number is not None:
            return f"dites son numéro dans la légende, {self.number}"
        return "désignez-le au clavier"

    @property
    def message(self) -> str:
        """One French sentence for the table."""
        said = f"Le modèle de reconnaissance ne connaît pas le mot « {self.name} »"
        return f"{said} : pour ce personnage, {self.instead}."


def unheard_characters(
    model: Any, game: str, in_play: Iterable[str], legend: Sequence[str] | None = None, names: dict | None = None
) -> list[Unheard]:
    """Characters in play of which the model can hear no name nor alias.

    legend: the role ids in the order the legend says them (for their numbers); names: role id ->
    the name the legend says (else the first form).
    """
    book_forms = {alias.lower() for alias, _ in phrasebook().role_aliases(game)}
    out = []
    for role in dict.fromkeys(in_play):
        forms = character_forms(game, role)
        if any(hears(model, f) for f in forms if f in book_forms):
            continue
        respelled = tuple(f for f in ear_words().respell.get(game, {}).get(role, ()) if hears(model, f))
        symbol = symbol_of(game, role)
        number = list(legend).index(role) + 1 if legend and role in legend else None
        name = (names or {}).get(role) or (forms[0] if forms else role)
        out.append(Unheard(role, name, respelled, symbol if symbol and hears(model, symbol) else None, number))
    return out


def unheard_in_play(model: Any, script: Any, in_play: Sequence[str], legend_read: bool) -> list[str]:
    """The sentences the start of a game says for the characters in play the model cannot hear.

    script: the game's GameScript (its legend gives the names and, when read, the numbers).
    """
    legend = script.announce.legend
    order = [rid for rid in legend if rid in set(in_play)]
    names = {rid: entry.name for rid, entry in legend.items()}
    problems = unheard_characters(model, script.rules.game, order, order if legend_read else None, names)
    return [p.message for p in problems]


def with_respellings(model: Any, game: str, phrases: Sequence[str]) -> list[str]:
    """A phase grammar with, beside each phrase naming a character by a form the model cannot hear,
    the same phrase with each respelling of that character the model can hear (« mange mort »)."""
    swaps: list[tuple[str, str]] = []  # (" unheard form ", "respelling")
    book_forms = [(alias.lower(), rid) for alias, rid in phrasebook().role_aliases(game) if ":" not in rid]
    for role, forms in _by_role(book_forms).items():
        respelled = [f for f in ear_words().respell.get(game, {}).get(role, ()) if f not in forms and hears(model, f)]
        for form in forms:
            for said in dict.fromkeys((form, form.replace("-", " "))):
                if not hears(model, said):
                    swaps += [(f" {said} ", r) for r in respelled]
    out = list(phrases)
    for phrase in phrases:
        padded = f" {phrase} "
        out += [padded.replace(said, f" {r} ").strip() for said, r in swaps if said in padded]
    return list(dict.fromkeys(out))


def _by_role(pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for form, rid in pairs:
        out.setdefault(rid, []).append(form)
    return out
