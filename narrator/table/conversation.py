"""Asking the table and hearing its answer: the listening turn every spoken question goes through.

A turn plays the « à vous » earcon, listens with the phrases that make sense now, re-parses what
was heard, says « Je n'ai pas compris » when it was not understood, hands controls (« répète »,
« pause », « stop », « plus lentement »…) to the caller, and after three misunderstandings offers
the keyboard for that question.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar, runtime_checkable

from narrator.listen.commands import Command
from narrator.listen.ear import Ear, EndsOnCommand
from narrator.listen.endpoint import command_is_complete
from narrator.script.line import Line
from narrator.script.prompts import Prompts
from narrator.table.clock import Clock
from narrator.table.voice import Voice
from narrator.voice import Say

T = TypeVar("T")
FAILURES_BEFORE_KEYBOARD = 3
TYPED_LISTEN_S = 60.0  # how long a typed answer is awaited before the question comes again


@runtime_checkable
class ShowsWhatToType(Protocol):
    """An ear that shows what to type (a keyboard); a microphone has no use for it."""

    def expect(self, hint: str) -> None: ...


@runtime_checkable
class Strangers(Protocol):
    """A parser that knows the first names nobody at the table has."""

    def stranger(self, text: str) -> str | None: ...


@dataclass(frozen=True)
class Named:
    """A player named in answer to « qui ? »; `player` None for « personne », an answer, where an accept's
    None means « not understood » to `Conversation.ask`."""

    player: str | None


@dataclass
class Conversation:
    voice: Voice
    ear: Ear
    clock: Clock
    prompts: Prompts
    parse: Callable[[str, str], list[Command]]  # (text, phase) -> commands
    phrases: Callable[[str], list[str]]  # what the recognizer may hear in a phase
    controls: tuple[str, ...]  # the commands `control` handles, wherever they are said
    control: Callable[[Command], None]
    listen_s: float = 8.0
    keyboard: Ear | None = None  # an ear to offer after three misunderstandings, if any
    stranger: Callable[[str], str | None] | None = None  # a first name heard that nobody at the table has
    # why a text not understood is refused, and what to say instead (« Harry » is a card): said for it
    refusal: Callable[[str], list[Line]] | None = None
    # the refusal's lines end with where the answer stands (« 2 sur 9. »): said instead of the question again
    refusal_asks: bool = False
    refused: bool = False  # the last turn heard an answer `refusal` explained
    # the `typed_…` lines' examples from the game played (« Ana vote contre Ben » with two of its players)
    examples: Callable[[], dict[str, str]] = dict

    def ask(
        self,
        phase: str,
        accept: Callable[[list[Command]], T | None],
        prefix: str | None = None,
        hint: str | None = None,
    ) -> T:
        """Listen until `accept` takes an answer; after a silence, a miss or a refused answer, the question again.

        `hint`: what to type, for a keyboard (« Le nombre de joueurs, de 3 à 13 »); by default the
        question's or the phase's `typed_…` line of the prompts.
        """
        failures = 0
        ear = self.ear
        try:
            while True:
                commands = self.ask_once(phase, prefix, hint)
                if commands == []:
                    continue  # only controls (« répète » already said the question again)
                if commands is not None:
                    answer = accept(commands)
                    if answer is not None:
                        return answer
                    if all(c.command in ("yes", "no") for c in commands):
                        # « oui » to « quel est ton nom ? »: understood, and not an answer; the table is told
                        # why before the question comes again (never « je n'ai pas compris »)
                        self.voice.tell(self.prompts.line("not_yes_no"))
                failures += 1
                if failures == FAILURES_BEFORE_KEYBOARD and self.keyboard is not None:
                    # after three failures the keyboard is offered, for this question
                    self.voice.tell(self.prompts.line("keyboard"))
                    self.ear = self.keyboard
                self.voice.repeat()
        finally:
            self.ear = ear

    def ask_once(self, phase: str, prefix: str | None = None, hint: str | None = None) -> list[Command] | None:
        """One turn: None when the question must be asked again (silence, not understood); else the commands
        heard, controls already handled ([] when there were only controls)."""
        self.voice.earcon("listen")  # the table knows when it may speak
        # a typist, or a screen reader's user, takes longer than a voice: the question said again every few
        # seconds would be noise (an empty line is a silence at once)
        patience = max(self.listen_s, TYPED_LISTEN_S) if isinstance(self.ear, ShowsWhatToType) else self.listen_s
        commands = self.hear(phase, patience, prefix, hint)
        if not commands:
            return [] if commands is not None and self.refused and self.refusal_asks else None
        self.voice.earcon("understood")
        kept = []
        for command in commands:
            if command.command in self.controls:
                self.control(command)
            else:
                kept.append(command)
        return kept

    def hear(
        self, phase: str, timeout: float, prefix: str | None = None, hint: str | None = None
    ) -> list[Command] | None:
        """Listen once: None on silence (the clock then stands at the end of the turn)."""
        self.refused = False
        if isinstance(self.ear, ShowsWhatToType):
            self.ear.expect(hint or self.typed(phase))
        start = self.clock.now()
        phrases, timeout = self.phrases(phase), max(timeout, 0.0)

        def read(text: str) -> list[Command]:
            commands = self.parse(text, phase)
            if prefix and not commands:
                # an answer to a question put to one player: « bob » means « <player> bob »
                commands = self.parse(f"{prefix} {text}", phase)
            return commands

        if isinstance(self.ear, EndsOnCommand):  # the utterance ends as soon as it is a whole command
            heard = self.ear.listen_for(phrases, timeout, command_is_complete(read))
        else:
            heard = self.ear.listen(phrases, timeout)
        if heard is None or not heard.text.strip():
            self.clock.sleep_until(start + timeout)  # a fake clock jumps; a real one is already there
            return None
        commands = read(heard.text)
        if not commands:
            name = self.stranger(heard.text) if self.stranger else None
            why = self.refusal(heard.text) if self.refusal else []
            if why:
                self.refused = True
                self.voice.tell(*why)
            elif name:  # « Zoé vote contre Max » at a table without Zoé: never read as another player
                self.voice.tell(self.prompts.line("unknown_player", name=name))
            else:
                self.voice.tell(self.prompts.line("not_understood", text=heard.text))
            return []
        return commands

    def confirm(self, question: Line) -> bool:
        """Read back and ask « oui » or « non »."""
        self.voice.ask(question)
        return self.ask("any", yes_or_no, hint=self.prompts.text("typed_yes_no"))

    def typed(self, phase: str) -> str:
        """What to type now, in a few words: for the last question asked if it has its own, else for the phase."""
        for item in reversed(self.voice.last):
            key = "typed_" + item.line_id.rstrip("*") if isinstance(item, Say) else ""
            if key in self.prompts.texts:
                return self.prompts.text(key, **self.examples())
        key = f"typed_{phase}"
        return self.prompts.text(key if key in self.prompts.texts else "typed_any", **self.examples())


def yes_or_no(commands: list[Command]) -> bool | None:
    for c in commands:
        if c.command in ("yes", "no"):
            return c.command == "yes"
    return None
