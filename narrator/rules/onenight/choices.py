"""A one-night game played call by call: who acts in each call, what each may choose, what each learns.

Pure: the table asks, for the call of a given wake number, which players act (by the card they were
DEALT; a Doppelgänger by the card he copied), the next choice each must make (`next_ask`), and folds
the answer into the record's `night` value (`with_answer`, docs/record.md « Night choices »). What a
character learns is the engine's own `learned`, resolved with the choices made so far (`learned`).

A player's choice is absent from `night` until he answers; `{}` is « rien ». The Doppelgänger's
copied action sits under `then`: `{copy: Ana}` has copied and not yet acted, `{copy: Ana, then: {}}`
acted by doing nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from narrator.rules.onenight.model import CENTER, Game, Options, Power, Role, Ruleset
from narrator.rules.onenight.night import LAST_WAKE, copy_wake, resolve_night

# the voyante's « deux des trois cartes du milieu » (000), offered beside the players: one list, one touch
CENTER_PAIRS = tuple(f"{a}+{b}" for i, a in enumerate(CENTER) for b in CENTER[i + 1 :])

Night = Mapping[str, Mapping[str, object]]  # player -> choice so far, as a record's `night` holds it


@dataclass(frozen=True, slots=True)
class Ask:
    """One choice a player makes on his phone: `key` of the record's choice (`then.` for a copied action)."""

    key: str  # copy, peek, look, swap_with, swap, take, give_to, reveal
    options: tuple[str, ...]  # players' names, middle places (A, B, C), or middle pairs (A+B)
    optional: bool = False  # « rien » is an answer: the character does nothing
    two: bool = False  # two different options, in order (the merdeux's two players)
    copied: bool = False  # the Doppelgänger's action with the copied card: under `then`
    said: str = ""  # which question's words, when `key` alone does not say it (Dumbledore's look)

    @property
    def question(self) -> str:
        return self.said or self.key


def call_wakes(rules: Ruleset, calls: Sequence[Sequence[str]]) -> list[int | None]:
    """The wake number of each call of the night (None: a plain line); a call of characters already
    called (the Doppelgänger's second) is the night's last (000 x)."""
    called: set[str] = set()
    out: list[int | None] = []
    for roles in calls:
        new = [r for r in roles if r not in called]
        called.update(roles)
        if not roles:
            out.append(None)
        elif not new:
            out.append(LAST_WAKE)
        else:
            out.append(min(rules.roles[r].wake or 0 for r in new))
    return out


def acting_role(rules: Ruleset, players: Sequence[str], deal: Sequence[str], night: Night, player: str) -> Role:
    """The role a player acts as: his dealt card's, or, for a Doppelgänger who copied, the copied card's."""
    role = rules.roles[deal[players.index(player)]]
    target = (night.get(player) or {}).get("copy") if role.power is Power.COPY else None
    return rules.roles[deal[players.index(target)]] if isinstance(target, str) and target in players else role


def wakes_of(rules: Ruleset, players: Sequence[str], deal: Sequence[str], night: Night, player: str) -> list[int]:
    """The wakes at which a player acts: his dealt card's; a Doppelgänger's copy, then his copied action."""
    role = rules.roles[deal[players.index(player)]]
    if role.power is None:
        return []
    if role.power is not Power.COPY:
        return [role.wake or 0]
    copied = acting_role(rules, players, deal, night, player)
    if copied is role:  # not copied yet
        return [role.wake or 0]
    return [role.wake or 0] + ([copy_wake(role, copied)] if copied.power is not None else [])


def actors(rules: Ruleset, players: Sequence[str], deal: Sequence[str], night: Night, wake: int) -> list[str]:
    """The players the call of `wake` wakes, in seat order."""
    return [p for p in players if wake in wakes_of(rules, players, deal, night, p)]


def next_ask(
    rules: Ruleset, players: Sequence[str], deal: Sequence[str], night: Night, player: str, wake: int
) -> Ask | None:
    """What `player` must choose next in the call of `wake`; None when he has nothing (more) to choose there."""
    if wake not in wakes_of(rules, players, deal, night, player):
        return None
    dealt = rules.roles[deal[players.index(player)]]
    choice = night.get(player)
    others = tuple(p for p in players if p != player)
    if dealt.power is Power.COPY:
        if choice is None or "copy" not in choice:
            return Ask("copy", others)  # 000 2a: "il indique au meneur le joueur dont il veut copier le rôle"
        copied = acting_role(rules, players, deal, night, player)
        if wake != copy_wake(dealt, copied):
            return None
        then = choice.get("then")
        ask = _power_ask(
            copied,
            then if isinstance(then, Mapping) else None,
            player,
            players,
            _alone(rules, players, deal, night, player),
        )
        return replace(ask, copied=True) if ask else None
    return _power_ask(dealt, choice, player, players, _alone(rules, players, deal, night, player))


def decoy(rules: Ruleset, called: Sequence[str], wake: int, player: str, players: Sequence[str]) -> Ask | None:
    """The question a phone shows in the call of `wake` when its holder is not called: the look of the
    call's own question (the characters it calls, not who holds them: the same whether their cards were
    dealt or lie in the middle); None: a screen to touch (a call where nobody chooses)."""
    if wake == LAST_WAKE:
        return None
    role = next((rules.roles[r] for r in called if rules.roles[r].wake == wake and rules.roles[r].power), None)
    if role is None:
        return None
    if role.power is Power.COPY:
        return Ask("copy", tuple(p for p in players if p != player))
    return _power_ask(role, None, player, players, alone=True)


def _power_ask(
    role: Role, choice: Mapping[str, object] | None, me: str, players: Sequence[str], alone: bool
) -> Ask | None:
    others = tuple(p for p in players if p != me)
    power = role.power
    if choice is not None:  # answered: only Dumbledore chooses in two steps, and only once he looked
        if power is Power.CENTER_TO_PLAYER and "look" in choice and "give_to" not in choice:
            return Ask("give_to", tuple(players))  # 001: "soit celle d'un joueur, soit la sienne"
        return None
    if power is Power.RECOGNIZE:
        # 000: "Si en début de jeu un loup se réveille seul, il a le droit de regarder l'une des cartes du milieu."
        return Ask("peek", CENTER, optional=True) if role.lone_peek and alone else None
    if power is Power.LOOK:  # 000: "la carte d'un autre joueur, ou de deux des trois cartes du milieu"
        return Ask("look", others + CENTER_PAIRS, optional=True)
    if power is Power.SWAP_SELF_OTHER_LOOK:  # 000: "Il peut, à son choix, échanger sa carte"
        return Ask("swap_with", others, optional=True)
    if power is Power.SWAP_TWO_OTHERS:  # 000: "Il peut, à son choix, échanger les cartes de deux autres joueurs"
        return Ask("swap", others, optional=True, two=True)
    if power is Power.SWAP_SELF_CENTER_BLIND:  # 000: "Il DOIT remplacer sa carte d'identité par une carte du milieu"
        return Ask("take", CENTER)
    if power is Power.CENTER_TO_PLAYER:  # 001: "Tu peux regarder une des cartes au centre."
        return Ask("look", CENTER, optional=True, said="look_center")
    if power is Power.REVEAL:  # 001: "Tu peux retourner la carte d'un autre joueur."
        return Ask("reveal", others, optional=True)
    return None


def _alone(rules: Ruleset, players: Sequence[str], deal: Sequence[str], night: Night, player: str) -> bool:
    """Whether the player wakes alone in his group (the lone wolf), counting a Doppelgänger who copied it."""
    mine = acting_role(rules, players, deal, night, player)
    if mine.power is not Power.RECOGNIZE:
        return False
    group = mine.group or mine.id
    roles = [acting_role(rules, players, deal, night, p) for p in players]
    return sum(1 for r in roles if r.power is Power.RECOGNIZE and (r.group or r.id) == group) == 1


def with_answer(ask: Ask, choice: Mapping[str, object] | None, value: object) -> dict[str, object]:
    """The player's choice once `value` answers `ask` (None: « rien »), as a record's `night` holds it."""
    before = dict(choice or {})
    then = before.get("then")
    inner = dict(then) if ask.copied and isinstance(then, Mapping) else {} if ask.copied else before
    if ask.key == "copy":
        return {"copy": value}
    if value is not None:
        if isinstance(value, str) and value in CENTER_PAIRS:
            value = value.split("+")
        inner[ask.key] = list(value) if isinstance(value, (list, tuple)) else value
    if ask.copied:
        return {**before, "then": inner}
    return inner


def learned(
    rules: Ruleset, players: Sequence[str], deal: Sequence[str], night: Night, wake: int
) -> dict[str, dict[str, object]]:
    """What each player has learned once the calls up to `wake` are played with the choices made so far
    (the engine's own `learned`). Nothing before a Doppelgänger has copied: his call comes first."""
    probe: dict[str, dict[str, object]] = {}
    for player, card in zip(players, deal):
        choice = dict(night.get(player) or {})
        if rules.roles[card].power is Power.COPY:
            if "copy" not in choice:
                return {}
            then = choice.get("then")
            if isinstance(then, Mapping):
                choice["then"] = _probe(acting_role(rules, players, deal, night, player), dict(then), player)
        else:
            choice = _probe(rules.roles[card], choice, player)
        probe[player] = choice
    game = Game(None, tuple(players), tuple(deal), probe, {}, Options())
    return resolve_night(rules, game, until=wake).learned


def _probe(role: Role, choice: dict[str, object], player: str) -> dict[str, object]:
    """A choice half made, completed so the engine can say what was seen: Dumbledore who looked at a middle
    card sees it before he chooses whom to give it to (001), the same whoever gets it."""
    if role.power is Power.CENTER_TO_PLAYER and "look" in choice and "give_to" not in choice:
        return {**choice, "give_to": player}
    return choice


def final_cards(
    rules: Ruleset, players: Sequence[str], deal: Sequence[str], night: Night
) -> tuple[list[str], dict[str, str]]:
    """The cards at dawn (players', then the middle's) and the cards left face up (Harry's)."""
    game = Game(None, tuple(players), tuple(deal), {p: dict(c) for p, c in night.items()}, {}, Options())
    done = resolve_night(rules, game)
    return done.cards, done.visible
