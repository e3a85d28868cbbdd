"""A game's script (scripts/GAME.yaml) loaded, validated and turned into the engine's `Ruleset`."""

from __future__ import annotations

import string
from functools import cache
from pathlib import Path
from typing import Any, cast

from narrator.resources import data_dir
from narrator.rules.model import CopyTiming, DayPower, Options, Power, Role, Ruleset, Team, Victory
from narrator.script.marks import Marked, Problem, YamlError, load_marked
from narrator.script.schema import schema_problems

ONE_NIGHT_GAMES = ("onuw", "poudlard")

# The placeholders each explanation template may use.
_PLACEHOLDERS = {
    "copied_name": {"role"},
    "most_votes": {"name", "count"},
    "tie": {"names", "count"},
    "spared": {"name"},
    "drag": {"name", "role", "target"},
    "dead_card": {"name", "role"},
    "village_wins": {"name", "role"},
    "village_wins_team": {"name", "role"},
    "hunter_shot_wolf": {"name"},
    "no_wolf_traitor_dead": {"name", "role"},
    "no_wolf_someone_dead": {"names"},
    "tanner_wins": {"name", "role"},
    "winners": {"names"},
}


class UnknownGame(ValueError):
    """A game name that has no script."""


def script_path(game: str) -> Path:
    """The shipped script of `game`."""
    if game not in ONE_NIGHT_GAMES:
        raise UnknownGame(f"jeu inconnu « {game} » ; attendu : {', '.join(ONE_NIGHT_GAMES)}")
    return data_dir("scripts") / f"{game}.yaml"


@cache
def load_game(game: str) -> Ruleset:
    """The validated `Ruleset` of a shipped game."""
    path = script_path(game)
    return load_script(path.read_text(encoding="utf-8"), f"scripts/{path.name}")


def load_script(text: str, file: str) -> Ruleset:
    """Validate a script's text; raise `YamlError` listing every problem with file:line:column."""
    doc = load_marked(text, file)
    problems = schema_problems(doc)
    if not problems:
        problems = _cross_checks(doc)
    if problems:
        raise YamlError(problems)
    return _ruleset(cast(dict, doc.data))


def _cross_checks(doc: Marked) -> list[Problem]:
    """What a schema cannot say: roles that fit together, templates that can be filled."""
    data = cast(dict[str, Any], doc.data)  # the schema passed: a mapping
    roles: dict = data["roles"]
    out = []
    for rid, role in roles.items():
        at = ("roles", rid)
        power = role.get("power")
        if power != Power.COPY.value and "team" not in role:
            out.append(doc.problem(at, "clé manquante « team » (seul le Doppelgänger s'en passe)"))
        if power and "wake" not in role:
            out.append(doc.problem(at, "clé manquante « wake » : un personnage qui agit la nuit a un ordre de réveil"))
        if role.get("lone_peek") and power != Power.RECOGNIZE.value:
            out.append(doc.problem(at + ("lone_peek",), "lone_peek ne va qu'avec power: recognize"))
        if "group" in role and power != Power.RECOGNIZE.value:
            out.append(doc.problem(at + ("group",), "group ne va qu'avec power: recognize"))
    for i, group in enumerate(data.get("together", [])):
        for j, rid in enumerate(group):
            if rid not in roles:
                out.append(doc.problem(("together", i, j), f"personnage inconnu « {rid} »"))
    for key, allowed in _PLACEHOLDERS.items():
        template = data["texts"][key]
        variants: list[tuple[str | None, str]] = (
            list(template.items()) if isinstance(template, dict) else [(None, template)]
        )
        for variant, text in variants:
            used = {name for _, name, _, _ in string.Formatter().parse(text) if name}
            for name in sorted(used - allowed):
                where: tuple = ("texts", key) + ((variant,) if variant else ())
                out.append(doc.problem(where, f"{{{name}}} inconnu ; attendu : {', '.join(sorted(allowed))}"))
    for key in set(data["texts"]) - set(_PLACEHOLDERS):
        template = data["texts"][key]
        if isinstance(template, str) and any(n for _, n, _, _ in string.Formatter().parse(template)):
            out.append(doc.problem(("texts", key), "ce texte ne prend aucun {…}"))
    return out


def _ruleset(data: dict) -> Ruleset:
    roles = {}
    for rid, r in data["roles"].items():
        roles[rid] = Role(
            id=rid,
            name=r["name"],
            team=Team(r["team"]) if "team" in r else None,
            power=Power(r["power"]) if "power" in r else None,
            wake=r.get("wake"),
            group=r.get("group", rid if r.get("power") == Power.RECOGNIZE.value else None),
            lone_peek=r.get("lone_peek", False),
            wolf=r.get("wolf", False),
            copies=r.get("copies", 1),
            day=DayPower(r["day"]) if "day" in r else None,
            as_copy=CopyTiming(r["as_copy"]) if "as_copy" in r else None,
        )
    opts = data.get("options", {})
    options = Options(
        victory=Victory(opts.get("victory", Victory.INDIVIDUAL.value)),
        one_vote_each_saves_all=opts.get("one_vote_each_saves_all", False),
        tanner_blocks_wolves=opts.get("tanner_blocks_wolves", False),
    )
    together = tuple(tuple(g) for g in data.get("together", []))
    return Ruleset(game=data["game"], roles=roles, options=options, together=together, texts=data["texts"])


__all__ = ["ONE_NIGHT_GAMES", "UnknownGame", "YamlError", "load_game", "load_script", "script_path"]
