"""The classic day's decisions said aloud: a name when asked « qui ? », every ballot, the debate.

`ClassicDay` is held by `ClassicSession` (session.py): the engine's public questions — the
captain's election, the hunter's shot, the captain's heir and tie-break, the ballots of each vote —
are asked aloud, refused aloud when the rules forbid the answer, read back and confirmed. The
ballots go through the day's read-back loop both families share (table/readback.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from narrator.listen.commands import Command
from narrator.rules.classic import Rules
from narrator.rules.classic.asks import Ask
from narrator.rules.classic.death import SPARED
from narrator.script.classic.narration import Narration
from narrator.script.classic.script import say, say_aloud
from narrator.script.line import Line
from narrator.script.templates import fill, join_names
from narrator.table.classic.operator import Operator
from narrator.table.conversation import Named
from narrator.table.host import Debate, Host
from narrator.table.readback import Ballots, Poll, ballot, tally
from narrator.table.voice import to_items


@dataclass
class ClassicDay:
    """What a classic table is asked aloud during the day, through its host's mouth, ear and journal."""

    host: Host
    rules: Rules
    narration: Narration
    operator: Operator  # told what the table may not hear (a secret reason), or the player's phone
    players: tuple[str, ...]  # in seat order

    def choice(self, ask: Ask) -> str | None:
        """One player named aloud (the captain, the hunter's shot, the heir, the tie-break), confirmed."""
        voice, prompts, talk = self.host.voice, self.host.prompts, self.host.talk
        question = fill(
            self.narration.asks[ask.key],
            who=ask.who or "",
            choices=join_names(self.rules, list(ask.choices)),
            example="",
        )
        while True:
            voice.ask(Line(ask.key + "*", question))
            typed = prompts.text("typed_choose" if ask.forced else "typed_choose_or_nobody")
            name = talk.ask("choose", self._accept_choice(ask), hint=typed).player
            said = name or prompts.text("nobody")
            if talk.confirm(prompts.line("read_back", summary=said)):
                return name

    def _accept_choice(self, ask: Ask) -> Callable[[list[Command]], Named | None]:
        def accept(commands: list[Command]) -> Named | None:
            for c in commands:
                if c.command != "choose":
                    continue
                if c.target is None:
                    if not ask.forced:
                        return Named(None)
                    self.host.voice.tell(self.host.prompts.line("choice_needed"))
                elif c.target in ask.choices:
                    return Named(c.target)
                else:
                    self.host.voice.tell(self._refusal(ask, c.target))
            return None

        return accept

    def _refusal(self, ask: Ask, target: str) -> Line:
        note = ask.note(target)
        if note is not None and note.key not in self.narration.public:
            # refusals the table hears name public facts only: the lovers are a secret
            why = f"{say(self.rules, ask.context)} : pas {target}, {say(self.rules, note)}"
            self.operator.note(f"{why} ; la table n'entend pas pourquoi.", ask.by)
        said = self._public_note(ask, target)
        if said:
            return self.host.prompts.line("choice_refused_because", target=target, why=said)
        if note is None:  # no reason of the rules: the tie-break's choice is among the tied, the others' among
            # the living (a secret reason has a note, and the table hears none)
            why = self.host.prompts.text("not_tied" if ask.key == "tiebreak" else "not_alive")
            return self.host.prompts.line("choice_refused_because", target=target, why=why)
        return self.host.prompts.line("choice_refused", target=target)

    def _public_note(self, ask: Ask, player: str) -> str | None:
        """Why the rules refuse `player` here, as the table hears it: only a note the script makes public."""
        note = ask.note(player)
        if note is None or note.key not in self.narration.public:
            return None
        return say_aloud(self.rules, self.narration.reworded, note)

    def ballots(self, ask: Ask, held: Ballots) -> Ballots:
        """Every ballot said aloud (« Ana vote contre Ben »), refused when the rules forbid it, read back; in
        the order of the voters. `held`: the ballots a journal already holds. At least one voter."""
        prompts = self.host.prompts
        legal = dict(ask.ballots)
        voters = list(legal)
        target = next((t for t in legal[voters[0]] if t != voters[0]), voters[0])
        example = prompts.text("vote_one", voter=voters[0], target=target)
        targets = sorted({t for ts in legal.values() for t in ts}, key=self.players.index)
        question = fill(self.narration.asks[ask.key], who="", choices=join_names(self.rules, targets), example=example)
        poll = Poll(
            question=Line(ask.key + "*", question),
            total=len(voters),
            phase="vote",
            hint=prompts.text("typed_vote", example=example),
            seats=tuple(voters),
            refusal=lambda said: self._ballot_problem(ask, legal, said),
            on_count=lambda said: self._secret_ballot(ask, said),
        )
        said = tally(self.host.readback.collect(poll, [ballot(v, t) for v, t in held.items()]))[0]
        return {voter: said[voter] for voter in voters}

    def _ballot_problem(self, ask: Ask, legal: dict[str, tuple[str, ...]], said: Command) -> Line | None:
        """Why the table hears a ballot refused: public facts only (a voter who may not vote, a player who
        may not be voted against). A lover's ballot against the beloved is not refused here: it is a
        secret (`_secret_ballot`)."""
        voter, target = said.voter, said.target
        if voter not in legal:  # alive, he has the rules' public reason (the pardoned idiot…); else he is dead
            why = self._public_note(ask, voter) if voter else None
            if why:
                return self.host.prompts.line("not_a_voter_because", voter=voter, why=why)
            return self.host.prompts.line("not_a_voter", voter=voter)
        anyone = {t for ts in legal.values() for t in ts}
        if target is not None and target not in anyone:
            note = self._public_note(ask, target) or self.host.prompts.text("not_a_target")
            return self.host.prompts.line("ballot_refused", voter=voter, target=target, why=note)
        return None

    def _secret_ballot(self, ask: Ask, said: Command) -> None:
        """A ballot the rules forbid because of a secret (a lover against the beloved) is counted as said and
        told to the operator alone, or to the voter's phone alone, and may be taken back: the table must not
        learn the secret from it."""
        voter, target = said.voter, said.target
        if (voter, target) not in ask.secret:
            return
        self.operator.note(
            f"{voter} vote contre {target}, {say(self.rules, SPARED)} : compté tel quel, la table ne le sait pas. "
            f"Pour le reprendre : « annule » à la table, puis le vote de {voter} à nouveau.",
            (voter,) if voter else (),
        )

    def debate(self, number: int, minutes: int, left: float | None) -> None:
        """The debate's timer before day `number`'s vote; a resumed game goes on with the time that was left
        (the heartbeat's)."""
        voice, prompts = self.host.voice, self.host.prompts
        if left is None:
            voice.ask_items(to_items(self.narration.debate_opening(prompts.duration(minutes * 60))))  # « répète »
        else:
            voice.tell(prompts.line("resumed_debate", time=prompts.duration(left)))
        self.host.debate(Debate.of(minutes, self.narration.reminders), left, day=number)
        voice.tell(*self.narration.vote)
