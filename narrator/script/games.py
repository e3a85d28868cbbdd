"""Which game is which family: the one place where the games are named.

A family is a way of playing. `onenight`: one night, physical cards the narrator never sees, the
table tells it the cards in the morning (`onuw`, `poudlard`). `classic`: night after night, an
operator types the night's choices on a private screen (`thiercelieux`). Every other module asks
here (`family_of`, `games_of`) instead of testing a game's name; the program's start-up builds
its registry of families (narrator/app/family.py) on this table.
"""

from __future__ import annotations

ONE_NIGHT = "onenight"
CLASSIC = "classic"
FAMILY_NAMES = (ONE_NIGHT, CLASSIC)

# game -> its family, in the order the games are listed to the user
FAMILY_OF: dict[str, str] = {"onuw": ONE_NIGHT, "poudlard": ONE_NIGHT, "thiercelieux": CLASSIC}
GAMES: tuple[str, ...] = tuple(FAMILY_OF)
# the games `narrator demo` plays, the default first: one per family (scripts/demo.yaml seats both tables)
DEMO_GAMES: tuple[str, ...] = ("poudlard", "thiercelieux")


def family_of(game: object) -> str | None:
    """The family of `game`; None for a game the program does not know (or not a game id at all)."""
    return FAMILY_OF.get(game) if isinstance(game, str) else None


def games_of(family: str) -> tuple[str, ...]:
    """The games of `family`, in the order they are listed."""
    return tuple(game for game, its in FAMILY_OF.items() if its == family)
