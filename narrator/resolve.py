"""`narrator resolve`: a game record (formats/game-record.md) in, its outcome as JSON data out."""

from __future__ import annotations

from collections.abc import Mapping

from narrator.explain import say
from narrator.rules import resolve
from narrator.rules.classic.engine import play
from narrator.rules.classic.model import Power, Rules, State
from narrator.rules.classic.record import parse_record
from narrator.rules.errors import RecordError, missing
from narrator.rules.record import parse_game
from narrator.script import classic
from narrator.script.game import ONE_NIGHT_GAMES, load_game

RULESETS = (*ONE_NIGHT_GAMES, classic.GAME)
_EXPECTED = ", ".join(RULESETS[:-1]) + " ou " + RULESETS[-1]


def resolve_record(raw: object) -> dict:
    """The documented output of one record; raise `RecordError` for bad input."""
    if not isinstance(raw, Mapping):
        raise RecordError((), "un enregistrement (un mapping)", raw)
    game_id = raw.get("ruleset")
    if game_id is None:
        raise missing(("ruleset",), _EXPECTED)
    if game_id == classic.GAME:
        return _resolve_classic(raw)
    if game_id not in ONE_NIGHT_GAMES:
        raise RecordError(("ruleset",), _EXPECTED, game_id)
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


def _known_roles(rules: Rules, state: State) -> dict[str, str]:
    """The roles every player knows: the villageois-villageois' (003: "tout le village sait"), a
    pardoned idiot's (his card was shown)."""
    shown = {p for p, r in zip(state.players, state.roles) if rules.roles[r].power is Power.SHOWN}
    return {p: state.role_of(p) for p in state.players if p in shown or p in state.pardoned}


def _resolve_classic(raw: Mapping[str, object]) -> dict:
    """A multi-night record (formats/game-record.md, "Multi-night games (thiercelieux)")."""
    rules = classic.load_classic()
    record = parse_record(rules, raw)
    outcome = play(rules, record)
    state = outcome.state
    phases: list[dict[str, object]] = []
    for report in outcome.phases:
        label = f"{'nuit' if report.kind == 'night' else 'jour'} {report.number}"
        phase: dict[str, object] = {"phase": label, "dead": list(report.dead)}
        if report.kind == "night":
            phase["learned"] = {p: dict(told) for p, told in report.learned.items()}
        phases.append(phase)
    living = state.living()
    last = outcome.phases[-1] if outcome.phases else None
    next_day = 1 if last is None else last.number + (1 if last.kind == "day" else 0)
    return {
        "id": record.id,
        "phases": phases,
        "dead": list(state.dead),
        "alive": living,
        "camp": state.winner.value if state.winner is not None else None,
        "winners": list(outcome.winners),
        "state": {
            "roles": dict(zip(state.players, state.roles)),
            "camps": {p: c.value for p, c in zip(state.players, state.camps)},
            "lovers": list(state.lovers),
            "captain": state.captain,
            "charmed": list(state.charmed),
            "voters": state.voters(next_day),  # who may vote at the next vote
            "growl": state.growl,
            "known_roles": _known_roles(rules, state),
        },
        "why": [classic.say(rules, r) for r in outcome.why],
    }
