"""The journal's events, one frozen dataclass each: the one definition a journal is written and read with.

A journal (journal.py) is a JSON Lines file: a header (`type: game`), then one event a line. Each
line is an envelope — its `type`, its own `line` number in the file (events only: a line copied,
moved or dropped is seen) and the time it was written (`at_time`) — around the event's fields.
`Journal.append` takes an event and writes `to_json` of it, checked with `check`; `read_journal`
gives back the events `check` makes of each line, so a missing field, a wrong type or an unknown
event is one French sentence, never a traceback, and an event the program writes is one it reads back.

Adding an event type is one change, here: a frozen dataclass with its fields typed (str, int,
float, bool, None, `list[...]`, `dict[str, ...]`, a union of those, a frozen dataclass of those
such as `PhaseId`, or `Json` for any JSON value), decorated with `@event("its_type")`. A field with
a default may be left out of the line. A check across fields goes in the class's `check(self)`,
which returns a French problem or None.
Changing an event's shape bumps `VERSION` and adds a step to `MIGRATIONS` that turns the lines of the
previous version into those of the new (docs/journal.md tells each version's changes).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeGuard, TypeVar, Union

from narrator.listen.commands import Command
from narrator.rules.names import name_problem
from narrator.rules.phase import KINDS, PhaseId
from narrator.script.games import CLASSIC, family_of
from narrator.table.bounds import refusal

# 1: before the events were typed; 2: the header says its `family`, `cards` or `deal`; 3: one ballot
# shape, one debate end, the phase as data, the header's `in_play`; 4: the players' phones (the header's
# `phones`, a one-night `deal` drawn by the program, `seat_taken`, `seat_freed`, `night_choice`)
VERSION = 4

Json = Any  # any JSON value: an answer as a game record holds it


class EventError(ValueError):
    """An event that does not match its definition; the message is French."""


EVENTS: dict[str, type[Event]] = {}  # `type` -> its dataclass
ENVELOPE = ("type", "line", "at_time")  # what the journal writes around every event (journal.py)


@dataclass(frozen=True)
class Event:
    """What every event has: its `type` (the class's `kind`); `check` looks across its fields."""

    kind: ClassVar[str]

    def check(self) -> str | None:
        return None

    @property
    def by_table(self) -> bool:
        """Whether the table said it (an input « annule » may take back, if its family's rule lists it)."""
        return True


E = TypeVar("E", bound=type[Event])


def event(kind: str) -> Callable[[E], E]:
    """Register a dataclass as the definition of the events of this `type`."""

    def register(cls: E) -> E:
        cls.kind = kind
        EVENTS[kind] = cls
        return cls

    return register


# -- the header ----------------------------------------------------------------------------------


def journaled_voice_ok(voice: str) -> bool:
    """A header's voice is what the start-up journals: a shipped profile's name, or the absolute path of a
    profile file or a pack folder; never a relative path out of the folder the resume is run from."""
    if not voice or "\x00" in voice:
        return False
    if "/" not in voice:
        return not voice.startswith(".")
    return voice.startswith("/") and ".." not in voice.split("/")


@dataclass(frozen=True)
class Phones:
    """The players' phones of a game: the server's port and each seat's secret token, so that a resumed
    game serves the same address and the phones come back with the tokens they hold."""

    port: int
    tokens: dict[str, str]
    bind: str = "lan"  # lan: the table's network; or an address (127.0.0.1 in tests)


@event("game")
@dataclass(frozen=True)
class Game(Event):
    """The header: what a game is played with. `family` says which of the two shapes it has:
    `onenight` (onuw, poudlard: the cards `in_play`, dealt and center, which is where unknown) or
    `classic` (thiercelieux: each seat's card in `deal`, the game's `options`, the voleur's or
    comédien's `extra` cards, the sectaire's `groups`)."""

    version: int
    family: str
    game: str
    script: str  # a hash of the scripts' text: a resume with other scripts warns
    players: list[str]
    voice: str
    seed: int | None = None
    minutes: int | None = None  # the debate's length; None: the script's
    in_play: list[str] | None = None  # onenight
    legend: bool = True  # onenight: whether the characters' legend is read
    deal: list[str] | None = None  # classic
    options: dict[str, bool] | None = None  # classic
    extra: list[str] = field(default_factory=list)  # classic
    groups: dict[str, int] = field(default_factory=dict)  # classic
    phones: Phones | None = None  # the game is played with the players' phones

    def check(self) -> str | None:
        if self.version != VERSION:
            return f"version {self.version} ; attendu : {VERSION}"
        if not self.players or len(set(self.players)) != len(self.players):
            return "« players » : attendu : des noms, chacun une fois"
        for name in self.players:  # the one rule for names (rules/names.py): what `play` refuses, resume too
            if problem := name_problem(name):
                return f"« players » : attendu : {problem} ; trouvé : {name[:40]!r}"
        if self.phones is not None and set(self.phones.tokens) != set(self.players):
            return "« phones » : attendu : un jeton par joueur"
        if self.minutes is not None and (problem := refusal("minutes", self.minutes)):
            return f"« minutes » : {problem}"  # the range `play` gives --minutes
        if not journaled_voice_ok(self.voice):
            wanted = "le nom d'un profil fourni ou le chemin absolu d'un profil"
            return f"« voice » : attendu : {wanted} ; trouvé : {self.voice!r}"
        if self.family == "onenight":
            if self.in_play is None or self.options is not None:
                return "« onenight » : attendu : « in_play », sans « options »"
            # drawn by the program for the phones: each player's card, then the middle's A, B, C
            if self.deal is not None and sorted(self.deal) != sorted(self.in_play):
                return "« deal » : attendu : les cartes de « in_play », les joueurs puis le centre"
        elif self.family == "classic":
            if self.deal is None or self.options is None or self.in_play is not None:
                return "« classic » : attendu : « deal » et « options », sans « in_play »"
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


@event("debate_over")
@dataclass(frozen=True)
class DebateOver(Event):
    """Day `day`'s debate is over: its time ran out, or the table said « on vote » (`early`). It is not
    held again on resume. One-night games have one day."""

    day: int
    early: bool = False

    def check(self) -> str | None:
        return None if self.day >= 1 else f"« day » : attendu : 1 ou plus ; trouvé : {self.day}"

    @property
    def by_table(self) -> bool:
        return self.early  # the time running out is nobody's input


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
    """« annule »: the latest input left is taken back (each family's `UndoRule` says which count)."""


@event("votes_again")
@dataclass(frozen=True)
class VotesAgain(Event):
    """The ballots read back were refused: the vote is asked again."""


@event("vote_input")
@dataclass(frozen=True)
class VoteInput(Event):
    """One input of a vote, said, not yet confirmed: a ballot, `voter` against `target` (None: nobody);
    or, one-night, a tally: `count` votes for `target` (None: blank votes, counted for no player)."""

    voter: str | None = None
    target: str | None = None
    count: int | None = None

    def check(self) -> str | None:
        if (self.voter is None) == (self.count is None):
            return "attendu : « voter » (un bulletin) ou « count » (un décompte), l'un des deux"
        if self.count is not None and self.count < 0:
            return f"« count » : attendu : 0 ou plus ; trouvé : {self.count}"
        return None

    @classmethod
    def of(cls, command: Command) -> VoteInput:
        """A `vote` or `tally` command as the journal holds it."""
        return cls(voter=command.voter, target=command.target, count=command.count)

    def command(self) -> Command:
        """The command it was heard as."""
        if self.voter is not None:
            return Command("vote", voter=self.voter, target=self.target)
        return Command("tally", target=self.target, count=self.count)


@event("outcome")
@dataclass(frozen=True)
class Outcome(Event):
    """The game's end: its winners; one-night: who died; classic: the winning camp."""

    winners: list[str]
    dead: list[str] | None = None
    camp: str | None = None


@event("story_offered")
@dataclass(frozen=True)
class StoryOffered(Event):
    """After the outcome, « Voulez-vous l'histoire de la partie ? » was asked: a game stopped here resumes
    at the question (journal.py's `finished`)."""

    @property
    def by_table(self) -> bool:
        return False


@event("story")
@dataclass(frozen=True)
class Story(Event):
    """The table's answer to the offer: the story told (True) or not. The game is over."""

    told: bool


# -- one-night -----------------------------------------------------------------------------------


@event("night_done")
@dataclass(frozen=True)
class NightDone(Event):
    """The night's audio was heard to its end."""


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


@event("seat_taken")
@dataclass(frozen=True)
class SeatTaken(Event):
    """A phone took this seat (its token, from the header or the last `seat_freed`, is now handed out)."""

    seat: str

    @property
    def by_table(self) -> bool:
        return False


@event("seat_freed")
@dataclass(frozen=True)
class SeatFreed(Event):
    """The table freed a seat: its phone's token is void, `token` is the seat's new one."""

    seat: str
    token: str

    @property
    def by_table(self) -> bool:
        return False


@event("night_choice")
@dataclass(frozen=True)
class NightChoice(Event):
    """One-night game with the phones: what `player` chose with the card they were dealt, as a record's
    `night` holds it (`{look: Dan}`, `{swap: [Ana, Ben]}`…)."""

    player: str
    choice: Json


# -- classic -------------------------------------------------------------------------------------


@event("answer")
@dataclass(frozen=True)
class Answer(Event):
    """One answer to the engine's question `key` in `phase`, in the shape a game record holds it: the
    whole `value`, one `field` of the key's mapping, or one of a list (`many`). `by`: operator, voice or
    rules (the only answer left)."""

    phase: PhaseId
    key: str
    value: Json
    by: str
    many: bool = False
    field: str = ""

    def check(self) -> str | None:
        if self.phase.kind not in KINDS or self.phase.number < 1:
            return f"« phase » : attendu : night ou day, et un numéro de 1 ou plus ; trouvé : {self.phase}"
        if self.by not in ("operator", "voice", "rules", "phone"):
            return f"« by » : attendu : operator, voice, rules ou phone ; trouvé : {self.by}"
        return None


@event("said")
@dataclass(frozen=True)
class Said(Event):
    """The table has heard `lines` lines of the night and of the engine's public sentences, counted from
    the game's start; written before the last of them is said. A resumed or undone game says none of
    them again (classic/session.py)."""

    lines: int

    def check(self) -> str | None:
        return None if self.lines > 0 else f"« lines » : attendu : plus de 0 ; trouvé : {self.lines}"


# -- checking ------------------------------------------------------------------------------------


def check(data: object) -> Event:
    """The event a JSON line holds, checked against its definition; `EventError` (French) if it does not match."""
    if not isinstance(data, dict):
        raise EventError(f"attendu : un objet JSON ; trouvé : {_shown(data)}")
    kind = data.get("type")
    cls = EVENTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"type d'événement inconnu : {_shown(kind)}")
    try:
        checked = _build(cls, {k: v for k, v in data.items() if k not in ENVELOPE})
    except EventError as exc:
        raise EventError(f"« {kind} » : {exc}") from None
    problem = checked.check()
    if problem:
        raise EventError(f"« {kind} » : {problem}")
    return checked


D = TypeVar("D")


def _build(cls: type[D], data: dict[str, object]) -> D:
    """A dataclass made of a JSON object, each field checked against its type; EventError if one is not."""
    fields, hints = _definition(cls)
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise EventError(f"champ inconnu « {unknown[0]} »")
    values = {}
    for name, spec in fields.items():
        if name not in data:
            if spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
                raise EventError(f"champ « {name} » manquant")
            continue
        problem = _type_problem(data[name], hints[name])
        if problem:
            raise EventError(f"« {name} » : attendu : {problem} ; trouvé : {_shown(data[name])}")
        value, record = data[name], _record_of(hints[name])
        values[name] = _build(record, value) if record is not None and isinstance(value, dict) else value
    return cls(**values)


_DEFINITIONS: dict[type, tuple[dict[str, dataclasses.Field[object]], dict[str, object]]] = {}


def _definition(cls: type) -> tuple[dict[str, dataclasses.Field[object]], dict[str, object]]:
    """A dataclass's fields and their types (read once: the journal checks every line with them)."""
    if cls not in _DEFINITIONS:
        _DEFINITIONS[cls] = {f.name: f for f in dataclasses.fields(cls)}, typing.get_type_hints(cls)
    return _DEFINITIONS[cls]


def _is_record(spec: object) -> TypeGuard[type]:
    """A field whose type is itself a dataclass (a `PhaseId`): a JSON object of its fields."""
    return isinstance(spec, type) and dataclasses.is_dataclass(spec)


def _record_of(spec: object) -> type | None:
    """The dataclass a field holds: its type, or the one in its union (`Phones | None`); None if neither."""
    for option in typing.get_args(spec) if typing.get_origin(spec) in (Union, types.UnionType) else (spec,):
        if _is_record(option):
            return option
    return None


def to_json(item: Event) -> dict[str, Json]:
    """An event as its journal line holds it: its type, then its fields (defaults left out)."""
    out: dict[str, Json] = {"type": item.kind}
    for spec in dataclasses.fields(item):
        value = getattr(item, spec.name)
        default = spec.default_factory() if spec.default_factory is not dataclasses.MISSING else spec.default
        if value != default or default is dataclasses.MISSING:
            out[spec.name] = dataclasses.asdict(value) if _is_record(type(value)) else value
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
    if origin is typing.Literal:
        allowed = typing.get_args(spec)
        return None if value in allowed else " ou ".join(map(str, allowed))
    if _is_record(spec):
        fields, hints = _definition(spec)
        if not isinstance(value, dict) or set(value) != set(fields):
            return "un objet {" + ", ".join(f"{name}: …" for name in fields) + "}"
        for name in fields:
            problem = _type_problem(value[name], hints[name])
            if problem:
                return f"un objet dont « {name} » est {problem}"
        return None
    raise TypeError(f"type de champ non prévu : {spec}")  # a definition above, not a journal, is wrong


def _shown(value: object) -> str:
    """A value as a French message shows it: short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


# -- older versions ------------------------------------------------------------------------------

Line = dict[str, Json]  # a journal line as read, envelope included, before it is checked
Step = Callable[[Line, list[Line]], tuple[Line, list[Line]]]


def _from_v1(header: Line, events: list[Line]) -> tuple[Line, list[Line]]:
    """Version 1's header had `roles` for the cards in play (one-night) and each seat's card (classic)."""
    out = {k: v for k, v in header.items() if k != "roles"}
    classic = family_of(header.get("game")) == CLASSIC
    out.update(version=2, family="classic" if classic else "onenight")
    out["deal" if classic else "cards"] = header.get("roles")
    return out, events


def _from_v2(header: Line, events: list[Line]) -> tuple[Line, list[Line]]:
    """Version 2 wrote a one-night ballot as its command (`{"command": "vote", …}`), ended a debate with
    `debate_done` or `start_vote` (and, classic, a `debate_over` with the day right after), named a phase
    by its French label (« nuit 2 ») and the one-night header's cards in play `cards`."""
    out = {k: v for k, v in header.items() if k != "cards"}
    out["version"] = 3
    if "cards" in header:
        out["in_play"] = header["cards"]
    classic = header.get("family") == "classic"
    lines: list[Line] = []
    for index, line in enumerate(events):
        kind = line.get("type")
        if kind in ("debate_done", "start_vote"):
            day = _classic_day(events, index) if classic else 1
            if day is not None:  # else the game stopped before the day was written: the debate goes on
                lines.append({**line, "type": "debate_over", "day": day, "early": kind == "start_vote"})
        elif kind == "debate_over" and classic:
            continue  # said by the line before
        elif kind == "vote_input" and isinstance(line.get("command"), dict):
            said = {k: v for k, v in line["command"].items() if k != "command"}
            lines.append({**{k: v for k, v in line.items() if k != "command"}, **said})
        elif kind == "answer" and isinstance(line.get("phase"), str):
            name, _, number = line["phase"].partition(" ")  # the old label, read here only
            phase = {"kind": {"nuit": "night", "jour": "day"}.get(name, name), "number": _number(number)}
            lines.append({**line, "phase": phase})
        else:
            lines.append(line)
    return out, lines


def _classic_day(events: list[Line], index: int) -> Json:
    """The day of version 2's `debate_over` that followed a classic debate's end (the heartbeat's last
    ticks between them); None if the game stopped before it."""
    for line in events[index + 1 :]:
        if line.get("type") == "debate_over":
            return line.get("day")
        if line.get("type") != "tick":
            return None
    return None


def _number(text: str) -> Json:
    return int(text) if text.isdigit() else text  # not a number: refused by the check, with its line


def _from_v3(header: Line, events: list[Line]) -> tuple[Line, list[Line]]:
    """Version 4 only added what the phones need: a version 3 journal reads as it is."""
    return {**header, "version": 4}, events


# version -> what turns a journal of that version (its header, its lines) into one of the next
MIGRATIONS: dict[int, Step] = {1: _from_v1, 2: _from_v2, 3: _from_v3}


def migrate(header: Line, events: list[Line]) -> tuple[Line, list[Line]]:
    """A journal of an older version brought to `VERSION`; a newer or unknown version is left for `check`.
    Each line keeps its envelope (`line`, `at_time`); a line an older version wrote twice is dropped."""
    while isinstance(header.get("version"), int) and header["version"] in MIGRATIONS:
        header, events = MIGRATIONS[header["version"]](header, events)
    return header, events
