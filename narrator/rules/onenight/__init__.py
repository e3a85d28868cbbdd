"""The pure rules engine: no I/O, no YAML, no clock; randomness, where any, is injected."""

from __future__ import annotations

from narrator.rules.errors import RecordError
from narrator.rules.onenight.day import PointingNeeded, lynch
from narrator.rules.onenight.model import Game, Options, Outcome, Ruleset, Vote
from narrator.rules.onenight.night import resolve_night
from narrator.rules.onenight.victory import decide
from narrator.rules.reason import Reason

__all__ = ["PointingNeeded", "RecordError", "Vote", "resolve", "resolve_day"]


def resolve(rules: Ruleset, game: Game) -> Outcome:
    """The whole one-night game: the night, the vote, its deaths, the winners and the reasons."""
    night = resolve_night(rules, game)
    cards = night.cards[: len(game.players)]
    vote = Vote.from_ballots(game.players, game.votes)
    dead, winners, why = resolve_day(rules, game.options, game.players, cards, vote)
    return Outcome(night, dead, winners, why)


def resolve_day(
    rules: Ruleset, options: Options, players: tuple[str, ...], cards: list[str], vote: Vote
) -> tuple[list[str], list[str], list[Reason]]:
    """The day from the cards at dawn: who dies, who wins, why; `PointingNeeded` if a drag is unknown."""
    dead, dragged_by, why = lynch(rules, options, players, cards, vote)
    winners, verdict = decide(rules, options, players, cards, dead, dragged_by)
    return dead, winners, why + verdict
