"""A one-night night played on the players' phones: the digital deal, then call by call, the choices.

Each call of the night is said as at a table with cards; while its characters act, their holders'
phones (by the card they were DEALT, a Doppelgänger by the card he copied) show the choice the rules
allow, and every other phone a decoy of the same look, so that nobody learns who acted from who
touched a phone: the same words (the call's question, which the narrator says aloud anyway, then one
sentence that tells every phone alike that only the called character's touch counts), the same kind of
list, and as many steps (in Dumbledore's and the Doppelgänger's calls, every phone answers twice: in
his, the second step is one neutral list on every phone, his included, whatever card he copied).
What a character learns appears on his phone alone, in his call. A call lasts at least its wait and
until its needed answers are in; a missing answer is asked again aloud, naming nobody. Each choice is
journaled before it is applied (`night_choice`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from narrator.phones.hub import Hub
from narrator.phones.screens import Card, Choice, Form, Question, capital
from narrator.rules.onenight import choices
from narrator.rules.onenight.choices import CENTER_PAIRS, Ask
from narrator.rules.onenight.model import CENTER, Power, Ruleset
from narrator.script.line import Line
from narrator.script.onenight.explain import card_name
from narrator.script.onenight.phone_words import PhoneWords, split_camp
from narrator.script.prompts import load_phone_prompts
from narrator.script.templates import fill, join_names
from narrator.table import events as ev
from narrator.table.clock import Clock
from narrator.table.voice import Voice
from narrator.voice import Item, Pause

REFUSED = object()  # a neutral step's ticks the copied card cannot take (`copied_answer`)
AGAIN_S = 10.0  # after a call's wait, how often a missing answer is asked again aloud
POLL_S = 1.0  # how long the game waits on the phones at a time (real seconds)
LISTEN_S = 4.0  # after an answer was asked again aloud, how long the table is heard


def missing_line(words: PhoneWords) -> Line:
    """What is said aloud when an answer is late: it names nobody."""
    return Line("phones_late", words.missing)


@dataclass
class PhoneNight:
    """The night's choices on the phones: `night` holds each player's choice so far (a record's `night`)."""

    hub: Hub
    rules: Ruleset
    words: PhoneWords
    players: tuple[str, ...]
    deal: tuple[str, ...]  # each player's card, then the middle's A, B, C
    voice: Voice
    clock: Clock
    record: Callable[[ev.Event], None]  # journals an event before it is acted on
    night: dict[str, dict[str, object]] = field(default_factory=dict)
    again_s: float = AGAIN_S
    poll_s: float = POLL_S
    told: dict[str, set[str]] = field(default_factory=dict)  # what each seat's phone was told
    # hears the table for up to so many seconds (« stop », « libère la place de Ana »…), after a reminder:
    # a phone that died mid-call is replaced by voice, and the night can be stopped
    listen: Callable[[float], None] | None = None
    _copy: bool = field(default=False, init=False, repr=False)  # the call is the Doppelgänger's copy
    _refused: bool = field(default=False, init=False, repr=False)  # his ticks were refused in this call
    _numbers: dict[str, int] = field(default_factory=dict, init=False, repr=False)  # each seat's first question

    # -- the deal ---------------------------------------------------------------------------

    def deal_cards(self) -> None:
        """Each phone gets its card: name, what it does, its tactile symbol."""
        words = self.words
        cards = {}
        for player, card in zip(self.players, self.deal):
            camp, text = split_camp(words.cards[card])
            if not camp and self.rules.roles[card].power is Power.COPY:  # his text names no camp: he takes one
                camp = load_phone_prompts().text("camp_copy")
            name = capital(card_name(self.rules, card))  # as printed on the card
            cards[player] = Card(card, name, text, words.symbols.get(card, ""), camp)
        self.hub.deal(cards)

    # -- a call -----------------------------------------------------------------------------

    def call(self, called: Sequence[str], wake: int, items: Sequence[Item]) -> None:
        """One call: its waking lines, the choices on the phones for at least its wait, its last lines."""
        split = next((i for i, item in enumerate(items) if isinstance(item, Pause)), len(items))
        self.voice.play(items[:split])
        wait = self.voice.render(items[split : split + 1]).duration_s if split < len(items) else 0.0
        deadline = self.clock.now() + wait
        awake = choices.actors(self.rules, self.players, self.deal, self.night, wake)
        self.tell(wake, awake)  # what they learn on waking: the wolves' group, the insomniaque's card
        self._copy = self._copy_call(called, wake)  # the Doppelgänger's: a neutral second step on every phone
        self._refused = False  # a combination his copied card refuses: every later second step says so
        pending, numbers = self._ask_everyone(called, wake, awake)
        self._numbers = numbers  # each seat's first question of the call
        # every phone's touch is awaited, the decoys' too: a call whose card lies in the middle lasts as
        # long and is reminded as often as one whose holder is slow, so neither tells the card is dealt;
        # the question each untouched phone shows (a second step, in a call of two)
        untouched = {p: numbers[p] for p in self.players if p not in pending}
        two_steps = self._two_steps(called, wake)
        reminder = deadline + self.again_s
        while pending or untouched or self.clock.now() < deadline:
            if not pending and not untouched:
                self.clock.sleep_until(deadline)
                break
            if self.clock.now() >= reminder:
                self.voice.tell(missing_line(self.words))
                if self.listen is not None:
                    self.listen(LISTEN_S)
                reminder = self.clock.now() + self.again_s
            since = self.clock.now()
            got = self.hub.wait(self.poll_s)
            if not got:
                self.clock.sleep_until(since + self.poll_s)  # a fake clock moves as a real one would have
            for answer in got:
                first = answer.asked == numbers.get(answer.seat)
                if untouched.get(answer.seat) == answer.asked:
                    del untouched[answer.seat]
                    if two_steps and first:
                        untouched[answer.seat] = self._ask_one(answer.seat, self.second_step(answer.seat))
                asked = pending.get(answer.seat)
                if asked is None or asked[1] != answer.asked:
                    continue
                ask, value = asked[0], answer.value
                if self._copy and ask.copied and first:  # a resumed call where he had copied: his first step
                    # was the copy's decoy (what he copied is in the journal), then the step every phone gets
                    pending[answer.seat] = (ask, self._ask_one(answer.seat, self.neutral_step(answer.seat)))
                    continue
                if answer.decoy:
                    continue
                if self._copy and ask.copied:  # ticked on the neutral step: read as his copied card's answer
                    value = self.copied_answer(ask, value)
                    if value is REFUSED:  # asked again on every phone alike, never on his alone
                        self._refused = True
                        others = [seat for seat in self._stepped(untouched) if seat != answer.seat]
                        untouched.update({seat: self._ask_one(seat, self.second_step(seat)) for seat in others})
                        pending[answer.seat] = (ask, self._ask_one(answer.seat, self.neutral_step(answer.seat)))
                        continue
                follow = self._answered(answer.seat, ask, value, wake)
                if follow is None:
                    del pending[answer.seat]
                    if two_steps and first:  # he chose not to look: a second step all the same
                        untouched[answer.seat] = self._ask_one(answer.seat, self.second_step(answer.seat))
                elif self._copy:  # his copied card acts at once: the neutral step, as on every phone
                    pending[answer.seat] = (follow, self._ask_one(answer.seat, self.neutral_step(answer.seat)))
                else:
                    pending[answer.seat] = (follow, self._ask_one(answer.seat, self.question(follow)))
        self.hub.rest()
        self.voice.play(items[split + 1 :])

    def _ask_everyone(
        self, called: Sequence[str], wake: int, awake: list[str]
    ) -> tuple[dict[str, tuple[Ask, int]], dict[str, int]]:
        """The called characters' questions, and every other phone's decoy, shown at once; the needed ones,
        and each seat's number of its question."""
        asks = {p: choices.next_ask(self.rules, self.players, self.deal, self.night, p, wake) for p in awake}
        questions: dict[str, Question] = {}
        for player in self.players:
            ask = asks.get(player)
            # awake with nothing to choose (the wolves together), a phone shows the decoy too: what they
            # learned is in « Ce que vous avez appris »
            # a resumed Doppelgänger's call where he had copied: the copy's decoy first, as every phone (`call`)
            shown = ask is not None and not (ask.copied and self._copy)
            questions[player] = (
                self.question(ask)
                if shown and ask is not None
                else self.decoy(choices.decoy(self.rules, called, wake, player, self.players))
            )
        numbers = self.hub.ask(questions)
        return {p: (a, numbers[p]) for p, a in asks.items() if a is not None}, numbers

    def _ask_one(self, seat: str, question: Question) -> int:
        """One more question on one phone; its number in that seat's own sequence."""
        return self.hub.ask({seat: question})[seat]

    def _answered(self, player: str, ask: Ask, value: object, wake: int) -> Ask | None:
        """A choice made: journaled, applied, what it shows told; the player's next question, if any."""
        choice = choices.with_answer(ask, self.night.get(player), value)
        self.record(ev.NightChoice(player, choice))
        self.night[player] = choice
        self.tell(wake, [player])
        return choices.next_ask(self.rules, self.players, self.deal, self.night, player, wake)

    # -- what a phone shows -------------------------------------------------------------------

    def question(self, ask: Ask, decoy: bool = False) -> Question:
        """The question of `ask` in the call's words, the same on the called character's phone and on the
        decoys beside it (`decoy`: its answer changes nothing)."""
        labelled = tuple(Choice(value, self.label(value)) for value in ask.options)
        form = Form.PAIR if ask.two else Form.ONE
        return Question(form, self.words_of(ask.question), labelled, optional=ask.optional, decoy=decoy)

    def words_of(self, question: str) -> str:
        """A question's words as every phone shows them: the call's, then whose touch counts."""
        return f"{self.words.questions[question]} {self.words.decoy}"

    def decoy(self, ask: Ask | None) -> Question:
        """A screen of the same look and words as the called characters', whose answer changes nothing."""
        if ask is None:
            return Question(Form.TAP, self.words_of("seen"), decoy=True)
        return self.question(ask, decoy=True)

    def _two_steps(self, called: Sequence[str], wake: int) -> bool:
        """Whether the call's character may answer in two steps (001's Dumbledore: look, then give; 000's
        Doppelgänger: copy, then act at once as the copied card)."""
        roles = [self.rules.roles[r] for r in called if self.rules.roles[r].wake == wake]
        return any(role.power in (Power.CENTER_TO_PLAYER, Power.COPY) for role in roles)

    def second_step(self, seat: str) -> Question:
        """The second step of a two-step call on `seat`'s phone when its answer changes nothing: the look of
        Dumbledore's own (every player, his own card included); in the Doppelgänger's call, the neutral step."""
        if self._copy:
            return self.neutral_step(seat, decoy=True)
        return self.question(Ask("give_to", tuple(self.players)), decoy=True)

    def neutral_step(self, seat: str, decoy: bool = False) -> Question:
        """The Doppelgänger's second step, the same on every phone, his included: a decoy cannot mirror his
        copied card's question without telling every phone what he copied (or, him in the middle, that
        he was not dealt). Every other player and the middle cards, any number ticked, under words that say
        what each card acting at once ticks (`copy_step`): he knows his copied card from what he learned on
        copying it; a combination it refuses is asked again on every phone alike (`copied_answer`)."""
        options = (*(p for p in self.players if p != seat), *CENTER)
        text = f"{self.words.copy_step} {self.words.decoy}"
        if self._refused:
            text = f"{self.words.copy_refused} {text}"
        labelled = tuple(Choice(value, self.label(value)) for value in options)
        return Question(Form.SOME, text, labelled, optional=True, decoy=decoy)

    def copied_answer(self, ask: Ask, ticked: object) -> object:
        """What the ticks of the neutral step answer to the copied card's `ask` (a player, a middle card, two
        middle cards, two players; None: nothing), or REFUSED when that card cannot take them."""
        values = list(ticked) if isinstance(ticked, list) else []
        if not values:
            return None if ask.optional else REFUSED
        if ask.two:
            ok = len(values) == 2 and all(v in ask.options for v in values)
            return values if ok else REFUSED
        if len(values) == 1:
            return values[0] if values[0] in ask.options else REFUSED
        pair = "+".join(sorted(values))
        return pair if len(values) == 2 and pair in ask.options else REFUSED

    def _stepped(self, untouched: dict[str, int]) -> list[str]:
        """The seats whose phone is at its second step or past it (not at the call's first question)."""
        return [seat for seat in self.players if untouched.get(seat) != self._numbers.get(seat)]

    def _copy_call(self, called: Sequence[str], wake: int) -> bool:
        roles = [self.rules.roles[r] for r in called if self.rules.roles[r].wake == wake]
        return any(role.power is Power.COPY for role in roles)

    def label(self, value: str) -> str:
        """A player's name, a middle place, or two middle places, as the phone shows them."""
        if value in CENTER:
            return fill(self.words.center, place=value)
        if value in CENTER_PAIRS:
            first, second = value.split("+")
            return fill(self.words.center_pair, first=first, second=second)
        return value

    def tell(self, wake: int, seats: Sequence[str]) -> None:
        """What these seats have learned by the end of the call of `wake`, each on its own phone, once."""
        learned = choices.learned(self.rules, self.players, self.deal, self.night, wake)
        for seat in seats:
            told = self.told.setdefault(seat, set())
            for key, value in learned.get(seat, {}).items():
                said = json.dumps([key, value], ensure_ascii=False)
                if said not in told:
                    told.add(said)
                    self.hub.tell(seat, self.secret(key, value))

    def secret(self, key: str, value: object) -> str:
        """One thing a character learned, in words: a card seen, his own card, who woke with him."""
        words = self.words
        if isinstance(value, list):
            names = join_names(self.rules, [str(v) for v in value]) or words.nobody
            return fill(words.group, group=words.groups.get(key, key), names=names)
        card = card_name(self.rules, str(value))
        if key == "self":
            return fill(words.self_card, card=card)
        place = self.label(key)
        return fill(words.seen, place=place[:1].upper() + place[1:], card=card)
