"""The players of a record or a table: a non-empty list of distinct names, each one a voice can say.

Two names are one when they differ only by case, accents or spacing (« Cléo », « cleo », « Cle o »,
and « Cléo » written with a combining accent): the table could not tell them apart. A name must
hold a letter: one made only of spaces, digits or invisible characters (zero-width) cannot be said.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection

from narrator.rules.errors import RecordError, missing


def same_name_key(name: str) -> str:
    """What two names that are one share: no case, no accents, no spacing or invisible characters."""
    decomposed = unicodedata.normalize("NFKD", name).casefold()
    return "".join(c for c in decomposed if unicodedata.category(c)[0] not in "MZC")


def name_problem(name: object) -> str | None:
    """Why `name` is not a name a player can have, if it is not."""
    if not isinstance(name, str) or not name.strip():
        return "un nom (texte non vide)"
    if any(0xD800 <= ord(c) <= 0xDFFF for c in name):
        return "un nom en texte Unicode valide (pas d'octets non UTF-8)"
    if not any(unicodedata.category(c).startswith("L") for c in name):
        return "un nom qui contient au moins une lettre"
    return None


def parse_players(players: object, reserved: Collection[str], order: str) -> tuple[str, ...]:
    """Check `players` (`order` says what their order means); raise `RecordError` naming the bad one."""
    if players is None:
        raise missing(("players",), f"la liste des joueurs, {order}")
    if not isinstance(players, list) or not players:
        raise RecordError(("players",), "une liste non vide de noms", players)
    seen: dict[str, str] = {}
    for i, name in enumerate(players):
        problem = name_problem(name)
        if problem:
            raise RecordError(("players", i), problem, name)
        if name in reserved:
            raise RecordError(("players", i), "un nom autre que " + ", ".join(sorted(reserved)), name)
        key = same_name_key(name)
        if key in seen:
            raise RecordError(("players", i), f"des noms tous différents (« {seen[key]} » est déjà à la table)", name)
        seen[key] = name
    return tuple(players)
