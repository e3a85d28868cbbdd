"""A classic Thiercelieux game at a table: the operator types the night, the table speaks the day.

The engine (narrator/rules/classic) plays each phase and asks its questions as they arise; this
session answers them. During the night, the call of the role that chooses is spoken, then the
operator types the choice on a screen nobody else sees (operator.py); the calls of dead roles are
still made, with the same wait, so the table cannot hear who died. Once the night's choices are
in, the morning is spoken with the engine's public sentences (the victims and their roles), and
the day's decisions are asked aloud — the hunter's shot, the captain's election, heir and
tie-break, every ballot — each read back and confirmed. The engine's other sentences (the
voyante's look, the witch's potions…) go to the operator's screen only.

Every answer is journaled, in the shape of a game record, before the engine acts on it; a resumed
or undone game replays the journaled answers silently through the same engine, then goes on.
The answers make a `ruleset: thiercelieux` record that `narrator resolve` plays to the same end.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from narrator.listen.commands import Command
from narrator.phones.screens import end_screen
from narrator.rules.classic import Options, Rules, State, play_phase, start
from narrator.rules.classic.asks import Ask, Kind, Potions, Spy, Value
from narrator.rules.classic.record import Phase, Record, RecordDecider, check_ballot
from narrator.rules.classic.victory import winners
from narrator.rules.errors import RecordError
from narrator.rules.phase import PhaseId
from narrator.rules.reason import Reason
from narrator.script.classic.narration import CALL, Call, Narration
from narrator.script.classic.script import say, say_aloud
from narrator.script.classic.story import story
from narrator.script.line import Line, Wait
from narrator.script.prompts import load_phone_prompts
from narrator.script.templates import fill, join_names
from narrator.table import events as ev
from narrator.table.classic.day import ClassicDay
from narrator.table.classic.operator import OnScreen, Operator, OperatorUndo, typed_as
from narrator.table.classic.replay import UNDO, debate_left, debated, heard, inputs, journaled
from narrator.table.classic.told import record_of
from narrator.table.epilogue import offer_story
from narrator.table.host import Host, Undo
from narrator.table.readback import Ballots, ballot
from narrator.table.voice import to_items
from narrator.voice import Item

T = TypeVar("T")
Rule = Callable[[RecordDecider, Ask], T]  # how a record's answer of one kind is read and checked


@dataclass(frozen=True)
class Ending:
    """How the game ended: the table, the winners, and the game as a record `narrator resolve` plays."""

    state: State
    winners: list[str]
    record: dict[str, Any]
    verdict: str = ""  # why the winners won and who they are, as said


@dataclass(kw_only=True)
class ClassicSession(Host):
    undo_rule = UNDO
    rules: Rules
    narration: Narration
    players: tuple[str, ...]
    deal: tuple[str, ...]  # each seat's card
    options: Options
    extra: tuple[str, ...] = ()  # the undealt cards (the voleur's two, the comédien's three)
    groups: tuple[int, ...] = ()  # each seat's group, when the sectaire plays
    operator: Operator
    minutes: int | None = None  # the debate's length; None: the script's

    def __post_init__(self) -> None:
        super().__post_init__()
        self.day = ClassicDay(self, self.rules, self.narration, self.operator, self.players)
        self._pending: dict[str, tuple[int, str | None]] = {}  # the journal's ballots of a vote cut short
        self._debated: set[int] = set()  # the days whose debate the journal holds as over
        self._debate_left: float | None = None  # what was left of a debate cut short
        self._said = 0  # lines of the night and of the engine so far, said or not (see `_aloud`)
        self._mute = 0  # how many of them the table has already heard
        self._open: int | None = None  # the night's call being made (an index of its calls)
        self._woken: set[tuple[str, int]] = set()  # (phase, call) whose wake line this process said
        self._back = False  # a game resumed from a journal, not yet told where it is
        self._raven: tuple[int, str] = (0, "")  # the day whose vote starts with the corbeau's two votes, and whom
        self._living: tuple[str, ...] = ()
        self.asking: Ask | None = None

    # -- the whole game -------------------------------------------------------------------

    def run(self, events: list[ev.Event] | None = None) -> Ending:
        """From the start, or from a journal's events; « annule » replays all answers but the last one said
        aloud. Raises `Stopped` if the table stops the game."""
        self.events = list(events or [])
        # a game resumed from a journal that heard or answered something: the table is told where it is,
        # once, before the first word said now (« annule » replays without it)
        answers, _ = journaled(self.events)
        self._back = bool(answers) or heard(self.events) > 0
        while True:
            try:
                return self._play()
            except Undo:
                continue

    def words(self, reason: Reason) -> str:
        """One of the rules' reasons in the script's words, as the operator's screen shows it."""
        return say(self.rules, reason)

    def aloud(self, reason: Reason) -> str:
        """One of the rules' reasons as the table hears it."""
        return say_aloud(self.rules, self.narration.reworded, reason)

    def _play(self) -> Ending:
        answers, pending = journaled(self.events)
        self._said = 0  # lines of the night and of the engine so far, said or not (see `_aloud`)
        self._confided = 0  # the engine's private sentences so far, the same in a replay
        self._answerers: tuple[str, ...] = ()
        self._mute = heard(self.events)  # how many of them the table has already heard
        self._replay = deque(answers)
        self._pending = pending
        self._debated = debated(self.events)
        self._debate_left = debate_left(self.events)
        record = Record(None, self.players, self.deal, self.options, (), self.extra, self.groups)
        state = start(self.rules, record)
        number = 1
        while True:
            for kind in ("night", "day"):
                state = self._phase(state, kind, number)
                if state.winner is not None:
                    return self._end(state)
            number += 1

    def _phase(self, state: State, kind: str, number: int) -> State:
        self.kind, self.number = kind, number
        self._reached = (number - 1) * 2 + (1 if kind == "night" else 2)  # phases begun, for `record`
        self.phase = PhaseId("night" if kind == "night" else "day", number)
        self.label = self.phase.label  # for the operator's screen and the record's paths
        self._answerers = ()
        status = "status_night" if kind == "night" else "status_debate"
        self.operator.public(load_phone_prompts().text(status, number=number), state.living(), kind == "night")
        self._living = tuple(state.living())  # who may still be marked by the corbeau when the day's debate begins
        if kind == "night":
            in_play = set(self.deal) | set(self.extra)  # a card the voleur or the comédien may take is called
            self._calls = [c for c in self.narration.calls if c.made(in_play, number)]
            self._next, self._open, self._opened_at, self._morning_said = 0, None, 0.0, False
            self.voice.night(True)  # its music under the whole night, a resumed one too
            self._speak(self.narration.first if number == 1 else self.narration.dusk)
        state, _ = play_phase(self.rules, state, kind, number, _Decider(self), self._heard)
        if kind == "night" and not self._morning_said:
            self._morning()
        return state

    def _end(self, state: State) -> Ending:
        won = winners(state)
        why = getattr(self, "_last_said", "")
        self._heard(Reason("winners", {"names": won}))
        said = self.aloud(Reason("winners", {"names": won}))
        self.operator.public(said, state.living(), night=False)
        if not any(isinstance(e, ev.Outcome) for e in self.events):  # a game resumed at the offer has one
            self._record(ev.Outcome(won, camp=state.winner.value if state.winner else None))
        record = self.record()
        told = self.story()
        verdict = f"{why} {said}".strip()
        if self.phones is not None:  # every phone's end screen: who won, every card (the story once asked for)
            self.phones.public(end=end_screen(verdict, self.cards(state)), night=False)
        offer_story(self, told)
        return Ending(state, won, record, verdict)

    def cards(self, state: State) -> list[tuple[str, str, str]]:
        """Each player's card at the end, and the one dealt (the voleur's, the enfant sauvage's may differ)."""
        named = [self.rules.roles[r].name for r in (*state.roles, *self.deal)]
        named = [n[:1].upper() + n[1:] for n in named]
        n = len(state.players)
        return list(zip(state.players, named[:n], named[n:]))

    def story(self) -> list[str]:
        """The story of the game as its journal tells it: the same as `narrator story JOURNAL`."""
        return story(self.rules, record_of(*self._table(), self.events))

    def _table(self) -> tuple[str, tuple[str, ...], tuple[str, ...], dict[str, Any], tuple[str, ...], tuple[int, ...]]:
        return self.rules.game, self.players, self.deal, asdict(self.options), self.extra, self.groups

    def record(self) -> dict[str, Any]:
        """The game so far as a `ruleset: thiercelieux` record (formats/game-record.md)."""
        return record_of(*self._table(), self.events, self._reached)

    # -- one decision -----------------------------------------------------------------------

    def decide(self, ask: Ask, rule: Rule[T]) -> T:
        """The answer to one of the engine's questions: journaled, replayed, or asked now; `rule` reads it as
        a record's answer of that kind (a player, the ballots…)."""
        self.asking = ask  # what the table is being asked (a simulated table answers it: record_play.py)
        self._answerers = ask.by  # who learns the sentences that follow (`confided: call`)
        in_call = self._place(ask)  # replayed or not, the same lines come in the same order
        if self._replay:
            index, event = self._replay.popleft()
            if (event.phase, event.key) != (self.phase, ask.key):
                raise self.damaged(
                    index,
                    f"le journal ne suit plus la partie : {self.label}, « {ask.key} » attendu ; "
                    f"trouvé : {event.phase.label}, « {event.key} »",
                )
            try:
                return self._check(ask, rule, event.value)
            except RecordError as exc:
                raise self.damaged(index, f"réponse du journal refusée : {exc.describe()}") from None
        self._say_where(ask)
        if in_call:
            self._wake_again()
        while True:
            try:
                value, by = self._ask(ask, in_call)
            except OperatorUndo:
                self._take_back()
                continue
            try:
                checked = self._check(ask, rule, value)
            except RecordError as exc:
                self.operator.refuse(f"Refusé. Attendu : {exc.expected}.", ask.by)
                continue
            # how a record holds it: under a field of the key's mapping, or one of a list
            self._record(ev.Answer(self.phase, ask.key, value, by, many=ask.many, field=ask.field))
            return checked

    def _take_back(self) -> None:
        """The operator's « annule »: his last entry of this phase is asked again. The game replays without
        it, and what the table already heard is not said again (the same words come in the same order)."""
        answers, pending = inputs(self.events)
        # the answers the rules gave after his (one choice left) go with it: they follow from it
        ruled = 0
        while ruled < len(answers) and answers[-1 - ruled].by == "rules":
            ruled += 1
        last = answers[-1 - ruled] if ruled < len(answers) else None
        if pending or last is None or last.by != "operator" or last.phase != self.phase:
            self.operator.show("Rien à annuler : aucun choix entré à l'écran depuis le début de cette phase.")
            return
        for _ in range(ruled + 1):
            self._record(ev.Undo())
        self.operator.show(f"Annulé : « {last.key} », {typed_as(last.value)} ; à nouveau.")
        raise Undo()

    def held_ballots(self, ask: Ask) -> dict[str, str | None]:
        """The ballots of this vote a journal holds (a vote cut short), each checked against the game: a
        voter the rules let vote, for a player he may vote against, or nobody."""
        for voter, (index, target) in self._pending.items():
            try:
                check_ballot(ask, (self.label, ask.key, voter), voter, target, self.words)
            except RecordError as exc:
                raise self.damaged(index, f"bulletin du journal refusé : {exc.describe()}") from None
        return {voter: target for voter, (_, target) in self._pending.items()}

    def _check(self, ask: Ask, rule: Rule[T], value: object) -> T:
        """The answer checked by the record's own rules (an illegal one raises `RecordError`)."""
        held = {ask.field: value} if ask.field and value is not None else value
        phase = Phase(self.kind, self.number, {ask.key: held}, (self.label,))
        return rule(RecordDecider(phase, self.words), ask)

    def _place(self, ask: Ask) -> bool:
        """Where the night stands when `ask` comes: in the call that answers it (True), or in the morning."""
        if self.kind != "night" or self._morning_said:
            return False
        call = next((i for i, c in enumerate(self._calls) if ask.key in c.answers), None)
        if call is None:
            self._morning()
            return False
        self._enter_call(call)
        return True

    def _ask(self, ask: Ask, in_call: bool) -> tuple[object, str]:
        """Who answers: the operator during a night call, the table aloud for the public decisions the
        script lists, the operator for the others; nobody when the rules leave one choice."""
        if ask.forced and ask.kind is Kind.PLAYER and len(ask.choices) == 1:
            self.operator.note(f"{self.words(ask.context)} : seul choix possible, {ask.choices[0]}.", ask.by)
            return ask.choices[0], "rules"
        if not in_call and ask.key in self.narration.asks and ask.kind in (Kind.PLAYER, Kind.BALLOTS):
            return (self._ballots(ask) if ask.kind is Kind.BALLOTS else self.day.choice(ask)), "voice"
        question = self.narration.operator_asks.get(ask.key)
        if question is not None and isinstance(self.operator, OnScreen):
            # a public decision the operator enters: the table hears it asked (with phones, the phone asks it)
            said = fill(question, who=ask.who or "", choices=join_names(self.rules, list(ask.choices)), example="")
            self.voice.ask(Line(ask.key + "*", said))
        return self.operator.answer(ask, self.phase, self.words), self.operator.by

    def _ballots(self, ask: Ask) -> Ballots:
        """A vote said aloud, after the day's debate; a vote cut short goes on from the journal's ballots."""
        if ask.key == "votes" and self.number not in self._debated:
            left, self._debate_left = self._debate_left, None
            day, marked = self._raven
            if day == self.number and marked in self._living and left is None:
                # 003: « il désigne un joueur qui commencera le vote du lendemain avec deux voix contre lui »:
                # the table knows it before it debates (the votes are public at the count anyway)
                self.voice.tell(self.prompts.line("raven_marked", name=marked))
            self.day.debate(self.number, self.minutes or self.narration.minutes, left)
        if not ask.ballots:  # the bouc émissaire named nobody: no ballot to ask, nothing to read back
            return {}
        held = self.held_ballots(ask)
        self._pending = {}
        self.operator.public(load_phone_prompts().text("status_vote", number=self.number))
        return self.day.ballots(ask, held)

    # -- the night's calls ------------------------------------------------------------------

    def _enter_call(self, index: int) -> None:
        if self._open == index:
            return
        self._close_call()
        while self._next < index:
            self._empty_call(self._calls[self._next])
            self._next += 1
        if self._speak(self._calls[index].wake):
            self._woken.add((self.label, index))
            self._gesture(self._calls[index])
        self._open, self._opened_at, self._next = index, self.clock.now(), index + 1

    def _wake_again(self) -> None:
        """A resumed night: the call it was in is said again once (its wake was heard before the game
        stopped), so its characters know they are called; nothing before it is."""
        last_heard = self._said == self._mute  # nothing after this call's wake was heard: the table is in it
        if self._open is None or (self.label, self._open) in self._woken or not last_heard:
            return
        self.voice.play(to_items(self._calls[self._open].wake))
        self._woken.add((self.label, self._open))
        self._opened_at = self.clock.now()

    def _close_call(self) -> None:
        if self._open is None:
            return
        call = self._calls[self._open]
        if not self._replay and self._said >= self._mute:  # its sleep line will be heard: keep the call's length
            self.clock.sleep_until(self._opened_at + call.wait)  # as long as a dead role's
        self._speak(call.sleep)
        self._open = None

    def _empty_call(self, call: Call) -> None:
        """A call nobody answers (its role is dead, or has nothing to choose): the same words and wait."""
        if not call.answers and not self._replay and self._said >= self._mute:  # will be said (`_aloud`)
            self._gesture(call)  # the lovers, the charmed: the operator wakes them during the wait
        self._speak((*call.wake, Wait(call.wait), *call.sleep))

    def _gesture(self, call: Call) -> None:
        """What the narrator cannot do itself, asked of the operator on his screen (RULINGS 24: « je
        touche la tête des amoureux » is never said); with phones, the players' phones do it."""
        if call.operator:
            self.operator.show(call.operator)

    def _morning(self) -> None:
        self._close_call()
        while self._next < len(self._calls):
            self._empty_call(self._calls[self._next])
            self._next += 1
        self.voice.night(False)  # the music fades out under the morning's first words
        # the phones too: the morning's questions (the hunter's) are the day's, not « Nuit 1 »'s
        self.operator.public(load_phone_prompts().text("status_morning", number=self.number), night=False)
        self._speak(self.narration.morning)
        self._morning_said = True

    # -- what is said -----------------------------------------------------------------------

    def _speak(self, steps: tuple[Line | Wait, ...] | list[Line | Wait]) -> bool:
        """Say a stretch of the night unless the table has heard it; whether it was said."""
        if not self._aloud():
            return False
        self.voice.play(to_items(steps))
        return True

    def _aloud(self) -> bool:
        """Whether the next line of the night or of the engine is said: only once, whatever « annule » or a
        resume replays (the same lines come back in the same order). It is journaled as heard before it is
        said, so a game killed at any point and resumed says it again at most if it was cut mid-line."""
        self._said += 1
        if self._replay or self._said <= self._mute:
            return False
        self._record(ev.Said(self._said))
        self._mute = self._said
        self._say_where()
        return True

    def _say_where(self, ask: Ask | None = None) -> None:
        """« On reprend la partie. » and where it is, before a resumed game's first new word (`ask`: the
        question about to be asked): at night, everyone's eyes closed before any call; in the day, the
        vote in progress, or the day; the debate says its time left itself (ClassicDay.debate)."""
        if not self._back:
            return
        self._back = False
        voting = ask is not None and ask.key in ("votes", "revote", "second_votes")
        if self.kind == "night" and not self._morning_said:
            self.voice.tell(self.prompts.line("resumed_night"))
        elif voting and ask is not None and ask.key == "votes" and self.number not in self._debated:
            return  # « On reprend la partie. Il reste 3 minutes. »
        elif voting:
            self.voice.tell(self.prompts.line("resumed_vote"))
        else:
            self.voice.tell(self.prompts.line("resumed_day", number=self.number))

    def _heard(self, reason: Reason) -> None:
        """The engine's sentence: said aloud if public (after the morning's first words), else shown."""
        if reason.key in self.narration.public:
            if self.kind == "night" and not self._morning_said:
                self._morning()
            self._last_said = self.aloud(reason)  # the end's screen repeats why the winners won
            if self._aloud():
                self.voice.tell(Line(reason.key + "*", self._last_said))
        else:
            if reason.key == "raven":  # said before the next debate (`_ballots`), not only at the count
                self._raven = (self.number, str(reason.params.get("name")))  # night N, then day N
            self._confided += 1
            self.operator.confide(self._confided, self.words(reason), self._learners(reason), bool(self._replay))
            gesture = self.narration.gestures.get(reason.key)
            if gesture and not self._replay and isinstance(self.operator, OnScreen):  # phones tell it themselves
                self.operator.show(say_aloud(self.rules, self.narration.gestures, reason))

    def _learners(self, reason: Reason) -> tuple[str, ...]:
        """Who learns a private sentence (the script's `confided`): the players who answered the question it
        follows (`call`), or those it names."""
        who: list[str] = []
        for learner in self.narration.confided.get(reason.key, ()):
            named = self._answerers if learner == CALL else reason.params.get(learner)
            who += named if isinstance(named, list | tuple) else [str(named)]
        return tuple(p for p in dict.fromkeys(who) if p in self.players)

    help_key = "help_classic"

    # -- « rappelle les personnages », « annule » ---------------------------------------------

    def opening_now(self, left: float) -> list[Item]:
        """« répète » in the debate: its opening with the time left now (« Vous avez quatre minutes… »)."""
        return to_items(self.narration.debate_opening(self.prompts.duration(left)))

    def legend_lines(self) -> list[Line]:
        names = [self.rules.roles[r].name for r in sorted(self.deal, key=list(self.rules.roles).index)]
        return [self.prompts.line("characters_in_play", characters=self.prompts.join(names))]

    def undoable(self) -> str | None:
        """A ballot being said, or the last answer if the table said it (the operator's are his to fix)."""
        answers, pending = inputs(self.events)
        if pending:
            _, left = inputs([*self.events, ev.Undo()])
            voter = next(v for v in reversed(pending) if left.get(v, _GONE) != pending[v])
            return self.readback.summary([ballot(voter, pending[voter])])
        if answers and answers[-1].by == "voice":
            value = answers[-1].value
            if isinstance(value, dict):
                return self.readback.summary([ballot(v, t) for v, t in value.items()])
            return str(value) if value is not None else self.prompts.text("nobody")
        return None

    def ballots_left(self) -> list[Command]:
        return [ballot(voter, target) for voter, target in inputs(self.events)[1].items()]


_GONE = object()  # a voter whose ballot « annule » took back


class _Decider:
    """The engine's `Decider`: each question goes to the session, and its answer is read as a record's."""

    def __init__(self, session: ClassicSession) -> None:
        self.session = session

    def player(self, ask: Ask) -> str | None:
        return self.session.decide(ask, RecordDecider.player)

    def pair(self, ask: Ask) -> tuple[str, str] | None:
        return self.session.decide(ask, RecordDecider.pair)

    def potions(self, ask: Ask) -> Potions | None:
        return self.session.decide(ask, RecordDecider.potions)

    def spy(self, ask: Ask) -> Spy | None:
        return self.session.decide(ask, RecordDecider.spy)

    def ballots(self, ask: Ask) -> dict[str, str | None]:
        return self.session.decide(ask, RecordDecider.ballots)

    def players(self, ask: Ask) -> tuple[str, ...] | None:
        return self.session.decide(ask, RecordDecider.players)

    def option(self, ask: Ask) -> Value | None:
        return self.session.decide(ask, RecordDecider.option)

    def yes(self, ask: Ask) -> bool:
        return self.session.decide(ask, RecordDecider.yes)
