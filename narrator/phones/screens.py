"""What a player's phone shows: their card, one question at a time, and what only they learn.

These are plain data, the same for both families: a family turns its own questions (an engine's
`Ask`, a one-night card's choice) into a `Question`, and reads the `Answer` back into the shape its
records use. The hub (hub.py) holds one screen per seat; the web server (server.py) shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

_NUMBERS = {2: "deux", 3: "trois", 4: "quatre", 5: "cinq"}  # how many to tick, said in words on the phone


class Form(str, Enum):
    """How a question is answered on the phone."""

    ONE = "one"  # one of `choices` (a player, a middle card, an option)
    PAIR = "pair"  # two different `choices`, in order
    SOME = "some"  # several different `choices`: exactly `count`, or any number when `count` is None
    YES_NO = "yes_no"  # oui or non
    TAP = "tap"  # nothing to choose: « C'est fait » (a screen that only has to be touched)


@dataclass(frozen=True, slots=True)
class Choice:
    value: str  # what the answer carries back: a player's name, a middle place, an option's value
    label: str  # what the phone shows and a screen reader reads


@dataclass(frozen=True, slots=True)
class Question:
    """One question on one phone. `text` is the whole question in words (a screen reader reads it)."""

    form: Form
    text: str
    choices: tuple[Choice, ...] = ()
    optional: bool = False  # « personne » / « rien » is an answer
    count: int | None = None  # SOME: how many
    decoy: bool = False  # asked only so that every phone is touched: its answer changes nothing
    # the choices the rules accept, when fewer than those shown (the list keeps the decoys' shape): a touch
    # on another is refused on the phone, next to the question, with `refusal`; never sent to the phone
    allowed: tuple[str, ...] | None = None
    refusal: str = ""

    def check(self, value: object) -> str | None:
        """Why `value` is no answer to this question (French), or None when it is one."""
        values = [c.value for c in self.choices]
        if value is None:
            return None if self.optional or self.form is Form.TAP else "une réponse est obligatoire"
        if self.form is Form.TAP:
            return None
        if self.form is Form.YES_NO:
            return None if isinstance(value, bool) else "touchez oui ou non"
        if self.form is Form.ONE:
            if not isinstance(value, str) or value not in values:
                return "ce choix n'est pas proposé"
            return self._refused([value])
        if not isinstance(value, list) or not all(isinstance(v, str) and v in values for v in value):
            return "un des choix n'est pas proposé"
        if len(set(value)) != len(value):
            return "deux fois le même choix"
        wanted = 2 if self.form is Form.PAIR else self.count
        if wanted is not None and len(value) != wanted:
            return f"cochez {_NUMBERS.get(wanted, str(wanted))} choix"
        return self._refused(value)

    def _refused(self, values: list[str]) -> str | None:
        if self.allowed is None or all(v in self.allowed for v in values):
            return None
        if self.refusal:
            return self.refusal
        which = "ce choix" if len(values) == 1 else "un des choix"  # among several ticked: which is not said
        return f"{which} n'est pas permis : touchez-en un autre"


@dataclass(frozen=True, slots=True)
class Card:
    """A seat's card as its phone shows it (hidden until the player asks to see it)."""

    role: str  # the role id
    name: str  # « Voyante »
    text: str  # what the card does, in a sentence or two
    symbol: str = ""  # its tactile symbol (001 "Adaptation"), in words: the phone draws it
    camp: str = ""  # « Camp du village », « Équipe des Mangemorts »: the camp the card plays for


@dataclass(frozen=True, slots=True)
class Answer:
    """A seat's answer to the question its phone showed (`asked` is `Hub.ask`'s number)."""

    seat: str
    asked: int
    value: object
    decoy: bool = False


@dataclass(frozen=True, slots=True)
class Screen:
    """Everything one seat's phone shows now: nothing of another seat's secrets, ever."""

    seat: str
    card: Card | None = None
    question: Question | None = None
    asked: int = 0  # the number of the question shown, sent back with the answer
    answered: bool = False
    secrets: tuple[str, ...] = ()  # what this seat was told, oldest first
    status: str = "La partie va commencer."  # a public line every phone shows (« Nuit 1 », « Le vote »)
    vibrate: bool = False  # the phone buzzes at a new question (off by default: a buzz is heard)
    # what every phone shares (set for all seats at once: see `Hub.public`)
    night: bool = False  # the night's dark, dim look, the same on every phone
    living: tuple[str, ...] | None = None  # who may vote and be voted against (None: every seat)
    end: dict[str, object] | None = None  # the end of the game (`end_screen`)
    # what became of this seat's ballot: « Vote compté : … », « Vote refusé. … », dropped; "": none yet
    ballot: str = ""
    ballot_said: int = 0  # how many times `ballot` was said: the same words said again are said again
    # the day's vote being collected, numbered: a new one, or the same asked again, empties every ballot form
    vote: int = 0


def end_screen(winners: str, cards: Sequence[tuple[str, str, str]], story: Sequence[str] = ()) -> dict[str, object]:
    """What every phone shows at the end (`Screen.end`): the winners' sentence, each player's card at the
    end with the one dealt (`cards`: player, card, first card), and the story's sentences when the table
    asked for it. Every seat gets the same: nothing here is secret once the game is over."""
    return {
        "winners": winners,
        "cards": [{"player": p, "card": capital(c), "first_card": capital(f)} for p, c, f in cards],
        "story": list(story),
    }


def capital(name: str) -> str:
    """A card's name as printed on the card, with its capital (« voyante » is said, « Voyante » is shown)."""
    return name[:1].upper() + name[1:]
