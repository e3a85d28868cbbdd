"""The journal's events, one frozen dataclass each: the one definition a journal is written and read with.

A journal (journal.py) is a JSON Lines file: a header (`type: game`), then one event a line. Each
line is an envelope — its `type`, its own `line` number in the file (events only: a line copied,
moved or dropped is seen) and the time it was written (`at_time`) — around the event's fields.
`Journal.append` checks every event with `check` before writing it; `read_journal` checks every
line it reads with the same `check`, so a missing field, a wrong type or an unknown event is one
French sentence, never a traceback, and an event the program writes is one it can read back.

Adding an event type is one change, here: a frozen dataclass with its fields typed (str, int,
float, bool, None, `list[...]`, `dict[str, ...]`, a union of those, or `Json` for any JSON value),
decorated with `@event("its_type")`. A field with a default may be left out of the line. A check
across fields goes in the class's `check(self)`, which returns a French problem or None.
Changing an event's shape bumps `VERSION` and adds a step to `MIGRATIONS` that turns a line of the
previous version into one of the new (docs/journal.md tells each version's changes).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, Union, cast

from narrator.listen.commands import FIELDS
from narrator.script.games import CLASSIC, family_of

VERSION = 2  # 1: before the events were typed; 2: the header says its `family`, `cards` or `deal`

Json = Any  # any JSON value: an answer as a game record holds it


class EventError(ValueError):
    """An event that does not match its definition; the message is French."""


EVENTS: dict[str, type[Event]] = {}  # `type` -> its dataclass
ENVELOPE = ("type", "line", "at_time")  # what the journal writes around every event (journal.py)


class Event:
    """What every event has: its `type` (the class's `kind`); `check` looks across its fields."""

    kind: ClassVar[str]

    def check(self) -> str | None:
        return None


E = TypeVar("E", bound=type[Event])


def event(kind: str) -> Callable[[E], E]:
    """Register a dataclass as the definition of the events of this `type`."""

    def register(cls: E) -> E:
        cls.kind = kind
        EVENTS[kind] = cls
        return cls

    return register


# -- the header ----------------------------------------------------------------------------------


@event("game")
@dataclass(frozen=True)
class Game(Event):
    """The header: what a game is played with. `family` says which of the two shapes it has:
    `onenight` (onuw, poudlard: `cards` in play, dealt and center) or `classic` (thiercelieux: each
    seat's card in `deal`, the game's `options`, the voleur's or comédien's `extra` cards, the
    sectaire's `groups`)."""

    version: int
    family: str
    game: str
    script: str  # a hash of the scripts' text: a resume with other scripts warns
    players: list[str]
    voice: str
    seed: int | None = None
    minutes: int | None = None  # the debate's length; None: the script's
    cards: list[str] | None = None  # onenight
    legend: bool = True  # onenight: whether the characters' legend is read
    deal: list[str] | None = None  # classic
    options: dict[str, bool] | None = None  # classic
    extra: list[str] = field(default_factory=list)  # classic
    groups: dict[str, int] = field(default_factory=dict)  # classic

    def check(self) -> str | None:
        if self.version != VERSION:
            return f"version {self.version} ; attendu : {VERSION}"
        if not self.players or len(set(self.players)) != len(self.players):
            return "« players » : attendu : des noms, chacun une fois"
        if self.family == "onenight":
            if self.cards is None or self.deal is not None or self.options is not None:
                return "« onenight » : attendu : « cards », sans « deal » ni « options »"
        elif self.family == "classic":
            if self.deal is None or self.options is None or self.cards is not None:
                return "« classic » : attendu : « deal » et « options », sans « cards »"
            if len(self.deal) != len(self.players):
                return f"« deal » : attendu : une carte par joueur ({len(self.players)}) ; trouvé : {len(self.deal)}"
            if set(self.groups) - set(self.players):
                return "« groups » : attendu : des joueurs de la partie"
        else:
            return f"« family » : attendu : onenight ou classic ; trouvé : {self.family}"
        return None


# -- both families -------------------------------------------------------------------------------


@event("tick")
@dataclass(frozen=True)
class Tick(Event):
    """The heartbeat: seconds of the night's audio heard (`at`), or seconds the debate had left (`left`)."""

    phase: str
    at: float | None = None
    left: float | None = None

    def check(self) -> str | None:
        if self.phase == "night" and self.at is not None and self.left is None:
            return None
        if self.phase == "debate" and self.left is not None and self.at is None:
            return None
        return "attendu : « phase » night avec « at », ou debate avec « left »"


@event("more_time")
@dataclass(frozen=True)
class MoreTime(Event):
    """« encore une minute »: seconds added to the debate."""

    seconds: int

    def check(self) -> str | None:
        return None if self.seconds > 0 else f"« seconds » : attendu : plus de 0 ; trouvé : {self.seconds}"


@event("setting")
@dataclass(frozen=True)
class Setting(Event):
    """« plus lentement »…: a setting the table changed."""

    command: str


@event("night_done")
@dataclass(frozen=True)
class NightDone(Event):
    """The night's audio was heard to its end."""


@event("debate_done")
@dataclass(frozen=True)
class DebateDone(Event):
    """The debate's time ran out."""


@event("start_vote")
@dataclass(frozen=True)
class StartVote(Event):
    """« on vote »: the debate ends early."""


@event("pause")
@dataclass(frozen=True)
class Pause(Event):
    """« pause »."""


@event("resume")
@dataclass(frozen=True)
class Resume(Event):
    """« reprends »: the pause ends."""


@event("stop")
@dataclass(frozen=True)
class Stop(Event):
    """« stop »: the table paused the game; `narrator resume` goes on from here (not an end)."""


@event("undo")
@dataclass(frozen=True)
class Undo(Event):
    """« annule »: the latest input left is taken back (each family says which inputs count)."""


@event("votes_again")
@dataclass(frozen=True)
class VotesAgain(Event):
    """The ballots read back were refused: the vote is asked again."""


@event("vote_input")
@dataclass(frozen=True)
class VoteInput(Event):
    """One ballot said, not yet confirmed. One-night: the understood `command` (a `vote` or a
    `tally`, as `Command.to_json` gives it; a tally's target null: blank votes); classic: `voter`
    and `target` (None: nobody)."""

    command: dict[str, Json] | None = None
    voter: str | None = None
    target: str | None = None

    def check(self) -> str | None:
        if self.command is not None:
            if self.voter is not None or self.target is not None:
                return "attendu : « command », ou « voter » et « target »"
            return _command_problem(self.command)
        if self.voter is None:
            return "attendu : « command », ou « voter » et « target »"
        return None


@event("outcome")
@dataclass(frozen=True)
class Outcome(Event):
    """The game's end: its winners; one-night: who died; classic: the winning camp."""

    winners: list[str]
    dead: list[str] | None = None
    camp: str | None = None


# -- one-night -----------------------------------------------------------------------------------


@event("vote")
@dataclass(frozen=True)
class Vote(Event):
    """The vote confirmed: votes per player, and whom each voter pointed at (None: nobody)."""

    counts: dict[str, int]
    pointing: dict[str, str | None]


@event("card")
@dataclass(frozen=True)
class Card(Event):
    """One player's card at dawn, said aloud, not yet confirmed."""

    player: str
    role: str


@event("cards")
@dataclass(frozen=True)
class Cards(Event):
    """Every player's card at dawn, confirmed."""

    cards: dict[str, str]


@event("pointing")
@dataclass(frozen=True)
class Pointing(Event):
    """Whom a player pointed at when it matters (the hunter, Ginny); None: nobody."""

    player: str
    target: str | None


# -- classic -------------------------------------------------------------------------------------


@event("answer")
@dataclass(frozen=True)
class Answer(Event):
    """One answer to the engine's question `key` in `phase` (« nuit 1 », « jour 2 »), in the shape a
    game record holds it: the whole `value`, one `field` of the key's mapping, or one of a list (`many`).
    `by`: operator, voice or rules (the only answer left)."""

    phase: str
    key: str
    value: Json
    by: str
    many: bool = False
    field: str = ""

    def check(self) -> str | None:
        kind, _, number = self.phase.partition(" ")
        if kind not in ("nuit", "jour") or not number.isdigit() or int(number) < 1:
            return f"« phase » : attendu : « nuit N » ou « jour N » ; trouvé : {self.phase}"
        if self.by not in ("operator", "voice", "rules"):
            return f"« by » : attendu : operator, voice ou rules ; trouvé : {self.by}"
        return None


@event("debate_over")
@dataclass(frozen=True)
class DebateOver(Event):
    """The day's debate is over (by time or « on vote »): it is not held again on resume."""

    day: int


@event("said")
@dataclass(frozen=True)
class Said(Event):
    """The table has heard `lines` lines of the night and of the engine's public sentences, counted from
    the game's start; written before the last of them is said. A resumed or undone game says none of
    them again (classic.py)."""

    lines: int

    def check(self) -> str | None:
        return None if self.lines > 0 else f"« lines » : attendu : plus de 0 ; trouvé : {self.lines}"


# -- checking ------------------------------------------------------------------------------------


def _command_problem(command: dict[str, Json]) -> str | None:
    """A one-night ballot as `Command.to_json` writes it."""
    name = command.get("command")
    if name not in ("vote", "tally"):
        return f"« command » : attendu : vote ou tally ; trouvé : {_shown(name)}"
    expected = {"command", *FIELDS[name]}
    if set(command) != expected:
        return f"« command » : attendu : les champs {', '.join(sorted(expected))}"
    if name == "vote":
        if not isinstance(command["voter"], str) or not isinstance(command["target"], (str, type(None))):
            return "« command » : attendu : « voter » et « target » des noms"
    elif not isinstance(command["target"], (str, type(None))) or not _is_int(command["count"]) or command["count"] < 0:
        # target None: blank votes (« deux votes blancs »); 0: « personne contre Dan »
        return "« command » : attendu : « target » un nom ou null et « count » un entier positif ou nul"
    return None


def check(data: object) -> Event:
    """The event a JSON line holds, checked against its definition; `EventError` (French) if it does not match."""
    if not isinstance(data, dict):
        raise EventError(f"attendu : un objet JSON ; trouvé : {_shown(data)}")
    kind = data.get("type")
    cls = EVENTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"type d'événement inconnu : {_shown(kind)}")
    fields, hints = _definition(cls)
    unknown = sorted(set(data) - set(fields) - set(ENVELOPE))
    if unknown:
        raise EventError(f"« {kind} » : champ inconnu « {unknown[0]} »")
    values = {}
    for name, spec in fields.items():
        if name not in data:
            if spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
                raise EventError(f"« {kind} » : champ « {name} » manquant")
            continue
        problem = _type_problem(data[name], hints[name])
        if problem:
            raise EventError(f"« {kind} » : « {name} » : attendu : {problem} ; trouvé : {_shown(data[name])}")
        values[name] = data[name]
    checked = cls(**values)
    problem = checked.check()
    if problem:
        raise EventError(f"« {kind} » : {problem}")
    return checked


_DEFINITIONS: dict[str, tuple[dict[str, dataclasses.Field], dict[str, object]]] = {}


def _definition(cls: type[Event]) -> tuple[dict[str, dataclasses.Field], dict[str, object]]:
    """An event class's fields and their types (read once: the journal checks every line with them)."""
    if cls.kind not in _DEFINITIONS:
        _DEFINITIONS[cls.kind] = {f.name: f for f in dataclasses.fields(cast(Any, cls))}, typing.get_type_hints(cls)
    return _DEFINITIONS[cls.kind]


def to_json(item: Event) -> dict[str, Json]:
    """An event as its journal line holds it: its type, then its fields (defaults left out)."""
    out: dict[str, Json] = {"type": item.kind}
    for spec in dataclasses.fields(cast(Any, item)):
        value = getattr(item, spec.name)
        default = spec.default_factory() if spec.default_factory is not dataclasses.MISSING else spec.default
        if value != default or default is dataclasses.MISSING:
            out[spec.name] = value
    return out


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_problem(value: object, spec: object) -> str | None:
    """What `value` should have been, if it is not of the type `spec`; None if it is."""
    if spec is Any:
        return None
    origin = typing.get_origin(spec)
    if origin in (Union, types.UnionType):
        options = typing.get_args(spec)
        problems = [_type_problem(value, option) for option in options]
        return None if None in problems else " ou ".join(p for p in problems if p)
    if spec is type(None):
        return None if value is None else "null"
    if spec is str:
        return None if isinstance(value, str) else "un texte"
    if spec is bool:
        return None if isinstance(value, bool) else "true ou false"
    if spec is int:
        return None if _is_int(value) else "un entier"
    if spec is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "un nombre"
        return None if math.isfinite(value) else "un nombre"
    if origin is list:
        (item,) = typing.get_args(spec)
        if not isinstance(value, list):
            return "une liste"
        bad = next((p for p in (_type_problem(v, item) for v in value) if p), None)
        return f"une liste dont chaque élément est {bad}" if bad else None
    if origin is dict:
        _, item = typing.get_args(spec)
        if not isinstance(value, dict):
            return "un objet"
        bad = next((p for p in (_type_problem(v, item) for v in value.values()) if p), None)
        return f"un objet dont chaque valeur est {bad}" if bad else None
    raise TypeError(f"type de champ non prévu : {spec}")  # a definition above, not a journal, is wrong


def _shown(value: object) -> str:
    """A value as a French message shows it: short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


# -- older versions ------------------------------------------------------------------------------


def _header_v1(header: dict[str, Json]) -> dict[str, Json]:
    """Version 1's header had `roles` for the cards in play (one-night) and each seat's card (classic)."""
    out = {k: v for k, v in header.items() if k != "roles"}
    classic = family_of(header.get("game")) == CLASSIC
    out.update(version=2, family="classic" if classic else "onenight")
    out["deal" if classic else "cards"] = header.get("roles")
    return out


# version -> what turns a header of that version into one of the next (events are unchanged so far)
MIGRATIONS: dict[int, Callable[[dict[str, Json]], dict[str, Json]]] = {1: _header_v1}


def migrate_header(header: dict[str, Json]) -> dict[str, Json]:
    """A header of an older version brought to `VERSION`; a newer or unknown version is left for `check`."""
    while isinstance(header.get("version"), int) and header["version"] in MIGRATIONS:
        header = MIGRATIONS[header["version"]](header)
    return header
