"""Value types of the multi-night game: camps, powers, roles, options, the table between phases."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from narrator.rules.reason import Reason

__all__ = ["Camp", "Cause", "Power", "Role", "Options", "Rules", "State", "PhaseReport"]


class Camp(str, Enum):
    """Who plays with whom (003 "Les camps"); the value is the record's camp id."""

    VILLAGE = "village"
    WOLVES = "loups"
    LOVERS = "amoureux"  # two lovers of opposite camps (002 Cupidon: "le but de la partie change pour eux")
    # 003 "Les Solitaires … ont leur propre condition de victoire": each wins alone
    ANGEL = "ange"
    PIPER = "joueur_de_flute"
    WHITE_WOLF = "loup_blanc"
    SECT = "sectaire"


class Power(str, Enum):
    """What a role does, by name: the vocabulary `scripts/thiercelieux.yaml` builds roles from."""

    PAIR = "pair"  # cupidon: two lovers, the first night
    SEE = "see"  # voyante: one player's role, each night
    SPY = "spy"  # petite fille: spies on the wolves' turn, may be caught
    DEVOUR = "devour"  # the pack's victim, each night (the role whose key the pack answers to)
    POTIONS = "potions"  # sorcière: one potion of life, one of death
    SHOOT = "shoot"  # chasseur: when he dies, he kills a player of his choice
    # 003's characters (issue 6)
    STEAL = "steal"  # voleur: the first night, may take one of the two undealt cards
    PROTECT = "protect"  # salvateur: one player safe from the wolves tonight, not the same two nights running
    LIFE = "life"  # ancien: survives the first wolf attack; killed by the village, the villagers lose their powers
    SCAPEGOAT = "scapegoat"  # bouc émissaire: dies on a tie, names who votes the next day
    PARDON = "pardon"  # idiot: voted out, he lives on without a vote
    SNIFF = "sniff"  # renard: a wolf among three neighbours? none: he loses his power
    MODEL = "model"  # enfant sauvage: a model the first night; becomes a wolf when the model dies
    PERFORM = "perform"  # comédien: one of three undealt cards' power for the night
    SWORD = "sword"  # chevalier: devoured, the first wolf on his left dies the next night
    STUTTER = "stutter"  # juge bègue: once, a second vote right after the first
    GROWL = "growl"  # montreur d'ours: each morning, his bear growls if a neighbour is a wolf
    RECOGNIZE = "recognize"  # sœurs, frères: they recognize each other the first night (no choice)
    SHOWN = "shown"  # villageois-villageois: everyone knows his role
    DEVOTE = "devote"  # servante: takes an eliminated player's place and role
    MARK = "mark"  # corbeau: two votes against a player at the next vote
    FIRE = "fire"  # pyromane: douses one player a night, or sets the doused on fire
    SECOND = "second"  # grand méchant loup: a second victim while no wolf has died
    INFECT = "infect"  # infect père des loups: once, the pack's victim joins the wolves instead
    CHARM = "charm"  # joueur de flûte: two players charmed each night
    BETRAY = "betray"  # loup-garou blanc: every other night, may devour a wolf
    SECT = "sect"  # abominable sectaire: wins when the other group is dead
    ANGEL = "angel"  # ange: wins if devoured the first night or voted out at the first vote
    CHOOSE = "choose"  # chien-loup: the first night, villageois or loup-garou for the whole game


# Powers asked at night, each under its role's id in a record's night phase.
NIGHT_POWERS = frozenset(
    {
        Power.PAIR, Power.SEE, Power.SPY, Power.DEVOUR, Power.POTIONS, Power.STEAL, Power.PROTECT, Power.SNIFF,
        Power.MODEL, Power.PERFORM, Power.MARK, Power.FIRE, Power.SECOND, Power.INFECT, Power.CHARM, Power.BETRAY,
        Power.CHOOSE,
    }
)  # fmt: skip
# Powers that wake at night: the choosing ones, and the sœurs' and frères' recognition (no record key).
WAKING_POWERS = NIGHT_POWERS | {Power.RECOGNIZE}
# Within one wake number: the petite fille opens her eyes as the wolves wake, before their choice.
POWER_RANK = {power: i for i, power in enumerate(Power)}
# The comédien's cards: village characters whose power he can hold for a night — the night's choices
# (he answers under the card's key), and what a night may set off (the ancien's extra life, the
# hunter's shot or the chevalier's sword at dawn, the servante, the bear in the morning). The
# day's powers are his cards too, with nothing to do by night. Not the first night's choices.
LENDABLE = frozenset(
    {
        Power.SEE, Power.SPY, Power.POTIONS, Power.PROTECT, Power.SNIFF, Power.MARK, Power.FIRE, Power.LIFE,
        Power.SHOOT, Power.SWORD, Power.GROWL, Power.DEVOTE, Power.PARDON, Power.SCAPEGOAT, Power.STUTTER,
        Power.SHOWN,
    }
)  # fmt: skip


class Cause(str, Enum):
    """Why a player died; each has its sentence in the script's texts (`death_<cause>`)."""

    DEVOURED = "devoured"
    CAUGHT = "caught"
    POISONED = "poisoned"
    VOTED = "voted"
    SHOT = "shot"
    GRIEF = "grief"
    SCAPEGOAT = "scapegoat"  # the bouc émissaire, on a tie
    GREEDY = "greedy"  # the grand méchant loup's second victim
    BETRAYED = "betrayed"  # the loup-garou blanc's victim
    SICKNESS = "sickness"  # the wolf wounded by the chevalier's rusty sword
    BURNED = "burned"  # the pyromane's fire


# Wolf attacks (003: "dévoré"): what the salvateur and the ancien's life stop, what wounds with the sword.
DEVOURING = frozenset({Cause.DEVOURED, Cause.GREEDY, Cause.BETRAYED})
# Deaths at the village's hand, as RULINGS thiercelieux 9 lists them: "its vote, the witch's poison or
# the hunter's shot". The pyromane's fire is not in the list, so it does not set off the ancien's curse.
BY_THE_VILLAGE = frozenset({Cause.VOTED, Cause.POISONED, Cause.SHOT})


@dataclass(frozen=True, slots=True)
class Role:
    id: str
    name: str  # French, as the narrator says it
    camp: Camp
    power: Power | None = None
    wolf: bool = False  # wakes with the pack; a wolf is never the pack's victim
    wake: int | None = None  # night order (the published game's, RULINGS thiercelieux 18)
    copies: int | None = None  # how many cards the box has; None: as many as the table needs
    card: str = ""  # what the card does, in French, as its holder's phone shows it


@dataclass(frozen=True, slots=True)
class Options:
    """Rule switches; their defaults and reasons are in `scripts/thiercelieux.yaml`."""

    captain: bool = False
    witch_self_heal: bool = True
    lovers_spare_each_other: bool = True
    salvateur_self: bool = True
    comedien_cards_once: bool = True
    loners_block_village: bool = True


@dataclass(frozen=True, slots=True)
class Rules:
    """The classic game as its script declares it: roles, default options, explanation templates."""

    game: str
    roles: Mapping[str, Role]
    options: Options
    texts: Mapping[str, str | Mapping[str, str]] = field(default_factory=dict)

    def night_roles(self) -> list[Role]:
        """Roles that choose at night (each under its id in a record), in waking order."""
        return [r for r in self.night_order() if r.power in NIGHT_POWERS]

    def night_order(self) -> list[Role]:
        """Every role that wakes at night, the sœurs' and frères' recognition included, in waking order."""
        waking = [r for r in self.roles.values() if r.power in WAKING_POWERS]
        return sorted(waking, key=lambda r: (r.wake or 0, POWER_RANK[r.power] if r.power else 0, r.id))

    def keyed(self, power: Power) -> str | None:
        """The id of the (one) role with `power`, if the script has one."""
        return next((r.id for r in self.roles.values() if r.power is power), None)

    @property
    def pack(self) -> str:
        """The pack's card: the role the wolves' victim is keyed by (002's loup-garou)."""
        return next(r.id for r in self.roles.values() if r.power is Power.DEVOUR)

    @property
    def villager(self) -> str:
        """The simple villager's card (003: "Simple Villageois"): the village's role without a power."""
        plain = (r for r in self.roles.values() if r.camp is Camp.VILLAGE and r.power is None and r.copies is None)
        return next(r.id for r in plain)

    def acting(self, state: State, role_id: str) -> list[str]:
        """Who has `role_id`'s power now, dead or alive: its holders, and the comédien who took its card
        for the night."""
        out = state.holders(role_id)
        if state.performing is not None and state.performing[1] == role_id:
            out.append(state.performing[0])
        return out

    def cards(self, state: State, player: str) -> list[Role]:
        """The cards whose powers `player` has now: his own, and the one the comédien took for the night."""
        own = [self.roles[state.role_of(player)]]
        if state.performing is not None and state.performing[0] == player:
            own.append(self.roles[state.performing[1]])
        return own

    def is_wolf(self, state: State, player: str) -> bool:
        """A loup-garou: a wolf's card (the pack's, the white wolf's…), or a player who joined the wolves."""
        return self.roles[state.role_of(player)].wolf or state.side_of(player) is Camp.WOLVES


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
    # each seat's own camp, before love: lovers whose own camps differ are both `amoureux`; () = `camps`
    sides: tuple[Camp, ...] = ()
    extra: tuple[str, ...] = ()  # the undealt cards (the voleur's two, the comédien's three)
    groups: tuple[int, ...] = ()  # each seat's group (1 or 2) when the sectaire plays
    guarded: str | None = None  # whom the salvateur protected last night
    model: str | None = None  # the enfant sauvage's model
    wounded: str | None = None  # the wolf the chevalier's rusty sword kills at the next dawn
    charmed: tuple[str, ...] = ()  # the joueur de flûte's, in the order he charmed them
    doused: tuple[str, ...] = ()  # the pyromane's
    raven: str | None = None  # who starts the next vote with two votes against him
    pardoned: tuple[str, ...] = ()  # idiots voted out and spared: alive, without a vote, known to all
    allowed: tuple[str, ...] | None = None  # the bouc émissaire's voters, for day `allowed_day`
    allowed_day: int = 0
    powerless: frozenset[str] = frozenset()  # villagers who lost their powers with the ancien
    wolf_died: bool = False  # a loup-garou has died (the grand méchant loup's second victim stops)
    growl: bool | None = None  # whether the bear growled this morning; None: no bear led this morning
    heaven: str | None = None  # the ange who won by dying at the start (RULINGS thiercelieux 14)
    performing: tuple[str, str] | None = None  # tonight: the comédien and the card whose power he has

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def role_of(self, player: str) -> str:
        return self.roles[self.seat(player)]

    def camp_of(self, player: str) -> Camp:
        return self.camps[self.seat(player)]

    def side_of(self, player: str) -> Camp:
        """The player's own camp, whatever love made of it."""
        return (self.sides or self.camps)[self.seat(player)]

    def group_of(self, player: str) -> int | None:
        return self.groups[self.seat(player)] if self.groups else None

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

    def with_side(self, player: str, camp: Camp) -> State:
        """`player` now plays for `camp`; lovers whose own camps differ are `amoureux` (002 Cupidon)."""
        i = self.seat(player)
        sides = self.sides or self.camps
        return replace(self, sides=sides[:i] + (camp,) + sides[i + 1 :]).recamp()

    def with_role(self, player: str, role: str) -> State:
        i = self.seat(player)
        return replace(self, roles=self.roles[:i] + (role,) + self.roles[i + 1 :])

    def recamp(self) -> State:
        """Each seat's camp from its own camp and love."""
        sides = self.sides or self.camps
        camps = list(sides)
        if self.lovers:
            first, second = (self.seat(p) for p in self.lovers)
            if sides[first] is not sides[second]:
                camps[first] = camps[second] = Camp.LOVERS
        return replace(self, sides=sides, camps=tuple(camps))

    def neighbour(self, player: str, step: int) -> str | None:
        """The nearest living player on `player`'s left (step 1: the next name) or right (step -1),
        skipping the dead (RULINGS thiercelieux 11); None when nobody else is alive."""
        n = len(self.players)
        i = self.seat(player)
        for k in range(1, n):
            other = self.players[(i + step * k) % n]
            if self.is_alive(other):
                return other
        return None

    def voters(self, day: int) -> list[str]:
        """Who may vote on day `day`: the living, but a pardoned idiot, and only the bouc émissaire's
        choice on the day after his death."""
        allowed = self.allowed if self.allowed is not None and self.allowed_day == day else None
        return [p for p in self.living() if p not in self.pardoned and (allowed is None or p in allowed)]


@dataclass(frozen=True, slots=True)
class PhaseReport:
    """What one phase did: its label ("nuit 1"), deaths in order, what players were told, why."""

    kind: str  # "night" | "day"
    number: int
    dead: tuple[str, ...]
    learned: Mapping[str, Mapping[str, object]]
    why: tuple[Reason, ...]
