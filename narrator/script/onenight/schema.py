"""JSON Schema of a one-night game script (scripts/onuw.yaml, scripts/poudlard.yaml): its rules,
texts and announcements; validated by narrator/script/schema.py."""

from __future__ import annotations

from typing import Any

from narrator.rules.onenight.model import CopyTiming, DayPower, Power, Team, Victory
from narrator.script.onenight.phone_words import PHONES
from narrator.script.plural import TEMPLATE

_TEXT = {"type": "string", "minLength": 1}
_TEMPLATE = TEMPLATE
TEXT_KEYS = (
    "copied_name", "and", "no_votes", "one_vote_each", "most_votes", "tie", "most_votes_spared", "tie_spared",
    "spared", "captured", "drag",
    "drag_tied", "dead_card", "village_wins", "village_wins_team", "hunter_shot_wolf", "wolves_win",
    "no_wolf_traitor_dead", "no_wolf_traitor_alive", "no_wolf_nobody_dead", "no_wolf_someone_dead",
    "tanner_wins", "tanner_blocks_wolves", "winners", "no_winner",
)  # fmt: skip
# said only when a character of the wolves' team who is no wolf (the traitor) plays: a game
# without one needs no such line
OPTIONAL_TEXT_KEYS = ("wolves_and_traitor_win",)

ROLE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": _TEXT,
        "team": {"enum": [t.value for t in Team]},
        "power": {"enum": [p.value for p in Power]},
        "wake": {"type": "integer", "minimum": 1},
        "group": {"type": "string", "pattern": "^[a-z_]+$"},
        "lone_peek": {"type": "boolean"},
        "wolf": {"type": "boolean"},
        "copies": {"type": "integer", "minimum": 1},
        "day": {"enum": [d.value for d in DayPower]},
        "as_copy": {"enum": [c.value for c in CopyTiming]},
        "stars": {"type": "integer", "minimum": 1, "maximum": 3},
        "symbol": _TEXT,
        "card": _TEXT,  # what the card does, on its holder's phone
    },
    "required": ["name"],
    "additionalProperties": False,
}

GAME: dict[str, Any] = {
    "type": "object",
    "properties": {
        "game": {"type": "string", "pattern": "^[a-z_]+$"},
        "title": _TEXT,
        "rulebook": _TEXT,
        "options": {
            "type": "object",
            "properties": {
                "victory": {"enum": [v.value for v in Victory]},
                "one_vote_each_saves_all": {"type": "boolean"},
                "tanner_blocks_wolves": {"type": "boolean"},
            },
            "additionalProperties": False,
        },
        "together": {
            "type": "array",
            "items": {"type": "array", "items": {"type": "string"}, "minItems": 2},
        },
        "roles": {
            "type": "object",
            "propertyNames": {"type": "string", "pattern": "^[a-z_]+$"},
            "additionalProperties": ROLE,
            "minProperties": 1,
        },
        "texts": {
            "type": "object",
            "properties": {key: _TEMPLATE for key in TEXT_KEYS + OPTIONAL_TEXT_KEYS},
            "required": list(TEXT_KEYS),
            "additionalProperties": False,
        },
    },
    "required": ["game", "title", "roles", "texts"],
    "additionalProperties": False,
}

_LINE: dict[str, Any] = {
    "type": "object",
    "properties": {"id": {"type": "string", "pattern": "^[a-z0-9_]+$"}, "say": _TEXT},
    "required": ["id", "say"],
    "additionalProperties": False,
}
# an opening line may say a debate of one minute in its own words (« une minute », not « 1 minutes »)
_OPENING_LINE: dict[str, Any] = {**_LINE, "properties": {**_LINE["properties"], "say_one": _TEXT}}
_WAIT = {
    "type": "object",
    "properties": {"wait": {"type": "number", "exclusiveMinimum": 0}},
    "required": ["wait"],
    "additionalProperties": False,
}
_ONLY_LINE: dict[str, Any] = {  # a call's line said only when one of `only` is in play
    "type": "object",
    "properties": {**_LINE["properties"], "only": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
    "required": ["id", "say", "only"],
    "additionalProperties": False,
}
_CALL = {
    "type": "object",
    "properties": {
        "call": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "lines": {"type": "array", "items": {"oneOf": [_LINE, _ONLY_LINE, _WAIT]}, "minItems": 1},
    },
    "required": ["call", "lines"],
    "additionalProperties": False,
}
_LEGEND_LINE = {
    "type": "object",
    "properties": {"legend": _TEXT},
    "required": ["legend"],
    "additionalProperties": False,
}
_MINUTES = {"type": "integer", "minimum": 1, "maximum": 60}
ANNOUNCEMENTS: dict[str, Any] = {
    "setup": {"type": "array", "items": {"oneOf": [_LINE, _WAIT, _LEGEND_LINE]}, "minItems": 1},
    "legend": {
        "type": "object",
        "properties": {
            "teams": {"type": "object", "additionalProperties": _TEXT},
            "stars": {"type": "object", "additionalProperties": _TEXT},
            "no_symbol": {"type": "string"},
            "symbol": _TEXT,
            "no_team": _TEXT,
        },
        "required": ["teams", "stars", "no_symbol"],
        "additionalProperties": False,
    },
    "night": {"type": "array", "items": {"oneOf": [_LINE, _WAIT, _CALL]}, "minItems": 1},
    "day": {
        "type": "object",
        "properties": {
            "discussion": {
                "type": "object",
                "properties": {"minutes": _MINUTES, "first_game_minutes": _MINUTES},
                "required": ["minutes", "first_game_minutes"],
                "additionalProperties": False,
            },
            "opening": {"type": "array", "items": {"oneOf": [_OPENING_LINE, _WAIT]}, "minItems": 1},
            "reminders": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"left": {"type": "integer", "minimum": 1}, **_LINE["properties"]},
                    "required": ["left", "id", "say"],
                    "additionalProperties": False,
                },
            },
            "vote": {"type": "array", "items": {"oneOf": [_LINE, _WAIT]}, "minItems": 1},
        },
        "required": ["discussion", "opening", "reminders", "vote"],
        "additionalProperties": False,
    },
}
ANNOUNCEMENTS["scenarios"] = {
    "type": "object",
    "propertyNames": {"type": "string", "pattern": "^[a-z0-9_]+$"},
    "additionalProperties": {
        "type": "object",
        "properties": {
            "title": _TEXT,
            "players": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}, "minItems": 4},
                "minProperties": 1,
            },
        },
        "required": ["title", "players"],
        "additionalProperties": False,
    },
}
GAME["properties"].update(ANNOUNCEMENTS)
GAME["properties"]["phones"] = PHONES
GAME["required"] += ["setup", "legend", "night", "day"]
