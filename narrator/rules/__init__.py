"""The pure rules engine: no I/O, no YAML, no clock; randomness, where any, is injected."""

from __future__ import annotations

from narrator.rules.day import lynch
from narrator.rules.errors import RecordError
from narrator.rules.model import Game, Outcome, Ruleset
from narrator.rules.night import resolve_night
from narrator.rules.victory import decide

__all__ = ["RecordError", "resolve"]


def resolve(rules: Ruleset, game: Game) -> Outcome:
    """The whole one-night game: the night, the vote, its deaths, the winners and the reasons."""
    night = resolve_night(rules, game)
    cards = night.cards[: len(game.players)]
    dead, dragged_by, why = lynch(rules, game, cards)
    winners, verdict = decide(rules, game, cards, dead, dragged_by)
    return Outcome(night, dead, winners, why + verdict)
