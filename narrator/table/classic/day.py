"""The classic day's decisions said aloud: a name when asked « qui ? », every ballot, the debate.

A mixin of `ClassicSession` (classic.py): the engine's public questions — the captain's election,
the hunter's shot, the captain's heir and tie-break, the ballots of each vote — are asked aloud,
refused aloud when the rules forbid the answer, read back and confirmed.
"""

from __future__ import annotations

from collections.abc import Callable

from narrator.listen.commands import Command
from narrator.rules.classic.asks import Ask
from narrator.rules.classic.death import SPARED
from narrator.script.classic.script import join_names
from narrator.script.line import Line
from narrator.table import events as ev
from narrator.table.onenight.announcer import Plan
from narrator.table.voice import to_items

_NOBODY = object()  # « personne » heard: not None, which means « not understood » to `Conversation.ask`


class SpokenDay:
    """What `ClassicSession` asks the table aloud (its attributes: voice, talk, prompts, narration…)."""

    def _choice(self, ask: Ask) -> str | None:
        """One player named aloud (the captain, the hunter's shot, the heir, the tie-break), confirmed."""
        question = self.narration.asks[ask.key].format(
            who=ask.who or "", choices=join_names(self.rules, list(ask.choices)), example=""
        )
        while True:
            self.voice.ask(Line(ask.key + "*", question))
            typed = self.prompts.text("typed_choose" if ask.forced else "typed_choose_or_nobody")
            answer = self.talk.ask("choose", self._accept_choice(ask), hint=typed)
            name = None if answer is _NOBODY else str(answer)
            said = name or self.prompts.text("nobody")
            if self.talk.confirm(self.prompts.line("read_back", summary=said)):
                return name

    def _accept_choice(self, ask: Ask) -> Callable[[list[Command]], object]:
        def accept(commands: list[Command]) -> object:
            for c in commands:
                if c.command != "choose":
                    continue
                if c.target is None:
                    if not ask.forced:
                        return _NOBODY
                    self.voice.tell(self.prompts.line("choice_needed"))
                elif c.target in ask.choices:
                    return c.target
                else:
                    self.voice.tell(self._refusal(ask, c.target))
            return None

        return accept

    def _refusal(self, ask: Ask, target: str) -> Line:
        note = _spoken_note(ask, target)
        if ask.note(target) == SPARED:
            # RULINGS thiercelieux 19: "refusals the table may hear name public facts only": the lovers are a secret
            self.operator.show(f"{ask.context} : pas {target}, {SPARED} ; la table n'entend pas pourquoi.")
            note = None
        if note:
            return self.prompts.line("choice_refused_because", target=target, why=note)
        return self.prompts.line("choice_refused", target=target)

    def _ballots(self, ask: Ask) -> dict[str, str | None]:
        """Every ballot said aloud (« Ana vote contre Ben »), refused when the rules forbid it, read back."""
        if ask.key == "votes" and self.number not in self._debated:
            self._debate()
        legal = dict(ask.ballots)
        voters = list(legal)
        if not voters:  # the bouc émissaire named nobody: no ballot to ask, nothing to read back
            return {}
        example = ""
        if voters:
            target = next((t for t in legal[voters[0]] if t != voters[0]), voters[0])
            example = self.prompts.text("vote_one", voter=voters[0], target=target)
        targets = sorted({t for ts in legal.values() for t in ts}, key=self.players.index)
        question = self.narration.asks[ask.key].format(who="", choices=join_names(self.rules, targets), example=example)
        ballots = self._open_ballots = self.held_ballots(ask)  # « annule » takes the last one back here
        self._pending = {}
        self.voice.ask(Line(ask.key + "*", question))
        if ballots:  # a resumed vote: what is already held
            held = self._ballots_said(ballots)
            self.voice.tell(self.prompts.line("votes_held", count=len(ballots), summary=held))
        try:
            while True:
                while len(ballots) < len(voters):
                    commands = self.talk.ask_once("vote", hint=self.prompts.text("typed_vote", example=example))
                    if commands is None:
                        self.voice.repeat()
                        continue
                    counted = len(ballots)
                    for c in commands:
                        if c.command != "vote" or c.voter is None:
                            continue
                        problem = self._ballot_problem(ask, legal, c.voter, c.target)
                        if problem is not None:
                            self.voice.tell(problem)
                            continue
                        self._record(ev.VoteInput(c.voter, c.target))
                        if c.voter in ballots and ballots[c.voter] != c.target:
                            self.voice.tell(self.changed_vote(c.voter, c.target))
                        ballots[c.voter] = c.target
                        if (c.voter, c.target) in ask.secret:
                            self._secret_ballot(c.voter, c.target)
                    if counted < len(ballots) < len(voters):  # not after « annule »: nothing new to count
                        self.voice.tell(self.prompts.line("votes_so_far", count=len(ballots), total=len(voters)))
                said = {v: ballots[v] for v in voters}
                self._open_ballots = None  # from here « annule » replays the vote without the last ballot
                if self.talk.confirm(self.prompts.line("read_back", summary=self._ballots_said(said))):
                    return said
                self.voice.tell(self.prompts.line("votes_again"))
                self._record(ev.VotesAgain())
                ballots.clear()
                self._open_ballots = ballots
                self.voice.ask(Line(ask.key + "*", question))
        finally:
            self._open_ballots = None

    def _ballots_said(self, ballots: dict[str, str | None]) -> str:
        """« Ana vote contre Ben, Cleo ne vote contre personne et … »."""
        return self.prompts.join(
            [
                self.prompts.text("vote_one", voter=v, target=t)
                if t is not None
                else self.prompts.text("vote_nobody", voter=v)
                for v, t in ballots.items()
            ]
        )

    def _ballot_problem(
        self, ask: Ask, legal: dict[str, tuple[str, ...]], voter: str, target: str | None
    ) -> Line | None:
        """Why the table hears a ballot refused: public facts only (a voter who may not vote, a player who
        may not be voted against). A lover's ballot against the beloved is not refused here (RULINGS
        thiercelieux 19)."""
        if voter not in legal:
            return self.prompts.line("not_a_voter", voter=voter)
        anyone = {t for ts in legal.values() for t in ts}
        if target is not None and target not in anyone:
            note = _spoken_note(ask, target) or self.prompts.text("not_a_target")
            return self.prompts.line("ballot_refused", voter=voter, target=target, why=note)
        return None

    def _secret_ballot(self, voter: str, target: str) -> None:
        """RULINGS thiercelieux 19: "a ballot the rules forbid because of a secret (a lover against the
        beloved) is counted as said and shown to the operator alone, who may take it back"; the rules count
        it as said."""
        self.operator.show(
            f"{voter} vote contre {target}, {SPARED} : compté tel quel, la table ne le sait pas. "
            f"Pour le reprendre : « annule » à la table, puis le vote de {voter} à nouveau."
        )

    def _debate(self) -> None:
        """The debate's timer; a resumed game goes on with the time that was left (the heartbeat's)."""
        minutes = self.minutes or self.narration.minutes
        left, self._debate_left = self._debate_left, None
        if left is None:
            self.voice.ask(*self.narration.debate_opening(self.prompts.duration(minutes * 60)))  # « répète » says it
        else:
            self.voice.tell(self.prompts.line("resumed", time=self.prompts.duration(left)))
        reminders = sorted(
            ((r.left, to_items([r.line])) for r in self.narration.reminders if r.left < minutes * 60),
            key=lambda r: -r[0],
        )
        self.debate(Plan([], [], minutes, reminders, []), left, day=self.number)
        self.voice.tell(*self.narration.vote)


def _spoken_note(ask: Ask, player: str) -> str | None:
    """Why the rules refuse `player` here, as said aloud: the note without its rulebook reference."""
    note = ask.note(player)
    return note.split(" (")[0] if note else None
