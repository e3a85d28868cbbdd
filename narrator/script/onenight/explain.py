"""The engine's reasons rendered as the French sentences of the game's `texts` templates."""

from __future__ import annotations

from narrator.rules.onenight.model import COPY_PREFIX, Ruleset
from narrator.rules.reason import Reason
from narrator.script.plural import form, how_many
from narrator.script.templates import fill, join_names


def card_name(rules: Ruleset, card: str) -> str:
    """How a card is said: the role's name; a Doppelgänger card as "Doppelgänger-ROLE"."""
    if card.startswith(COPY_PREFIX):
        copied = rules.roles[card[len(COPY_PREFIX) :]].name
        return fill(str(rules.texts["copied_name"]), role=copied)
    return rules.roles[card].name


def say(rules: Ruleset, reason: Reason) -> str:
    """One reason as a French sentence."""
    params = dict(reason.params)
    template = form(rules.texts[reason.key], how_many(params))
    names, role = params.get("names"), params.get("role")
    if isinstance(names, list):
        params["names"] = join_names(rules, [str(n) for n in names])
    if isinstance(role, str):
        params["role"] = card_name(rules, role)
    return fill(template, **params)
