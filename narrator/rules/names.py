"""The players of a record: a non-empty list of distinct names, none of them a reserved word."""

from __future__ import annotations

from collections.abc import Collection

from narrator.rules.errors import RecordError, missing


def parse_players(players: object, reserved: Collection[str], order: str) -> tuple[str, ...]:
    """Check `players` (`order` says what their order means); raise `RecordError` naming the bad one."""
    if players is None:
        raise missing(("players",), f"la liste des joueurs, {order}")
    if not isinstance(players, list) or not players:
        raise RecordError(("players",), "une liste non vide de noms", players)
    seen: set[str] = set()
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise RecordError(("players", i), "un nom (texte non vide)", name)
        if name in reserved:
            raise RecordError(("players", i), "un nom autre que " + ", ".join(sorted(reserved)), name)
        if name in seen:
            raise RecordError(("players", i), "des noms tous différents", name)
        seen.add(name)
    return tuple(players)
