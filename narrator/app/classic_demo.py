"""`narrator demo thiercelieux`: a whole classic game, its operator and its eight players simulated.

The cards of scripts/demo.yaml (`classic:`) are dealt at random and a random legal game is drawn
with the seed, played to its end. The operator types that game's night choices on the screen
(`[opérateur]` lines), the players say its day decisions aloud, each with a voice of their own —
through the real recognizer where a French vosk model is installed — and the narrator runs the
table as it would a real one: it knows only what it is told.
"""

from __future__ import annotations

import random
from dataclasses import replace

from narrator.app.demo import PlayerVoices, demo_io, load_demo, player_voices, show_player
from narrator.app.record_play import RecordOperator, RecordVoices
from narrator.app.resolve import resolve_classic
from narrator.rules.classic import Options, Rules
from narrator.rules.classic.deal import RandomDecider
from narrator.rules.classic.engine import play_phase, start
from narrator.rules.classic.record import parse_record
from narrator.script.classic.narration import load_narration
from narrator.script.classic.script import load_classic
from narrator.table.classic.session import ClassicSession
from narrator.voice import find_profile

MAX_PHASES = 40  # a drawn game that has not ended by then is drawn again


def classic_game(rules: Rules, names: list[str], roles: list[str], captain: bool, seed: int) -> dict:
    """A legal game of these cards, dealt and played at random until a camp wins."""
    rng = random.Random(seed)
    while True:
        cards = list(roles)
        rng.shuffle(cards)
        record: dict = {
            "id": f"demo-{seed}",
            "ruleset": rules.game,
            "players": names,
            "deal": dict(zip(names, cards)),
            "options": {"captain": captain},
            "phases": [],
        }
        state = start(rules, parse_record(rules, record))
        for i in range(MAX_PHASES):
            kind = "night" if i % 2 == 0 else "day"
            decider = RandomDecider(rng)
            state, _ = play_phase(rules, state, kind, i // 2 + 1, decider)
            record["phases"].append({kind: decider.answers})
            if state.winner is not None:
                return record


def run_classic_demo(seed: int, out: str, model_path: str | None, music: bool = True) -> bool:
    """Play the classic demo; True when the table's game ends as `narrator resolve` says it does."""
    demo = load_demo()
    table = demo.config["classic"]
    names = [p["name"] for p in table["players"]]
    rules = load_classic()
    record = classic_game(rules, names, table["roles"], table["captain"], seed)
    expected = resolve_classic(record)
    profile = find_profile("fr")
    io = demo_io(out, model_path, profile.ambience if music else None)
    # the calls' waits shortened as the one-night demo's are (the same for a living or a dead role's call)
    shorter = demo.config["wait_multiplier"]
    narration = load_narration()
    narration = replace(narration, calls=tuple(replace(c, wait=c.wait * shorter) for c in narration.calls))
    with io.playing():
        players = PlayerVoices(player_voices(table["players"], profile), io.players_out, show_player, io.model)
        ear = RecordVoices(record, players.speak)
        session = ClassicSession(
            ear=ear,
            rules=rules,
            narration=narration,
            players=tuple(names),
            deal=tuple(record["deal"][p] for p in names),
            options=Options(captain=table["captain"]),
            operator=RecordOperator(record, show=lambda text: print(f"[opérateur] {text}", flush=True)),
            minutes=table["minutes"],
            **io.host(profile, rules.game, names),
        )
        ear.session = session
        ending = session.run()
    played = resolve_classic(ending.record)
    return played["winners"] == expected["winners"] and played["dead"] == expected["dead"]
