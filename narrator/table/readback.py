"""The day's vote as both families run it: ballots said one by one, each journaled before it counts,
then the whole vote read back and confirmed.

A family says what differs in a `Poll` (the question, how many ballots, whether tallies « trois voix
pour Ben » count, why a ballot is refused); `ReadBack` does the rest:
a second ballot of the same voter replaces the first, « annule » while ballots are said takes the
last one back and the vote goes on, « non » at the read-back asks for every ballot again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from narrator.listen.commands import Command
from narrator.script.line import Line
from narrator.script.prompts import Prompts
from narrator.table import events as ev
from narrator.table.conversation import Conversation
from narrator.table.voice import Voice

Ballots = dict[str, str | None]  # voter -> target (None: « personne »)
Tallies = dict[str | None, int]  # target -> how many votes (None: blank votes)


def _never_refused(ballot: Command) -> Line | None:
    return None


def _nothing_more(ballot: Command) -> None:
    return None


@dataclass(frozen=True, kw_only=True)
class Poll:
    """One vote the table is asked for: what its family decides about it."""

    question: Line  # asked first, and again after « non » at the read-back
    total: int  # how many votes make the vote whole
    phase: str = "any"  # what the recognizer listens for
    hint: str | None = None  # what to type, for a keyboard; None: the phase's
    tallies: bool = False  # whether « trois voix pour Ben » counts three votes
    seats: tuple[str, ...] = ()  # the order the read-back names the voters in; (): the order they were said
    refusal: Callable[[Command], Line | None] = _never_refused  # why the table hears a ballot refused
    on_count: Callable[[Command], None] = _nothing_more  # after a ballot counts (a secret shown the operator)

    def takes(self, command: Command) -> bool:
        return command.command == "vote" or (self.tallies and command.command == "tally")


class ReadBack:
    """Collects a `Poll`'s ballots: heard, journaled, counted, read back, confirmed."""

    def __init__(
        self,
        talk: Conversation,
        prompts: Prompts,
        journal: Callable[[ev.Event], None],
        collecting: Callable[[bool], None] = lambda open: None,
        counted: Callable[[Command, Line | None], None] = lambda ballot, refusal: None,
        again: Callable[[], None] = lambda: None,
    ) -> None:
        self.talk = talk
        self.counted = counted  # told of each ballot counted (None) or refused (why): the voter's phone says it
        self.again = again  # told when every ballot is asked again: the phones' ballots counted are no longer
        self.collecting = collecting  # told when a vote's collection opens and closes (the phones' ballot box)
        self.prompts = prompts
        self.journal = journal  # every ballot and « non » at the read-back, before the vote acts on it
        self.open: list[Command] | None = None  # the ballots of the vote being said; « annule » edits them

    @property
    def voice(self) -> Voice:
        return self.talk.voice

    def collect(self, poll: Poll, held: Sequence[Command] = ()) -> list[Command]:
        """The ballots the table confirmed, in the order said. `held`: those a journal already holds (a vote
        cut short goes on from them)."""
        ballots = self.open = list(held)
        self.collecting(True)
        try:
            return self._collect(poll, ballots)
        finally:
            self.open = None
            self.collecting(False)

    def take_back(self, left: Callable[[], Sequence[Command]]) -> bool:
        """« annule » while the ballots are said: the vote goes on from `left()` (the journal's, the last one
        taken back). False when no vote is being said."""
        if self.open is None:
            return False
        self.open[:] = left()
        return True

    def _collect(self, poll: Poll, ballots: list[Command]) -> list[Command]:
        self.voice.ask(poll.question)
        if ballots:  # a resumed vote: what is already held
            held = self.prompts.line("votes_held", count=counted(ballots), summary=self.summary(ballots))
            self.voice.tell(held)
        while True:
            while (before := counted(ballots)) < poll.total:
                commands = self.talk.ask_once(poll.phase, hint=poll.hint)
                if commands is None:
                    self.voice.repeat()  # silence or not understood: the question again
                    continue
                if any(c.command == "yes" for c in commands) and tally(ballots)[1]:
                    break  # « oui, c'est tout »: the others voted for nobody
                for ballot in commands:
                    if poll.takes(ballot):
                        self._count(poll, ballots, ballot)
                now = counted(ballots)
                if before < now < poll.total:  # not after « annule »: nothing new to count
                    self.voice.tell(self.prompts.line("votes_so_far", count=now, total=poll.total))
            self.open = None  # from here « annule » replays the vote without the last ballot
            count = counted(ballots)
            if count > poll.total:
                self.voice.tell(self.prompts.line("too_many_votes", count=count, total=poll.total))
            elif self.talk.confirm(self.prompts.line("read_back", summary=self.summary(ballots, poll.seats))):
                return ballots
            else:
                self.voice.tell(self.prompts.line("votes_again"))
            self.journal(ev.VotesAgain())
            ballots.clear()
            self.again()
            self.open = ballots
            self.voice.ask(poll.question)

    def _count(self, poll: Poll, ballots: list[Command], ballot: Command) -> None:
        refusal = poll.refusal(ballot)
        if refusal is not None:
            self.voice.tell(refusal)
            self.counted(ballot, refusal)
            return
        self.journal(ev.VoteInput.of(ballot))
        voter, target = ballot.voter, ballot.target
        if ballot.command == "vote" and voter and tally(ballots)[0].get(voter, target) != target:
            self.voice.tell(self.prompts.line("vote_changed", voter=voter, target=target or self.nobody))
        ballots.append(ballot)
        poll.on_count(ballot)
        self.counted(ballot, None)

    @property
    def nobody(self) -> str:
        return self.prompts.text("nobody")

    def summary(self, said: Sequence[Command], seats: Sequence[str] = ()) -> str:
        """« Ana vote contre Ben, Cleo ne vote contre personne et deux voix pour Dan »."""
        ballots, tallies = tally(said)
        if seats:
            ballots = {voter: ballots[voter] for voter in seats if voter in ballots}
        parts = [
            self.prompts.text("vote_one", voter=voter, target=target)
            if target is not None
            else self.prompts.text("vote_nobody", voter=voter)
            for voter, target in ballots.items()
        ]
        for target, count in sorted(tallies.items(), key=lambda t: (t[0] is None, -t[1])):
            if target is None:
                parts.append(self.prompts.text("tally_blank", count=count))
            else:
                parts.append(self.prompts.text("tally_one", count=count, target=target))
        return self.prompts.join(parts)


def ballot(voter: str, target: str | None) -> Command:
    """« `voter` vote contre `target` » as heard."""
    return Command("vote", voter=voter, target=target)


def tally(said: Sequence[Command]) -> tuple[Ballots, Tallies]:
    """The ballots and tallies the inputs add up to (a later input for the same voter or target wins).

    A tally for no one (target None: « deux votes blancs ») is the blank votes: counted among the
    votes said, never for a player."""
    ballots: Ballots = {}
    tallies: Tallies = {}
    for c in said:
        if c.command == "vote":
            ballots[c.voter or ""] = c.target
        elif c.command == "tally" and c.count is not None:
            tallies[c.target] = c.count
    return ballots, tallies


def counted(said: Sequence[Command]) -> int:
    """How many votes the inputs add up to."""
    ballots, tallies = tally(said)
    return len(ballots) + sum(tallies.values())
