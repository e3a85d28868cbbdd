"""The shape of scripts/listen.fr.yaml as a JSON Schema: what the listener's words must look like.

Validated through the same path as every other YAML file (narrator/script/schema.py); what a
schema cannot say — templates hassil can read, rules and lists they name, the characters and
scenarios of each game's script — is checked by the phrasebook's loader (narrator/listen/french.py).
"""

from __future__ import annotations

from typing import Any

from narrator.listen.commands import COMMANDS, GAMES

PHASES = ("vote", "tally", "reveal", "choose", "any")  # a game in progress
SETUP_PHASES = ("game", "number", "name", "scenario", "character", "any")  # the spoken setup
ALL_PHASES = tuple(dict.fromkeys(PHASES + SETUP_PHASES))  # what a block of the phrasebook may name
# the slots each command's templates may fill (more_time adds minutes and seconds up)
SLOTS = {
    "vote": {"voter", "target"},
    "tally": {"target", "count"},
    "reveal": {"player", "role"},
    "choose": {"target"},
    "more_time": {"minutes", "seconds"},
    "choose_game": {"game"},
    "number": {"count"},
    "scenario": {"scenario"},
    "character": {"role", "count"},
    "free_seat": {"player"},
}
RANGES = ("minutes", "seconds", "players")
FREE = ("name",)  # commands read without templates (narrator/listen/setup_words.py)
# the kinds of `day_words` (narrator/listen/reading.py reads a sentence from them)
DAY_KINDS: tuple[str, ...] = ("vote", "against", "ballot", "nobody", "abstain", "and", "also", "each")
DAY_KINDS += ("correct", "zero", "copy", "presents", "link", "choosing", "block", "more")
DAY_KINDS += ("passive", "ballot_of", "goes", "object", "among", "or", "not", "chatter", "turns", "reason")
TEMPLATED = tuple(name for name in COMMANDS if name not in FREE)

WORDS: dict[str, Any] = {"type": "array", "items": {"type": "string", "pattern": r"\S"}, "minItems": 1}
_COUNT = {"type": "integer", "minimum": 0}
_RANGE = {
    "type": "object",
    "properties": {"from": _COUNT, "to": _COUNT, "step": {"type": "integer", "minimum": 1}},
    "required": ["from", "to"],
    "additionalProperties": False,
}


def _block(command: str) -> dict[str, Any]:
    """A group of templates of one command: the phases it is heard in, its sentences, fixed slot values."""
    return {
        "type": "object",
        "properties": {
            "phases": {"type": "array", "items": {"enum": list(ALL_PHASES)}, "minItems": 1},
            "sentences": WORDS,
            "slots": {
                "type": "object",
                "propertyNames": {"enum": sorted(SLOTS.get(command, ()))},
                "additionalProperties": {"type": "integer"},
            },
        },
        "required": ["sentences"],
        "additionalProperties": False,
    }


def _each(keys: tuple[str, ...], value: dict[str, Any]) -> dict[str, Any]:
    """A mapping with exactly these keys, each holding `value`."""
    return {
        "type": "object",
        "properties": {key: value for key in keys},
        "required": list(keys),
        "additionalProperties": False,
    }


_BY_NAME = {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": WORDS}}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "fillers": WORDS,
        "not_names": WORDS,
        "number_spellings": {
            "type": "object",
            "propertyNames": {"pattern": r"\S"},
            "additionalProperties": {"type": "string"},
        },
        "nobody": WORDS,
        "ranges": _each(RANGES, _RANGE),
        "name_lead_ins": WORDS,
        "rules": {"type": "object", "additionalProperties": {"type": "string"}},
        "commands": {
            "type": "object",
            "properties": {name: {"type": "array", "items": _block(name), "minItems": 1} for name in TEMPLATED},
            "required": list(TEMPLATED),
            "additionalProperties": False,
        },
        "filler_names": WORDS,
        "games": _each(GAMES, WORDS),
        "scenarios": _BY_NAME,  # game -> scenario -> aliases, checked against each game's script
        "roles": _BY_NAME,  # game -> character -> aliases, likewise
        "day_words": _each(DAY_KINDS, WORDS),
        "decoy_names": WORDS,
        # read by the recognizer's side (narrator/listen/ear_words.py)
        "go_on": WORDS,
        "respell": _BY_NAME,  # game -> character -> other ways to say it
    },
    "additionalProperties": False,
}
SCHEMA["required"] = list(SCHEMA["properties"])
