"""What every game at a table shares: listening, the debate's timer, the controls, the journal.

`Host` holds the table's mouth and ear and what « répète », « pause », « stop », « annule »,
« plus lentement »… do wherever they are said; the one-night `Session` (session.py) and the
classic `ClassicSession` (classic/session.py) build their games on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from narrator.listen.commands import SETTINGS, Command
from narrator.listen.ear import Ear
from narrator.phones.hub import Hub, new_token
from narrator.script.line import Line, Reminder
from narrator.script.prompts import Prompts, load_phone_prompts
from narrator.script.story_words import load_story_words
from narrator.table import events as ev
from narrator.table.clock import Clock
from narrator.table.conversation import Conversation, Strangers
from narrator.table.journal import Heartbeat, Journal, JournalError
from narrator.table.phone_ear import PhoneEar, own_commands
from narrator.table.readback import ReadBack
from narrator.table.replay import UndoRule, undoable
from narrator.table.settings import Tuner
from narrator.table.voice import Voice, to_items
from narrator.voice import Item, Say

CONTROLS = ("repeat", "repeat_night", "stop", "pause", "undo", "legend", "help", "free_seat", "story", *SETTINGS)
LISTEN_S = 8.0  # one listening turn; the debate listens in turns until its next event


class Stopped(Exception):
    """The table said « stop » and confirmed it: the process ends, the journal keeps the game to resume."""


class Undo(Exception):
    """The table said « annule »: the game goes on from all its inputs but the last."""


class StoryWanted(Exception):
    """« raconte la partie » said while the story is offered (narrator/table/epilogue.py): a « oui »."""


class Understands(Protocol):
    """What turns the words heard into commands (narrator/listen/table_words.py's `Parser`)."""

    def parse(self, text: str, phase: str = "any") -> list[Command]: ...


@dataclass(frozen=True)
class Debate:
    """The debate's timer as a game gives it: its length, and what is said when so much time is left."""

    minutes: int
    reminders: list[tuple[int, list[Item]]]  # (seconds left, what to say), latest first

    @classmethod
    def of(cls, minutes: int, reminders: Sequence[Reminder]) -> Debate:
        """The script's reminders that fall within `minutes`, latest first."""
        timed = [(r.left, to_items([r.line])) for r in reminders if r.left < minutes * 60]
        return cls(minutes, sorted(timed, key=lambda r: -r[0]))


@dataclass(kw_only=True)
class Host:
    prompts: Prompts
    voice: Voice
    ear: Ear
    clock: Clock
    parser: Understands
    phrases: Callable[[str], list[str]]  # what the recognizer may hear in a phase
    journal: Journal | None = None
    listen_s: float = LISTEN_S
    keyboard: Ear | None = None  # an ear to offer after three misunderstandings (the keyboard), if any
    tune: Tuner | None = None  # « plus lentement », « coupe la musique »…: may it be done, then do it
    phones: Hub | None = None  # the players' phones, when the game is played with them
    events: list[ev.Event] = field(default_factory=list)
    joined: bool = False  # every seat's phone came (narrator/app/phones.py's `join`): a seat taken now is told
    story_offered: bool = False  # the game is over and its story offered: « raconte la partie » tells it
    undo_rule: ClassVar[UndoRule] = UndoRule(takes=())  # each family's: what « annule » takes back

    def __post_init__(self) -> None:
        if self.phones is not None and not isinstance(self.ear, PhoneEar):
            self.ear = PhoneEar(self.ear, self.phones, self.note_seats)  # a ballot cast on a phone is heard
        self.talk = Conversation(
            voice=self.voice,
            ear=self.ear,
            clock=self.clock,
            prompts=self.prompts,
            parse=self._parse,
            phrases=self.phrases,
            controls=CONTROLS,
            control=self._control,
            listen_s=self.listen_s,
            keyboard=self.keyboard,
            stranger=self.parser.stranger if isinstance(self.parser, Strangers) else None,
            examples=self.typed_examples,
        )
        self.readback = ReadBack(
            self.talk, self.prompts, self._record, self._ballot_box, self._ballot_fate, self._ballots_again
        )

    help_key = "help"  # what « qu'est-ce que je peux dire ? » says (a prompt of scripts/table.yaml)

    def typed_examples(self) -> dict[str, str]:
        """The players and cards the keyboard's prompts show as examples (`typed_…` in scripts/table.yaml)."""
        return {}

    def legend_lines(self) -> list[Line]:
        """What « rappelle les personnages » says."""
        return []

    def repeat_night(self) -> None:
        """« répète la nuit »: by default refused (a classic night would wake its characters again)."""
        self.voice.tell(self.prompts.line("night_not_repeated"))

    def undoable(self) -> str | None:
        """What « annule » would take back, as the table hears it (« Léa vote contre Hugo »); None: nothing."""
        return None

    def take_back(self) -> None:
        """« annule », once journaled and said: while ballots are being said, the last one is taken back there
        and the vote goes on; else the game replays all its inputs but the last."""
        taken = undoable(self.events[:-1], self.undo_rule)  # what the « undo » just journaled took back
        if not isinstance(taken, ev.VoteInput) or not self.readback.take_back(self.ballots_left):
            raise Undo()  # « on vote » or an answer taken back: the game replays from before it
        self._ballot_taken_back(taken.voter)

    def ballots_left(self) -> list[Command]:
        """The ballots of the vote being said that the journal holds (after an « annule »)."""
        return []

    # -- the debate -----------------------------------------------------------------------

    def debate(self, debate: Debate, left: float | None = None, day: int = 1) -> None:
        """Day `day`'s debate: reminders on time; « pause », « reprends », « encore une minute », « on vote »."""
        left = debate.minutes * 60 if left is None else left
        timer = {"end": self.clock.now() + left}
        reminders = [r for r in debate.reminders if r[0] < left]  # latest first: (seconds left, items)
        with Heartbeat(self.journal, "debate", lambda: {"left": round(timer["end"] - self.clock.now(), 2)}):
            while True:
                end = timer["end"]
                now = self.clock.now()
                while reminders and now >= end - reminders[0][0]:
                    said_at, items = reminders.pop(0)
                    if end - now > said_at - self.listen_s:  # not a stale one after « encore une minute »
                        self.voice.play(items)
                    now = self.clock.now()
                if now >= end:
                    self._record(ev.DebateOver(day))
                    return
                next_event = min([end] + [end - r[0] for r in reminders])
                for command in self.talk.hear("any", min(next_event - now, self.listen_s)) or []:
                    if command.command == "start_vote":
                        self._record(ev.DebateOver(day, early=True))
                        return
                    if command.command == "more_time" and command.seconds:
                        self._record(ev.MoreTime(command.seconds))
                        timer["end"] += command.seconds
                        remaining = timer["end"] - self.clock.now()
                        duration = self.prompts.duration
                        more = self.prompts.line("more_time", time=duration(command.seconds), left=duration(remaining))
                        self.voice.tell(more)
                        reminders = [r for r in debate.reminders if r[0] < remaining]
                    elif command.command == "repeat":
                        self.voice.play(self.opening_now(timer["end"] - self.clock.now()))
                    elif command.command in ("pause", "stop"):
                        # the time spent paused or asking « on arrête ? » is not the debate's
                        timer["end"] += self._paused() if command.command == "pause" else self._stopping()
                        remaining = timer["end"] - self.clock.now()
                        self.voice.tell(self.prompts.line("resumed", time=self.prompts.duration(remaining)))
                    else:
                        self._control(command)

    def opening_now(self, left: float) -> list[Item]:
        """« répète » in the debate: its opening, but the length it said then (its filled line, id
        ending in "*") gives way to the time left now, after « encore une minute » or a pause."""
        kept = [item for item in self.voice.last if not (isinstance(item, Say) and item.line_id.endswith("*"))]
        return kept + to_items([self.prompts.line("time_left", time=self.prompts.duration(left))])

    def _paused(self) -> float:
        """Wait for « reprends »; how long the pause lasted."""
        start = self.clock.now()
        self._record(ev.Pause())
        self.voice.tell(self.prompts.line("paused"))
        while True:
            for command in self.talk.hear("any", self.listen_s) or []:
                if command.command == "resume":
                    self._record(ev.Resume())
                    return self.clock.now() - start
                if command.command == "stop":
                    self._stopping()
                    self.voice.tell(self.prompts.line("paused"))

    def _stopping(self) -> float:
        """« stop » is a pause that asks to confirm (a misheard word must not end a game): « oui » ends the
        process, the game journaled to be resumed; « non » goes on. How long the question took."""
        start, question = self.clock.now(), self.voice.last
        if self.talk.confirm(self.prompts.line("stop_check")):
            self._record(ev.Stop())
            self.voice.tell(self.prompts.line("stopped"))
            raise Stopped()
        self.voice.tell(self.prompts.line("stop_cancelled"))
        self.voice.last = question  # « répète » is still about the question the table was at
        return self.clock.now() - start

    # -- listening ------------------------------------------------------------------------

    def _control(self, command: Command) -> None:
        if command.command == "repeat":
            self.voice.repeat()  # the last question or announcement, never the night
        elif command.command == "repeat_night":
            self.repeat_night()
        elif command.command == "stop":
            self._stopping()
            self.voice.repeat()
        elif command.command == "pause":
            self._paused()
            self.voice.repeat()
        elif command.command in SETTINGS:
            refused = self.tune.refusal(command.command) if self.tune is not None else "setting_limit"
            if refused is not None:
                self.voice.tell(self.prompts.line(refused))
                return
            self._record(ev.Setting(command.command))  # journaled, then done
            assert self.tune is not None
            self.tune.apply(command.command)
            self.voice.tell(self.prompts.line(self.tune.reply(command.command)))
        elif command.command == "legend":
            self.voice.tell(*self.legend_lines())
        elif command.command == "help":
            self.voice.tell(self.prompts.line(self.help_key))
        elif command.command == "story":  # told once the game is over: before, it would tell the secrets
            if self.story_offered:
                raise StoryWanted()
            self.voice.tell(Line("story_later", load_story_words().text("story_later")))
        elif command.command == "free_seat" and command.player:
            self.free_seat(command.player)
        elif command.command == "undo":
            what = self.undoable()
            if what is None:
                self.voice.tell(self.prompts.line("nothing_to_undo"))
                return
            self._record(ev.Undo())
            self.voice.tell(self.prompts.line("undone_what", what=what))
            self.take_back()

    # -- the phones -----------------------------------------------------------------------

    def _ballot_box(self, open: bool) -> None:
        """The phones' ballot box opened or closed with the vote; a ballot not heard by then is dropped, and
        its phone says so."""
        if self.phones is None:
            return
        dropped = self.phones.ballots(open)
        if not open and isinstance(self.ear, PhoneEar):
            dropped += self.ear.drop()
        for seat in dict.fromkeys(dropped):
            self.phones.ballot(seat, load_phone_prompts().text("phone_ballot_dropped"))

    def _ballot_fate(self, ballot: Command, refusal: Line | None) -> None:
        """A ballot counted, or refused (`refusal`: why, as the table heard it): its voter's phone says so."""
        if self.phones is None or ballot.voter not in self.phones.seats:
            return
        said = load_phone_prompts()
        if refusal is not None:
            self.phones.ballot(ballot.voter, said.text("phone_ballot_refused", why=refusal.text))
        elif ballot.target is None:
            self.phones.ballot(ballot.voter, said.text("phone_ballot_blank"))
        else:
            self.phones.ballot(ballot.voter, said.text("phone_ballot_counted", target=ballot.target))

    def _ballots_again(self) -> None:
        """« non » at the read-back: every ballot is asked again, and no phone still says its own was counted
        (nor keeps one sent meanwhile for the new round)."""
        if self.phones is None:
            return
        if isinstance(self.ear, PhoneEar):
            self.ear.drop()
        self.phones.ballots_again(load_phone_prompts().text("phone_ballot_again"))

    def _ballot_taken_back(self, voter: str | None) -> None:
        """« annule » took back `voter`'s last ballot: their phone says the ballot that still counts, if an
        earlier one does, else that it was taken back."""
        if self.phones is None or voter not in self.phones.seats:
            return
        left = [c for c in self.readback.open or () if c.command == "vote" and c.voter == voter]
        if left:
            self._ballot_fate(left[-1], None)
        else:
            self.phones.ballot(voter, load_phone_prompts().text("phone_ballot_undone"))

    def _parse(self, text: str, phase: str = "any") -> list[Command]:
        """The parser's commands; from a phone, only its seat's own (no phone speaks for another seat)."""
        commands = self.parser.parse(text, phase)
        seat = self.ear.seat if isinstance(self.ear, PhoneEar) else None
        return commands if seat is None else own_commands(seat, commands)

    def note_seats(self) -> None:
        """Journal the seats the phones took since the last look (called from the game's thread only:
        the web server's thread only notes them in the hub), and tell the table once `joined` (the
        joining says it its own way): in a game begun, a seat is taken only after « libère la place de Ana »,
        and whoever took it can read its card, so the table hears it taken whether a page shows it or not."""
        if self.phones is None:
            return
        taken = self.phones.claims()
        for seat in taken:
            self._record(ev.SeatTaken(seat))
        if taken and self.joined:
            question = self.voice.last
            said = load_phone_prompts()
            self.voice.tell(*(said.line("seat_taken_again", player=seat) for seat in taken))
            self.voice.last = question  # « répète » is still about the question the table was at

    def free_seat(self, seat: str) -> None:
        """« libère la place de Ana », confirmed: Ana's phone loses the seat, and the next phone may take it
        (a phone that took the wrong seat, a phone broken or out of battery)."""
        if self.phones is None:
            self.voice.tell(load_phone_prompts().line("no_phones"))
            return
        question = self.voice.last
        said = load_phone_prompts()
        if not self.talk.confirm(said.line("free_seat_check", player=seat)):
            self.voice.tell(self.prompts.line("stop_cancelled"))
        else:
            self.note_seats()  # a claim noted before it is freed comes first in the journal
            token = new_token()
            self._record(ev.SeatFreed(seat, token))
            self.phones.free(seat, token)
            self.voice.tell(said.line("seat_freed", player=seat))
        self.voice.last = question  # « répète » is still about the question the table was at

    def hear_controls(self, seconds: float) -> None:
        """Listen once, up to `seconds`, and do what the table says of the controls (while waiting for
        the phones: « répète », « stop », « libère la place de Ana »)."""
        for command in self.talk.hear("any", seconds) or []:
            if command.command in CONTROLS:
                self._control(command)

    def _record(self, event: ev.Event) -> None:
        """Journal an input before it is acted on."""
        self.events.append(event)
        if self.journal is not None:
            self.journal.append(event)

    def damaged(self, index: int, what: str) -> JournalError:
        """A journaled input the game refuses when it reads it back (`self.events[index]`): one French line
        naming its file and line, as a damaged line is (journal.py). Only inputs read from the journal are
        refused, and those are its lines in order after the header (the heartbeat's later ticks aside)."""
        line = index + 2
        if self.journal is None:
            return JournalError(f"journal, ligne {line} : {what}")
        path = self.journal.path
        return JournalError(
            f"{path}:{line}: {what} ; « narrator resume --avant-ligne {line} {path} » "
            f"reprend la partie des lignes qui la précèdent"
        )
