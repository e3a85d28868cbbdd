"""Chance steps with an injected `random.Random`: a deal, and a whole random legal record.

The record is written by playing the game: a `RandomDecider` answers each question the engine
asks with a legal choice, and writes it where a record keeps it. So the generator cannot drift
from the rules: whatever it writes, `narrator resolve` must accept and replay identically.
"""

from __future__ import annotations

import random

from narrator.rules.classic.asks import Ask, Potions, Spy
from narrator.rules.classic.engine import play_phase, start
from narrator.rules.classic.model import Rules
from narrator.rules.classic.record import parse_record


class RandomDecider:
    """Legal random answers; `answers` is the phase as a record writes it."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.answers: dict[str, object] = {}

    def _skip(self, ask: Ask, p: float) -> bool:
        return not ask.forced and self.rng.random() < p

    def player(self, ask: Ask) -> str | None:
        if not ask.choices or self._skip(ask, 0.25):
            return None
        pick = self.rng.choice(ask.choices)
        self.answers[ask.key] = pick
        return pick

    def pair(self, ask: Ask) -> tuple[str, str] | None:
        if len(ask.choices) < 2 or self._skip(ask, 0.25):
            return None
        first, second = self.rng.sample(ask.choices, 2)
        self.answers[ask.key] = [first, second]
        return first, second

    def potions(self, ask: Ask) -> Potions | None:
        heal = ask.heal is not None and self.rng.random() < 0.4
        poison = self.rng.choice(ask.choices) if ask.choices and self.rng.random() < 0.25 else None
        if not heal and poison is None and self.rng.random() < 0.5:
            return None
        self.answers[ask.key] = {"heal": heal, "poison": poison}
        return Potions(heal, poison)

    def spy(self, ask: Ask) -> Spy | None:
        if self.rng.random() < 0.5:
            return None
        spied = self.rng.random() < 0.7
        caught = spied and self.rng.random() < 0.4
        self.answers[ask.key] = {"spied": spied, "caught": caught}
        return Spy(spied, caught)

    def ballots(self, ask: Ask) -> dict[str, str | None]:
        everyone = sorted({t for _, targets in ask.ballots for t in targets})
        lead = self.rng.choice(everyone) if everyone else None
        out: dict[str, str | None] = {}
        for voter, targets in ask.ballots:
            roll = self.rng.random()
            if lead in targets and roll < 0.6:
                out[voter] = lead
            elif targets and roll < 0.93:
                out[voter] = self.rng.choice(targets)
            else:
                out[voter] = None
        self.answers[ask.key] = out
        return out


def random_deal(rules: Rules, rng: random.Random, names: list[str]) -> dict[str, str]:
    """A deal the rules accept: 1 to 4 wolves (fewer than the others), one card of each special, villagers."""
    n = len(names)
    pack = next(rid for rid, r in rules.roles.items() if r.wolf and r.copies != 1)
    most = min(rules.roles[pack].copies or n, (n - 1) // 2)
    wolves = rng.randint(1, max(1, most))
    specials = [rid for rid, r in rules.roles.items() if r.copies == 1]
    fillers = [rid for rid, r in rules.roles.items() if r.copies is None]
    chosen = rng.sample(specials, rng.randint(0, min(len(specials), n - wolves)))
    cards = [pack] * wolves + chosen
    cards += [rng.choice(fillers) for _ in range(n - len(cards))]
    rng.shuffle(cards)
    return dict(zip(names, cards))


def random_record(
    rules: Rules,
    rng: random.Random,
    players: int,
    record_id: object = None,
    names: list[str] | None = None,
    max_phases: int | None = None,
) -> dict:
    """A legal record: a random deal and options, then phases played with random legal choices,
    until a camp wins or `max_phases` (random if not given) have been played."""
    names = names or [f"P{i}" for i in range(players)]
    record: dict = {
        "id": record_id,
        "ruleset": rules.game,
        "players": names,
        "deal": random_deal(rules, rng, names),
        "options": {
            "captain": rng.random() < 0.5,
            "witch_self_heal": rng.random() < 0.8,
            "lovers_spare_each_other": rng.random() < 0.8,
        },
        "phases": [],
    }
    state = start(rules, parse_record(rules, record))
    limit = max_phases if max_phases is not None else rng.randint(1, 4 * len(names))
    for i in range(limit):
        if state.winner is not None:
            break
        kind = "night" if i % 2 == 0 else "day"
        decider = RandomDecider(rng)
        state, _ = play_phase(rules, state, kind, i // 2 + 1, decider)
        record["phases"].append({kind: decider.answers})
    return record
