"""`narrator resolve`: a game record (formats/game-record.md) in, its outcome as JSON data out."""

from __future__ import annotations

from collections.abc import Mapping

from narrator.explain import say
from narrator.rules import resolve
from narrator.rules.errors import RecordError, missing
from narrator.rules.record import parse_game
from narrator.script.game import ONE_NIGHT_GAMES, load_game


def resolve_record(raw: object) -> dict:
    """The documented output of one record; raise `RecordError` for bad input."""
    if not isinstance(raw, Mapping):
        raise RecordError((), "un enregistrement (un mapping)", raw)
    game_id = raw.get("ruleset")
    if game_id is None:
        raise missing(("ruleset",), " ou ".join(ONE_NIGHT_GAMES))
    if game_id not in ONE_NIGHT_GAMES:
        raise RecordError(("ruleset",), " ou ".join(ONE_NIGHT_GAMES), game_id)
    rules = load_game(game_id)
    game = parse_game(rules, raw)
    outcome = resolve(rules, game)
    n = len(game.players)
    cards = outcome.night.cards
    final: dict[str, object] = dict(zip(game.players, cards))
    final["center"] = cards[n:]
    out = {
        "id": game.id,
        "final": final,
        "learned": outcome.night.learned,
        "dead": outcome.dead,
        "winners": outcome.winners,
        "why": [say(rules, r) for r in outcome.why],
    }
    if rules.reveals:
        out["visible"] = outcome.night.visible
    return out
