"""A classic table about to play: the deal checked as a game record checks it."""

from __future__ import annotations

from narrator.rules.classic import Record, parse_record
from narrator.rules.errors import RecordError
from narrator.script.classic.script import GAME, load_classic
from narrator.table.setup import SetupError, check_spoken_names

# the record's key a deal's problem is found at -> the command-line option that gave it
_OPTION_OF = {"players": "--players", "extra": "--extra", "groups": "--groups"}


def check_deal(
    players: list[str],
    roles: list[str],
    options: dict[str, bool] | None = None,
    extra: list[str] | None = None,
    groups: dict[str, int] | None = None,
) -> Record:
    """The table as a record checks it (names, one card a seat, the box's limits, the undealt cards, the
    sectaire's groups); `SetupError` if wrong."""
    deal: dict[str, object] = dict(zip(players, roles))
    if extra:
        deal["extra"] = extra
    if groups:
        deal["groups"] = groups
    raw: dict[str, object] = {"players": players, "deal": deal, "phases": []}
    if options:
        raw["options"] = options
    if len(roles) != len(players):
        raise SetupError(
            f"--roles : attendu : un personnage par joueur, dans l'ordre des joueurs ({len(players)}) ; "
            f"trouvé : {len(roles)}"
        )
    try:
        record = parse_record(load_classic(), raw)
    except RecordError as exc:
        key = exc.path[1] if exc.path[:1] == ("deal",) and len(exc.path) > 1 else exc.path[0] if exc.path else ""
        raise SetupError(f"{_OPTION_OF.get(str(key), '--roles')} : {exc.describe()}") from None
    check_spoken_names(GAME, list(record.players))
    return record
