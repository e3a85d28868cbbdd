"""Engine value types: roles, rulesets, a validated one-night game, its outcome."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from narrator.rules.reason import Reason

CENTER = ("A", "B", "C")
COPY_PREFIX = "doppelganger:"


class Team(str, Enum):
    VILLAGE = "village"
    WOLVES = "loups"
    TANNER = "tanneur"


class Power(str, Enum):
    """Night powers: the small vocabulary every one-night character is made of."""

    COPY = "copy"
    RECOGNIZE = "recognize"
    SEE_WOLVES = "see_wolves"
    LOOK = "look"
    SWAP_SELF_OTHER_LOOK = "swap_self_other_look"
    SWAP_TWO_OTHERS = "swap_two_others"
    SWAP_SELF_CENTER_BLIND = "swap_self_center_blind"
    CENTER_TO_PLAYER = "center_to_player"
    REVEAL = "reveal"
    SEE_SELF_FINAL = "see_self_final"


class DayPower(str, Enum):
    DRAG = "drag"  # dies -> the player he voted for dies too
    UNCAPTURABLE = "uncapturable"


class CopyTiming(str, Enum):
    """When a Doppelgänger who copied this role acts (000, 3a i–x)."""

    FIRST = "first"
    WITH_ROLE = "with_role"
    LAST = "last"


class Victory(str, Enum):
    INDIVIDUAL = "individual"
    TEAM = "team"


@dataclass(frozen=True, slots=True)
class Role:
    id: str
    name: str
    team: Team | None = None  # None only for the Doppelgänger, who takes the copied role's
    power: Power | None = None
    wake: int | None = None
    group: str | None = None
    lone_peek: bool = False
    wolf: bool = False
    copies: int = 1
    day: DayPower | None = None
    as_copy: CopyTiming | None = None


@dataclass(frozen=True, slots=True)
class Options:
    victory: Victory = Victory.INDIVIDUAL
    one_vote_each_saves_all: bool = False
    tanner_blocks_wolves: bool = False


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One game's roles, options and texts, as its script declares them."""

    game: str
    roles: Mapping[str, Role]
    options: Options
    together: tuple[tuple[str, ...], ...] = ()
    texts: Mapping[str, str | Mapping[str, str]] = field(default_factory=dict)
    by_card: Mapping[str, Role] = field(init=False)  # card as written (doppelganger:loup too) -> role it counts as
    reveals: bool = field(init=False)  # a character turns a card face up (the output then has `visible`)
    wolf_group: str = field(init=False)  # what the wolves' group is called: loups, mangemorts

    def __post_init__(self) -> None:
        wolf_group = next((r.group for r in self.roles.values() if r.wolf and r.group), "loups")
        object.__setattr__(self, "wolf_group", wolf_group)
        by_card = dict(self.roles)
        if any(r.power is Power.COPY for r in self.roles.values()):
            by_card.update({COPY_PREFIX + rid: r for rid, r in self.roles.items()})
        object.__setattr__(self, "by_card", by_card)
        object.__setattr__(self, "reveals", any(r.power is Power.REVEAL for r in self.roles.values()))


@dataclass(frozen=True, slots=True)
class Game:
    """A validated one-night record: who sits, what was dealt, what each chose, the vote."""

    id: object
    players: tuple[str, ...]
    deal: tuple[str, ...]  # one role id per seat, then the three center cards
    night: Mapping[str, dict[str, object]]  # player -> choice mapping, checked by the power that reads it
    votes: Mapping[str, str | None]
    options: Options


@dataclass(frozen=True, slots=True)
class Vote:
    """The vote as the day knows it: the votes each player received, and whom each pointed at.

    A player absent from `pointing` pointed at someone not known (yet): a table that gave only
    tallies is asked when it matters (a hunter or Ginny died)."""

    counts: Mapping[str, int]
    pointing: Mapping[str, str | None]

    @classmethod
    def from_ballots(cls, players: tuple[str, ...], ballots: Mapping[str, str | None]) -> Vote:
        """Every ballot known (a record, a table that voted aloud one by one): no ballot = nobody."""
        counts: dict[str, int] = {}
        for target in ballots.values():
            if target is not None:
                counts[target] = counts.get(target, 0) + 1
        return cls(counts, {p: ballots.get(p) for p in players})


@dataclass(slots=True)
class Night:
    """What the night left: the cards at dawn, what each player was told, Harry's face-up card."""

    cards: list[str]
    learned: dict[str, dict[str, object]]
    visible: dict[str, str]


@dataclass(slots=True)
class Outcome:
    night: Night
    dead: list[str]
    winners: list[str]
    why: list[Reason]
