"""The characters of a game by id and by name, and the cards a person types read as role ids.

`--roles sorcière,élève` is `--roles sorciere,eleve`: a card is looked up by its id, then with its
accents, case, spaces and hyphens folded, by id or by the character's name (« loup-garou »).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Protocol

from narrator.script.classic.script import load_classic
from narrator.script.games import CLASSIC, ONE_NIGHT, family_of
from narrator.script.onenight.script import load_game

_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "Œ": "oe", "Æ": "ae", "’": "'"})


def fold(text: str) -> str:
    """ "Sœur" -> "soeur", "Élève de Poudlard" -> "eleve_de_poudlard", "montreur d'ours" -> "montreur_d_ours"."""
    plain = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    letters = "".join(c for c in plain if not unicodedata.combining(c)).lower()
    return "_".join(letters.replace("-", " ").replace("'", " ").split())


class Character(Protocol):
    """What every family's role has: its name as the legend says it."""

    @property
    def name(self) -> str: ...


def roles_of(game: str) -> Mapping[str, Character]:
    """The game's characters by id, from its family's script; `UnknownGame` (a ValueError) if no game."""
    if family_of(game) == CLASSIC:
        return load_classic().roles
    return load_game(game).roles


def title_of(game: str) -> str:
    """The game's name as its script gives it (« Loup-Garou pour une nuit »), never its id (« onuw »)."""
    if family_of(game) == CLASSIC:
        from narrator.script.classic.narration import load_narration

        return load_narration().title
    from narrator.script.onenight.script import load_shipped

    return load_shipped(game).announce.title


def characters(game: str) -> dict[str, tuple[str, int]]:
    """The game's characters in script order: id -> (name, how many cards of it a deal may hold)."""
    family = family_of(game)
    if family == ONE_NIGHT:
        return {rid: (role.name, role.copies) for rid, role in load_game(game).roles.items()}
    if family == CLASSIC:
        return {rid: (role.name, role.copies or 1) for rid, role in load_classic().roles.items()}
    return {}


def role_ids(game: str, cards: list[str]) -> list[str]:
    """Each card as a role id when it names one of the game's characters; unchanged otherwise."""
    known = characters(game)
    by_fold: dict[str, str] = {}
    for rid, (name, _) in known.items():
        by_fold.setdefault(fold(name), rid)
        by_fold[fold(rid)] = rid  # an id wins over a name that folds the same
    return [card if card in known else by_fold.get(fold(card), card) for card in cards]
