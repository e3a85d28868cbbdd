"""A table about to play: its game, its players, the cards in play, what the narrator will say."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from narrator.rules.errors import RecordError
from narrator.rules.onenight.record import check_setup
from narrator.script.onenight.script import GameScript, UnknownGame, load_shipped
from narrator.table.bounds import refusal
from narrator.table.onenight.announcer import Plan, plan
from narrator.table.setup import SetupError, check_spoken_names


@dataclass
class Table:
    script: GameScript
    players: list[str]
    roles: list[str]  # the cards in play: dealt and center
    narration: Plan
    legend: bool = True


def build_table(
    game: str,
    players: list[str],
    roles: list[str] | None = None,
    scenario: str | None = None,
    minutes: int | None = None,
    first_game: bool = False,
    legend: bool = True,
) -> Table:
    """Check the table (names, cards, players + 3) and choose what the narrator says; `SetupError` if wrong."""
    try:
        script = load_shipped(game)
    except UnknownGame as exc:
        raise SetupError(str(exc)) from None
    if scenario is not None:
        roles = scenario_cards(script.announce.scenarios, scenario, len(players))
    roles = list(roles or [])
    try:
        check_setup(script.rules, players, roles)
    except RecordError as exc:
        option = "--players" if exc.path[:1] == ("players",) else "--roles"
        raise SetupError(f"{option} : attendu : {exc.expected} ; trouvé : {exc.found}") from None
    check_spoken_names(game, players)
    if minutes is not None and (problem := refusal("minutes", minutes)):
        raise SetupError(f"--minutes : {problem}")
    minutes = minutes or (script.announce.first_game_minutes if first_game else None)
    return Table(script, players, roles, plan(script.announce, roles, minutes, legend=legend), legend)


def scenario_cards(scenarios: Mapping[str, Mapping[int, tuple[str, ...]]], name: str, players: int) -> list[str]:
    """The cards of a ready-made scenario for this many players."""
    if name not in scenarios:
        known = ", ".join(scenarios) or "aucun"
        raise SetupError(f"--scenario : scénario inconnu « {name} » ; attendu : {known}")
    by_count = scenarios[name]
    if players not in by_count:
        counts = ", ".join(str(n) for n in sorted(by_count))
        raise SetupError(f"--scenario {name} : prévu pour {counts} joueurs ; trouvé : {players} joueurs")
    return list(by_count[players])
