"""A one-night game at a table: the night read aloud, then the day by voice.

With physical cards the narrator never sees the cards. After the night it runs the debate
(reminders, « pause », « encore une minute », « on vote »), collects the vote (ballot by ballot or
tallies), asks every player for the card now in front of them, asks whom the hunter or Ginny
pointed at when it matters, and says who dies, who wins and why. Every input that changes the game
is read back and confirmed, then journaled before it is acted on.

With the players' phones (`deal` and `phones`), the program dealt the cards: the night is played
call by call with the choices made on the phones (phones.py), the engine does the swaps, and the
day needs no round of cards: the final cards are known.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from enum import Enum

from narrator.listen.commands import Command
from narrator.phones.hub import Hub
from narrator.phones.screens import end_screen
from narrator.rules.errors import RecordError
from narrator.rules.onenight import PointingNeeded, Vote, choices, resolve_day
from narrator.rules.onenight.model import CENTER, COPY_PREFIX, Options
from narrator.rules.onenight.night import LAST_WAKE
from narrator.script.line import Line
from narrator.script.onenight.explain import card_name, say
from narrator.script.onenight.script import GameScript
from narrator.script.onenight.story import card_of, dawn_reveal, held_name, story
from narrator.script.prompts import load_phone_prompts
from narrator.script.story_words import load_story_words
from narrator.script.templates import fill
from narrator.table import events as ev
from narrator.table.conversation import Named
from narrator.table.epilogue import offer_story, offered
from narrator.table.host import Host, Stopped, Undo
from narrator.table.journal import Heartbeat
from narrator.table.onenight.announcer import Plan
from narrator.table.onenight.phones import PhoneNight
from narrator.table.onenight.progress import UNDO, Progress, off_the_table, progress
from narrator.table.onenight.told import told_of_journal
from narrator.table.readback import Poll, ballot, tally
from narrator.table.replay import undoable
from narrator.voice import Say

__all__ = ["Ending", "Session", "Stopped"]

STAGES = ("night", "debate", "vote", "cards", "verdict", "done")


@dataclass
class Ending:
    """What the day decided, as the table heard it."""

    vote: Vote
    cards: dict[str, str]
    dead: list[str]
    winners: list[str]
    why: list[str]


@dataclass(kw_only=True)
class Session(Host):
    undo_rule = UNDO
    script: GameScript
    players: tuple[str, ...]
    in_play: Sequence[str]  # the cards of the game: dealt and center (physical: which is where is unknown)
    options: Options | None = None
    deal: Sequence[str] | None = None  # with the phones (`phones`): the program's deal, each player's card then A, B, C

    def __post_init__(self) -> None:
        super().__post_init__()
        self._plan: Plan | None = None  # the narration, for « répète la nuit »
        self._back = False  # a game resumed from a journal, not yet told where it is
        self.on_phones: PhoneNight | None = None
        if self.deal is not None and self.phones is not None:
            if self.script.phones is None:
                raise ValueError(f"{self.script.rules.game} : aucun texte pour les téléphones")
            self.on_phones = PhoneNight(
                self.phones,
                self.script.rules,
                self.script.phones,
                self.players,
                tuple(self.deal),
                self.voice,
                self.clock,
                self._record,
                listen=self.hear_controls,
            )

    # -- the whole game -------------------------------------------------------------------

    def run(self, plan: Plan, events: list[ev.Event] | None = None) -> Ending:
        """Night, debate, vote, cards, outcome — from the start, or from where a journal's events say the
        game was. « annule » replays all inputs but the last. Raises `Stopped` if the table stops the game."""
        self.events = list(events or [])
        self._plan = plan
        damage = off_the_table(self.events, self.players, self.in_play)
        if damage is not None:
            raise self.damaged(*damage)
        if self.on_phones is not None:
            self._phones_from(progress(self.events))
        # a game resumed from a journal is told where it is once, as a classic game (« annule » is not)
        begun = progress(self.events)
        self._back = begun.stage not in ("night", "done") or begun.night_at > 0
        while True:
            try:
                return self._go_on(plan, progress(self.events))
            except Undo:
                continue

    def _go_on(self, plan: Plan, state: Progress, undone: bool = False) -> Ending:
        if state.stage == "done":  # resumed at the offer of the story: the verdict was heard
            return self._end(self._ended(state))
        stage = STAGES.index(state.stage)
        if stage <= STAGES.index("night"):
            if self.on_phones is not None:
                self.phone_night(plan, self.on_phones, state.night_at)
            else:
                self.night(plan, state.night_at)
        if stage == STAGES.index("debate"):  # resumed or « annule » of « on vote »: « répète » says the day's opening
            self.voice.last = plan.opening[plan.sections[-1] :]
            # the table hears where the game is, as a classic game's resumed debate says it (« On reprend.
            # Il reste 3 minutes. »): a resumed game, or « annule » of « on vote »
            left = plan.debate.minutes * 60 if state.debate_left is None else state.debate_left
            key = "resumed_debate" if self._back else "resumed"
            self._back = False
            self.voice.tell(self.prompts.line(key, time=self.prompts.duration(left)))
        elif stage > STAGES.index("debate") and self._back:  # the vote, or the cards at dawn
            self._back = False
            self.voice.tell(self.prompts.line("resumed_vote" if stage == STAGES.index("vote") else "resumed_game"))
        if stage <= STAGES.index("debate"):
            self.debate(plan.debate, state.debate_left)
        if stage <= STAGES.index("vote"):
            self.voice.ask_items(plan.vote)
            vote = self.collect_vote(state.inputs)
        else:
            vote = state.vote or Vote({}, {})
        if self.on_phones is not None:  # the program dealt: the cards at dawn are known, none is asked
            cards = dict(zip(self.players, self.dawn()[0]))
        else:
            cards = state.cards if state.cards_confirmed else self.collect_cards(state.cards)
        return self._end(self.conclude(vote, cards, state.pointing))

    def night(self, plan: Plan, at: float = 0.0) -> None:
        """The legend, the night and the day's opening, as one stretch of sound; a resumed game
        restarts at the beginning of the call it was in."""
        self._plan = plan
        starts = self._section_starts(plan)
        first = self._section_at(plan, starts, at)
        self._say_where(plan, first)
        if first == 0:  # physical cards: the table deals and looks before the night (the phones deal themselves)
            center = len(self.in_play) - len(self.players)
            self.voice.tell(self.prompts.line("deal_cards", count=center))
        offset = starts[plan.sections.index(first)]
        begun = self.clock.now()
        night = max(first, plan.night)  # the legend before it has no music
        with Heartbeat(self.journal, "night", lambda: {"at": round(offset + self.clock.now() - begun, 2)}):
            self.voice.play(plan.opening[first:night])
            # the night's music from the night's first line; the night and the day's opening are one stretch
            # of sound, played whole so that its pauses stay exact, and the music fades out once it is heard
            self.voice.night(night < plan.sections[-1])
            self.voice.play(plan.opening[night:])
        self.voice.night(False)
        self._record(ev.NightDone())
        self.voice.last = plan.opening[plan.sections[-1] :]  # « répète »: the day's opening, not the night

    def _say_where(self, plan: Plan, section: int) -> None:
        """A night resumed at a call: everyone closes their eyes before it (the legend needs no word)."""
        if not self._back:
            return
        self._back = False
        in_the_night = plan.night < section < plan.sections[-1]
        self.voice.tell(self.prompts.line("resumed_night" if in_the_night else "resumed_game"))

    def _section_starts(self, plan: Plan) -> list[float]:
        """Where each section of the opening begins in its sound, in seconds (what the night's ticks note)."""
        rendered = self.voice.render(plan.opening)
        says = [i for i, item in enumerate(plan.opening) if isinstance(item, Say)]
        start_of = {index: rendered.segments[n].start_s for n, index in enumerate(says)}
        return [start_of.get(next((i for i in says if i >= section), 0), 0.0) for section in plan.sections]

    @staticmethod
    def _section_at(plan: Plan, starts: list[float], at: float) -> int:
        """The section a night heard up to `at` seconds restarts at: the beginning of the call it was in."""
        first = 0
        for section, start in zip(plan.sections, starts):
            if start <= at:
                first = section
        return first

    # -- the night on the phones ----------------------------------------------------------

    def _phones_from(self, state: Progress) -> None:
        """The phones of a game begun or resumed: their cards, the choices journaled, what they were told."""
        phones = self.on_phones
        assert phones is not None
        phones.night = dict(state.choices)
        try:  # the choices journaled, played as far as they go
            choices.learned(self.script.rules, self.players, self.deal or (), phones.night, LAST_WAKE)
        except RecordError as exc:  # an edited journal: its choice is refused where it stands
            player = exc.path[1] if len(exc.path) > 1 else None
            made = [i for i, e in enumerate(self.events) if isinstance(e, ev.NightChoice)]
            index = max((i for i in made if getattr(self.events[i], "player", None) == player), default=made[-1])
            raise self.damaged(index, f"« night_choice » refusé : {exc.describe()}") from None
        phones.deal_cards()
        if state.stage != "night":  # the night is over: every phone gets back what its player learned
            phones.tell(LAST_WAKE, self.players)
            self._day_status(phones.hub)

    def phone_night(self, plan: Plan, phones: PhoneNight, at: float = 0.0) -> None:
        """The legend, then the night call by call with the choices on the phones, then the day's opening;
        a resumed game restarts at the call it was in, without asking again what was answered."""
        self._plan = plan
        starts = self._section_starts(plan)
        first = plan.sections.index(self._section_at(plan, starts, at))
        self._say_where(plan, plan.sections[first])
        wakes = choices.call_wakes(self.script.rules, plan.callers)
        before = [w for w in wakes[:first] if w is not None]
        if before:  # a resumed night: each phone gets back what its player learned in the calls heard
            phones.tell(max(before), self.players)
        ends = [*plan.sections[1:], len(plan.opening)]
        words = load_phone_prompts()
        phones.hub.status(words.text("status_the_night"))
        phones.hub.public(night=True)  # every phone dark and dim, the same on all
        for index in range(first, len(plan.sections) - 1):
            self._record(ev.Tick("night", at=starts[index]))
            self.voice.night(plan.sections[index] >= plan.night)  # the legend before it has no music
            items = plan.opening[plan.sections[index] : ends[index]]
            wake = wakes[index]
            if wake is None:
                self.voice.play(items)
            else:
                phones.call(plan.callers[index], wake, items)
        self._record(ev.Tick("night", at=starts[-1]))
        self.voice.night(False)
        phones.hub.public(night=False)
        self._day_status(phones.hub)
        day = plan.opening[plan.sections[-1] :]
        face_up = self._face_up()
        if face_up:  # 001: "Cette carte reste visible durant la journée": every player hears it once the eyes
            # are open (the day's first line), before the debate's clock is given
            self.voice.play(day[:1])
            self.voice.tell(*face_up)
            day = day[1:]
        self.voice.play(day)
        self._record(ev.NightDone())
        self.voice.last = plan.opening[plan.sections[-1] :]

    def _day_status(self, hub: Hub, key: str = "status_day") -> None:
        """Every phone's public line in the day: that it is the day (its debate, its vote), and Harry's
        face-up card."""
        day = load_phone_prompts().text(key)
        hub.status(" ".join([day + ".", *(line.text for line in self._face_up())]))

    def _face_up(self) -> list[Line]:
        """The cards left face up for the day (Harry's), as every player is told them."""
        template = self.script.phones.visible if self.script.phones else ""
        visible = [(name, card_name(self.script.rules, card)) for name, card in self.dawn()[1].items()]
        return [Line(f"visible_{n}*", fill(template, name=p, card=c)) for n, (p, c) in enumerate(visible)]

    def dawn(self) -> tuple[list[str], dict[str, str]]:
        """With the phones: the cards at dawn (players' then the middle's) and those left face up."""
        assert self.deal is not None and self.on_phones is not None
        return choices.final_cards(self.script.rules, self.players, self.deal, self.on_phones.night)

    def end_cards(self, ending: Ending) -> list[tuple[str, str, str]]:
        """Each player's card at dawn, and the one dealt (they differ for whoever changed card); with the
        phones, the middle's cards after them, as the dawn reveal says them."""
        rules = self.script.rules
        dealt = dict(zip(self.players, self.deal or ()))
        rows = []
        for p in self.players:
            card = ending.cards[p]
            kept = dealt.get(p, card_of(rules, card)) == card_of(rules, card)  # a Doppelgänger's copy: his card
            rows.append((p, held_name(rules, card), held_name(rules, card) if kept else card_name(rules, dealt[p])))
        if self.on_phones is not None and self.deal is not None and self.script.phones is not None:
            n = len(self.players)
            for place, first, last in zip(CENTER, self.deal[n:], self.dawn()[0][n:]):
                label = fill(self.script.phones.center, place=place)
                rows.append((label[:1].upper() + label[1:], held_name(rules, last), held_name(rules, first)))
        return rows

    def record(self, ending: Ending) -> dict[str, object]:
        """The game as a one-night record (docs/record.md) that `narrator resolve` plays to the same end.
        A vote given as tallies is written as ballots that make the same counts, whom the hunter or
        Ginny pointed at kept."""
        assert self.deal is not None and self.on_phones is not None
        n = len(self.players)
        night = {p: c for p, c in self.on_phones.night.items() if c}
        return {
            "ruleset": self.script.rules.game,
            "players": list(self.players),
            "deal": {**dict(zip(self.players, self.deal[:n])), "center": list(self.deal[n:])},
            "night": night,
            "votes": ballots_for(self.players, ending.vote),
            **({"options": _options(self.options)} if self.options is not None else {}),
        }

    def repeat_night(self) -> None:
        """« répète la nuit »: the night's calls again, from the first call to the day's opening (with the
        phones, refused: a call would wake its characters again)."""
        plan = self._plan
        if plan is None or self.on_phones is not None:
            return super().repeat_night()
        last = self.voice.last
        self.voice.play(plan.opening[plan.night : plan.sections[-1]])
        self.voice.last = last

    # -- the vote -------------------------------------------------------------------------

    def collect_vote(self, inputs: list[Command] | None = None) -> Vote:
        """Ballots (« Alice vote contre Bob ») or tallies (« trois voix pour Bob »), read back and confirmed.

        `inputs` are those a journal already holds: a resumed vote goes on from them."""
        voter, target = self.players[0], self.players[1 % len(self.players)]  # the table's names, not Alice's
        question = self.prompts.line("ask_votes", voter=voter, target=target)
        poll = Poll(question=question, total=len(self.players), tallies=True)
        if self.phones is not None:  # the debate is over: the phones' public line says so
            self._day_status(self.phones, "status_day_vote")
        ballots, tallies = tally(self.readback.collect(poll, inputs or []))
        counts = Counter(t for t in ballots.values() if t is not None)
        counts.update({t: n for t, n in tallies.items() if t is not None})  # blank votes count for nobody
        vote = Vote(dict(counts), dict(ballots))
        self._record(ev.Vote(dict(vote.counts), dict(vote.pointing)))
        return vote

    # -- the cards ------------------------------------------------------------------------

    def collect_cards(self, known: dict[str, str] | None = None) -> dict[str, str]:
        """Every player says the card now in front of him; read back and confirmed.

        `known` are the answers a journal already holds: those players are not asked again."""
        cards = dict(known or {})
        self.voice.tell(self.prompts.line("ask_cards"))
        for player in self.players:
            if player not in cards:
                cards[player] = self._ask_card(player, cards)
                self._record(ev.Card(player, cards[player]))
        while True:
            ordered = {p: cards[p] for p in self.players}
            summary = self.prompts.join(
                [self.prompts.text("card_one", player=p, role=self._card_name(c)) for p, c in ordered.items()]
            )
            if self.talk.confirm(self.prompts.line("read_back", summary=summary)):
                self._record(ev.Cards(ordered))
                return ordered
            self.voice.ask(self.prompts.line("cards_again"))
            player, role = self.talk.ask("reveal", _revealed)
            problem = self._card_problem(role, {p: c for p, c in cards.items() if p != player})
            if problem:
                self.voice.tell(problem)
            else:
                role = self._copied(player, role)
                self._record(ev.Card(player, role))
                cards[player] = role

    def _ask_card(self, player: str, known: dict[str, str]) -> str:
        self.voice.ask(self.prompts.line("ask_card", player=player))

        def accept(commands: list[Command]) -> str | None:
            for c in commands:
                if c.command == "reveal" and c.player == player and c.role:
                    problem = self._card_problem(c.role, known)
                    if problem:
                        self.voice.tell(problem)
                        return None
                    return c.role
            if any(c.command == "reveal" and c.player not in (None, player) for c in commands):
                # another player's card, said out of turn: the table is told whose card comes first
                self.voice.tell(self.prompts.line("card_other_player", player=player))
            return None

        return self._copied(player, self.talk.ask("reveal", accept, prefix=player))

    def _copied(self, player: str, card: str) -> str:
        """A Doppelgänger card said without its copy: which card it copied, or the card as it is when
        the player says it again (it lay in the middle all night: nothing to copy)."""
        if card != "doppelganger":
            return card
        self.voice.ask(self.prompts.line("ask_copy", player=player, role=self._card_name(card)))

        def accept(commands: list[Command]) -> str | None:
            for c in commands:
                if c.command == "reveal" and c.player == player and c.role:
                    copied = c.role.removeprefix(COPY_PREFIX)
                    if copied == card:
                        return card
                    if copied not in self.in_play:
                        self.voice.tell(self.prompts.line("no_such_card", role=self._card_name(copied)))
                        return None
                    return COPY_PREFIX + copied
            return None

        # « la voyante » is heard as « <player> la voyante »: the card it copied
        return self.talk.ask("reveal", accept, prefix=player)

    def _card_problem(self, card: str, known: dict[str, str]) -> Line | None:
        """A card that is not in the game, or already claimed as many times as it is in the game."""
        plain = "doppelganger" if card.startswith(COPY_PREFIX) else card
        copies = Counter(self.in_play)[plain]
        name = self._card_name(card)
        if copies == 0:
            return self.prompts.line("no_such_card", role=name)
        claimed = sum(1 for c in known.values() if ("doppelganger" if c.startswith(COPY_PREFIX) else c) == plain)
        if claimed >= copies:
            return self.prompts.line("card_taken", copies=copies, role=name)
        return None

    def _card_name(self, card: str) -> str:
        return card_name(self.script.rules, card)

    # -- the outcome ----------------------------------------------------------------------

    def conclude(self, vote: Vote, cards: dict[str, str], asked: dict[str, str | None] | None = None) -> Ending:
        """Resolve with the engine, asking whom a dead hunter or Ginny pointed at; say the verdict."""
        rules = self.script.rules
        options = self.options or rules.options
        pointing = {**vote.pointing, **(asked or {})}
        while True:
            try:
                dead, winners, reasons = resolve_day(
                    rules, options, self.players, [cards[p] for p in self.players], Vote(vote.counts, pointing)
                )
                break
            except PointingNeeded as need:
                self.voice.ask(self.prompts.line("ask_pointing", player=need.player))
                target = self.talk.ask("vote", _pointing_of(need.player), prefix=need.player).player
                self._record(ev.Pointing(need.player, target))
                pointing[need.player] = target
        self._record(ev.Outcome(winners, dead=dead))
        why = [say(rules, r) for r in reasons]
        self.voice.ask(*[Line(f"why_{i}*", text) for i, text in enumerate(why)])
        return Ending(Vote(vote.counts, pointing), cards, dead, winners, why)

    # -- the end: the cards at dawn, the story ------------------------------------------------

    def _ended(self, state: Progress) -> Ending:
        """The ending of a game whose outcome is journaled, worked out again without a word said."""
        rules = self.script.rules
        vote = state.vote or Vote({}, {})
        pointing = {**vote.pointing, **state.pointing}
        cards = dict(zip(self.players, self.dawn()[0])) if self.on_phones is not None else dict(state.cards)
        dead, winners, reasons = resolve_day(
            rules,
            self.options or rules.options,
            self.players,
            [cards[p] for p in self.players],
            Vote(vote.counts, pointing),
        )
        return Ending(Vote(vote.counts, pointing), cards, dead, winners, [say(rules, r) for r in reasons])

    def _end(self, ending: Ending) -> Ending:
        """After the verdict, as a game master ends it: with the phones, every card at dawn turned face up
        and who changed card (the table has heard the verdict: the cards now tell it why); then the story
        offered. A game resumed at the offer hears the offer only."""
        told = self.story()
        if self.phones is not None:  # every phone's end screen: who won, every card (the story once asked for),
            # as the verdict is said: not after the dawn's cards, half a minute of voice later
            self.phones.public(end=end_screen(" ".join(ending.why), self.end_cards(ending)), night=False)
        if self.on_phones is not None and self.deal is not None:
            cards = self.dawn()[0]
            if not offered(self.events):
                words = load_story_words()
                reveal = dawn_reveal(self.script.rules, self.players, self.deal, cards, words)
                self.voice.tell(
                    Line("dawn", words.text("dawn")), *[Line(f"dawn_{n}*", t) for n, t in enumerate(reveal)]
                )
        offer_story(self, told)
        return ending

    def story(self) -> list[str]:
        """The story of the game as its journal tells it: the same as `narrator story JOURNAL`."""
        rules = self.script.rules
        told = told_of_journal(rules, self.players, self.in_play, self.deal, self.events, self.options)
        return story(rules, told)

    # -- what « rappelle les personnages » and « annule » mean here -----------------------------

    def typed_examples(self) -> dict[str, str]:
        """Two players of this table and a card of this game (every player is alive until the verdict)."""
        voter, target = self.players[0], self.players[1 % len(self.players)]
        return {"voter": voter, "target": target, "player": target, "card": self._card_name(self.in_play[0])}

    def legend_lines(self) -> list[Line]:
        return [s for s in self.script.announce.setup_steps(self.in_play) if isinstance(s, Line)]

    def undoable(self) -> str | None:
        match undoable(self.events, self.undo_rule):
            case None:
                return None
            case ev.VoteInput() as said:
                return self.readback.summary([said.command()])
            case ev.Card(player=player, role=role):
                return self.prompts.text("card_one", player=player, role=self._card_name(role))
            case ev.Pointing(player=player, target=target):
                return self.readback.summary([ballot(player, target)])
            case ev.DebateOver():  # « on vote »
                return self.prompts.text("undo_start_vote")
            case event:  # the whole vote, all the cards
                return self.prompts.text(f"undo_{event.kind}")

    def ballots_left(self) -> list[Command]:
        return progress(self.events).inputs


def _options(options: Options) -> dict[str, object]:
    return {k: v.value if isinstance(v, Enum) else v for k, v in asdict(options).items()}


def ballots_for(players: Sequence[str], vote: Vote) -> dict[str, str | None]:
    """Each player's ballot: as said, or, for a vote said as tallies, ballots that make its counts (the
    voters whose aim is known keep it)."""
    ballots: dict[str, str | None] = {p: vote.pointing[p] for p in players if p in vote.pointing}
    left = Counter(vote.counts)
    left.subtract(Counter(t for t in ballots.values() if t is not None))
    free = [p for p in players if p not in ballots]
    for target, count in sorted(left.items(), key=lambda item: players.index(item[0])):
        for _ in range(max(count, 0)):
            if free:
                ballots[free.pop(0)] = target
    ballots.update({p: None for p in free})
    return {p: ballots[p] for p in players}


def _revealed(commands: list[Command]) -> tuple[str, str] | None:
    """A player and the card he says is his, in whichever words."""
    return next(((c.player, c.role) for c in commands if c.command == "reveal" and c.player and c.role), None)


def _pointing_of(player: str) -> Callable[[list[Command]], Named | None]:
    def accept(commands: list[Command]) -> Named | None:
        for c in commands:
            if c.command == "vote" and c.voter == player:
                return Named(c.target)
        return None

    return accept
