"""A one-night game at a table with physical cards: the night read aloud, then the day by voice.

The narrator never sees the cards. After the night it runs the debate (reminders, « pause »,
« encore une minute », « on vote »), collects the vote (ballot by ballot or tallies), asks every
player for the card now in front of them, asks whom the hunter or Ginny pointed at when it
matters, and says who dies, who wins and why. Every input that changes the game is read back and
confirmed, then journaled before it is acted on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from narrator.listen.commands import Command
from narrator.rules.onenight import PointingNeeded, Vote, resolve_day
from narrator.rules.onenight.model import COPY_PREFIX, Options
from narrator.script.line import Line
from narrator.script.onenight.explain import card_name, say
from narrator.script.onenight.script import GameScript
from narrator.table import events as ev
from narrator.table.conversation import Named
from narrator.table.host import Host, Stopped, Undo
from narrator.table.journal import Heartbeat
from narrator.table.onenight.announcer import Plan
from narrator.table.onenight.progress import UNDO, Progress, off_the_table, progress
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

    def __post_init__(self) -> None:
        super().__post_init__()
        self._plan: Plan | None = None  # the narration, for « répète la nuit »

    # -- the whole game -------------------------------------------------------------------

    def run(self, plan: Plan, events: list[ev.Event] | None = None) -> Ending:
        """Night, debate, vote, cards, outcome — from the start, or from where a journal's events say the
        game was. « annule » replays all inputs but the last. Raises `Stopped` if the table stops the game."""
        self.events = list(events or [])
        self._plan = plan
        damage = off_the_table(self.events, self.players, self.in_play)
        if damage is not None:
            raise self.damaged(*damage)
        undone = False
        while True:
            try:
                return self._go_on(plan, progress(self.events), undone)
            except Undo:
                undone = True

    def _go_on(self, plan: Plan, state: Progress, undone: bool = False) -> Ending:
        stage = STAGES.index(state.stage)
        if stage <= STAGES.index("night"):
            self.night(plan, state.night_at)
        if stage == STAGES.index("debate"):  # resumed or « annule » of « on vote »: « répète » says the day's opening
            self.voice.last = plan.opening[plan.sections[-1] :]
            if undone:  # the table hears it debates again
                left = plan.debate.minutes * 60 if state.debate_left is None else state.debate_left
                self.voice.tell(self.prompts.line("resumed", time=self.prompts.duration(left)))
        if stage <= STAGES.index("debate"):
            self.debate(plan.debate, state.debate_left)
        if stage <= STAGES.index("vote"):
            self.voice.ask_items(plan.vote)
            vote = self.collect_vote(state.inputs)
        else:
            vote = state.vote or Vote({}, {})
        cards = state.cards if state.cards_confirmed else self.collect_cards(state.cards)
        return self.conclude(vote, cards, state.pointing)

    def night(self, plan: Plan, at: float = 0.0) -> None:
        """The legend, the night and the day's opening, as one stretch of sound; a resumed game
        restarts at the beginning of the call it was in."""
        self._plan = plan
        rendered = self.voice.render(plan.opening)
        says = [i for i, item in enumerate(plan.opening) if isinstance(item, Say)]
        start_of = {index: rendered.segments[n].start_s for n, index in enumerate(says)}
        first = 0
        for section in plan.sections:
            nxt = next((i for i in says if i >= section), None)
            if nxt is not None and start_of[nxt] <= at:
                first = section
        offset = start_of.get(next((i for i in says if i >= first), 0), 0.0)
        begun = self.clock.now()
        with Heartbeat(self.journal, "night", lambda: {"at": round(offset + self.clock.now() - begun, 2)}):
            self.voice.play(plan.opening[first:])
        self._record(ev.NightDone())
        self.voice.last = plan.opening[plan.sections[-1] :]  # « répète »: the day's opening, not the night

    def repeat_night(self) -> None:
        """« répète la nuit »: the night's calls again, from the first call to the day's opening."""
        plan = self._plan
        if plan is None:
            return super().repeat_night()
        last = self.voice.last
        self.voice.play(plan.opening[plan.night : plan.sections[-1]])
        self.voice.last = last

    # -- the vote -------------------------------------------------------------------------

    def collect_vote(self, inputs: list[Command] | None = None) -> Vote:
        """Ballots (« Alice vote contre Bob ») or tallies (« trois voix pour Bob »), read back and confirmed.

        `inputs` are those a journal already holds: a resumed vote goes on from them."""
        poll = Poll(question=self.prompts.line("ask_votes"), total=len(self.players), tallies=True)
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
            return None

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
