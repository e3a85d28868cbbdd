"""The characters of a game by id and by name, and the cards a person types read as role ids.

`--roles sorcière,élève` is `--roles sorciere,eleve`: a card is looked up by its id, then with its
accents, case, spaces and hyphens folded, by id or by the character's name (« loup-garou »).
"""

from __future__ import annotations

import unicodedata

from narrator.script.onenight.script import ONE_NIGHT_GAMES, load_game

_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "Œ": "oe", "Æ": "ae", "’": "'"})


def fold(text: str) -> str:
    """ "Sœur" -> "soeur", "Élève de Poudlard" -> "eleve_de_poudlard", "montreur d'ours" -> "montreur_d_ours"."""
    plain = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    letters = "".join(c for c in plain if not unicodedata.combining(c)).lower()
    return "_".join(letters.replace("-", " ").replace("'", " ").split())


def characters(game: str) -> dict[str, tuple[str, int]]:
    """The game's characters in script order: id -> (name, how many cards of it a deal may hold)."""
    if game in ONE_NIGHT_GAMES:
        return {rid: (role.name, role.copies) for rid, role in load_game(game).roles.items()}
    from narrator.script.classic.script import GAME, load_classic

    if game != GAME:
        return {}
    return {rid: (role.name, role.copies or 1) for rid, role in load_classic().roles.items()}


def role_ids(game: str, cards: list[str]) -> list[str]:
    """Each card as a role id when it names one of the game's characters; unchanged otherwise."""
    known = characters(game)
    by_fold: dict[str, str] = {}
    for rid, (name, _) in known.items():
        by_fold.setdefault(fold(name), rid)
        by_fold[fold(rid)] = rid  # an id wins over a name that folds the same
    return [card if card in known else by_fold.get(fold(card), card) for card in cards]
