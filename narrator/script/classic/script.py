"""The classic game's script (scripts/thiercelieux.yaml) loaded, validated and turned into `classic.Rules`.

Every problem is reported at once, each at file:line:column; unknown keys are refused. The same
module renders the engine's reasons with the script's `texts`, since it knows which names each
template may use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any, cast

from narrator.resources import data_dir
from narrator.rules.classic.model import (
    LENDABLE,
    WAKING_POWERS,
    Camp,
    Cause,
    Options,
    Power,
    Role,
    Rules,
)
from narrator.rules.reason import Reason
from narrator.script.classic.narration import (
    CONFIDED_SCHEMA,
    DAY_SCHEMA,
    NIGHT_SCHEMA,
    PHONES_SCHEMA,
    PUBLIC_SCHEMA,
    REWORDED_SCHEMA,
    narration_problems,
)
from narrator.script.games import CLASSIC, games_of
from narrator.script.marks import Marked, Problem, YamlError, load_marked
from narrator.script.plural import TEMPLATE, form, how_many
from narrator.script.schema import schema_problems
from narrator.script.templates import fill, join_names, template_problems

(GAME,) = games_of(CLASSIC)  # the family's one game: a second would need its own script file

# Each explanation template and the placeholders it may use (the engine's Reason params).
PLACEHOLDERS: dict[str, set[str]] = {
    "and": set(),
    "night": {"number"},
    "day": {"number"},
    "lovers": {"names"},
    "lovers_apart": {"names"},
    "seen": {"name", "role"},
    "spied": {"name"},
    "spared_by_girl": {"name"},
    "healed": {"name"},
    "quiet_night": set(),
    "morning_deaths": {"names", "roles"},  # the night's dead as the table hears them (RULINGS 23)
    **{f"death_{c.value}": {"name", "role"} for c in Cause},
    "successor": {"captain", "name"},
    "captain_elected": {"name"},
    "captain_double": {"name"},
    "no_votes": set(),
    "most_votes": {"name", "count"},
    "tie": {"names", "count"},
    "tiebreak": {"captain", "name"},
    "revote": {"names"},
    "still_tied": set(),
    "village_wins": set(),
    "wolves_win": set(),
    "lovers_win": {"names"},
    "winners": {"names"},
    "goes_on": set(),
}
PLACEHOLDERS["death_shot"] = {"name", "role", "hunter"}
PLACEHOLDERS["death_grief"] = {"name", "role", "lover"}
# 003's other characters
PLACEHOLDERS |= {
    "stolen": {"name", "role"},
    "model": {"name", "model"},
    "chose": {"name", "role"},
    "recognize": {"names", "role"},
    "perform": {"name", "role"},
    "guarded": {"name"},
    "guard_saves": {"name"},
    "elder_resists": {"name"},
    "elder_curse": {"name"},
    "elder_curse_poisoned": {"name"},
    "sniff_yes": {"names"},
    "sniff_no": {"names"},
    "infected": {"name"},
    "charmed": {"names"},
    "raven": {"name"},
    "raven_votes": {"name"},
    "doused": {"name"},
    "ignite": set(),
    "wounded": {"name", "knight"},
    "growl": {"name"},
    "no_growl": {"name"},
    "devoted": {"servante", "name", "role"},
    "wild": {"name", "model"},
    "scapegoat_voters": {"name", "names"},
    "scapegoat_nobody": {"name"},
    "pardoned": {"name"},
    "angel_stays": {"name"},
    "second_vote": {"name"},
    "angel_wins": {"names"},
    "piper_wins": {"names"},
    "white_wolf_wins": {"names"},
    "sect_wins": {"names"},
}
# the engine's sentences (the others are the questions' words): each is public, or `confided` to someone
SENTENCES = frozenset(PLACEHOLDERS) - {"and"}
# What the engine's questions (`Ask`) show on the operator's screen and in a record's errors, never
# said aloud: why it is asked, the answer expected (in a record's notation, or in plain words), why a
# potion may not be used, why a record's choice was not asked. Each with the placeholders its Reason gives.
ON_SCREEN: dict[str, set[str]] = {
    "over": {"camp", "phase"},
    "ask_steal": {"cards", "name", "role"},
    "ask_steal_wolves": {"cards", "name", "role"},
    "expect_steal": set(),
    "expect_steal_wolves": set(),
    "screen_steal": set(),
    "screen_steal_wolves": set(),
    "ask_pair": {"name", "role"},
    "expect_pair": {"role"},
    "ask_model": {"name", "role"},
    "expect_model": set(),
    "ask_choose": {"name", "role"},
    "expect_choose": set(),
    "ask_perform": {"name", "role"},
    "expect_perform": set(),
    "expect_perform_once": set(),
    "screen_perform": set(),
    "ask_he_wakes": {"name", "role"},
    "ask_she_wakes": {"name", "role"},
    "expect_protect": {"role"},
    "expect_see": {"role"},
    "expect_sniff": set(),
    "ask_spy": {"name", "role"},
    "expect_spy": set(),
    "expect_potions": set(),
    "no_heal_spent": set(),
    "no_heal_nobody": set(),
    "no_heal_self": set(),
    "no_poison_spent": set(),
    "no_poison_nobody": set(),
    "expect_mark": set(),
    "expect_ignite": set(),
    "screen_ignite": set(),
    "expect_douse": set(),
    "screen_douse": set(),
    "ask_devour": set(),
    "expect_devour": set(),
    "ask_infect": {"name", "role", "victim"},
    "expect_infect": set(),
    "screen_infect": {"role", "victim"},
    "ask_betray": {"name", "role"},
    "expect_betray": set(),
    "ask_second": {"name", "role"},
    "expect_second": set(),
    "expect_charm": {"count"},
    "expect_charm_last": set(),
    "screen_charm": set(),
    "ask_devote": {"eliminated", "name", "role"},
    "expect_devote": {"role"},
    "screen_devote": {"role"},
    "ask_shoot": {"name", "role"},
    "expect_shoot": {"role"},
    "ask_scapegoat": {"name", "role"},
    "expect_scapegoat": set(),
    "screen_scapegoat": set(),
    "ask_successor": {"name"},
    "expect_successor": set(),
    "ask_captain": set(),
    "expect_captain": set(),
    "ask_stutter": {"name", "role"},
    "expect_stutter": set(),
    "screen_stutter": set(),
    "ask_vote": set(),
    "ask_second_vote": set(),
    "ask_tiebreak": {"name", "tied"},
    "expect_tiebreak": set(),
    "expect_tiebreak_own": {"name"},
    "ask_revote": {"tied"},
    "expect_ballots": {"targets"},
    "screen_ballots": {"targets"},
    "not_asked_successor": set(),
    "not_asked_no_captain": set(),
    "not_asked_captain": set(),
    "not_asked_tiebreak": set(),
    "not_asked_revote": set(),
    "not_asked_second_votes": set(),
    "not_asked_over": set(),
    "not_asked_now": set(),
    "not_asked_first_night": {"role"},
    "not_asked_performed": {"role"},
    "not_asked_undealt": {"role"},
    "not_asked_nobody": {"role"},
    "not_asked_dead": {"name", "role"},
    "not_asked_shoot": {"role"},
    "not_asked_devote": set(),
    "not_asked_scapegoat": set(),
    "not_asked_pair": {"role"},
    "not_asked_powerless": {"name", "role"},
    "not_asked_devour": set(),
    "not_asked_betray_odd": set(),
    "not_asked_betray": set(),
    "not_asked_second": set(),
    "not_asked_sniff": set(),
    "not_asked_spent": {"role"},
    "not_asked_infect": set(),
    "not_asked_fired": set(),
    "not_asked_ignite": set(),
    "not_asked_douse": set(),
}
# Why a player is refused as an answer: said to the table after his name (« Pas Eva : … ») when the
# narration's `public` lists it, else shown to the operator alone.
NOTES: dict[str, set[str]] = {
    "note_self": set(),
    "note_self_guard": set(),
    "note_spared": set(),
    "note_guarded": set(),
    "note_pack_victim": set(),
    "note_doused": set(),
    "note_wolf": set(),
    "note_second": set(),
    "note_charmed": set(),
    "note_pardoned": set(),
    "note_pardoned_voter": set(),
    "note_not_chosen": set(),
}
PLACEHOLDERS |= ON_SCREEN | NOTES

_TEXT = {"type": "string", "minLength": 1}
_ID = {"type": "string", "pattern": "^[a-z_]+$"}
_ROLE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": _TEXT,
        "card": _TEXT,
        # lovers of two camps become `amoureux`: no card is dealt in it
        "camp": {"enum": [c.value for c in Camp if c is not Camp.LOVERS]},
        "power": {"enum": [p.value for p in Power]},
        "wolf": {"type": "boolean"},
        "wake": {"type": "integer", "minimum": 1},
        "copies": {"type": "integer", "minimum": 1},
    },
    "required": ["name", "card", "camp"],
    "additionalProperties": False,
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "game": {"enum": [GAME]},
        "title": _TEXT,
        "rulebooks": {"type": "array", "items": _TEXT, "minItems": 1},
        "options": {
            "type": "object",
            "properties": {
                "captain": {"type": "boolean"},
                "witch_self_heal": {"type": "boolean"},
                "lovers_spare_each_other": {"type": "boolean"},
                "salvateur_self": {"type": "boolean"},
                "comedien_cards_once": {"type": "boolean"},
                "loners_block_village": {"type": "boolean"},
            },
            "required": [
                "captain",
                "witch_self_heal",
                "lovers_spare_each_other",
                "salvateur_self",
                "comedien_cards_once",
                "loners_block_village",
            ],
            "additionalProperties": False,
        },
        "roles": {
            "type": "object",
            "propertyNames": _ID,
            "additionalProperties": _ROLE,
            "minProperties": 1,
        },
        "texts": {
            "type": "object",
            "properties": {key: TEMPLATE for key in PLACEHOLDERS},
            "required": list(PLACEHOLDERS),
            "additionalProperties": False,
        },
        # the table's narration (narrator/script/classic/narration.py)
        "night": NIGHT_SCHEMA,
        "day": DAY_SCHEMA,
        "public": PUBLIC_SCHEMA,
        "reworded": REWORDED_SCHEMA,
        "gestures": REWORDED_SCHEMA,
        "confided": CONFIDED_SCHEMA,
        "phones": PHONES_SCHEMA,
    },
    "required": [
        "game",
        "title",
        "rulebooks",
        "options",
        "roles",
        "texts",
        "night",
        "day",
        "public",
        "confided",
        "phones",
    ],
    "additionalProperties": False,
}
# Keys a record's phases use for other things than a role: no role may be called so.
_RESERVED = {"captain", "votes", "tiebreak", "revote", "successor", "second_votes"}


@cache
def load_classic() -> Rules:
    """The validated rules of the shipped classic game."""
    path = data_dir("scripts") / f"{GAME}.yaml"
    return load_classic_script(path.read_text(encoding="utf-8"), f"scripts/{path.name}")


def load_classic_script(text: str, file: str) -> Rules:
    """Validate the script's text; raise `YamlError` listing every problem with file:line:column."""
    doc = load_marked(text, file)
    problems = schema_problems(doc, SCHEMA)
    if not problems:
        problems = _cross_checks(doc)
    if problems:
        raise YamlError(sorted(problems, key=lambda p: (p.line, p.column)))
    rules = _rules(cast(dict, doc.data))
    # the table's narration, against the rules it narrates (calls in waking order, public sentences)
    problems = narration_problems(doc, rules)
    if problems:
        raise YamlError(sorted(problems, key=lambda p: (p.line, p.column)))
    return rules


def _cross_checks(doc: Marked) -> list[Problem]:
    """What the schema cannot say: a night order the engine can play, one card per choosing role, templates."""
    data = cast(dict[str, Any], doc.data)
    roles: dict[str, dict] = data["roles"]
    out = []
    for rid, role in roles.items():
        at = ("roles", rid)
        power = Power(role["power"]) if "power" in role else None
        if rid in _RESERVED:
            out.append(doc.problem(at, f"« {rid} » est une clé des phases d'un enregistrement, pas un personnage"))
        if power in WAKING_POWERS and "wake" not in role:
            out.append(doc.problem(at, "clé manquante « wake » : un personnage qui agit la nuit a un ordre de réveil"))
        if power not in WAKING_POWERS and "wake" in role:
            nightly = ", ".join(p.value for p in Power if p in WAKING_POWERS)
            out.append(doc.problem(at + ("wake",), f"wake ne va qu'avec un pouvoir de nuit ({nightly})"))
        if power is Power.RECOGNIZE:
            if role.get("copies", 1) < 2:
                # 003: "Deux Sœurs", "Trois Frères": they come together
                out.append(doc.problem(at, "copies: 2 ou plus attendu : ces joueurs se reconnaissent entre eux"))
        elif power not in (None, Power.DEVOUR) and role.get("copies") != 1:
            # the pack chooses as one, under the devouring role's id; anyone else who chooses has one card
            out.append(doc.problem(at, "copies: 1 attendu : un personnage qui choisit est désigné par son id"))
        if power is Power.DEVOUR and not role.get("wolf"):
            out.append(doc.problem(at, "wolf: true attendu : la meute est faite des loups"))
    if not any(r["camp"] == Camp.VILLAGE.value and "power" not in r and "copies" not in r for r in roles.values()):
        # 003: the chien-loup may choose to be one, the ange becomes one ("Simple Villageois")
        out.append(doc.problem(("roles",), "un simple villageois attendu : camp village, sans power ni copies"))
    wakes = {Power(r["power"]): (rid, r["wake"]) for rid, r in roles.items() if "wake" in r and "power" in r}
    packs = [rid for rid, r in roles.items() if r.get("power") == Power.DEVOUR.value]
    if len(packs) != 1:
        out.append(
            doc.problem(("roles",), f"exactement un personnage power: devour (la meute) ; trouvé : {len(packs)}")
        )
    elif Power.DEVOUR in wakes:
        pack_wake = wakes[Power.DEVOUR][1]
        # 002: the petite fille spies "durant le tour d'éveil des Loups-Garous"; the sorcière is shown
        # their victim; Cupidon's lovers are known before the pack chooses
        order = {Power.SPY: ("==", "pendant le tour des loups"), Power.POTIONS: (">", "après les loups")}
        order[Power.PAIR] = ("<", "avant les loups")
        # 003: the salvateur protects from the attack to come, the chien-loup who chose the wolves
        # hunts the same night; the infect père, the white wolf and the grand méchant loup act after
        # the pack's meal ("après le repas des Loups")
        for power in (Power.PROTECT, Power.CHOOSE, Power.STEAL, Power.MODEL):
            order[power] = ("<", "avant les loups")
        for power in (Power.INFECT, Power.BETRAY, Power.SECOND):
            order[power] = (">", "après les loups")
        for power, (sign, words) in order.items():
            if power not in wakes:
                continue
            rid, wake = wakes[power]
            ok = {"==": wake == pack_wake, ">": wake > pack_wake, "<": wake < pack_wake}[sign]
            if not ok:
                out.append(
                    doc.problem(("roles", rid, "wake"), f"attendu : un réveil {words} ({pack_wake}) ; trouvé : {wake}")
                )
    # the voleur plays his new card from the same night on: he wakes first; the comédien takes a card's
    # power before it wakes; the sorcière knows whether the victim was infected
    firsts = [(Power.STEAL, set(wakes) - {Power.STEAL}), (Power.PERFORM, set(LENDABLE))]
    firsts.append((Power.INFECT, {Power.POTIONS}))
    for power, later in firsts:
        if power not in wakes:
            continue
        rid, wake = wakes[power]
        for other in sorted(later & set(wakes), key=lambda p: p.value):
            if wakes[other][1] <= wake:
                other_id = wakes[other][0]
                out.append(doc.problem(("roles", rid, "wake"), f"attendu : un réveil avant {other_id} "
                                       f"({wakes[other][1]}) ; trouvé : {wake}"))  # fmt: skip
    for key, allowed in PLACEHOLDERS.items():
        out += template_problems(doc, ("texts", key), data["texts"][key], allowed)
    return out


def _rules(data: dict) -> Rules:
    roles = {
        rid: Role(
            id=rid,
            name=r["name"],
            camp=Camp(r["camp"]),
            power=Power(r["power"]) if "power" in r else None,
            wolf=r.get("wolf", False),
            wake=r.get("wake"),
            copies=r.get("copies"),
            card=r["card"],
        )
        for rid, r in data["roles"].items()
    }
    return Rules(game=data["game"], roles=roles, options=Options(**data["options"]), texts=data["texts"])


def say(rules: Rules, reason: Reason) -> str:
    """One of the engine's reasons as a French sentence: `names` said as a list (« Ana et Ben »), `role`
    by its card's name, `roles` as a list of them, any other list as a record lists it (« Ana, Ben »)."""
    params = dict(reason.params)
    template = form(rules.texts[reason.key], how_many(params))
    for key, value in params.items():
        if key == "names" and isinstance(value, list | tuple):
            params[key] = join_names(rules, [str(v) for v in value])
        elif key == "role":
            params[key] = rules.roles[str(value)].name
        elif key == "roles" and isinstance(value, list | tuple):
            params[key] = join_names(rules, [rules.roles[str(v)].name for v in value])
        elif isinstance(value, list | tuple):
            params[key] = ", ".join(str(v) for v in value)
    return fill(template, **params)


def say_aloud(rules: Rules, reworded: Mapping[str, str], reason: Reason) -> str:
    """A reason as the table hears it: the narration's `reworded` words in place of `texts`."""
    return say(replace(rules, texts={**rules.texts, **reworded}), reason)


__all__ = [
    "GAME", "SCHEMA", "YamlError", "join_names", "load_classic", "load_classic_script", "say", "say_aloud"
]  # fmt: skip
