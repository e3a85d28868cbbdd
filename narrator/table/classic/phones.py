"""The players' own phones in place of the operator: each night choice asked on its holders' phones.

A classic table with phones has no operator. When the engine asks a question (`Ask`), its answerers
(`Ask.by`: the called card's living holders, the whole pack for the wolves' victim) see it on their
phones, and every other seat sees a decoy of the same form (a list of names, oui/non) that asks
for a touch too, so nobody learns who acted from who touched a phone. A list of names shows, on every
phone, the living players but its holder (who is alive is known to all; the holder too, when the rules
let the one who acts choose himself: the salvateur, Cupidon), and a decoy beside it shows its own list
made the same way, under the same words (the call's question, said aloud to the table anyway): a glance
does not tell them apart. A name the list still shows and the rules refuse (a wolf for the pack: the
wolves know each other) is never refused on the acting phone alone, which would tell a neighbour that
this phone is live: the round ends as any other, then every phone, decoys included, is asked again
under the same words, which say that a name touched was not allowed (`refused`). The public line
of every phone says where the game is (`public`). The call lasts as long as
its slowest needed answer; when one is slow, the table hears « J'attends encore une réponse »,
which names nobody. Several answerers of one player (the pack) choose together: each proposes,
and until all propose the same, their phones show every proposal and ask again.

What a player learns (the voyante's look, the lovers, the witch's victim) goes to their phone
alone (`confide`, `note`): nothing here prints, speaks or shows it elsewhere. Answers come back in
the shape a game record gives them, as the keyboard operator's do (operator.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from narrator.phones.hub import Hub
from narrator.phones.screens import Choice, Form, Question
from narrator.rules.classic.asks import Ask, Kind, Words
from narrator.rules.phase import PhaseId
from narrator.script.prompts import Prompts
from narrator.script.templates import fill

PATIENCE_S = 30.0  # how long a needed answer may be missing before the table hears it is awaited
DECOY = {Form.ONE: "phone_decoy_one", Form.PAIR: "phone_decoy_pair", Form.SOME: "phone_decoy_some"}


class PhoneOperator:
    """The `Operator` of a table whose players answer on their phones (`hub`, one screen a seat).

    `texts`: the script's `phones:` words; `prompts`: the table's (the decoys); `remind`: says aloud
    that an answer is awaited; `patience`: seconds before it does, and between two reminders."""

    by = "phone"  # how the journal says who answered

    def __init__(
        self,
        hub: Hub,
        texts: Mapping[str, str],
        prompts: Prompts,
        remind: Callable[[], None],
        patience: float = PATIENCE_S,
    ) -> None:
        self.hub = hub
        self.seats = hub.seats
        self.texts = texts
        self.prompts = prompts
        self.remind = remind
        self.patience = patience
        self._told = 0  # the last private sentence of the game put on a phone (see `confide`)
        self.living: tuple[str, ...] = tuple(hub.seats)  # the players all know alive (see `public`)
        self._ask: Ask | None = None  # the question being asked (whose own name the lists show: `_shown`)
        self._night = False  # whether it is asked at night (its names are then secret: `_secret_names`)
        self._pack: tuple[str, ...] = ()  # the pack last told who chooses together
        self._refused = False  # the rules refused the last answer: the next round says so on every phone

    # -- what the players learn -------------------------------------------------------------

    def show(self, text: str) -> None:
        """A line for an operator's eyes: there is none, and nothing of it may reach the table."""

    def note(self, text: str, seats: Sequence[str]) -> None:
        for seat in seats:
            self.hub.tell(seat, text)

    def confide(self, number: int, text: str, seats: Sequence[str], replayed: bool) -> None:
        """The game's `number`th private sentence, on these seats' phones. A replay (a resumed game with a
        fresh hub, or « annule ») gives the same numbers again: each is told once."""
        if number <= self._told:
            return
        self._told = number
        self.note(text, seats)

    def public(self, status: str, living: Sequence[str] | None = None, night: bool | None = None) -> None:
        self.hub.status(status)
        if living is not None:
            self.living = tuple(living)
            self.hub.public(living=self.living)
        if night is not None:
            self.hub.public(night=night)

    # -- the questions ----------------------------------------------------------------------

    def answer(self, ask: Ask, phase: PhaseId, words: Words) -> object:
        self._ask = ask
        self._night = phase.kind == "night"
        text = self._secret_names(_sentence(words(ask.plain)), ask.by)
        optional = not ask.forced
        if ask.kind is Kind.PLAYER:
            return self._player(ask, text)
        if ask.kind is Kind.PAIR:
            return self._asked(ask, Question(Form.PAIR, text, self._names(ask.choices), optional))
        if ask.kind is Kind.PLAYERS:
            return self._asked(ask, Question(Form.SOME, text, self._names(ask.choices), optional, ask.count))
        if ask.kind is Kind.OPTION:
            # an option's label may be secret (the voleur's two cards): every phone shows « Choix 1 », « Choix 2 »…,
            # and what each one is goes to the asker's secrets
            options = {str(value): value for value, _ in ask.options}
            choices = tuple(Choice(str(value), self._option(i)) for i, (value, _) in enumerate(ask.options))
            said = [fill(self.texts["option"], number=i + 1, label=label) for i, (_, label) in enumerate(ask.options)]
            self.note(_sentence(" ; ".join(said)), ask.by[:1])
            picked = self._asked(ask, Question(Form.ONE, text, choices, optional))
            return None if picked is None else options[str(picked)]
        if ask.kind is Kind.YES_NO:
            return self._asked(ask, Question(Form.YES_NO, text))
        if ask.kind is Kind.POTIONS:
            return self._potions(ask, words)
        if ask.kind is Kind.SPY:
            return self._spy(ask)
        if ask.kind is Kind.BALLOTS:
            return self._round(
                {voter: Question(Form.ONE, text, self._names(t), True) for voter, t in ask.ballots}, text
            )
        raise ValueError(f"pas de question de téléphone pour « {ask.kind.value} »")

    def refuse(self, text: str, seats: Sequence[str]) -> None:
        """The rules refused the answer given: the question is asked again, every phone alike, the refusal's
        words before it (`refused`), next to the question and never among the secrets."""
        self._refused = True

    def _secret_names(self, text: str, seats: Sequence[str]) -> str:
        """A night question's words that name a player (the witch's victim, the infected): only its askers may
        read them, in their secrets; every phone shows the same words saying where to read them."""
        if not self._night or not any(_names_in(text, seat) for seat in self.seats):
            return text
        self.note(text, seats)
        return self.texts["read_secret"]

    def _option(self, index: int) -> str:
        return fill(self.texts["choice"], number=index + 1)

    def _asked(self, ask: Ask, question: Question, public: str | None = None) -> object:
        """The answer of the one who acts (`ask.by`'s first) to `question`; `public`: its words without
        what is secret, for the decoys (the whole text by default). A name the rules refuse: every phone
        is asked again (`_again`)."""
        seat, public = ask.by[0], public or question.text
        shown = self._for(seat, question)
        while True:
            got = self._round({seat: shown}, public)[seat]
            if shown.check(got) is None:
                return got
            shown, public = self._again(shown), self._again_words(public)

    def _again(self, question: Question) -> Question:
        """`question` asked again after a name it showed was refused: the refusal's words first."""
        return replace(question, text=self._again_words(question.text))

    def _again_words(self, text: str) -> str:
        refused = self.texts["refused"]
        return text if text.startswith(refused) else f"{refused} {text}"

    def _for(self, seat: str, question: Question) -> Question:
        """`question` as `seat`'s phone shows it: its list of names made for that phone (`_shown`)."""
        if not question.choices or not all(c.value in self.seats for c in question.choices):
            return question
        allowed = tuple(c.value for c in question.choices)
        shown = self._shown(allowed, seat)
        if all(c.value in allowed for c in shown):
            return replace(question, choices=shown)
        return replace(question, choices=shown, allowed=allowed, refusal=self.texts["refused"])

    def _player(self, ask: Ask, text: str) -> object:
        """One player, by one answerer or by several who must agree (the pack)."""
        choices = self._names(ask.choices)
        if len(ask.by) == 1:
            return self._asked(ask, Question(Form.ONE, text, choices, not ask.forced))
        # who chooses together, and their proposals, are the pack's secrets: every phone shows the same words
        if ask.by != self._pack:
            self._pack = ask.by
            self.note(fill(self.texts["together"], names=self._join(ask.by)), ask.by)
        shown = text
        while True:
            question = Question(Form.ONE, shown, choices, not ask.forced)
            got = self._round({seat: self._for(seat, question) for seat in ask.by}, shown)
            if any(question.check(value) is not None for value in got.values()):  # a wolf: on every phone
                shown = self._again_words(text)
                continue
            if len(set(got.values())) == 1:
                return got[ask.by[0]]
            said = [
                fill(self.texts["proposal"], voter=seat, target=got[seat] or self.texts["nobody"]) for seat in ask.by
            ]
            self.note(fill(self.texts["proposals"], proposals=", ".join(said)), ask.by)
            shown = f"{self.texts['disagree']} {text}"

    def _potions(self, ask: Ask, words: Words) -> dict[str, object]:
        """The sorcière's two potions, in order, two steps every night on every phone (a step she cannot use
        would tell a neighbour what she may still do): life for the pack's victim, then death for someone.
        The victim, and why a potion cannot be used, are her secrets; a step she cannot use changes nothing."""
        if ask.heal is not None:
            self.note(fill(self.texts["heal"], victim=ask.heal), ask.by)
        elif ask.no_heal is not None:
            self.note(_sentence(fill(self.texts["no_heal"], why=words(ask.no_heal))), ask.by)
        if not ask.choices and ask.no_poison is not None:
            self.note(_sentence(fill(self.texts["no_poison"], why=words(ask.no_poison))), ask.by)
        life = bool(self._asked(ask, Question(Form.YES_NO, self.texts["life"])))
        heal = life and ask.heal is not None
        question = Question(Form.ONE, self.texts["poison"], self._names(ask.choices or self.living), optional=True)
        if not ask.choices:  # no potion of death: any touch is nothing
            self._round({ask.by[0]: self._for(ask.by[0], question)}, question.text)
            return {"heal": heal, "poison": None}
        poison = self._asked(ask, question)
        return {"heal": heal, "poison": poison}

    def _spy(self, ask: Ask) -> dict[str, bool]:
        """The petite fille says whether she spied while the wolves say whether they caught her, at once, under
        the same words on every phone (each answers for its own card; the others touch anything): the wolves
        are asked every night she may spy, so their question tells them nothing."""
        girl, wolves = ask.by[0], ask.by[1:]
        questions = {seat: Question(Form.YES_NO, self.texts["spy"]) for seat in ask.by}
        got = self._round(questions, self.texts["spy"])
        spied = bool(got[girl])
        return {"spied": spied, "caught": spied and any(got[w] for w in wolves)}

    # -- one round of questions on the phones -----------------------------------------------

    def _round(self, questions: Mapping[str, Question], public: str) -> dict[str, object]:
        """Each of these seats' question on its phone, a decoy on every other; their answers once all came.
        Every living player's touch is awaited, the decoys' too, and a missing one reminded alike: a call
        whose card nobody living holds lasts and sounds as one whose holder is slow. While one is missing
        the table hears the reminder, then is heard (« stop », « libère la place de Ana »). `public`: the
        call's question without its secrets, the decoys' words."""
        if self._refused:  # the rules refused the last answer: said on every phone alike
            self._refused = False
            questions = {seat: self._again(q) for seat, q in questions.items()}
            public = self._again_words(public)
        looks = next(iter(questions.values()))
        shown = {seat: questions.get(seat) or self._decoy(looks, seat, public) for seat in self.seats}
        # no phone refuses a touch by itself (`allowed` stays here): a refusal on one phone tells it is live
        asked = self.hub.ask({seat: replace(q, allowed=None, refusal="") for seat, q in shown.items()})
        got: dict[str, object] = {}
        untouched = set(self.living) - set(questions)
        awaited = time.monotonic() + self.patience
        while len(got) < len(questions) or untouched:
            for answer in self.hub.wait(max(0.0, awaited - time.monotonic())):
                if answer.asked != asked.get(answer.seat):
                    continue
                untouched.discard(answer.seat)
                if not answer.decoy and answer.seat in questions:
                    got[answer.seat] = answer.value
            if (len(got) < len(questions) or untouched) and time.monotonic() >= awaited:
                self.remind()
                awaited = time.monotonic() + self.patience
        self.hub.rest()
        return got

    def _decoy(self, looks: Question, seat: str, public: str) -> Question:
        """A question of the same form and look that reveals nothing: a list of names made as the real
        one's (`_shown`) under the call's own question, or oui/non; beside a choice of options (their
        labels may be secret), the living."""
        if looks.form in (Form.YES_NO, Form.TAP):
            return Question(looks.form, public or self.prompts.text("phone_decoy_yes_no"), decoy=True)
        names = all(c.value in self.seats for c in looks.choices)
        text = public or self.prompts.text(DECOY[looks.form])
        if not names:  # options: numbered alike on every phone (« Choix 1 », « Choix 2 »)
            choices = tuple(Choice(c.value, self._option(i)) for i, c in enumerate(looks.choices))
            return Question(looks.form, text, choices, looks.optional, looks.count, decoy=True)
        allowed = looks.allowed if looks.allowed is not None else tuple(c.value for c in looks.choices)
        choices = self._shown(allowed, seat)
        count = looks.count if looks.count is None or looks.count <= len(choices) else None
        return Question(looks.form, text, choices, looks.optional, count, decoy=True)

    def _shown(self, allowed: Sequence[str], seat: str) -> tuple[Choice, ...]:
        """The names `seat`'s phone shows, in seat order: the living (and whom the rules allow), but the
        seat itself unless the one who acts may choose himself — on every phone alike, so the lists of the
        voyante, of the pack and of the decoys beside them have the same shape."""
        public = set(self.living) | set(allowed)
        ask = self._ask
        itself = ask is not None and any(by in allowed for by in ask.by)
        return self._names([s for s in self.seats if s in public and (s != seat or itself)])

    def _names(self, players: Sequence[str]) -> tuple[Choice, ...]:
        return tuple(Choice(p, p) for p in players)

    def _join(self, names: Sequence[str]) -> str:
        return self.prompts.join(list(names))


def _names_in(text: str, name: str) -> bool:
    """Whether `text` says the player `name` as a word of its own."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def _sentence(text: str) -> str:
    """A question's words as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!", "…")) else text + "."
