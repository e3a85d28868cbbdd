"""Value types of the multi-night game: camps, powers, roles, options, the table between phases."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from narrator.rules.model import Reason

__all__ = ["Camp", "Cause", "Power", "Role", "Options", "Rules", "State", "PhaseReport", "Reason"]


class Camp(str, Enum):
    """Who plays with whom (003 "Les camps"); the value is the record's camp id."""

    VILLAGE = "village"
    WOLVES = "loups"
    LOVERS = "amoureux"  # two lovers of opposite camps (002 Cupidon: "le but de la partie change pour eux")


class Power(str, Enum):
    """What a role does, by name: the vocabulary `scripts/thiercelieux.yaml` builds roles from."""

    PAIR = "pair"  # cupidon: two lovers, the first night
    SEE = "see"  # voyante: one player's role, each night
    SPY = "spy"  # petite fille: spies on the wolves' turn, may be caught
    DEVOUR = "devour"  # the pack's victim, each night (the role whose key the pack answers to)
    POTIONS = "potions"  # sorcière: one potion of life, one of death
    SHOOT = "shoot"  # chasseur: when he dies, he kills a player of his choice


# Within one wake number: the petite fille opens her eyes as the wolves wake, before their choice.
POWER_RANK = {Power.PAIR: 0, Power.SEE: 1, Power.SPY: 2, Power.DEVOUR: 3, Power.POTIONS: 4, Power.SHOOT: 5}
NIGHT_POWERS = frozenset({Power.PAIR, Power.SEE, Power.SPY, Power.DEVOUR, Power.POTIONS})


class Cause(str, Enum):
    """Why a player died; each has its sentence in the script's texts (`death_<cause>`)."""

    DEVOURED = "devoured"
    CAUGHT = "caught"
    POISONED = "poisoned"
    VOTED = "voted"
    SHOT = "shot"
    GRIEF = "grief"


@dataclass(frozen=True, slots=True)
class Role:
    id: str
    name: str  # French, as the narrator says it
    camp: Camp
    power: Power | None = None
    wolf: bool = False  # wakes with the pack; a wolf is never the pack's victim
    wake: int | None = None  # night order (the published game's, RULINGS thiercelieux 18)
    copies: int | None = None  # how many cards the box has; None: as many as the table needs


@dataclass(frozen=True, slots=True)
class Options:
    """Rule switches; their defaults and reasons are in `scripts/thiercelieux.yaml`."""

    captain: bool = False
    witch_self_heal: bool = True
    lovers_spare_each_other: bool = True


@dataclass(frozen=True, slots=True)
class Rules:
    """The classic game as its script declares it: roles, default options, explanation templates."""

    game: str
    roles: Mapping[str, Role]
    options: Options
    texts: Mapping[str, object] = field(default_factory=dict)

    def night_roles(self) -> list[Role]:
        """Roles that wake at night, in waking order."""
        waking = [r for r in self.roles.values() if r.power in NIGHT_POWERS]
        return sorted(waking, key=lambda r: (r.wake or 0, POWER_RANK[r.power] if r.power else 0, r.id))

    def with_power(self, power: Power) -> list[Role]:
        return [r for r in self.roles.values() if r.power is power]


@dataclass(frozen=True, slots=True)
class State:
    """The table between two moments of the game. Updated with `replace`, never in place."""

    players: tuple[str, ...]
    roles: tuple[str, ...]  # each seat's current role id
    camps: tuple[Camp, ...]  # each seat's current camp
    alive: tuple[bool, ...]
    dead: tuple[str, ...] = ()  # in the order they died
    lovers: tuple[str, ...] = ()  # () or the two lovers, as Cupidon named them
    captain: str | None = None
    spent: frozenset[str] = frozenset()  # one-shot powers used (003: "L'application mémorise…")
    winner: Camp | None = None
    options: Options = Options()

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def role_of(self, player: str) -> str:
        return self.roles[self.seat(player)]

    def camp_of(self, player: str) -> Camp:
        return self.camps[self.seat(player)]

    def is_alive(self, player: str) -> bool:
        return self.alive[self.seat(player)]

    def living(self) -> list[str]:
        """The living, in seating order."""
        return [p for p, a in zip(self.players, self.alive) if a]

    def holders(self, role_id: str) -> list[str]:
        """Who holds `role_id` now, dead or alive, in seating order."""
        return [p for p, r in zip(self.players, self.roles) if r == role_id]

    def beloved(self, player: str) -> str | None:
        """The other lover, if `player` is one."""
        if player in self.lovers:
            return self.lovers[1] if self.lovers[0] == player else self.lovers[0]
        return None

    def kill(self, player: str) -> State:
        i = self.seat(player)
        alive = self.alive[:i] + (False,) + self.alive[i + 1 :]
        return replace(self, alive=alive, dead=self.dead + (player,))

    def with_camp(self, player: str, camp: Camp) -> State:
        i = self.seat(player)
        return replace(self, camps=self.camps[:i] + (camp,) + self.camps[i + 1 :])


@dataclass(frozen=True, slots=True)
class PhaseReport:
    """What one phase did: its label ("nuit 1"), deaths in order, what players were told, why."""

    kind: str  # "night" | "day"
    number: int
    dead: tuple[str, ...]
    learned: Mapping[str, Mapping[str, object]]
    why: tuple[Reason, ...]
