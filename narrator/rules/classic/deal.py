"""Chance steps with an injected `random.Random`: a deal, and a whole random legal record.

The record is written by playing the game: a `RandomDecider` answers each question the engine
asks with a legal choice, and writes it where a record keeps it. So the generator cannot drift
from the rules: whatever it writes, `narrator resolve` must accept and replay identically.
"""

from __future__ import annotations

import random

from narrator.rules.classic.asks import Ask, Potions, Spy, Value
from narrator.rules.classic.engine import play_phase, start
from narrator.rules.classic.model import LENDABLE, Camp, Power, Rules
from narrator.rules.classic.record import EXTRA_CARDS, hold, parse_record


class RandomDecider:
    """Legal random answers; `answers` is the phase as a record writes it."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.answers: dict[str, object] = {}
        self.asked: set[str] = set()

    def _skip(self, ask: Ask, p: float) -> bool:
        return not ask.forced and self.rng.random() < p

    def _write(self, ask: Ask, value: object) -> None:
        hold(self.answers, ask.key, value, ask.field, ask.many)

    def player(self, ask: Ask) -> str | None:
        first = ask.key not in self.asked
        self.asked.add(ask.key)
        if ask.again:
            # the servante: she takes a place now or waits; `true` only at her first chance, where a
            # record's `true` is read
            if not ask.choices or self.rng.random() < 0.6:
                return None
            pick = self.rng.choice(ask.choices)
            one = len(ask.choices) == 1 and first and self.rng.random() < 0.5
            self._write(ask, True if one else pick)
            return pick
        if not ask.choices or self._skip(ask, 0.25):
            return None
        pick = self.rng.choice(ask.choices)
        self._write(ask, pick)
        return pick

    def pair(self, ask: Ask) -> tuple[str, str] | None:
        if len(ask.choices) < 2 or self._skip(ask, 0.25):
            return None
        first, second = self.rng.sample(ask.choices, 2)
        self._write(ask, [first, second])
        return first, second

    def players(self, ask: Ask) -> tuple[str, ...] | None:
        if self._skip(ask, 0.25):
            return None
        count = ask.count if ask.count is not None else self.rng.randint(0, len(ask.choices))
        if count > len(ask.choices):
            return None
        picks = tuple(self.rng.sample(ask.choices, count))
        self._write(ask, list(picks))
        return picks

    def option(self, ask: Ask) -> Value | None:
        if not ask.options:
            return None
        if self._skip(ask, 0.3):
            if ask.field and self.rng.random() < 0.3:
                self.answers[ask.key] = {}  # the voleur's `{}`: he keeps his card
            return None
        value = self.rng.choice(ask.options)[0]
        self._write(ask, value)
        return value

    def yes(self, ask: Ask) -> bool:
        if self.rng.random() < 0.7:
            return False
        self._write(ask, True)
        return True

    def potions(self, ask: Ask) -> Potions | None:
        heal = ask.heal is not None and self.rng.random() < 0.4
        poison = self.rng.choice(ask.choices) if ask.choices and self.rng.random() < 0.25 else None
        if not heal and poison is None and self.rng.random() < 0.5:
            return None
        self._write(ask, {"heal": heal, "poison": poison})
        return Potions(heal, poison)

    def spy(self, ask: Ask) -> Spy | None:
        if self.rng.random() < 0.5:
            return None
        spied = self.rng.random() < 0.7
        caught = spied and self.rng.random() < 0.4
        self._write(ask, {"spied": spied, "caught": caught})
        return Spy(spied, caught)

    def ballots(self, ask: Ask) -> dict[str, str | None]:
        everyone = sorted({t for _, targets in ask.ballots for t in targets})
        lead = self.rng.choice(everyone) if everyone else None
        out: dict[str, str | None] = {}
        for voter, legal in ask.ballots:
            # a dealt lover keeps 002's word and never votes against the beloved (the rules would count it)
            targets = tuple(t for t in legal if (voter, t) not in ask.secret)
            roll = self.rng.random()
            if lead in targets and roll < 0.6:
                out[voter] = lead
            elif targets and roll < 0.93:
                out[voter] = self.rng.choice(targets)
            else:
                out[voter] = None
        if ask.forced or out:
            self._write(ask, out)
        return out


def random_deal(rules: Rules, rng: random.Random, names: list[str]) -> dict[str, object]:
    """A deal the rules accept: 1 to 4 wolves (fewer than the others), one card of each special, the
    sœurs and frères together, villagers; the undealt cards and the groups when they are needed."""
    n = len(names)
    roles = rules.roles
    pack = rules.pack
    wolves = rng.randint(1, max(1, (n - 1) // 2))
    lone_wolves = [rid for rid, r in roles.items() if r.wolf and r.copies == 1]
    special_wolves = rng.sample(lone_wolves, rng.randint(0, min(len(lone_wolves), wolves)))
    cards = [pack] * min(wolves - len(special_wolves), roles[pack].copies or n) + special_wolves
    wolves = len(cards)
    specials = [rid for rid, r in roles.items() if r.copies == 1 and not r.wolf]
    chosen = rng.sample(specials, rng.randint(0, min(len(specials), n - wolves)))
    takers = [c for c in chosen if roles[c].power in EXTRA_CARDS]
    if len(takers) > 1:
        chosen.remove(rng.choice(takers))  # the voleur or the comédien, not both
    cards += chosen
    for rid, role in roles.items():
        size = role.copies or 0
        if role.power is Power.RECOGNIZE and n - len(cards) >= size and rng.random() < 0.3:
            cards += [rid] * size
    fillers = [rid for rid, r in roles.items() if r.copies is None]
    cards += [rng.choice(fillers) for _ in range(n - len(cards))]
    rng.shuffle(cards)
    deal: dict[str, object] = dict(zip(names, cards))
    extra = _extra_cards(rules, rng, cards)
    if extra is None:  # too few cards left for the comédien: a villager instead
        taker = next(c for c in cards if roles[c].power is Power.PERFORM)
        deal[names[cards.index(taker)]] = rules.villager
        cards[cards.index(taker)] = rules.villager
    elif extra:
        deal["extra"] = extra
    if any(roles[c].power is Power.SECT for c in cards + (extra or [])):
        groups = [1, 2] + [rng.randint(1, 2) for _ in range(n - 2)]
        rng.shuffle(groups)
        deal["groups"] = dict(zip(names, groups))
    return deal


def _extra_cards(rules: Rules, rng: random.Random, cards: list[str]) -> list[str] | None:
    """The voleur's two undealt cards, the comédien's three ([] without them; None: none to give)."""
    roles = rules.roles
    taker = next((roles[c] for c in cards if roles[c].power in EXTRA_CARDS), None)
    if taker is None or taker.power is None:
        return []
    unused = [
        rid
        for rid, r in roles.items()
        if r.copies == 1 and rid not in cards and r.power not in EXTRA_CARDS and r.power is not Power.RECOGNIZE
    ]
    if taker.power is Power.PERFORM:
        lendable = [rid for rid in unused if roles[rid].camp is Camp.VILLAGE and roles[rid].power in LENDABLE]
        return rng.sample(lendable, 3) if len(lendable) >= 3 else None
    pool = unused + [rules.villager] * 2
    if cards.count(rules.pack) + 2 <= (roles[rules.pack].copies or 2):
        pool += [rules.pack] * 2
    first = rng.choice(pool)
    pool.remove(first)
    return [first, rng.choice(pool)]


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
            "salvateur_self": rng.random() < 0.8,
            "comedien_cards_once": rng.random() < 0.8,
            "loners_block_village": rng.random() < 0.8,
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
