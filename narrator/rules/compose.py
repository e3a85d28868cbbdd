"""The cards proposed for a table, and what a chosen composition goes against: the rulebooks' advice
(scripts/compose.yaml) applied to a box (the game's own script). Pure: no file, no print.

A proposal is built greedily: the cards asked for (--avec) first, then a ready-made scenario for this
many players, then the wolves the table's size calls for, then the advice's order, then the filler
card; a card is taken only if the box still has one, it is not refused (--sans), its group fits whole
and what it needs is in play or can be added. Every step that shaped the result leaves its reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from narrator.rules.reason import Reason


class ComposeError(ValueError):
    """A table the advice cannot compose as asked: `reason` says why (said in French by the app)."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason.key)
        self.reason = reason


@dataclass(frozen=True)
class Why:
    """Where a rule comes from: the rulebook's sentence, or what the proposal follows where it is silent."""

    source: str | None = None
    follows: str | None = None
    rulebook: str | None = None  # the rulebook of this sentence, when the game has several


@dataclass(frozen=True)
class Need:
    """`card` is played only with one of `any_of` in play (001's Minerva)."""

    card: str
    any_of: tuple[str, ...]
    why: Why
    advice: str


@dataclass(frozen=True)
class Group:
    """Cards that come all together or not at all (003's two sœurs, three frères)."""

    cards: tuple[str, ...]
    why: Why


@dataclass(frozen=True)
class Undealt:
    """`card` needs `count` cards left undealt, taken in order from `among` (003's voleur, comédien)."""

    card: str
    count: int
    among: tuple[str, ...]
    why: Why


@dataclass(frozen=True)
class Apart:
    """Cards that never play together."""

    cards: tuple[str, ...]
    why: Why


@dataclass(frozen=True)
class Advice:
    """One game's advice, as scripts/compose.yaml writes it."""

    game: str
    rulebook: str
    center: int
    center_why: Why
    box_why: Why | None = None
    most: int | None = None  # most players; None: as many as the box allows
    most_why: Why | None = None
    scenarios: tuple[tuple[str, Why], ...] = ()
    wolves: tuple[tuple[int, int], ...] = ()  # (from this many players, this many wolves), ascending
    wolves_why: Why | None = None
    order: tuple[str, ...] = ()
    order_why: Why = field(default_factory=Why)
    filler: str | None = None
    groups: tuple[Group, ...] = ()
    needs: tuple[Need, ...] = ()
    undealt: tuple[Undealt, ...] = ()
    apart: tuple[Apart, ...] = ()


@dataclass(frozen=True)
class Box:
    """What the game's own script says of its cards."""

    copies: Mapping[str, int | None]  # None: as many as the table needs
    names: Mapping[str, str]  # id -> the character's name
    wolves: frozenset[str]  # the cards that count as wolves
    together: tuple[tuple[str, ...], ...] = ()  # the engine's own linked cards (fred and george)
    scenarios: Mapping[str, Mapping[int, tuple[str, ...]]] = field(default_factory=dict)
    titles: Mapping[str, str] = field(default_factory=dict)  # scenario id -> its title


@dataclass(frozen=True)
class Proposal:
    cards: tuple[str, ...]  # the cards in play: one a player, then the center's
    undealt: tuple[str, ...]  # the classic game's cards left aside (voleur, comédien)
    reasons: tuple[Reason, ...]  # why, each with the rule (and its rulebook sentence) it follows


def most_players(advice: Advice, box: Box) -> int:
    """The largest table the advice composes for."""
    if advice.most is not None:
        return advice.most
    if any(n is None for n in box.copies.values()):
        raise ValueError(f"{advice.game}: a box without a limit needs `players: most`")
    return sum(n or 0 for n in box.copies.values()) - advice.center


def wolves_for(advice: Advice, players: int) -> int:
    """How many wolves the advice puts at a table of `players` (0 when it says nothing)."""
    count = 0
    for start, wolves in advice.wolves:
        if players >= start:
            count = wolves
    return count


def compose(advice: Advice, box: Box, players: int, avec: Sequence[str] = (), sans: Sequence[str] = ()) -> Proposal:
    """The cards the advice proposes for `players`, with `avec` in and no card of `sans`; `ComposeError` if none."""
    least, most = 3, most_players(advice, box)
    if not least <= players <= most:
        raise ComposeError(Reason("range", {"least": least, "most": most, "players": players, "why": advice.most_why}))
    for card in (*avec, *sans):
        if card not in box.copies:
            raise ComposeError(Reason("unknown", {"card": card, "game": advice.game}))
    refused = set(sans)
    both = [c for c in dict.fromkeys(avec) if c in refused]
    if both:
        raise ComposeError(Reason("asked_and_refused", {"card": both[0]}))
    size = players + advice.center
    reasons = [Reason("size", {"size": size, "players": players, "why": advice.center_why})]
    if advice.box_why:
        reasons.append(Reason("box", {"why": advice.box_why}))
    builder = _Builder(advice, box, size, refused)

    for card in avec:  # each asked card once more than before: « --avec loup,loup » asks for two
        if not builder.add(card, asked=True):
            raise ComposeError(builder.refusal)
    if avec:
        reasons.append(Reason("asked", {"cards": list(avec)}))
    scenario = _scenario(advice, box, players)
    if scenario:
        sid, why = scenario
        cards = box.scenarios[sid][players]
        for card in cards:
            builder.add(card, wanted=cards.count(card))
        reasons.append(Reason("scenario", {"scenario": sid, "why": why}))
    wolves = wolves_for(advice, players)
    if wolves and advice.wolves_why:
        while builder.wolves() < wolves and builder.add(_first_wolf(box, refused), wanted=wolves):
            pass
        reasons.append(Reason("wolves", {"count": wolves, "players": players, "why": advice.wolves_why}))
    if wolves and not builder.wolves():
        raise ComposeError(Reason("no_wolf"))
    before = len(builder.cards)
    for card in advice.order:
        builder.add(card, wanted=Counter(advice.order)[card])
    if len(builder.cards) > before or not scenario:
        reasons.append(Reason("order", {"why": advice.order_why}))
    while advice.filler and len(builder.cards) < size and builder.add(advice.filler, wanted=size):
        pass
    if len(builder.cards) < size:
        raise ComposeError(Reason("short", {"players": players, "size": size, "found": len(builder.cards)}))
    undealt = builder.undealt()
    for card in dict.fromkeys(builder.cards):
        for need in advice.needs:
            if need.card == card:
                reasons.append(Reason("need", {"card": card, "any_of": list(need.any_of), "why": need.why}))
        for group in advice.groups:
            if group.cards[0] == card:
                reasons.append(Reason("group", {"cards": list(group.cards), "why": group.why}))
        for rule in advice.undealt:
            if rule.card == card:
                reasons.append(Reason("undealt", {"card": card, "count": rule.count, "why": rule.why}))
    return Proposal(tuple(builder.cards), tuple(undealt), tuple(reasons))


def against(advice: Advice, box: Box, cards: Sequence[str], undealt: Sequence[str] = ()) -> list[str]:
    """What a composition goes against in the advice, each a French sentence; [] when it follows it.
    Only what is advice (`needs`): the rules' own limits (the box, players + 3, the sœurs together, the
    voleur's undealt cards) are the engine's to refuse, and the wolves' count by table size is ours, not
    a rulebook's (002: « 1, 2, 3 ou 4 suivant le nombre de joueurs »): a table that plays otherwise
    hears nothing of it."""
    count = Counter(cards)
    return [need.advice for need in advice.needs if count[need.card] and not any(count[c] for c in need.any_of)]


class _Builder:
    """The cards taken so far, and why the last one asked for could not be."""

    def __init__(self, advice: Advice, box: Box, size: int, refused: set[str]) -> None:
        self.advice, self.box, self.size, self.refused = advice, box, size, refused
        self.cards: list[str] = []
        self.refusal = Reason("none")

    def wolves(self) -> int:
        return sum(1 for c in self.cards if c in self.box.wolves)

    def add(self, card: str | None, asked: bool = False, wanted: int = 1) -> bool:
        """Take `card` (its whole group, what it needs) if the box, the size and the advice allow it and the
        table has fewer than `wanted` of it (an asked card is always one more)."""
        if card is None:
            return False
        have = Counter(self.cards)
        if not asked and have[card] >= wanted:
            return False
        group = self._group(card)
        if have[card] and group:
            return self._no(Reason("group_full", {"card": card}), asked)
        cards = list(group or (card,))
        if any(c in self.refused for c in cards):
            return self._no(Reason("group_refused", {"card": card, "cards": cards}), asked)
        for apart in self.advice.apart:
            if card in apart.cards and any(have[o] for o in apart.cards if o != card):
                return self._no(Reason("apart", {"cards": list(apart.cards), "why": apart.why}), asked)
        for need in self.advice.needs:
            if need.card == card and not any(have[c] for c in need.any_of):
                helper = next((c for c in need.any_of if c not in self.refused and self._fits(have, [c])), None)
                if helper is None:
                    key = "need_refused" if all(c in self.refused for c in need.any_of) else "need_no_room"
                    return self._no(Reason(key, {"advice": need.advice, "any_of": list(need.any_of)}), asked)
                cards.insert(0, helper)
        if not self._fits(have, cards):
            if len(self.cards) + len(cards) > self.size:
                return self._no(Reason("too_many", {"size": self.size}), asked)
            return self._no(Reason("box_limit", {"card": card, "copies": self.box.copies[card]}), asked)
        self.cards.extend(cards)
        return True

    def undealt(self) -> list[str]:
        """The undealt cards the table's voleur or comédien needs, from those the box has left."""
        have = Counter(self.cards)
        aside: list[str] = []
        for rule in self.advice.undealt:
            if not have[rule.card]:
                continue
            if rule.count > 1 and len(set(rule.among)) > 1:  # different characters, none in play
                free = [c for c in rule.among if not have[c] and c not in self.refused]
            else:  # the same card again
                free = [rule.among[0]] * rule.count
            taken = free[: rule.count]
            if len(taken) < rule.count or not self._fits(have + Counter(aside), taken, size=False):
                raise ComposeError(Reason("undealt_short", {"card": rule.card}))
            aside.extend(taken)
        return aside

    def _group(self, card: str) -> tuple[str, ...] | None:
        for group in (*self.box.together, *(g.cards for g in self.advice.groups)):
            if card in group:
                return group
        return None

    def _fits(self, have: Counter[str], cards: Sequence[str], size: bool = True) -> bool:
        if size and len(self.cards) + len(cards) > self.size:
            return False
        more = have + Counter(cards)
        return all(self.box.copies[c] is None or more[c] <= (self.box.copies[c] or 0) for c in set(cards))

    def _no(self, why: Reason, asked: bool) -> bool:
        """Not taken; for an asked card, `why` is kept to refuse the table's request."""
        if asked:
            self.refusal = why
        return False


def _scenario(advice: Advice, box: Box, players: int) -> tuple[str, Why] | None:
    for sid, why in advice.scenarios:
        if players in box.scenarios.get(sid, {}):
            return sid, why
    return None


def _first_wolf(box: Box, refused: set[str]) -> str | None:
    """The plain wolf card: the first wolf of the box not refused whose copies are the most."""
    wolves = [c for c in box.copies if c in box.wolves and c not in refused]
    return max(wolves, key=lambda c: box.copies[c] or 99, default=None)
