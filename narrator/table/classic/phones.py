"""The players' own phones in place of the operator: each night choice asked on its holders' phones.

A classic table with phones has no operator. When the engine asks a question (`Ask`), its answerers
(`Ask.by`: the called card's living holders, the whole pack for the wolves' victim) see it on their
phones, and every other seat sees a decoy of the same form (a list of names, oui/non) that asks
for a touch too, so nobody learns who acted from who touched a phone. A list of names shows every
living player (who is alive is known to all) whatever the rules allow, and the decoys beside it show
that same list: a glance does not tell them apart, and a name the rules leave out (a wolf for the pack,
the voyante for herself) shows nothing; a touch the rules refuse is refused on the phone and asked
again. The public line of every phone says where the game is (`public`). The call lasts as long as
its slowest needed answer; when one is slow, the table hears « J'attends encore une réponse »,
which names nobody. Several answerers of one player (the pack) choose together: each proposes,
and until all propose the same, their phones show every proposal and ask again.

What a player learns (the voyante's look, the lovers, the witch's victim) goes to their phone
alone (`confide`, `note`): nothing here prints, speaks or shows it elsewhere. Answers come back in
the shape a game record gives them, as the keyboard operator's do (operator.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

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

    def public(self, status: str, living: Sequence[str] | None = None) -> None:
        self.hub.status(status)
        if living is not None:
            self.living = tuple(living)

    # -- the questions ----------------------------------------------------------------------

    def answer(self, ask: Ask, phase: PhaseId, words: Words) -> object:
        text = _sentence(words(ask.plain))
        optional = not ask.forced
        if ask.kind is Kind.PLAYER:
            return self._player(ask, text)
        if ask.kind is Kind.PAIR:
            return self._asked(ask, Question(Form.PAIR, text, self._shown(ask.choices), optional))
        if ask.kind is Kind.PLAYERS:
            return self._asked(ask, Question(Form.SOME, text, self._shown(ask.choices), optional, ask.count))
        if ask.kind is Kind.OPTION:
            options = {str(value): value for value, _ in ask.options}
            choices = tuple(Choice(str(value), label) for value, label in ask.options)
            picked = self._asked(ask, Question(Form.ONE, text, choices, optional))
            return None if picked is None else options[str(picked)]
        if ask.kind is Kind.YES_NO:
            return self._asked(ask, Question(Form.YES_NO, text))
        if ask.kind is Kind.POTIONS:
            return self._potions(ask, words)
        if ask.kind is Kind.SPY:
            return self._spy(ask)
        if ask.kind is Kind.BALLOTS:
            return self._round({voter: Question(Form.ONE, text, self._names(t), True) for voter, t in ask.ballots})
        raise ValueError(f"pas de question de téléphone pour « {ask.kind.value} »")

    def _asked(self, ask: Ask, question: Question) -> object:
        """The answer of the one who acts (`ask.by`'s first) to `question`."""
        return self._ask_each(ask.by[:1], question)[ask.by[0]]

    def _player(self, ask: Ask, text: str) -> object:
        """One player, by one answerer or by several who must agree (the pack)."""
        choices = self._shown(ask.choices)
        if len(ask.by) == 1:
            return self._asked(ask, Question(Form.ONE, text, choices, not ask.forced))
        together = fill(self.texts["together"], names=self._join(ask.by))
        shown = f"{text} {together}"
        while True:
            got = self._ask_each(ask.by, Question(Form.ONE, shown, choices, not ask.forced))
            if len(set(got.values())) == 1:
                return got[ask.by[0]]
            said = [
                fill(self.texts["proposal"], voter=seat, target=got[seat] or self.texts["nobody"]) for seat in ask.by
            ]
            shown = f"{text} {fill(self.texts['proposals'], proposals=', '.join(said))}"

    def _potions(self, ask: Ask, words: Words) -> dict[str, object]:
        """The sorcière's two potions, in order: life for the pack's victim, then death for someone."""
        heal = False
        if ask.heal is not None:
            heal = bool(self._asked(ask, Question(Form.YES_NO, fill(self.texts["heal"], victim=ask.heal))))
        poison = None
        if ask.choices:
            text = self.texts["poison"]
            if ask.no_heal is not None:
                text = f"{fill(self.texts['no_heal'], why=words(ask.no_heal))} {text}"
            poison = self._asked(ask, Question(Form.ONE, text, self._shown(ask.choices), optional=True))
        elif ask.no_poison is not None:
            self.note(_sentence(fill(self.texts["no_poison"], why=words(ask.no_poison))), ask.by)
        return {"heal": heal, "poison": poison}

    def _spy(self, ask: Ask) -> dict[str, bool]:
        """The petite fille says whether she spied while the wolves say whether they caught her, at once: the
        wolves are asked every night she may spy, so their question tells them nothing."""
        girl, wolves = ask.by[0], ask.by[1:]
        questions = {girl: Question(Form.YES_NO, self.texts["spied"])}
        questions |= {wolf: Question(Form.YES_NO, self.texts["caught"]) for wolf in wolves}
        got = self._round(questions)
        spied = bool(got[girl])
        return {"spied": spied, "caught": spied and any(got[w] for w in wolves)}

    # -- one round of questions on the phones -----------------------------------------------

    def _ask_each(self, seats: Sequence[str], question: Question) -> dict[str, object]:
        return self._round(dict.fromkeys(seats, question))

    def _round(self, questions: Mapping[str, Question]) -> dict[str, object]:
        """Each of these seats' question on its phone, a decoy on every other; their answers once all came.
        Every living player's touch is awaited, the decoys' too, and a missing one reminded alike: a call
        whose card nobody living holds lasts and sounds as one whose holder is slow. While one is missing
        the table hears the reminder, then is heard (« stop », « libère la place de Ana »)."""
        looks = next(iter(questions.values()))
        decoy = self._decoy(looks)
        asked = self.hub.ask({seat: questions.get(seat, decoy) for seat in self.seats})
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

    def _decoy(self, looks: Question) -> Question:
        """A question of the same form and look that reveals nothing: the same names (the living, see
        `_shown`), or oui/non; beside a choice of options (their labels may be secret), the living."""
        if looks.form in (Form.YES_NO, Form.TAP):
            return Question(looks.form, self.prompts.text("phone_decoy_yes_no"), decoy=True)
        text = self.prompts.text(DECOY[looks.form])
        names = all(c.value in self.seats for c in looks.choices)
        choices = looks.choices if names else self._shown(())
        count = looks.count if looks.count is None or looks.count <= len(choices) else None
        return Question(looks.form, text, choices, looks.optional, count, decoy=True)

    def _shown(self, allowed: Sequence[str]) -> tuple[Choice, ...]:
        """The names a night's list shows: every living player, whom the rules allow or not (the rules'
        own list would tell who is a wolf or who the voyante is, on the decoys beside it), in seat order."""
        public = set(self.living) | set(allowed)
        return self._names([s for s in self.seats if s in public])

    def _names(self, players: Sequence[str]) -> tuple[Choice, ...]:
        return tuple(Choice(p, p) for p in players)

    def _join(self, names: Sequence[str]) -> str:
        return self.prompts.join(list(names))


def _sentence(text: str) -> str:
    """A question's words as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!", "…")) else text + "."
