"""Chance steps, with an injected `random.Random`: a deal, and a whole random record (tests, benchmarks, demos)."""

from __future__ import annotations

import random
from collections import Counter

from narrator.rules.onenight.model import CENTER, Power, Ruleset


def shuffled(cards: list[str], rng: random.Random) -> list[str]:
    """The cards in play dealt at random: one a player, in seat order, then the middle's A, B, C (000 1a-b)."""
    return rng.sample(cards, len(cards))


def random_deck(rules: Ruleset, rng: random.Random, size: int) -> list[str]:
    """`size` cards the box allows (copies, cards that come together), in random order."""
    box = [rid for rid, role in rules.roles.items() for _ in range(role.copies)]
    if size > len(box):
        raise ValueError(f"{size} cartes demandées ; la boîte de {rules.game} n'en a que {len(box)}")
    linked = {rid: group for group in rules.together for rid in group}
    while True:
        rng.shuffle(box)
        deck: Counter[str] = Counter()
        for rid in box:
            if sum(deck.values()) >= size:
                break
            group = Counter(linked.get(rid, (rid,)))
            if rid in linked:
                if deck[rid] or sum(deck.values()) + sum(group.values()) > size:
                    continue
                deck.update(group)
            else:
                deck[rid] += 1
        if sum(deck.values()) == size:
            cards = list(deck.elements())
            rng.shuffle(cards)
            return cards


def random_record(
    rules: Ruleset,
    rng: random.Random,
    players: int,
    record_id: object = None,
    names: list[str] | None = None,
    deck: list[str] | None = None,
) -> dict:
    """A valid record: a random deal (of `deck` if given), a legal random choice for every actor, random votes."""
    names = names or [f"P{i}" for i in range(players)]
    cards = rng.sample(deck, len(deck)) if deck else random_deck(rules, rng, players + 3)
    dealt = dict(zip(names, cards))
    copies = {
        name: rng.choice([n for n in names if n != name])
        for name, card in zip(names, cards)
        if rules.roles[card].power is Power.COPY
    }
    acting_as = [rules.roles[dealt[copies[n]] if n in copies else c] for n, c in zip(names, cards)]
    lone = sum(1 for r in acting_as if r.lone_peek) == 1  # a Doppelgänger-loup wakes with the wolves
    night = {}
    for name, role in zip(names, acting_as):
        if name in copies:
            then = _choice(role.power, name, names, rng, lone=False)
            night[name] = {"copy": copies[name], **({"then": then} if then else {})}
        else:
            choice = _choice(role.power, name, names, rng, lone=lone and role.lone_peek)
            if choice:
                night[name] = choice
    votes = {n: rng.choice(names + [None]) for n in names}
    deal = {**dealt, "center": cards[players:]}
    return {"id": record_id, "ruleset": rules.game, "players": names, "deal": deal, "night": night, "votes": votes}


def _choice(power: Power | None, me: str, names: list[str], rng: random.Random, lone: bool) -> dict:
    others = [n for n in names if n != me]
    if power is Power.RECOGNIZE:
        return {"peek": rng.choice(CENTER)} if lone and rng.random() < 0.8 else {}
    if power is Power.LOOK:
        return {"look": rng.sample(CENTER, 2)} if rng.random() < 0.5 else {"look": rng.choice(others)}
    if power is Power.SWAP_SELF_OTHER_LOOK:
        return {"swap_with": rng.choice(others)} if rng.random() < 0.9 else {}
    if power is Power.SWAP_TWO_OTHERS and len(others) >= 2:
        return {"swap": rng.sample(others, 2)}
    if power is Power.SWAP_SELF_CENTER_BLIND:
        return {"take": rng.choice(CENTER)}
    if power is Power.CENTER_TO_PLAYER:
        return {"look": rng.choice(CENTER), "give_to": rng.choice(names)} if rng.random() < 0.9 else {}
    if power is Power.REVEAL:
        return {"reveal": rng.choice(others)}
    return {}
