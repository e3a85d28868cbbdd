"""The questions the game asks as it goes, and who answers them.

The engine never reads a record: at each point where the rules want a choice (the voyante's
player, the hunter's shot, the ballots…) it builds an `Ask` naming the record key, the legal
answers and whether the rules force one, and a `Decider` answers. `RecordDecider`
(classic/record.py) reads the answer from a record's phase and refuses an illegal or missing
one; `RandomDecider` (classic/deal.py) picks a legal one at random and writes the record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from narrator.rules.errors import RecordError
from narrator.rules.reason import Reason


class Kind(str, Enum):
    PLAYER = "player"  # one player among `choices`
    PAIR = "pair"  # two different players among `choices`
    POTIONS = "potions"  # {heal: bool, poison: player or null}
    SPY = "spy"  # {spied: bool, caught: bool}
    BALLOTS = "ballots"  # {voter: player or null} for every voter
    PLAYERS = "players"
    """Several different players among `choices`: exactly `count` of them, or any number when `count` is None."""
    OPTION = "option"
    """One of the labelled `options` (a value and the French words for it)."""
    YES_NO = "yes_no"
    """Whether the power is used now: true or false."""


Value = int | str  # an OPTION's value, as a record writes it
# A reason in words: the script's wording (narrator/script/classic/script.py, `say`), given by whoever
# shows the rules' reasons (the resolver, the table), since the rules hold no French of their own.
Words = Callable[[Reason], str]

# why a player is refused as his own target, said to the table (« Pas Eva : … »)
SELF = Reason("note_self")


@dataclass(frozen=True, slots=True)
class Ask:
    """One decision the rules want now.

    `context` says why it is asked ("le chasseur Eva est mort"), `expected` what an answer is;
    `notes` say why some players are refused ("Ben : un loup-garou"). Each is a `Reason`: the
    script's texts word it (narrator/script/classic/script.py, `say`)."""

    key: str
    kind: Kind
    context: Reason
    expected: Reason
    forced: bool = True
    choices: tuple[str, ...] = ()  # PLAYER, PAIR: legal players; POTIONS: whom she may poison
    notes: tuple[tuple[str, Reason], ...] = ()
    ballots: tuple[tuple[str, tuple[str, ...]], ...] = ()  # BALLOTS: each voter and whom he may vote for
    # BALLOTS: (voter, target) ballots the rules forbid because of a secret (a lover against the beloved):
    # counted as said, shown to the operator alone (RULINGS thiercelieux 19)
    secret: tuple[tuple[str, str], ...] = ()
    heal: str | None = None  # POTIONS: whom her potion of life may save now; None: she may not heal
    no_heal: Reason | None = None  # POTIONS: why she may not heal
    no_poison: Reason | None = None  # POTIONS: why she may not poison (when `choices` is empty)
    options: tuple[tuple[Value, str], ...] = ()  # OPTION: each legal value and its French label
    count: int | None = None  # PLAYERS: how many; None: any number, none included
    # where a record keeps the answer: under `key`, or under `key`'s mapping's `field` ({take: 1})
    field: str = ""
    # PLAYER: the question comes again later in the phase (the servante, at each death): a record's
    # answer naming another player waits for then; `true` names the only choice
    again: bool = False
    # PLAYER: a question that may come more than once in a phase (the captain's heir, twice on a juge
    # bègue's day): a record answers them all with a list, one player each, in order
    many: bool = False
    who: str | None = None  # the player who answers, when one does (the hunter, the captain): the table asks him
    # the players who answer it on their own phones: the living holder(s) of the called card (the whole
    # pack for the wolves' victim; SPY: the petite fille, then the wolves who may catch her), each voter
    # for BALLOTS, `who` by default; empty: the table as a whole (the captain's election)
    by: tuple[str, ...] = ()
    # the question on the operator's screen, in plain words, when `expected` speaks a record's notation
    # (« {take: 0 ou 1} », « true : … »): what to type there is a number, a name, o or n
    screen: Reason | None = None

    def __post_init__(self) -> None:
        if not self.by and self.who is not None:
            object.__setattr__(self, "by", (self.who,))

    @property
    def plain(self) -> Reason:
        """What the operator's screen asks: `screen`, else `expected`."""
        return self.screen or self.expected

    def note(self, player: object) -> Reason | None:
        return next((why for p, why in self.notes if p == player), None)


@dataclass(frozen=True, slots=True)
class Potions:
    heal: bool = False
    poison: str | None = None


@dataclass(frozen=True, slots=True)
class Spy:
    spied: bool = False
    caught: bool = False


class Decider(Protocol):
    """Answers the game's questions; `None` means "not used" and is allowed only when not forced."""

    def player(self, ask: Ask) -> str | None: ...

    def pair(self, ask: Ask) -> tuple[str, str] | None: ...

    def potions(self, ask: Ask) -> Potions | None: ...

    def spy(self, ask: Ask) -> Spy | None: ...

    def ballots(self, ask: Ask) -> dict[str, str | None]: ...

    def players(self, ask: Ask) -> tuple[str, ...] | None: ...

    def option(self, ask: Ask) -> Value | None: ...

    def yes(self, ask: Ask) -> bool: ...


class MissingDecision(RecordError):
    """A decision the rules force that the record lacks: "nuit 2 : le chasseur Eva est mort ; attendu : chasseur"."""

    def __init__(self, path: tuple[object, ...], phase: str, context: str, key: str):
        self.phase = phase
        self.context = context
        super().__init__(path, key, has_found=False)

    def describe(self) -> str:
        where = ".".join(str(p) for p in self.path)
        return f"{where} : {self.phase} : {self.context} ; attendu : {self.expected}"
