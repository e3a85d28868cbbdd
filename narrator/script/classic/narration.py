"""What the narrator says at a classic Thiercelieux table: the night's calls, the morning, the day.

The `night:`, `day:` and `public:` sections of scripts/thiercelieux.yaml, validated (their JSON
Schema is part of the script's, see narrator/script/classic/script.py) and checked against the game's
rules: the calls follow the waking order the engine asks in, and every record key a call answers
is a role that chooses at night.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from narrator.resources import data_dir
from narrator.rules.classic.model import Rules
from narrator.rules.classic.record import phase_keys
from narrator.script.line import Line, Reminder, Step, Wait
from narrator.script.marks import Marked, Path, Problem, load_marked
from narrator.script.templates import fill, fixed_problems, text_problems

_TEXT = {"type": "string", "minLength": 1}
_ID = {"type": "string", "pattern": "^[a-z_]+$"}
_LINE = {
    "type": "object",
    "properties": {"id": _ID, "say": _TEXT},
    "required": ["id", "say"],
    "additionalProperties": False,
}
_LINES = {"type": "array", "items": _LINE, "minItems": 1}
_CALL = {
    "type": "object",
    "properties": {
        "for": {"type": "array", "items": _ID, "minItems": 1},
        "nights": {"enum": ["first", "even", "every"]},
        "answers": {"type": "array", "items": _ID},
        "wake": _LINES,
        "wait": {"type": "number", "minimum": 0, "maximum": 600},
        "sleep": _LINES,
        "operator": _TEXT,
    },
    "required": ["for", "wake", "wait", "sleep"],
    "additionalProperties": False,
}
NIGHT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"first": _LINES, "calls": {"type": "array", "items": _CALL}, "morning": _LINES},
    "required": ["first", "calls", "morning"],
    "additionalProperties": False,
}
DAY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "minutes": {"type": "integer", "minimum": 1, "maximum": 60},
        "opening": _LINES,
        "reminders": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"left": {"type": "integer", "minimum": 1}, "id": _ID, "say": _TEXT},
                "required": ["left", "id", "say"],
                "additionalProperties": False,
            },
        },
        "vote": _LINES,
        "dusk": _LINES,
        "asks": {"type": "object", "propertyNames": _ID, "additionalProperties": _TEXT},
        "operator_asks": {"type": "object", "propertyNames": _ID, "additionalProperties": _TEXT},
    },
    "required": ["minutes", "opening", "reminders", "vote", "dusk", "asks"],
    "additionalProperties": False,
}
PUBLIC_SCHEMA: dict[str, Any] = {"type": "array", "items": _ID, "uniqueItems": True}
REWORDED_SCHEMA: dict[str, Any] = {"type": "object", "propertyNames": _ID, "additionalProperties": _TEXT}
# who learns a private sentence: `call` (who answered the question it follows) or its players' placeholders
CONFIDED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "propertyNames": _ID,
    "additionalProperties": {"type": "array", "items": _ID, "uniqueItems": True},
}
CALL = "call"
NOT_PLAYERS = {"role", "count", "number", "cards", "camp", "phase"}  # placeholders that name no player
# what a phone shows of the questions in parts (the potions, the spying) and of the pack's agreement
PHONE_PLACEHOLDERS: dict[str, set[str]] = {
    "heal": {"victim"},
    "no_heal": {"why"},
    "life": set(),
    "poison": set(),
    "no_poison": {"why"},
    "spy": set(),
    "together": {"names"},
    "proposals": {"proposals"},
    "proposal": {"voter", "target"},
    "disagree": set(),
    "nobody": set(),
    "refused": set(),
    "read_secret": set(),
    "choice": {"number"},
    "option": {"number", "label"},
}
PHONES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {key: _TEXT for key in PHONE_PLACEHOLDERS},
    "required": list(PHONE_PLACEHOLDERS),
    "additionalProperties": False,
}
# the placeholders each spoken ask may use
ASK_PLACEHOLDERS = {"who", "choices", "example"}


@dataclass(frozen=True, slots=True)
class Call:
    """One night call: made when one of `roles` was dealt; `answers` are the record keys entered during it."""

    roles: tuple[str, ...]
    answers: tuple[str, ...]
    nights: str  # every, first (the first night only), even (nights 2, 4…)
    wake: tuple[Line, ...]
    wait: float  # the shortest the call lasts, from the end of `wake` to the start of `sleep`
    sleep: tuple[Line, ...]
    operator: str = ""  # a gesture asked of the operator on his screen (RULINGS 24), never said

    def made(self, dealt: set[str], night: int) -> bool:
        tonight = {"every": True, "first": night == 1, "even": night % 2 == 0}[self.nights]
        return tonight and bool(dealt.intersection(self.roles))


@dataclass(frozen=True, slots=True)
class Narration:
    first: tuple[Line, ...]  # the first nightfall
    calls: tuple[Call, ...]
    morning: tuple[Line, ...]
    minutes: int  # the debate's length
    opening: tuple[Line, ...]  # the debate's first lines ({time} filled in by `debate_opening`)
    reminders: tuple[Reminder, ...]
    vote: tuple[Line, ...]
    dusk: tuple[Line, ...]  # every later nightfall (002 step 7)
    asks: Mapping[str, str]  # record key -> the question said aloud
    # record key -> the question said aloud before the operator enters its answer (a table without phones)
    operator_asks: Mapping[str, str]
    public: frozenset[str]  # the engine's sentences said aloud; the others go to the operator's screen
    reworded: Mapping[str, str]  # public sentences said otherwise aloud than in `texts` (no secret in them)
    # who learns each private sentence on their phone: `call` and/or the sentence's placeholders naming players
    confided: Mapping[str, tuple[str, ...]]
    # what the operator does so that a character learns a private sentence, on his screen after it (RULINGS 24)
    gestures: Mapping[str, str]
    phones: Mapping[str, str]  # what the phones show of the questions in parts and of the pack's agreement
    title: str = ""  # the game's name, said and shown in place of its id

    def debate_opening(self, time: str) -> list[Step]:
        """The debate's first lines, with its length said as words (« cinq minutes », « une minute »)."""
        return [Line(line.id + "*", fill(line.text, time=time)) for line in self.opening]

    def night_steps(self, in_play: set[str], night: int) -> list[Step]:
        """Night `night` read straight through, every call made with its wait (`narrator render`: what
        the table hears when nobody's entry takes longer than a call's wait)."""
        steps: list[Step] = list(self.first if night == 1 else self.dusk)
        for call in self.calls:
            if call.made(in_play, night):
                steps += [*call.wake, Wait(call.wait), *call.sleep]
        return steps + list(self.morning)


@cache
def load_narration() -> Narration:
    """The shipped classic game's narration."""
    path = data_dir("scripts") / "thiercelieux.yaml"
    return load_narration_script(path.read_text(encoding="utf-8"), f"scripts/{path.name}")


def load_narration_script(text: str, file: str) -> Narration:
    """A classic script's narration; `YamlError` with file:line:column if the script is wrong anywhere
    (`load_classic_script` checks the whole of it, the narration against the rules included)."""
    from narrator.script.classic.script import load_classic_script  # classic.py imports this module's schemas

    load_classic_script(text, file)
    return _narration(cast(dict, load_marked(text, file).data))


def narration_problems(doc: Marked, rules: Rules) -> list[Problem]:
    """What the schema cannot say: calls in the engine's waking order, answers that are night choices."""
    from narrator.script.classic.script import PLACEHOLDERS, SENTENCES  # script.py imports this module's schemas

    data = cast(dict[str, Any], doc.data)
    out = []
    order = {role.id: i for i, role in enumerate(rules.night_roles())}
    last, seen = -1, set()
    for i, call in enumerate(data["night"]["calls"]):
        at = ("night", "calls", i)
        for rid in call["for"]:
            if rid not in rules.roles:
                out.append(doc.problem(at + ("for",), f"personnage inconnu « {rid} »"))
        for key in call.get("answers", call["for"]):
            if key not in order:
                out.append(doc.problem(at, f"« {key} » ne choisit pas la nuit : rien à entrer pendant l'appel"))
            elif key in seen:
                out.append(doc.problem(at, f"« {key} » est déjà entré pendant un autre appel"))
            elif order[key] < last:
                out.append(doc.problem(at, f"« {key} » se réveille plus tôt (roles.{key}.wake) : appel mal placé"))
            else:
                last = order[key]
                seen.add(key)
    called = {rid for call in data["night"]["calls"] for rid in (*call["for"], *call.get("answers", ()))}
    missing = [role.id for role in rules.night_order() if role.id not in called]
    if missing:
        out.append(doc.problem(("night", "calls"), "aucun appel pour " + ", ".join(missing)))
    known = set(phase_keys(rules, "night")) | set(phase_keys(rules, "day"))
    for part in ("asks", "operator_asks"):
        for key, text in data["day"].get(part, {}).items():
            if key not in known:
                out.append(doc.problem(("day", part, key), f"« {key} » n'est pas une décision de la partie"))
            out += text_problems(doc, ("day", part, key), text, ASK_PLACEHOLDERS)
    out += _line_problems(doc)
    for i, key in enumerate(data["public"]):
        if key not in rules.texts:
            out.append(doc.problem(("public", i), f"« {key} » n'est pas une phrase de `texts`"))
    for key, text in data.get("reworded", {}).items():
        if key not in data["public"]:
            out.append(doc.problem(("reworded", key), f"« {key} » n'est pas dans `public`"))
        elif key in PLACEHOLDERS:
            out += text_problems(doc, ("reworded", key), text, PLACEHOLDERS[key])
    out += _confided_problems(doc, PLACEHOLDERS, SENTENCES)
    for key, text in data.get("gestures", {}).items():
        if key not in data["confided"]:
            out.append(doc.problem(("gestures", key), f"« {key} » n'est pas dans `confided`"))
        else:
            out += text_problems(doc, ("gestures", key), text, PLACEHOLDERS[key])
    for key, text in data["phones"].items():
        out += text_problems(doc, ("phones", key), text, PHONE_PLACEHOLDERS[key])
    return out


def _confided_problems(doc: Marked, placeholders: Mapping[str, set[str]], sentences: frozenset[str]) -> list[Problem]:
    """Every private sentence of the engine has its learners (none: []), a public one none; each learner is
    `call` or a placeholder of the sentence that names players."""
    data = cast(dict[str, Any], doc.data)
    public, confided = set(data["public"]), data["confided"]
    out = []
    for key, learners in confided.items():
        at = ("confided", key)
        if key not in sentences:
            out.append(doc.problem(at, f"« {key} » n'est pas une phrase du moteur (`texts`)"))
            continue
        if key in public:
            out.append(doc.problem(at, f"« {key} » est dans `public` : toute la table l'entend"))
        named = placeholders[key] - NOT_PLAYERS
        for i, who in enumerate(learners):
            if who != CALL and who not in named:
                allowed = ", ".join([CALL, *sorted(named)])
                out.append(doc.problem((*at, i), f"attendu : {allowed} ; trouvé : {who}"))
    missing = sorted(sentences - public - set(confided))
    if missing:
        out.append(
            doc.problem(
                ("confided",),
                "attendu : qui apprend chaque phrase absente de `public` ([] : personne) ; manque : "
                + ", ".join(missing),
            )
        )
    return out


def _line_problems(doc: Marked) -> list[Problem]:
    """Every line's id said once (a voice pack records a line under its id); the debate's opening
    fills {time}, every other line is said as written."""
    data = cast(dict[str, Any], doc.data)
    night, day = data["night"], data["day"]
    lines: list[tuple[Path, dict]] = [
        (("night", part, i), line) for part in ("first", "morning") for i, line in enumerate(night[part])
    ]
    for i, call in enumerate(night["calls"]):
        lines += [
            (("night", "calls", i, part, j), line) for part in ("wake", "sleep") for j, line in enumerate(call[part])
        ]
    lines += [
        (("day", part, i), line)
        for part in ("opening", "reminders", "vote", "dusk")
        for i, line in enumerate(day[part])
    ]
    out = []
    seen: set[str] = set()
    for path, line in lines:
        if path[:2] == ("day", "opening"):
            out += text_problems(doc, (*path, "say"), line["say"], {"time"})
        else:
            out += fixed_problems(doc, (*path, "say"), line["say"])
        if line["id"] in seen:
            out.append(doc.problem((*path, "id"), f"identifiant « {line['id']} » déjà pris"))
        seen.add(line["id"])
    return out


def _lines(raw: list[dict]) -> tuple[Line, ...]:
    return tuple(Line(r["id"], r["say"]) for r in raw)


def _narration(data: dict) -> Narration:
    night, day = data["night"], data["day"]
    calls = tuple(
        Call(
            roles=tuple(c["for"]),
            answers=tuple(c.get("answers", c["for"])),
            nights=c.get("nights", "every"),
            wake=_lines(c["wake"]),
            wait=float(c["wait"]),
            sleep=_lines(c["sleep"]),
            operator=c.get("operator", ""),
        )
        for c in night["calls"]
    )
    return Narration(
        first=_lines(night["first"]),
        calls=calls,
        morning=_lines(night["morning"]),
        minutes=day["minutes"],
        opening=_lines(day["opening"]),
        reminders=tuple(Reminder(r["left"], Line(r["id"], r["say"])) for r in day["reminders"]),
        vote=_lines(day["vote"]),
        dusk=_lines(day["dusk"]),
        asks=dict(day["asks"]),
        operator_asks=dict(day.get("operator_asks", {})),
        public=frozenset(data["public"]),
        reworded=dict(data.get("reworded", {})),
        confided={key: tuple(who) for key, who in data["confided"].items()},
        gestures=dict(data.get("gestures", {})),
        phones=dict(data["phones"]),
        title=str(data["title"]),
    )


__all__ = ["Call", "Narration", "load_narration", "load_narration_script", "narration_problems"]
