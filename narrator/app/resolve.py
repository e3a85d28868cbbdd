"""`narrator resolve`: a game record in, its outcome as JSON data out (each family's resolver and the stream)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping
from functools import partial
from typing import IO, BinaryIO

from narrator.records import InputError, Item, read_records
from narrator.rules.classic.engine import play
from narrator.rules.classic.model import Power, Rules, State
from narrator.rules.classic.record import parse_record
from narrator.rules.errors import RecordError
from narrator.rules.names import parse_id
from narrator.rules.onenight import resolve
from narrator.rules.onenight.record import parse_game
from narrator.rules.phase import label
from narrator.script.classic import script as classic
from narrator.script.onenight.explain import say
from narrator.script.onenight.script import load_game


def resolve_one_night(raw: Mapping[str, object]) -> dict:
    """The documented output of a one-night record (`ruleset` one of its games); `RecordError` for bad input."""
    rules = load_game(str(raw["ruleset"]))
    game = parse_game(rules, raw)
    outcome = resolve(rules, game)
    n = len(game.players)
    cards = outcome.night.cards
    final: dict[str, object] = dict(zip(game.players, cards))
    final["center"] = cards[n:]
    out: dict[str, object] = {
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


def resolve_stream(stream: BinaryIO, file: str, resolve: Callable[[object], dict]) -> IO[bytes]:
    """Every record of `stream` resolved by `resolve`, one at a time; their outputs as JSON (a list for a
    list, one line each for JSON Lines) in a temporary file, read from its start: nothing is printed
    before every record is known to be right. `InputError` (one French line, file:line:column) otherwise."""
    records = read_records(stream, file)
    out = tempfile.SpooledTemporaryFile(max_size=32 * 2**20)  # noqa: SIM115 (returned open)
    between = {"list": b", ", "lines": b"\n", "one": b""}[records.shape]
    count = 0
    for item in records.items:
        try:
            result = resolve(item.data)
            text = json.dumps(result, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except RecordError as exc:
            raise InputError(_located(file, item, exc.path, str(exc))) from None
        except (ValueError, UnicodeEncodeError):  # NaN, infinity or a lone surrogate somewhere in the record
            raise InputError(_located(file, item, (), "une valeur qui ne s'écrit pas en JSON")) from None
        out.write((between if count else b"[" if records.shape == "list" else b"") + text)
        count += 1
    out.write(b"[]\n" if records.shape == "list" and not count else b"]\n" if records.shape == "list" else b"\n")
    out.seek(0)
    return out


def _located(file: str, item: Item, path: tuple[object, ...], message: str) -> str:
    line, column = item.where(path)
    try:
        rid = parse_id(item.data)
    except RecordError:
        rid = None
    number = (item.index or 0) + 1
    name = f"« {rid} »" if rid is not None else f"n° {number}"
    return f"{file}:{line}:{column}: enregistrement {name} : {message}"


def _known_roles(rules: Rules, state: State) -> dict[str, str]:
    """The roles every player knows: the villageois-villageois' (003: "tout le village sait"), a
    pardoned idiot's (his card was shown)."""
    shown = {p for p, r in zip(state.players, state.roles) if rules.roles[r].power is Power.SHOWN}
    return {p: state.role_of(p) for p in state.players if p in shown or p in state.pardoned}


def resolve_classic(raw: Mapping[str, object]) -> dict:
    """The documented output of a multi-night record; `RecordError` for bad input."""
    rules = classic.load_classic()
    record = parse_record(rules, raw)
    outcome = play(rules, record, partial(classic.say, rules))
    state = outcome.state
    phases: list[dict[str, object]] = []
    for report in outcome.phases:
        phase: dict[str, object] = {"phase": label(report.kind, report.number), "dead": list(report.dead)}
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
