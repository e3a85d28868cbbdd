"""Where a journaled game stands: replaying its events gives the step to resume at (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from narrator.listen.commands import Command
from narrator.rules.onenight import Vote
from narrator.rules.onenight.model import COPY_PREFIX
from narrator.table import events as ev
from narrator.table.replay import UndoRule, replay


@dataclass
class Progress:
    """A game's state as its journal tells it."""

    stage: str = "night"  # night, debate, vote, cards, verdict, done
    night_at: float = 0.0  # seconds of the night's audio already heard
    debate_left: float | None = None  # None: the debate has not started
    inputs: list[Command] = field(default_factory=list)  # the vote's inputs so far, not yet confirmed
    vote: Vote | None = None
    cards: dict[str, str] = field(default_factory=dict)
    cards_confirmed: bool = False
    pointing: dict[str, str | None] = field(default_factory=dict)
    choices: dict[str, dict[str, object]] = field(default_factory=dict)  # with the phones: each player's night choice


# « annule » takes back the latest of these left: the debate's early end, a ballot or a tally, the whole
# vote, a card, all the cards, a pointing; never a ballot of a round « non » at the read-back threw away
UNDO = UndoRule(
    takes=(ev.DebateOver, ev.VoteInput, ev.Vote, ev.Card, ev.Cards, ev.Pointing), closes_ballots=(ev.VotesAgain,)
)


def progress(events: Sequence[ev.Event]) -> Progress:
    """Replay journal events (in order) into the point where the game goes on; an « undo » replays all but
    the input it takes back. A « stop » changes nothing: the game goes on where it was."""
    state = Progress()
    for event in replay(events, UNDO).events():
        match event:
            case ev.NightChoice(player=player, choice=choice):
                state.choices[player] = dict(choice)
            case ev.Tick(phase="night", at=at) if at is not None:
                state.night_at = float(at)
            case ev.NightDone():
                state.stage = "debate"
            case ev.Tick(phase="debate", left=left) if left is not None:
                state.debate_left = float(left)
            case ev.MoreTime(seconds=seconds) if state.debate_left is not None:
                state.debate_left += seconds
            case ev.DebateOver():
                state.stage = "vote"
            case ev.VoteInput():
                state.inputs.append(event.command())
            case ev.VotesAgain():
                state.inputs.clear()
            case ev.Vote(counts=counts, pointing=pointing):
                state.vote = Vote(counts, pointing)
                state.stage = "cards"
            case ev.Card(player=player, role=role):
                state.cards[player] = role
            case ev.Cards(cards=cards):
                state.cards = dict(cards)
                state.cards_confirmed = True
                state.stage = "verdict"
            case ev.Pointing(player=player, target=target):
                state.pointing[player] = target
            case ev.Outcome():
                state.stage = "done"
    return state


def off_the_table(events: Sequence[ev.Event], players: Sequence[str], in_play: Sequence[str]) -> tuple[int, str] | None:
    """The first journaled input that names a player not at the table, or a card not in the game (an edited
    journal): its index in `events` and why, in French. The events' shapes are checked by events.py."""
    seats, cards = list(players), set(in_play)

    def stranger(*names: str | None) -> str | None:
        return next((n for n in names if n is not None and n not in seats), None)

    for index, event in enumerate(events):
        named: list[str | None] = []
        roles: list[str] = []
        match event:
            case ev.VoteInput(voter=voter, target=target):
                named = [voter, target]
            case ev.Vote(counts=counts, pointing=pointing):
                named = [*counts, *pointing, *pointing.values()]
            case ev.Card(player=player, role=role):
                named, roles = [player], [role]
            case ev.Cards(cards=dealt):
                named, roles = [*dealt], [*dealt.values()]
                if set(dealt) != set(seats):
                    return index, f"« cards » : attendu : la carte de chaque joueur, {', '.join(seats)}"
            case ev.Pointing(player=player, target=target):
                named = [player, target]
            case ev.NightChoice(player=player, choice=choice):
                named = [player]
                if not isinstance(choice, dict):
                    return index, f"« {event.kind} » : attendu : le choix de {player} (un objet)"
        who = stranger(*named)
        if who is not None:
            return index, f"« {event.kind} » : {who} n'est pas un joueur de la partie ({', '.join(seats)})"
        for role in roles:
            plain, _, copied = role.partition(COPY_PREFIX)
            if (plain or "doppelganger") not in cards or (copied and copied not in cards):
                return index, f"« {event.kind} » : pas de carte {role} dans cette partie ({', '.join(sorted(cards))})"
    return None
