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


class ComposeError(ValueError):
    """A table the advice cannot compose as asked; one French sentence."""


@dataclass(frozen=True)
class Why:
    """Where a rule comes from: the rulebook's sentence, or what the proposal follows where it is silent."""

    source: str | None = None
    follows: str | None = None
    rulebook: str | None = None  # the rulebook of this sentence, when the game has several

    def said(self, rulebook: str) -> str:
        parts = []
        if self.source:
            parts.append(f"{self.rulebook or rulebook} : « {self.source} »")
        if self.follows:
            parts.append(("le livret est muet ; la proposition suit : " if not self.source else "et ") + self.follows)
        said = " ; ".join(parts)
        return said if said.endswith(("»", ".", ")")) else said + "."


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
    reasons: tuple[str, ...]  # why, in French, each with its rulebook sentence


def most_players(advice: Advice, box: Box) -> int:
    """The largest table the advice composes for."""
    if advice.most is not None:
        return advice.most
    if any(n is None for n in box.copies.values()):
        raise ValueError(f"{advice.game} : une boîte sans limite demande un nombre de joueurs maximum")
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
        most_why = f" ({advice.most_why.said(advice.rulebook)})" if advice.most_why else ""
        raise ComposeError(f"de {least} à {most} joueurs pour ce jeu{most_why} ; demandé : {players}")
    for card in (*avec, *sans):
        if card not in box.copies:
            raise ComposeError(f"« {card} » n'est pas un personnage de ce jeu (narrator roles {advice.game})")
    refused = set(sans)
    both = [c for c in dict.fromkeys(avec) if c in refused]
    if both:
        raise ComposeError(f"{_name(box, both[0])} est à la fois demandé et refusé")
    size = players + advice.center
    reasons = [_size_reason(advice, players, size)]
    if advice.box_why:
        reasons.append(
            "Pas plus de cartes d'un personnage que la boîte n'en a : " + advice.box_why.said(advice.rulebook)
        )
    builder = _Builder(advice, box, size, refused)

    for card in avec:  # each asked card once more than before: « --avec loup,loup » asks for two
        if not builder.add(card, asked=True):
            raise ComposeError(builder.refusal)
    if avec:
        reasons.append("Les cartes demandées d'abord : " + _names(box, list(avec)) + ".")
    scenario = _scenario(advice, box, players)
    if scenario:
        sid, why = scenario
        cards = box.scenarios[sid][players]
        for card in cards:
            builder.add(card, wanted=cards.count(card))
        reasons.append(f"Le scénario « {box.titles.get(sid, sid)} » : " + why.said(advice.rulebook))
    wolves = wolves_for(advice, players)
    if wolves and advice.wolves_why:
        while builder.wolves() < wolves and builder.add(_first_wolf(box, refused), wanted=wolves):
            pass
        said = "un loup-garou" if wolves == 1 else f"{wolves} loups-garous"
        reasons.append(f"{said.capitalize()} pour {players} joueurs : " + advice.wolves_why.said(advice.rulebook))
    if wolves and not builder.wolves():
        raise ComposeError(
            "il ne reste pas de place pour un loup-garou : demandez moins de cartes, ou --sans moins de loups"
        )
    before = len(builder.cards)
    for card in advice.order:
        builder.add(card, wanted=Counter(advice.order)[card])
    if len(builder.cards) > before or not scenario:
        reasons.append("Les autres cartes : " + advice.order_why.said(advice.rulebook))
    while advice.filler and len(builder.cards) < size and builder.add(advice.filler, wanted=size):
        pass
    if len(builder.cards) < size:
        raise ComposeError(
            f"pas assez de cartes permises pour {players} joueurs : "
            f"{size} cartes demandées, {len(builder.cards)} trouvées"
        )
    undealt = builder.undealt()
    for card in dict.fromkeys(builder.cards):
        for need in advice.needs:
            if need.card == card:
                reasons.append(
                    f"{_name(box, card)} avec {_either(box, need.any_of)} : " + need.why.said(advice.rulebook)
                )
        for group in advice.groups:
            if group.cards[0] == card:
                reasons.append(f"{_names(box, list(group.cards))} ensemble : " + group.why.said(advice.rulebook))
        for rule in advice.undealt:
            if rule.card == card:
                reasons.append(
                    f"{_name(box, card)} : {rule.count} cartes non distribuées, " + rule.why.said(advice.rulebook)
                )
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
        self.refusal = ""

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
        name = _name(self.box, card)
        group = self._group(card)
        if have[card] and group:
            return self._no(f"{name} : ses cartes sont déjà toutes en jeu, ensemble") if asked else False
        cards = list(group or (card,))
        if any(c in self.refused for c in cards):
            return self._no(f"{name} ne va pas sans {_names(self.box, cards)}") if asked else False
        for apart in self.advice.apart:
            if card in apart.cards and any(have[o] for o in apart.cards if o != card):
                return (
                    self._no(f"{_names(self.box, list(apart.cards))} : {apart.why.follows or apart.why.source}")
                    if asked
                    else False
                )
        for need in self.advice.needs:
            if need.card == card and not any(have[c] for c in need.any_of):
                helper = next((c for c in need.any_of if c not in self.refused and self._fits(have, [c])), None)
                if helper is None:
                    if all(c in self.refused for c in need.any_of):
                        why = f"--sans écarte {_names(self.box, list(need.any_of))}."
                    else:
                        why = f"il ne reste pas de place pour {_either(self.box, need.any_of)}."
                    return self._no(f"{need.advice} Or {why}") if asked else False
                cards.insert(0, helper)
        if not self._fits(have, cards):
            if len(self.cards) + len(cards) > self.size:
                return self._no(f"trop de cartes demandées pour la table ({self.size} au plus)") if asked else False
            return self._no(f"{name} : la boîte n'en a que {self.box.copies[card]}") if asked else False
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
                raise ComposeError(f"{_name(self.box, rule.card)} : pas assez de cartes à laisser au centre")
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

    def _no(self, why: str) -> bool:
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


def _size_reason(advice: Advice, players: int, size: int) -> str:
    return f"{size} cartes pour {players} joueurs : " + advice.center_why.said(advice.rulebook)


def _name(box: Box, card: str) -> str:
    return box.names.get(card, card)


def _names(box: Box, cards: list[str]) -> str:
    """« voyante, voleur et merdeux », each name once with its count when more than one."""
    counted = Counter(cards)
    said = [(f"{n} × " if n > 1 else "") + _name(box, c) for c, n in counted.items()]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " et " + said[-1]


def _either(box: Box, cards: Sequence[str]) -> str:
    said = [_name(box, c) for c in cards]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " ou " + said[-1]
