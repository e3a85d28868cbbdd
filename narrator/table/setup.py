"""What every family's table checks before its game begins: names the table can say and tell apart."""

from __future__ import annotations

from narrator.listen.compiled import setup_parser, table_parser
from narrator.rules.errors import RecordError
from narrator.rules.names import parse_players


class SetupError(ValueError):
    """A table that cannot be set up as asked; one French sentence."""


def check_names(game: str, players: list[str]) -> None:
    """Names a table can have (rules/names.py: distinct, each with a letter) and the narrator can say
    and tell apart; `SetupError` naming the bad one."""
    try:
        parse_players(players, (), "autour de la table")
    except RecordError as exc:
        raise SetupError(f"--players : attendu : {exc.expected} ; trouvé : {exc.found}") from None
    check_spoken_names(game, players)


def check_spoken_names(game: str, players: list[str]) -> None:
    """Names the table can say and the narrator can tell apart (a name of no letter, two that sound
    the same, a command word or a character of the game), refused before the game's journal is made."""
    try:
        table_parser(game, players)
    except ValueError as exc:
        raise SetupError(f"--players : {exc}") from None
    listener = setup_parser(game)
    for name in players:
        refusal = listener.name_refusal(name)
        if refusal:
            raise SetupError(f"--players : {refusal}")
