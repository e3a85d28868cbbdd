"""Setting a table up by voice, from the first word: the game, how many players, their names in
seat order, the cards in play (for a classic game, its options too); all read back and confirmed.
« non » asks again, « annule » takes back the last answer (in a list of cards, the last card said),
« recommence » starts over once the table says yes; an answer refused keeps every answer before it,
and says why. « non » to the whole read-back takes back the last answer only, as a careful game
master does: the table says it again, or « annule » again to go further back. Every answer is
journaled before it is used (narrator/table/setup_journal.py): a setup cut short goes on later.

A classic game is set up by voice with the players' phones: the program deals the cards and nobody
needs to stay out of the game as its operator (without phones, the operator's screen prepares it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import cast

from narrator.listen.commands import MUSIC, Command
from narrator.listen.ear import Ear
from narrator.listen.setup_words import plural
from narrator.rules.classic.model import LENDABLE, Camp, Power
from narrator.rules.classic.record import EXTRA_CARDS
from narrator.rules.errors import RecordError
from narrator.rules.onenight.record import check_setup
from narrator.script.classic.script import load_classic
from narrator.script.games import CLASSIC, GAMES, family_of
from narrator.script.line import Line
from narrator.script.onenight.explain import card_name
from narrator.script.onenight.script import load_shipped
from narrator.script.prompts import Prompts, load_phone_prompts, load_prompts
from narrator.table.clock import Clock
from narrator.table.conversation import Conversation
from narrator.table.host import Understands
from narrator.table.settings import Tuner
from narrator.table.setup_journal import SetupJournal, SetupState
from narrator.table.voice import Voice, to_items

MIN_PLAYERS = 3
HELP_CARDS = 14  # the cards the help names at first (Thiercelieux has 32); « aide » again names them all
MAX_CLASSIC = 18  # 002: « de 8 à 18 joueurs » is the box; a smaller table may still play
CONTROLS: tuple[str, ...] = ("repeat", "stop", "undo", "restart", "help", "slower", "faster", "louder", "quieter")
CONTROLS += ("longer_waits", *MUSIC, "phones", "no_phones", "legend")  # « avec les téléphones », at any question


class _Undo(Exception):
    pass


class _Restart(Exception):
    pass


class _PhonesSaid(Exception):
    """« avec / sans les téléphones » said to the question that asks it: the answer."""


class SetupStopped(Exception):
    """The table said « stop » during the setup."""


@dataclass(frozen=True)
class SetUp:
    """A table as the voice set it up: what a family's `table` checks and plays (TableRequest's fields)."""

    game: str
    players: list[str]
    roles: list[str]  # the cards in play (a classic game's are dealt by the program)
    extra: list[str] | None = None  # the voleur's or the comédien's undealt cards (classic)
    groups: dict[str, int] | None = None  # the sectaire's groups (classic)
    captain: bool = False


@dataclass(frozen=True)
class Box:
    """The cards a game's setup chooses from: names, how many of each a deal may hold, the scenarios."""

    names: Mapping[str, str]  # role id -> its name as said (« Élève de Poudlard »)
    copies: Mapping[str, int | None]  # None: as many as the table needs (a classic loup, villageois)
    scenarios: Mapping[str, Mapping[int, tuple[str, ...]]]
    titles: Mapping[str, str]  # scenario id -> its title
    center: int  # the cards beyond one a player (a one-night game's 3 in the center)
    classic: bool


def box_of(game: str) -> Box:
    if family_of(game) == CLASSIC:
        roles = load_classic().roles
        names = {rid: _capital(r.name) for rid, r in roles.items()}
        return Box(names, {rid: r.copies for rid, r in roles.items()}, {}, {}, 0, True)
    script = load_shipped(game)
    rules, announce = script.rules, script.announce
    names = {rid: _capital(card_name(rules, rid)) for rid in rules.roles}
    copies: dict[str, int | None] = {rid: r.copies for rid, r in rules.roles.items()}
    return Box(names, copies, announce.scenarios, announce.scenario_titles, 3, False)


@dataclass
class SpokenSetup:
    voice: Voice
    ear: Ear
    clock: Clock
    prompts: Prompts
    words: Callable[[str | None], Understands]  # game -> the parser of the setup's phases
    phrases: Callable[[str | None, str], list[str]]  # (game, phase) -> what the recognizer may hear
    check_names: Callable[[list[str]], list[str]] | None = None  # names the recognizer cannot hear -> messages
    tune: Tuner | None = None
    listen_s: float = 8.0
    phones: bool = False  # played with the players' phones (`--phones`, or « avec les téléphones »)
    _asking_phones: bool = field(default=False, init=False)  # the question asked: are the phones used?
    answers: dict[str, object] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # the answers' keys, latest last (« annule »)
    asking: str = "game"  # the question being asked: what « qu'est-ce que je peux dire ? » answers
    cards: list[str] = field(default_factory=list)  # the cards given so far, at a question of cards
    # the answers of the question of cards being asked, each a list of cards: what a « annule » at the
    # read-back or a setup resumed leaves of it, heard again from there
    pending: list[list[str]] = field(default_factory=list)
    journal: SetupJournal | None = None  # where each answer is kept before it is used
    greeted: bool = False  # « Bonjour, je suis le narrateur » said
    brief: bool = False  # a question of cards after « annule »: only how many cards are given
    helped: tuple[str, int] | None = None  # where the cards' help was last said: said again, the whole list

    def run(self, game: str | None = None) -> SetUp:
        """Ask until the whole setup is confirmed; the table to play."""
        if game is not None and "game" not in self.answers:
            self._keep("game", game)
        while True:
            try:
                table = self._next()
            except _Undo:
                self._take_back()
                continue
            except _Restart:
                self._save([], [])
                self.answers.clear()
                self.order.clear()
                self.pending = []
                self.voice.tell(self.prompts.line("setup_again"))
                continue
            if table is not None:
                return table

    def restore(self, state: SetupState) -> None:
        """Go on from a setup journaled and left unfinished."""
        self.answers = {k: _parts(v) if k in ("roles", "extra") else v for k, v in state.answers}
        self.order = [k for k, _ in state.answers]
        self.pending = [list(c) for c in state.cards]
        self.phones = self.phones or state.phones

    def summary(self) -> str:
        """The answers given so far, as the table gave them: « Loup-Garou pour une nuit, 4 joueurs, Ana et Ben »."""
        said = [self._said(k, self.answers[k]) for k in self.order if not k.startswith("group")]
        if self.pending and "game" in self.answers:
            said.append(self._cards_said(box_of(str(self.answers["game"])), _flat(self.pending)))
        return self.prompts.join(said)

    def offer(self, state: SetupState) -> bool:
        """« Une mise en place n'est pas finie : … On reprend ? »: restored if the table says yes."""
        self.restore(state)
        game = self.answers.get("game")
        self.asking = "yes_no"
        self._hello()
        if self._talk(str(game) if game else None).confirm(self.prompts.line("setup_unfinished", what=self.summary())):
            return True
        self.answers, self.order, self.pending, self.phones = {}, [], [], False
        self._save([], [])
        return False

    def offer_game(self) -> bool:
        """« Une partie n'est pas finie : on la reprend ? » at the start: True if the table says yes."""
        self.asking = "yes_no"
        self._hello()
        return self._talk(None).confirm(self.prompts.line("game_unfinished"))

    def _hello(self) -> None:
        if not self.greeted:
            self.voice.tell(self.prompts.line("hello"))
            self.greeted = True

    def _take_back(self) -> None:
        """« annule »: the last answer taken back; of a list of cards, the last card said only."""
        if not self.order:
            self.voice.tell(self.prompts.line("nothing_to_undo"))
            return
        key = self.order[-1]
        value = self.answers[key]
        pending: list[list[str]] = []
        if key in ("roles", "extra"):
            parts = _parts(value)
            pending = parts[:-1]
            what = self._cards_said(box_of(str(self.answers["game"])), parts[-1])
        else:
            what = self._said(key, value)
        self._save(self.order[:-1], pending)
        self.order.pop()
        del self.answers[key]
        self.pending = pending
        self.brief = bool(pending)
        self._undone(what)

    # -- the questions, in order --------------------------------------------------------

    def _next(self) -> SetUp | None:
        a = self.answers
        self.cards = []
        if "game" not in a:
            self._keep("game", self._ask_game())
            return None
        game = str(a["game"])
        box = box_of(game)
        if box.classic and not self._with_phones():  # given on the command line, or « sans les téléphones »
            self.order.remove("game")
            del a["game"]
            return None
        if "count" not in a:
            self._keep("count", self._ask_count(game, box))
            return None
        count = int(a["count"])  # type: ignore[call-overload]
        names = [str(a[f"name{i}"]) for i in range(1, count + 1) if f"name{i}" in a]
        if len(names) < count:
            self._keep(f"name{len(names) + 1}", self._ask_name(game, len(names) + 1, names))
            return None
        if "roles" not in a:
            self._keep("roles", self._ask_cards(game, box, count))
            return None
        roles = _flat(a["roles"])
        taker = _taker(roles) if box.classic else None
        if taker is not None and "extra" not in a:
            self._keep("extra", self._ask_extra(game, box, roles, taker))
            return None
        sect = box.classic and any(load_classic().roles[r].power is Power.SECT for r in roles)
        groups = {p: int(a[f"group{i}"]) for i, p in enumerate(names, 1) if f"group{i}" in a}  # type: ignore[call-overload]
        if sect and len(groups) < count:
            seat = len(groups) + 1
            self._keep(f"group{seat}", self._ask_group(game, names[seat - 1], groups, count))
            return None
        if box.classic and "captain" not in a:
            self._keep("captain", self._ask_captain(game))
            return None
        setup = SetUp(
            game,
            names,
            roles,
            _flat(a["extra"]) if "extra" in a else None,
            groups or None,
            bool(a.get("captain", False)),
        )
        self.asking = "read_back"
        talk = self._talk(game, refusal=lambda text: self._said_done(game, text), refusal_asks=True)
        if talk.confirm(self._read_back(box, setup)):
            return setup
        # « non » to everything: nothing is thrown away but the last answer, which the table says again
        self.voice.tell(self.prompts.line("read_back_no"))
        raise _Undo()

    def _said_done(self, game: str, text: str) -> list[Line]:
        """« c'est tout » said by habit after the last card, as the read-back begins: only « oui ou non »."""
        if any(c.command == "done" for c in self.words(game).parse(text, "character")):
            return [self.prompts.line("yes_or_no")]
        return []

    def _read_back(self, box: Box, setup: SetUp) -> Line:
        """The whole setup in one question: the players, the cards in play, a classic game's options."""
        p = self.prompts
        more = []
        if setup.extra:
            more.append(p.text("read_back_extra", cards=self._cards_said(box, setup.extra)))
        if setup.groups:
            for group in (1, 2):
                names = [n for n in setup.players if setup.groups[n] == group]
                more.append(p.text("read_back_group", group=group, players=p.join(names)))
        if box.classic:
            more.append(p.text("read_back_captain" if setup.captain else "read_back_no_captain"))
        # the template closes the last sentence
        characters = self._cards_said(box, setup.roles) + "".join(". " + m.rstrip(".") for m in more)
        return (load_phone_prompts() if self.phones else p).line(
            "setup_read_back_phones" if self.phones else "setup_read_back",
            count=len(setup.players),
            players=p.join(setup.players),
            characters=characters,
        )

    def _ask_game(self) -> str:
        self.asking = "game"
        # « Bonjour » once: after « annule » or « recommence », at « répète » or when asked again, only the question
        self.voice.ask(self.prompts.line("ask_game" if self.greeted else "welcome"))
        self.voice.last = to_items([self.prompts.line("ask_game")])
        self.greeted = True

        def accept(commands: list[Command]) -> str | None:
            for c in commands:
                if c.command == "choose_game" and c.game:
                    if family_of(c.game) == CLASSIC and not self._with_phones():
                        return None
                    self.voice.tell(self.prompts.line("game_chosen", title=_title(c.game)))
                    return c.game
            return None

        return self._talk(None).ask("game", accept)

    def _with_phones(self) -> bool:
        """A classic game by voice is played with the phones (each player's card is a secret the table must
        not hear: the program deals them): asked when they are not chosen yet; False if the table says no."""
        if self.phones:
            return True
        question, asking = self.voice.last, self.asking
        self.asking = "yes_no"
        self._hello()  # a game named on the command line: the table is greeted before it is asked anything
        self._asking_phones = True
        try:
            self.phones = self._talk(None).confirm(self.prompts.line("classic_needs_phones"))
        except _PhonesSaid:
            pass  # self.phones is what was said
        finally:
            self.asking, self._asking_phones = asking, False
        if self.phones:
            self.voice.tell(load_phone_prompts().line("setup_phones"))
        else:
            self.voice.tell(self.prompts.line("game_unavailable"))
            self.voice.last = question  # asked again: the question before, not the phones
        return self.phones

    def _count_range(self, box: Box) -> tuple[int, int]:
        if box.classic:
            return MIN_PLAYERS, MAX_CLASSIC
        return MIN_PLAYERS, sum(n or 0 for n in box.copies.values()) - box.center

    def _ask_count(self, game: str, box: Box) -> int:
        self.asking = "count"
        low, high = self._count_range(box)
        self.voice.ask(self.prompts.line("ask_count"))

        def accept(commands: list[Command]) -> int | None:
            for c in commands:
                if c.command == "number" and c.count is not None:
                    if low <= c.count <= high:
                        return c.count
                    self.voice.tell(self.prompts.line("count_range", low=low, high=high))
            return None

        hint = self.prompts.text("typed_count", low=low, high=high)  # for a keyboard
        return self._talk(game).ask("number", accept, hint=hint)

    def _ask_name(self, game: str, seat: int, taken: list[str]) -> str:
        talk = self._talk(game, refusal=self._name_refused)
        name: str | None = None
        while True:
            if name is None:
                self.asking = "name"
                self.voice.ask(self.prompts.line("ask_name", seat=seat))
                name = talk.ask(
                    "name", lambda cs: next((c.player for c in cs if c.command == "name" and c.player), None)
                )
            if name.casefold() in {t.casefold() for t in taken}:
                self.voice.tell(self.prompts.line("name_taken", name=name))
                name = None
                continue
            problems = self.check_names([name]) if self.check_names else []
            if problems:
                self.voice.tell(*_lines(problems))
                name = None
                continue
            try:
                self.asking = "yes_no"
                self.voice.ask(self.prompts.line("name_check", name=name))
                # « oui », « non », or another name: « Noé » (« non, Noé ») is the name corrected
                answer = talk.ask("name", _checked_name, hint=self.prompts.text("typed_yes_no"))
            except _Undo:  # « annule » at « Cleo, c'est bien ça ? » takes back Cleo
                self._undone(name)
                name = None
                continue
            finally:
                self.asking = "name"
            if answer is True:
                return name
            name = answer if isinstance(answer, str) else None

    def _name_refused(self, text: str) -> list[Line]:
        """« Harry » at a Poudlard table: why it cannot be a name, and what to say instead."""
        refused = getattr(self.words(str(self.answers.get("game"))), "refused_name", None)
        name = refused(text) if refused is not None else None
        return [self.prompts.line("name_is_a_card", name=name)] if name else []

    def _ask_cards(self, game: str, box: Box, count: int) -> list[list[str]]:
        """The cards in play, as the answers that gave them (a scenario is one answer)."""
        total = count + box.center
        fitting = [s for s in box.scenarios if count in box.scenarios[s]]
        self.asking = "cards"
        if fitting:
            example = box.titles.get(fitting[0], fitting[0])
            question = self.prompts.line("ask_cards_mode", example=example, total=total)
        else:
            question = self.prompts.line("ask_cards_listed", total=total, example=self._example(box))
        self._question(question, total)
        talk = self._talk(game, refusal=lambda text: self._card_refused(box, text, total), refusal_asks=True)
        cards = self._collect(
            talk, box, total, box.scenarios or None, count, problem=lambda cs: self._deal_problem(box, count, cs)
        )
        if isinstance(cards, str):  # a scenario
            return [list(box.scenarios[cards][count])]
        return cards

    def _question(self, question: Line, total: int) -> None:
        """A question of cards: asked whole, or, with cards already given (a « annule » at the read-back, a
        setup resumed), only how many there are; « répète » says the whole question."""
        if self.brief:
            self.voice.last = to_items([question])
        else:
            self.voice.ask(question)
        self.brief = False
        if self.pending:
            self.voice.tell(self.prompts.line("characters_so_far", count=len(_flat(self.pending)), total=total))

    def _example(self, box: Box) -> str:
        """« deux mangemorts »: two of the game's first card of several copies, as the table says them."""
        role = next((r for r, n in box.copies.items() if n is None or n > 1), next(iter(box.names)))
        return self.prompts.text("example_two", cards=plural(box.names[role].lower()))

    def _ask_extra(self, game: str, box: Box, roles: list[str], taker: str) -> list[list[str]]:
        """The voleur's two undealt cards, or the comédien's three (002, 003)."""
        self.asking = "extra"
        rules = load_classic()
        power = rules.roles[taker].power
        assert power is not None
        total = EXTRA_CARDS[power]
        talk = self._talk(game)
        line = "ask_extra_comedien" if power is Power.PERFORM else "ask_extra_voleur"
        self._question(self.prompts.line(line, total=total), total)
        talk = self._talk(game, refusal=lambda text: self._card_refused(box, text, total), refusal_asks=True)
        cards = self._collect(
            talk, box, total, None, 0, given=roles, problem=lambda cs: self._extra_problem(box, power, cs)
        )
        assert isinstance(cards, list)
        return cards

    def _ask_group(self, game: str, name: str, groups: dict[str, int], count: int) -> int:
        """The sectaire's two groups (003), one player at a time; both must have players."""
        self.asking = "group"
        # the sectaire's sentence once, at the first player; then only the name
        self.voice.ask(self.prompts.line("ask_group" if groups else "ask_group_first", player=name))
        last = len(groups) == count - 1
        one_group = last and len(set(groups.values())) == 1

        def accept(commands: list[Command]) -> int | None:
            for c in commands:
                if c.command == "number" and c.count in (1, 2):
                    if one_group and c.count in groups.values():
                        self.voice.tell(self.prompts.line("groups_both", group=3 - c.count))
                        return None
                    return c.count
            return None

        return self._talk(game).ask("number", accept, hint=self.prompts.text("typed_group"))

    def _ask_captain(self, game: str) -> bool:
        self.asking = "captain"
        return self._talk(game).confirm(self.prompts.line("ask_captain"))

    # -- the cards, one answer at a time ------------------------------------------------------

    def _collect(
        self,
        talk: Conversation,
        box: Box,
        total: int,
        scenarios: Mapping[str, Mapping[int, tuple[str, ...]]] | None,
        count: int,
        given: list[str] | None = None,
        problem: Callable[[list[str]], str | None] = lambda cards: None,
    ) -> list[list[str]] | str:
        """Cards until `total`, each answer confirmed by its name; an answer refused keeps the cards before
        it, and says why and how many are missing. When the cards are all there and `problem` refuses them,
        the last answer is taken back. The answers, each a list of cards, from those pending (given before a
        « annule » at the read-back, or a setup resumed); a scenario's id when one is chosen that fits
        `count` players. Each answer is journaled before it is counted."""
        answers = self.pending  # each answer's cards, for « annule »
        cards: list[str] = _flat(answers)
        self.cards = cards
        while True:
            try:
                commands = talk.ask(
                    "character",
                    lambda cs: [c for c in cs if c.command in ("scenario", "character", "done")] or None,
                )
            except _Undo:
                if not answers:
                    raise  # no card yet: the answer before is taken back
                self._save(self.order, answers[:-1])
                taken = answers.pop()
                del cards[len(cards) - len(taken) :]
                self._undone(self._cards_said(box, taken))
                self.voice.tell(self.prompts.line("characters_so_far", count=len(cards), total=total))
                continue
            scenario = next((c.scenario for c in commands if c.command == "scenario" and c.scenario), None)
            if scenario is not None and scenarios is not None:
                if count in scenarios.get(scenario, {}):
                    return scenario
                self.voice.tell(self.prompts.line("no_scenario", count=count))
                continue
            said: list[str] = []
            for c in commands:
                if c.command == "character" and c.role:
                    said += [c.role] * (c.count or 1)
            if said:
                refusal = self._too_many(box, cards + (given or []), said, total - len(cards))
                if refusal is not None:
                    self.voice.tell(Line("problem*", refusal), self._missing(len(cards), total))
                    continue
                self._save(self.order, [*answers, said])
                cards += said
                answers.append(said)
                for role, n in Counter(said).items():
                    self.voice.tell(self._card_told(box, role, n, len(cards), total))
            if len(cards) == total:
                why = problem(cards)
                if why is None:
                    self.pending = []
                    return [list(a) for a in answers]
                self._save(self.order, answers[:-1])
                taken = answers.pop()
                del cards[len(cards) - len(taken) :]
                self.voice.tell(Line("problem*", why))
                self._undone(self._cards_said(box, taken))
                self.voice.tell(self._missing(len(cards), total))
            elif any(c.command == "done" for c in commands):
                self.voice.tell(self._missing(len(cards), total))

    def _too_many(self, box: Box, held: list[str], said: list[str], room: int) -> str | None:
        """Why an answer's cards cannot be added (None: they can): more than the cards left, or than the box has."""
        p = self.prompts
        if len(said) > room:
            return p.text("too_many", count=len(said) - room)
        for role, n in Counter(said).items():
            copies = box.copies.get(role)
            if copies is not None and held.count(role) + n > copies:
                return p.text("box_holds", copies=copies, role=box.names[role])
        return None

    def _missing(self, count: int, total: int) -> Line:
        if count == total:
            return self.prompts.line("characters_so_far", count=count, total=total)
        return self.prompts.line("characters_missing", count=total - count, total=total, given=count)

    def _card_told(self, box: Box, role: str, n: int, so_far: int, total: int) -> Line:
        """« Une carte Élève de Poudlard : 4 sur 8. »"""
        return self.prompts.line("card_added", count=n, role=box.names[role], so_far=so_far, total=total)

    def _cards_said(self, box: Box, cards: list[str]) -> str:
        """« 2 cartes Loup-Garou, Voyante et Sorcière »: each card by its name, with its number."""
        said = [box.names[r] if n == 1 else self.prompts.text("cards_of", count=n, role=box.names[r])
                for r, n in Counter(cards).items()]  # fmt: skip
        return self.prompts.join(said)

    def _deal_problem(self, box: Box, count: int, cards: list[str]) -> str | None:
        """Why these cards cannot be dealt (in French, for the table), None if they can."""
        if not box.classic:
            try:
                check_setup(load_shipped(str(self.answers["game"])).rules, [f"joueur {i}" for i in range(count)], cards)
            except RecordError as exc:
                return f"{exc.expected}."
            return None
        rules = load_classic()
        p = self.prompts
        for rid, role in rules.roles.items():
            n = cards.count(rid)
            if role.power is Power.RECOGNIZE and n not in (0, role.copies):
                return p.text("played_together", copies=role.copies, role=box.names[rid])
        wolves = sum(1 for r in cards if rules.roles[r].wolf)
        if wolves == 0:
            return p.text("no_wolf")
        if wolves >= len(cards) - wolves:
            return p.text("too_many_wolves")
        takers = {r for r in cards if rules.roles[r].power in EXTRA_CARDS}
        if len(takers) > 1:
            return p.text("one_taker")
        return None

    def _extra_problem(self, box: Box, power: Power, cards: list[str]) -> str | None:
        """Why these undealt cards cannot be the voleur's or the comédien's (003), None if they can."""
        rules = load_classic()
        p = self.prompts
        for card in cards:
            role = rules.roles[card]
            if role.power in EXTRA_CARDS or role.power is Power.RECOGNIZE:
                return p.text("extra_refused", role=box.names[card])
            if power is Power.PERFORM and not (role.camp is Camp.VILLAGE and role.power in LENDABLE):
                return p.text("extra_not_lendable", role=box.names[card])
        if power is Power.PERFORM and len(set(cards)) != len(cards):
            return p.text("extra_different")
        return None

    # -- listening ------------------------------------------------------------------------

    def _talk(
        self, game: str | None, refusal: Callable[[str], list[Line]] | None = None, refusal_asks: bool = False
    ) -> Conversation:
        words = self.words(game)
        return Conversation(
            voice=self.voice,
            ear=self.ear,
            clock=self.clock,
            prompts=self.prompts,
            parse=words.parse,
            phrases=lambda phase: self.phrases(game, phase),
            controls=CONTROLS,
            control=self._control,
            listen_s=self.listen_s,
            refusal=refusal,
            refusal_asks=refusal_asks,
        )

    def _control(self, command: Command) -> None:
        if command.command == "repeat":
            self.voice.repeat()
        elif command.command == "stop":
            # a misheard word must not stop the setup: « stop » asks first (the answers stay journaled)
            if self._sure("setup_stop_check"):
                self.voice.tell(self.prompts.line("setup_stopped"))
                raise SetupStopped()
        elif command.command == "undo":
            raise _Undo()
        elif command.command == "restart":
            # a misheard word must not throw the answers away: « recommence » asks first, once there are some
            if self.order and not self._sure("setup_restart_check"):
                return
            raise _Restart()
        elif command.command == "help":
            self.voice.tell(*self._help())
        elif command.command == "legend":
            self.voice.tell(self._recall())
        elif command.command in ("phones", "no_phones"):
            self.phones = command.command == "phones"
            self._save(self.order, self.pending)
            if self._asking_phones:  # « non, sans les téléphones » to « Jouons-nous avec les téléphones ? »
                raise _PhonesSaid()
            self.voice.tell(load_phone_prompts().line(f"setup_{command.command}"))
            self.voice.repeat()  # the question it was said at, asked again
        else:  # a setting: nothing is journaled yet
            reply = self.tune.refusal(command.command) if self.tune is not None else "setting_limit"
            if reply is None and self.tune is not None:
                self.tune.apply(command.command)
                reply = self.tune.reply(command.command)
            self.voice.tell(self.prompts.line(reply or command.command))

    def _sure(self, check: str) -> bool:
        """« stop », « recommence »: True if the table confirms; else the question asked again."""
        question, asking = self.voice.last, self.asking
        game = self.answers.get("game")
        self.asking = "yes_no"
        try:
            if self._talk(str(game) if game else None).confirm(self.prompts.line(check)):
                return True
        finally:
            self.asking = asking
        self.voice.tell(self.prompts.line("stop_cancelled"))
        self.voice.last = question
        self.voice.repeat()
        return False

    def _card_refused(self, box: Box, text: str, total: int) -> list[Line]:
        """Why an answer at a question of cards is not taken, and how many cards there are: « trois Ron
        Weasley » (the box holds one), « Voldemort » (no card of the game); [] if it is none of these."""
        words = self.words(str(self.answers["game"]))
        so_far = self._missing(len(self.cards), total)  # « Il manque 6 personnages : 5 sur 11. »
        first, _, rest = text.strip().partition(" ")
        number = [c.count for c in words.parse(first, "number") if c.command == "number" and c.count]
        said = [c.role for c in words.parse(rest, "character") if c.command == "character" and c.role] if rest else []
        if number and len(said) == 1:
            held = self.cards + _flat(self.answers.get("roles", ())) if self.asking == "extra" else self.cards
            why = self._too_many(box, held, [said[0]] * number[0], total - len(self.cards))
            if why is not None:
                return [Line("problem*", why), so_far]
        named = [c.player for c in words.parse(text, "name") if c.command == "name" and c.player]
        if named:
            return [self.prompts.line("not_a_card", name=named[0]), so_far]
        return []

    def _help(self) -> list[Line]:
        """What the table may answer to the question being asked, then what it may say at any question."""
        p = self.prompts
        game = self.answers.get("game")
        box = box_of(str(game)) if game else None
        asking = self.asking
        if asking == "game":
            titles = [_title(g) for g in GAMES]
            first = p.line("help_game", games=p.join(titles))
        elif asking == "count" and box is not None:
            low, high = self._count_range(box)
            first = p.line("help_count", low=low, high=high)
        elif asking == "name":
            first = p.line("help_name")
        elif asking in ("cards", "extra") and box is not None:
            count = int(self.answers["count"])  # type: ignore[call-overload]
            lines = []
            fitting = [box.titles.get(s, s) for s in box.scenarios if count in box.scenarios[s]]
            if asking == "cards" and fitting:
                said = "help_scenario" if len(fitting) == 1 else "help_scenarios"
                lines.append(p.line(said, scenarios=p.join(fitting), count=count))
            names = [n for r, n in box.names.items() if asking == "cards" or _lendable_extra(box, r)]
            # a long list (Thiercelieux's 30 cards) is said whole only when « aide » is said again
            whole = len(names) <= HELP_CARDS or self.helped == (asking, len(self.cards))
            self.helped = (asking, len(self.cards))
            if whole:
                lines.append(p.line("help_characters", characters=p.join(names)))
            else:
                lines.append(
                    p.line(
                        "help_characters_first", characters=", ".join(names[:HELP_CARDS]), count=len(names) - HELP_CARDS
                    )
                )
            lines.append(p.line("help_cards"))
            return [*lines, p.line("help_setup")]
        elif asking == "group":
            first = p.line("help_group")
        else:
            first = p.line("help_yes_no")
        return [first, p.line("help_setup")]

    def _recall(self) -> Line:
        """« rappelle les personnages »: the cards given so far, or those of the setup."""
        game = self.answers.get("game")
        cards = self.cards or _flat(self.answers.get("roles", ()))
        if not game or not cards:
            return self.prompts.line("no_characters_yet")
        return self.prompts.line("characters_given", characters=self._cards_said(box_of(str(game)), cards))

    def _undone(self, what: str) -> None:
        self.voice.tell(self.prompts.line("undone_what", what=what))

    def _said(self, key: str, value: object) -> str:
        """An answer of the setup as the table said it: a game's title, « 5 joueurs », a name, the cards."""
        if key == "game":
            return _title(str(value))
        if key == "count":
            return self.prompts.text("players_count", count=value)
        if key in ("roles", "extra"):
            return self._cards_said(box_of(str(self.answers["game"])), _flat(value))
        if key == "captain":
            return self.prompts.text("captain_said" if value else "no_captain_said")
        if key.startswith("group"):
            names = [str(self.answers[f"name{key[5:]}"])] if f"name{key[5:]}" in self.answers else []
            return self.prompts.text("group_said", player=self.prompts.join(names), group=value)
        return str(value)

    def _keep(self, key: str, value: object) -> None:
        self._save([*self.order, key], [], {key: value})
        self.answers[key] = value
        self.order.append(key)
        self.pending = []

    def _save(self, order: list[str], cards: list[list[str]], new: Mapping[str, object] | None = None) -> None:
        """The setup as it will stand, journaled before it does (nothing without a journal: tests, a demo)."""
        if self.journal is None:
            return
        values = {**self.answers, **(new or {})}
        kept = {k: tuple(map(tuple, _parts(v))) if k in ("roles", "extra") else v for k, v in values.items()}
        answers = tuple((k, kept[k]) for k in order)
        self.journal.write(SetupState(answers, tuple(tuple(c) for c in cards), self.phones))


def _title(game: str) -> str:
    if family_of(game) == CLASSIC:
        return load_prompts().text("classic_title")
    return load_shipped(game).announce.title


def _parts(answers: object) -> list[list[str]]:
    """A question of cards' answers, each a list of cards (a journal's tuples too)."""
    return [list(answer) for answer in cast(Iterable[Iterable[str]], answers)]


def _flat(answers: object) -> list[str]:
    """The cards of a list of answers, each a list of cards."""
    return [card for answer in _parts(answers) for card in answer]


def _capital(name: str) -> str:
    """A card's name as its card writes it: « Élève de Poudlard », « Petite fille »."""
    return name[:1].upper() + name[1:]


def _taker(roles: list[str]) -> str | None:
    """The card in play that takes undealt cards (the voleur, the comédien), if any."""
    rules = load_classic()
    return next((r for r in roles if rules.roles[r].power in EXTRA_CARDS), None)


def _lendable_extra(box: Box, role: str) -> bool:
    rules = load_classic().roles
    return rules[role].power not in EXTRA_CARDS and rules[role].power is not Power.RECOGNIZE


def script_title(script, scenario: str) -> str:
    return script.announce.scenario_titles.get(scenario, scenario)


def _checked_name(commands: list[Command]) -> bool | str | None:
    """The answer to « Cleo, c'est bien ça ? »: True, False, or the name said instead."""
    named = next((c.player for c in commands if c.command == "name" and c.player), None)
    if named is not None:
        return named
    return next((c.command == "yes" for c in commands if c.command in ("yes", "no")), None)


def _lines(texts: list[str]) -> list[Line]:
    return [Line("problem*", text) for text in texts]
