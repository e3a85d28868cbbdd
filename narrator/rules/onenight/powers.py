"""Night powers: power id -> small pure function that checks the actor's choice and applies it.

Each function gets the night's working table (`Table`), the acting seat, its choice mapping and the
key path of that choice (for errors). Actions resolve by the card the actor was dealt, whatever he
holds now (000 §3b: "L'action se résout même s'il a changé d'identité").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from narrator.rules.errors import RecordError
from narrator.rules.onenight.model import CENTER, Power, Ruleset


class Table:
    """The cards on the table during one night: seats 0..n-1, then center A, B, C."""

    __slots__ = ("players", "seat", "cards", "learned", "visible", "rules")

    def __init__(self, players: tuple[str, ...], cards: list[str], rules: Ruleset):
        self.players = players
        self.seat = {name: i for i, name in enumerate(players)}
        self.cards = cards
        self.rules = rules
        self.learned: dict[str, dict[str, object]] = {}
        self.visible: dict[str, str] = {}

    def tell(self, seat: int, key: str, value: object) -> None:
        self.learned.setdefault(self.players[seat], {})[key] = value

    def name_of(self, place: int) -> str:
        """A seat's player, or a center place's letter."""
        n = len(self.players)
        return self.players[place] if place < n else CENTER[place - n]

    def swap(self, a: int, b: int) -> None:
        cards = self.cards
        cards[a], cards[b] = cards[b], cards[a]

    def other_player(self, actor: int, value: object, path: tuple) -> int:
        seat = self.seat.get(value) if isinstance(value, str) else None
        if seat is None or seat == actor:
            raise RecordError(path, "un autre joueur assis à la table", value)
        return seat

    def center(self, value: object, path: tuple) -> int:
        if not isinstance(value, str) or value not in CENTER:
            raise RecordError(path, "une carte du centre (A, B ou C)", value)
        return len(self.players) + CENTER.index(value)


Choice = Mapping[str, object]
PowerFn = Callable[[Table, int, Choice, tuple], None]


def expect_keys(choice: Choice, path: tuple, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    """Refuse unknown keys and report the first missing one; an empty choice means 'does nothing'."""
    for key in choice:
        if key not in required and key not in optional:
            allowed = ", ".join(required + optional) or "rien (ce personnage n'a rien à choisir)"
            raise RecordError(path + (key,), f"une des clés {allowed}", key)
    for key in required:
        if key not in choice:
            raise RecordError(path, f"la clé {key}", dict(choice))


def look(t: Table, actor: int, choice: Choice, path: tuple) -> None:
    """Voyante, Hermione: another player's card, or two center cards (000, 001)."""
    if not choice:
        return
    expect_keys(choice, path, ("look",))
    target = choice["look"]
    if isinstance(target, list):
        if len(target) != 2 or target[0] == target[1]:
            raise RecordError(path + ("look",), "deux cartes différentes du centre, ou un autre joueur", target)
        places = [t.center(place, path + ("look", i)) for i, place in enumerate(target)]
    else:
        places = [t.other_player(actor, target, path + ("look",))]
    for place in places:
        t.tell(actor, t.name_of(place), t.cards[place])


def swap_self_other_look(t: Table, actor: int, choice: Choice, path: tuple) -> None:
    """Voleur, Sirius: exchange whatever card he holds with another player's, then see it."""
    if not choice:
        return  # 000 "à son choix"; RULINGS poudlard 2: Sirius may decline
    expect_keys(choice, path, ("swap_with",))
    other = t.other_player(actor, choice["swap_with"], path + ("swap_with",))
    t.swap(actor, other)
    t.tell(actor, "self", t.cards[actor])


def swap_two_others(t: Table, actor: int, choice: Choice, path: tuple) -> None:
    """Merdeux, Neville: exchange two other players' cards, unseen."""
    if not choice:
        return
    expect_keys(choice, path, ("swap",))
    pair = choice["swap"]
    if not isinstance(pair, list) or len(pair) != 2 or pair[0] == pair[1]:
        raise RecordError(path + ("swap",), "deux autres joueurs différents", pair)
    a = t.other_player(actor, pair[0], path + ("swap", 0))
    b = t.other_player(actor, pair[1], path + ("swap", 1))
    t.swap(a, b)


def swap_self_center_blind(t: Table, actor: int, choice: Choice, path: tuple) -> None:
    """Saoulon, Ron: exchange his card with a center card, without looking."""
    if not choice:
        return
    expect_keys(choice, path, ("take",))
    t.swap(actor, t.center(choice["take"], path + ("take",)))


def center_to_player(t: Table, actor: int, choice: Choice, path: tuple) -> None:
    """Dumbledore: look at a center card, then put it in front of a player (maybe himself), unseen."""
    if not choice:
        return
    expect_keys(choice, path, ("look", "give_to"))
    place = t.center(choice["look"], path + ("look",))
    to = choice["give_to"]
    seat = t.seat.get(to) if isinstance(to, str) else None
    if seat is None:
        raise RecordError(path + ("give_to",), "un joueur assis à la table (Dumbledore compris)", to)
    t.tell(actor, t.name_of(place), t.cards[place])
    t.swap(place, seat)


def reveal(t: Table, actor: int, choice: Choice, path: tuple) -> None:
    """Harry: turn another player's card face up; a Mangemort is turned back down (001)."""
    if not choice:
        return
    expect_keys(choice, path, ("reveal",))
    seat = t.other_player(actor, choice["reveal"], path + ("reveal",))
    card = t.cards[seat]
    t.tell(actor, t.name_of(seat), card)
    if not t.rules.by_card[card].wolf:
        t.visible[t.players[seat]] = card


def see_self_final(t: Table, actor: int, choice: Choice, path: tuple) -> None:
    """Insomniaque, Minerva: see the card he holds at the end of the night."""
    expect_keys(choice, path, ())
    t.tell(actor, "self", t.cards[actor])


def nothing_to_choose(t: Table, actor: int, choice: Choice, path: tuple) -> None:
    """Roles that wake only to be told something (or never wake) take no choice."""
    expect_keys(choice, path, ())


ACTIONS: dict[Power, PowerFn] = {
    Power.LOOK: look,
    Power.SWAP_SELF_OTHER_LOOK: swap_self_other_look,
    Power.SWAP_TWO_OTHERS: swap_two_others,
    Power.SWAP_SELF_CENTER_BLIND: swap_self_center_blind,
    Power.CENTER_TO_PLAYER: center_to_player,
    Power.REVEAL: reveal,
    Power.SEE_SELF_FINAL: see_self_final,
}
