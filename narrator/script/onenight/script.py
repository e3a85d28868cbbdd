"""A game's script (scripts/GAME.yaml) loaded, validated and turned into the engine's `Ruleset`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

from narrator.resources import data_dir
from narrator.rules.errors import RecordError
from narrator.rules.onenight.model import CopyTiming, DayPower, Options, Power, Role, Ruleset, Team, Victory
from narrator.rules.onenight.record import check_setup
from narrator.script.games import ONE_NIGHT, family_of, games_of
from narrator.script.marks import Marked, Problem, YamlError, load_marked
from narrator.script.onenight.announce import Announcements, parse_announcements
from narrator.script.onenight.phone_words import PhoneWords, parse_phone_words, phone_problems
from narrator.script.onenight.schema import GAME
from narrator.script.schema import schema_problems
from narrator.script.templates import fixed_problems, template_problems, text_problems

# The placeholders each explanation template may use.
_PLACEHOLDERS = {
    "copied_name": {"role"},
    "most_votes": {"name", "count"},
    "tie": {"names", "count"},
    "most_votes_spared": {"name", "count"},
    "tie_spared": {"names", "count"},
    "spared": {"name"},
    "captured": {"names"},
    "drag": {"name", "role", "target"},
    "drag_tied": {"name", "role", "target"},
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
    if family_of(game) != ONE_NIGHT:
        raise UnknownGame(f"jeu inconnu « {game} » ; attendu : {', '.join(games_of(ONE_NIGHT))}")
    return data_dir("scripts") / f"{game}.yaml"


@dataclass(frozen=True)
class GameScript:
    """A game's script: the rules the engine plays, and what the narrator says."""

    rules: Ruleset
    announce: Announcements
    phones: PhoneWords | None = None  # the words on the players' phones (a script may have none)


@cache
def load_shipped(game: str) -> GameScript:
    """The validated script of a shipped game."""
    path = script_path(game)
    return load_script(path.read_text(encoding="utf-8"), f"scripts/{path.name}")


def load_game(game: str) -> Ruleset:
    """The validated `Ruleset` of a shipped game."""
    return load_shipped(game).rules


def load_script(text: str, file: str) -> GameScript:
    """Validate a script's text; raise `YamlError` listing every problem with file:line:column."""
    doc = load_marked(text, file)
    problems = schema_problems(doc, GAME)
    if not problems:
        problems = _cross_checks(doc) + _announcement_checks(doc) + phone_problems(doc)
    if problems:
        raise YamlError(sorted(problems, key=lambda p: (p.line, p.column)))
    data = cast(dict, doc.data)
    return GameScript(_ruleset(data), parse_announcements(data), parse_phone_words(data))


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
    traitor = next((rid for rid, r in roles.items() if r.get("team") == "loups" and not r.get("wolf")), None)
    if traitor and "wolves_and_traitor_win" not in data["texts"]:
        why = f"clé manquante « wolves_and_traitor_win » : le verdict quand « {traitor} » gagne avec les loups"
        out.append(doc.problem(("texts",), why))
    for i, group in enumerate(data.get("together", [])):
        for j, rid in enumerate(group):
            if rid not in roles:
                out.append(doc.problem(("together", i, j), f"personnage inconnu « {rid} »"))
    for key, template in data["texts"].items():
        out += template_problems(doc, ("texts", key), template, _PLACEHOLDERS.get(key, set()))
    return out


def _announcement_checks(doc: Marked) -> list[Problem]:
    """Every call names known characters, every waking character is called, ids are unique, templates fill."""
    data = cast(dict[str, Any], doc.data)
    roles = data["roles"]
    out = []
    called = set()
    # (path, line, the placeholders it may use; None: a fixed line, said as written)
    lines: list[tuple[tuple, dict, set[str] | None]] = []
    for i, item in enumerate(data["setup"]):
        lines.append((("setup", i), item, {"name", "team", "stars", "symbol"} if "legend" in item else None))
    for i, item in enumerate(data["night"]):
        if "call" in item:
            for j, rid in enumerate(item["call"]):
                if rid not in roles:
                    out.append(doc.problem(("night", i, "call", j), f"personnage inconnu « {rid} »"))
                called.add(rid)
            for j, line in enumerate(item["lines"]):
                lines.append((("night", i, "lines", j), line, None))
                for k, rid in enumerate(line.get("only", [])):
                    if rid not in roles:
                        out.append(doc.problem(("night", i, "lines", j, "only", k), f"personnage inconnu « {rid} »"))
        else:
            lines.append((("night", i), item, None))
    out += _wake_order_problems(doc)
    for rid, role in roles.items():
        if "power" in role and rid not in called:
            out.append(
                doc.problem(("roles", rid), "ce personnage se réveille la nuit mais aucun « call » ne l'appelle")
            )
    day = data["day"]
    lines += [(("day", "opening", i), line, {"minutes"}) for i, line in enumerate(day["opening"])]
    for i, line in enumerate(day["opening"]):
        if "say_one" in line:
            out += text_problems(doc, ("day", "opening", i, "say_one"), line["say_one"], {"minutes"})
    lines += [(("day", "reminders", i), line, None) for i, line in enumerate(day["reminders"])]
    lines += [(("day", "vote", i), line, None) for i, line in enumerate(day["vote"])]
    seen: dict[str, tuple] = {}
    for path, line, allowed in lines:
        text = line.get("say", line.get("legend"))
        if text is None:
            continue  # a wait
        key = "say" if "say" in line else "legend"
        if allowed is None:
            out += fixed_problems(doc, path + (key,), text)
        else:
            out += text_problems(doc, path + (key,), text, allowed)
        if "id" in line:
            if line["id"] in seen or line["id"].startswith("legend_"):
                out.append(doc.problem(path + ("id",), f"identifiant « {line['id']} » déjà pris"))
            seen[line["id"]] = path
    for name, scenario in data.get("scenarios", {}).items():
        for count, cards in scenario["players"].items():
            where = ("scenarios", name, "players", count)
            if not isinstance(count, int) or count < 1:
                out.append(doc.problem(where, f"attendu : un nombre de joueurs ; trouvé : {count}", at_key=True))
                continue
            try:
                check_setup(_ruleset(data), [f"joueur {i + 1}" for i in range(count)], cards)
            except RecordError as exc:
                sub = exc.path[1:] if exc.path[:1] == ("roles",) else ()
                out.append(doc.problem(where + sub, f"attendu : {exc.expected} ; trouvé : {exc.found}"))
    shortest = min(day["discussion"]["minutes"], day["discussion"]["first_game_minutes"]) * 60
    for i, reminder in enumerate(day["reminders"]):
        if reminder["left"] >= shortest:
            out.append(
                doc.problem(("day", "reminders", i, "left"), f"attendu : moins que la durée du débat ({shortest} s)")
            )
    return out


def _wake_order_problems(doc: Marked) -> list[Problem]:
    """The calls in the order the engine plays the night: each role's `wake`. A copying character
    (the Doppelgänger) is called once more, after everyone, for the copy that acts last."""
    data = cast(dict[str, Any], doc.data)
    roles = data["roles"]
    out = []
    called: set[str] = set()
    latest: tuple[int | float, str] | None = None  # the last wake called so far, and whose
    for i, item in enumerate(data["night"]):
        known = [rid for rid in item.get("call", ()) if rid in roles]
        again = [rid for rid in known if rid in called]
        called.update(known)
        twice = [rid for rid in again if roles[rid].get("power") != Power.COPY.value]
        out += [doc.problem(("night", i, "call"), f"« {rid} » est déjà appelé plus haut") for rid in twice]
        if again and len(again) == len(known):
            if not twice:
                latest = (math.inf, again[0])  # the copy's last action: nobody wakes after it
            continue
        wakes = [(roles[rid]["wake"], rid) for rid in known if rid not in again and "wake" in roles[rid]]
        if not wakes:
            continue
        first = min(wakes)
        if latest is not None and first[0] < latest[0]:
            before = "pour la fin de la nuit" if latest[0] == math.inf else f"(roles.{latest[1]}.wake : {latest[0]})"
            message = f"appel mal placé : « {first[1]} » se réveille à {first[0]} (roles.{first[1]}.wake)"
            out.append(
                doc.problem(("night", i, "call"), f"{message}, mais « {latest[1]} » est appelé plus haut {before}")
            )
        latest = max([*wakes, latest] if latest else wakes)
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


__all__ = [
    "GameScript",
    "UnknownGame",
    "YamlError",
    "load_game",
    "load_script",
    "load_shipped",
    "script_path",
]
