"""scripts/compose.yaml read and checked: the rulebooks' advice on the cards of a table, per game, as
`narrator.rules.compose.Advice`, its cards checked against each game's box. Every problem is said at
file:line:column; every card named must be one of the game's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from narrator.rules.compose import Advice, Apart, Box, Group, Need, Undealt, Why
from narrator.script.games import GAMES
from narrator.script.marks import Marked, Problem, YamlError, load_marked
from narrator.script.schema import schema_problems

_TEXT = {"type": "string", "minLength": 1, "pattern": r"\S"}
_ID = {"type": "string", "pattern": "^[a-z_]+$"}
_IDS = {"type": "array", "items": _ID, "minItems": 1}
# a rule says where it comes from: the rulebook's sentence, what it follows where the rulebook is silent, or both
_WHY = {"source": _TEXT, "follows": _TEXT, "rulebook": _TEXT}
_SOURCED = {"anyOf": [{"required": ["source"]}, {"required": ["follows"]}]}


def _rule(properties: dict, required: list[str]) -> dict:
    return {
        "type": "object",
        "properties": {**properties, **_WHY},
        "required": required,
        "additionalProperties": False,
        **_SOURCED,
    }


_GAME = {
    "type": "object",
    "properties": {
        "rulebook": _TEXT,
        "center": _rule({"cards": {"type": "integer", "minimum": 0}}, ["cards"]),
        "box": _rule({}, []),
        "players": _rule({"most": {"type": "integer", "minimum": 3}}, ["most"]),
        "scenarios": {"type": "array", "items": _rule({"scenario": _ID}, ["scenario"])},
        "wolves": _rule(
            {
                "from": {
                    "type": "object",
                    "additionalProperties": {"type": "integer", "minimum": 1},
                    "minProperties": 1,
                }
            },
            ["from"],
        ),
        "order": _rule({"cards": _IDS}, ["cards"]),
        "filler": _ID,
        "groups": {"type": "array", "items": _rule({"cards": _IDS}, ["cards"])},
        "needs": {
            "type": "array",
            "items": _rule({"card": _ID, "any_of": _IDS, "advice": _TEXT}, ["card", "any_of", "advice"]),
        },
        "undealt": {
            "type": "array",
            "items": _rule(
                {"card": _ID, "count": {"type": "integer", "minimum": 1}, "among": _IDS},
                ["card", "count", "among"],
            ),
        },
        "apart": {"type": "array", "items": _rule({"cards": _IDS}, ["cards"])},
    },
    "required": ["rulebook", "center", "order"],
    "additionalProperties": False,
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {game: _GAME for game in GAMES},
    "required": list(GAMES),
    "additionalProperties": False,
}


def parse_advice(text: str, file: str, boxes: Mapping[str, Box]) -> dict[str, Advice]:
    """Every game's advice, its cards checked against the game's box (its own script's, given by the
    caller: this shared module reads no family's script); `YamlError` listing every problem with file:line:column."""
    doc = load_marked(text, file)
    problems = schema_problems(doc, SCHEMA)
    if not problems:
        for game in GAMES:
            problems += _card_problems(doc, game, boxes[game])
    if problems:
        raise YamlError(sorted(problems, key=lambda p: (p.line, p.column)))
    data = cast(dict, doc.data)
    return {game: _advice(game, data[game]) for game in GAMES}


def _card_problems(doc: Marked, game: str, box: Box) -> list[Problem]:
    """Every card, scenario and wolf count the advice names must be the game's."""
    data = cast(dict, doc.data)[game]
    problems: list[Problem] = []

    def card(path: tuple, value: str) -> None:
        if value not in box.copies:
            problems.append(
                doc.problem(path, f"personnage inconnu de {game} « {value} » ; attendu : {', '.join(box.copies)}")
            )

    for i, value in enumerate(data["order"]["cards"]):
        card((game, "order", "cards", i), value)
    if "filler" in data:
        card((game, "filler"), data["filler"])
    for key, fields in (
        ("groups", ("cards",)),
        ("needs", ("card", "any_of")),
        ("undealt", ("card", "among")),
        ("apart", ("cards",)),
    ):
        for i, rule in enumerate(data.get(key, [])):
            for name in fields:
                values = rule[name] if isinstance(rule[name], list) else [rule[name]]
                for j, value in enumerate(values):
                    card((game, key, i, name, j) if isinstance(rule[name], list) else (game, key, i, name), value)
    for i, rule in enumerate(data.get("scenarios", [])):
        if rule["scenario"] not in box.scenarios:
            known = ", ".join(box.scenarios) or "aucun"
            problems.append(
                doc.problem(
                    (game, "scenarios", i, "scenario"), f"scénario inconnu « {rule['scenario']} » ; attendu : {known}"
                )
            )
    for size in data.get("wolves", {}).get("from", {}):
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:  # YAML keys may be anything
            where = (game, "wolves", "from", size)
            problems.append(doc.problem(where, f"attendu : un nombre de joueurs ; trouvé : {size!r}", at_key=True))
    if "wolves" in data and not box.wolves:
        problems.append(doc.problem((game, "wolves"), f"{game} n'a pas de carte de loup"))
    if "players" not in data and any(n is None for n in box.copies.values()):
        problems.append(doc.problem((game,), "clé manquante « players » : la boîte n'a pas de limite"))
    return problems


def _why(rule: dict) -> Why:
    return Why(rule.get("source"), rule.get("follows"), rule.get("rulebook"))


def _advice(game: str, data: dict) -> Advice:
    wolves = data.get("wolves")
    players = data.get("players")
    return Advice(
        game=game,
        rulebook=data["rulebook"],
        center=data["center"]["cards"],
        center_why=_why(data["center"]),
        box_why=_why(data["box"]) if "box" in data else None,
        most=players["most"] if players else None,
        most_why=_why(players) if players else None,
        scenarios=tuple((r["scenario"], _why(r)) for r in data.get("scenarios", [])),
        wolves=tuple(sorted((int(k), v) for k, v in wolves["from"].items())) if wolves else (),
        wolves_why=_why(wolves) if wolves else None,
        order=tuple(data["order"]["cards"]),
        order_why=_why(data["order"]),
        filler=data.get("filler"),
        groups=tuple(Group(tuple(r["cards"]), _why(r)) for r in data.get("groups", [])),
        needs=tuple(Need(r["card"], tuple(r["any_of"]), _why(r), r["advice"]) for r in data.get("needs", [])),
        undealt=tuple(Undealt(r["card"], r["count"], tuple(r["among"]), _why(r)) for r in data.get("undealt", [])),
        apart=tuple(Apart(tuple(r["cards"]), _why(r)) for r in data.get("apart", [])),
    )
