"""The one night: who wakes when, in the rulebook's order, and what each action does.

onuw follows 000 §3a (i–x): the Doppelgänger's copied action first when it is voyante, voleur,
merdeux or saoulon; then the wolves, the traitor, the masons, voyante, voleur, merdeux, saoulon,
insomniaque, and the Doppelgänger-insomniaque last. poudlard follows 001's wake numbers
(Mangemorts 1 … Minerva 9). The order is each role's `wake` in the game's script.
"""

from __future__ import annotations

from narrator.rules.errors import RecordError, missing
from narrator.rules.onenight.model import COPY_PREFIX, CopyTiming, Game, Night, Power, Role, Ruleset
from narrator.rules.onenight.powers import ACTIONS, Table, expect_keys, nothing_to_choose

LAST_WAKE = 1_000_000  # after every wake number: the Doppelgänger-insomniaque (000 x)


def resolve_night(rules: Ruleset, game: Game, until: int | None = None) -> Night:
    """Play the night of `game`: the cards at dawn, what each player learned, the face-up card.

    `until`: only the wakes up to that number (a night being played call by call: what the
    characters called so far did and learned)."""
    roles = rules.roles
    players = game.players
    table = Table(players, list(game.deal), rules)
    # (wake, seat, acting role, choice, key path of the choice); (wake, seat) is unique
    events: list[tuple[int, int, Role, dict[str, object], tuple]] = []
    for seat, name in enumerate(players):
        role = roles[game.deal[seat]]
        choice = game.night.get(name) or {}
        if role.power is None:
            if choice:
                nothing_to_choose(table, seat, choice, ("night", name))
        elif role.power is Power.COPY:
            path = ("night", name, "then")
            copied, then = _copy(table, seat, choice, path[:2])
            if copied.power is None:
                if then:
                    nothing_to_choose(table, seat, then, path)
                continue
            events.append((copy_wake(role, copied), seat, copied, then, path))
        else:
            events.append((role.wake or 0, seat, role, choice, ("night", name)))
    events.sort(key=_order)

    groups: dict[str, list[str]] = {}  # who wakes together and recognizes each other, in seating order
    wolves = []  # 000 iii: "SELON LA DISTRIBUTION INITIALE", the Doppelgänger-loup included
    for _, seat, role, _, _ in sorted(events, key=_seat):
        if role.power is Power.RECOGNIZE:
            groups.setdefault(role.group or role.id, []).append(players[seat])
        if role.wolf:
            wolves.append(players[seat])
    for wake, seat, role, choice, path in events:
        if until is not None and wake > until:
            break
        power = role.power
        if power is Power.RECOGNIZE:
            members = groups[role.group or role.id]
            table.tell(seat, role.group or role.id, members)
            if choice:
                _lone_peek(table, seat, role, choice, path, alone=len(members) == 1)
        elif power is Power.SEE_WOLVES:
            expect_keys(choice, path, ())
            table.tell(seat, rules.wolf_group, wolves)
        elif power is not None:
            ACTIONS[power](table, seat, choice, path)
    return Night(table.cards, table.learned, table.visible)


def copy_wake(copier: Role, copied: Role) -> int:
    """When a Doppelgänger who copied `copied` acts with it (000 3a: i, with the role, or x)."""
    timing = copied.as_copy or CopyTiming.WITH_ROLE
    if timing is CopyTiming.FIRST:
        return copier.wake or 0
    return LAST_WAKE if timing is CopyTiming.LAST else copied.wake or 0


def _order(event: tuple) -> tuple[int, int]:
    return event[0], event[1]


def _seat(event: tuple) -> int:
    return event[1]


def _copy(table: Table, seat: int, choice: dict[str, object], path: tuple) -> tuple[Role, dict[str, object]]:
    """000 2a: the Doppelgänger looks at another player's card and becomes that role.

    Returns the copied role and the choice he makes with it (`then`)."""
    if "copy" not in choice:
        raise missing(path, "copy: le joueur dont le Doppelgänger copie le rôle")
    expect_keys(choice, path, ("copy",), ("then",))
    then = choice.get("then") or {}
    if not isinstance(then, dict):
        raise RecordError(path + ("then",), "le choix du rôle copié (un mapping)", then)
    target = table.other_player(seat, choice["copy"], path + ("copy",))
    seen = table.cards[target]
    table.tell(seat, table.players[target], seen)
    table.cards[seat] = COPY_PREFIX + seen
    return table.rules.roles[seen], then


def _lone_peek(table: Table, seat: int, role: Role, choice: dict[str, object], path: tuple, alone: bool) -> None:
    """000: "Si en début de jeu un loup se réveille seul, il a le droit de regarder l'une des cartes du milieu.\""""
    if not (role.lone_peek and alone):
        why = (
            "rien : seul un loup qui se réveille seul peut regarder le centre"
            if role.lone_peek
            else ("rien : ce personnage ne regarde pas le centre")
        )
        raise RecordError(path + tuple(choice)[:1], why, dict(choice))
    expect_keys(choice, path, ("peek",))
    place = table.center(choice["peek"], path + ("peek",))
    table.tell(seat, table.name_of(place), table.cards[place])
