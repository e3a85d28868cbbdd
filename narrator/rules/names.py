"""Names in records and at a table: the players (a non-empty list of distinct names, each one a voice
can say) and a record's `id` (a plain string or number, printed back as it is in JSON).

Two names are one when they differ only by case, accents or spacing (« Cléo », « cleo », « Cle o »,
and « Cléo » written with a combining accent): the table could not tell them apart. A name must
hold a letter: one made only of spaces, digits or invisible characters (zero-width) cannot be said.
A name holds no control or format character either (a right-to-left override U+202E, a zero-width
space, a line separator): shown on a screen or in a terminal, it would hide or reorder what is around it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping
from functools import lru_cache

from narrator.rules.errors import RecordError, missing


@lru_cache(maxsize=4096)  # a long list of records seats the same names again and again
def same_name_key(name: str) -> str:
    """What two names that are one share: no case, no accents, no spacing or invisible characters."""
    decomposed = unicodedata.normalize("NFKD", name).casefold()
    return "".join(c for c in decomposed if unicodedata.category(c)[0] not in "MZC")


def name_problem(name: object) -> str | None:
    """Why `name` is not a name a player can have, if it is not."""
    if not isinstance(name, str) or not name.strip():
        return "un nom (texte non vide)"
    return _text_problem(name)


@lru_cache(maxsize=4096)
def _text_problem(name: str) -> str | None:
    if any(0xD800 <= ord(c) <= 0xDFFF for c in name):
        return "un nom en texte Unicode valide (pas d'octets non UTF-8)"
    if not any(unicodedata.category(c).startswith("L") for c in name):
        return "un nom qui contient au moins une lettre"
    hidden = next((c for c in name if unicodedata.category(c) in _HIDDEN), None)
    if hidden is not None:
        return f"un nom sans caractère de contrôle ni de mise en forme invisible (U+{ord(hidden):04X})"
    return None


# control, format (bidirectional overrides, zero-width), line and paragraph separators
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp"})


def parse_players(players: object, reserved: Collection[str], order: str, reserved_said: str = "") -> tuple[str, ...]:
    """Check `players` (`order` says what their order means; `reserved_said` what the `reserved` words
    stand for in a record); raise `RecordError` naming the bad one."""
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
            raise RecordError(("players", i), reserved_said or "un nom autre que " + ", ".join(sorted(reserved)), name)
        key = same_name_key(name)
        if key in seen:
            raise RecordError(("players", i), f"des noms tous différents (« {seen[key]} » est déjà à la table)", name)
        seen[key] = name
    return tuple(players)


MAX_ID_DIGITS = 15  # a number id stays exact in every JSON reader (doubles hold 15 significant digits)


def parse_id(raw: object) -> str | int | float | None:
    """A record's `id`: absent, a plain string or a number; `RecordError` otherwise (a date, bytes, a
    number too long to be read back exactly, NaN or infinity, a lone surrogate, a list…)."""
    value = raw.get("id") if isinstance(raw, Mapping) else None
    expected = "un identifiant : un texte simple, ou un nombre d'au plus 15 chiffres"
    if value is None:
        return None
    if isinstance(value, str):
        if any(0xD800 <= ord(c) <= 0xDFFF for c in value) or len(value) > 200:
            raise RecordError(("id",), expected, value[:40])
        return value
    if isinstance(value, bool):
        raise RecordError(("id",), expected, value)
    if isinstance(value, int):
        if abs(value) >= 10**MAX_ID_DIGITS:
            raise RecordError(("id",), expected, f"un nombre de plus de {MAX_ID_DIGITS} chiffres")
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise RecordError(("id",), expected, "un nombre infini ou NaN")
        return value
    kinds = {"date": "une date", "datetime": "une date et une heure", "bytes": "des octets (!!binary)"}
    kinds |= {"list": "une liste", "dict": "un mapping"}
    raise RecordError(("id",), expected, kinds.get(type(value).__name__, type(value).__name__))
