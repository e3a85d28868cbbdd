"""What a one-night script writes for the players' phones: each card's text, the night's questions, the
decoy, and what a character learns (its `phones:` section and each role's `card:`), checked and read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from narrator.rules.onenight.model import Power
from narrator.script.marks import Marked, Problem
from narrator.script.templates import fixed_problems, text_problems

_TEXT = {"type": "string", "minLength": 1}
# the questions a phone may ask at night (narrator/rules/onenight/choices.py), `seen` for a character
# who only learns something (the wolves, the insomniaque)
QUESTIONS = ("copy", "peek", "look", "look_center", "swap_with", "swap", "take", "give_to", "reveal", "seen")
# each template and the names it fills
TEMPLATES = {
    "center": {"place"},
    "center_pair": {"first", "second"},
    "seen": {"place", "card"},
    "self": {"card"},
    "group": {"group", "names"},
    "visible": {"name", "card"},
}
FIXED = ("decoy", "nobody", "missing")
# the Doppelgänger's second step, the same on every phone (narrator/table/onenight/phones.py), and the
# words before it once a combination his copied card cannot take was ticked: needed by a game that has him
COPY_STEP = ("copy_step", "copy_refused")

PHONES: dict[str, Any] = {
    "type": "object",
    "properties": {
        "questions": {
            "type": "object",
            "properties": {key: _TEXT for key in QUESTIONS},
            "required": list(QUESTIONS),
            "additionalProperties": False,
        },
        "groups": {"type": "object", "additionalProperties": _TEXT},
        **{key: _TEXT for key in (*TEMPLATES, *FIXED, *COPY_STEP)},
    },
    "required": ["questions", "groups", *[k for k in (*TEMPLATES, *FIXED) if k != "visible"]],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class PhoneWords:
    """A game's words on the phones; `card` holds each role's text (role id -> what the card does)."""

    cards: Mapping[str, str]
    symbols: Mapping[str, str]  # role id -> its tactile symbol, for the roles that have one (001 "Adaptation")
    questions: Mapping[str, str]
    groups: Mapping[str, str]  # a group's id (loups, jumeaux) -> how it is named
    decoy: str
    center: str
    center_pair: str
    seen: str
    self_card: str
    group: str
    nobody: str
    missing: str
    visible: str = ""
    copy_step: str = ""  # the Doppelgänger's second step, the same words on every phone
    copy_refused: str = ""  # before them, once his ticks were refused: every phone answers again


# how a one-night card's text begins when it names its camp first (« Camp du village. La nuit, … »)
CAMP_STARTS = ("Camp ", "Équipe ", "Seul contre tous")


def split_camp(text: str) -> tuple[str, str]:
    """A card's text as its camp and the rest (the phone shows the camp under the name); ("", text) when
    the text does not begin with its camp (the Doppelgänger's: it takes the copied card's)."""
    if not text.startswith(CAMP_STARTS):
        return "", text
    cut = min((i for i in (text.find(". "), text.find(" : ")) if i > 0), default=-1)
    if cut < 0:
        return "", text
    rest = text[cut + 3 if text[cut] == " " else cut + 2 :].strip()
    return text[:cut], rest[:1].upper() + rest[1:]


def phone_problems(doc: Marked) -> list[Problem]:
    """What a schema cannot say: every role has its card's text, every group its name, the templates fill."""
    data = doc.data
    if not isinstance(data, dict) or "phones" not in data:
        return []
    phones, roles = data["phones"], data["roles"]
    out = [
        doc.problem(("roles", rid), "clé manquante « card » : le texte de la carte")
        for rid, r in roles.items()
        if "card" not in r
    ]
    for rid, role in roles.items():
        group = role.get("group", rid) if role.get("power") == Power.RECOGNIZE.value else None
        if group is not None and group not in phones["groups"]:
            out.append(doc.problem(("phones", "groups"), f"clé manquante « {group} » : le nom du groupe de « {rid} »"))
    if any(r.get("power") == Power.REVEAL.value for r in roles.values()) and "visible" not in phones:
        out.append(doc.problem(("phones",), "clé manquante « visible » : la carte retournée, dite au matin"))
    if any(r.get("power") == Power.COPY.value for r in roles.values()):
        for key in COPY_STEP:
            if key not in phones:
                out.append(
                    doc.problem(("phones",), f"clé manquante « {key} » : la deuxième étape, après la copie d'une carte")
                )
    for key in COPY_STEP:
        if key in phones:
            out += fixed_problems(doc, ("phones", key), phones[key])
    for key, allowed in TEMPLATES.items():
        if key in phones:
            out += text_problems(doc, ("phones", key), phones[key], allowed)
    for key in FIXED:
        out += fixed_problems(doc, ("phones", key), phones[key])
    for key, text in phones["questions"].items():
        out += fixed_problems(doc, ("phones", "questions", key), text)
    return out


def parse_phone_words(data: Mapping) -> PhoneWords | None:
    """The phones' words of a script that passed its checks; None for a script without them."""
    phones = data.get("phones")
    if phones is None:
        return None
    return PhoneWords(
        cards={rid: role["card"] for rid, role in data["roles"].items()},
        symbols={rid: role["symbol"] for rid, role in data["roles"].items() if "symbol" in role},
        questions=dict(phones["questions"]),
        groups=dict(phones["groups"]),
        decoy=phones["decoy"],
        center=phones["center"],
        center_pair=phones["center_pair"],
        seen=phones["seen"],
        self_card=phones["self"],
        group=phones["group"],
        nobody=phones["nobody"],
        missing=phones["missing"],
        visible=phones.get("visible", ""),
        copy_step=phones.get("copy_step", ""),
        copy_refused=phones.get("copy_refused", ""),
    )
