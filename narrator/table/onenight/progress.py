"""Where a journaled game stands: replaying its events gives the step to resume at (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from narrator.listen.commands import Command
from narrator.rules.onenight import Vote
from narrator.rules.onenight.model import COPY_PREFIX
from narrator.table import events as ev


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


UNDOABLE = (ev.StartVote, ev.VoteInput, ev.Vote, ev.Card, ev.Cards, ev.Pointing)


def undoable(events: list[dict]) -> ev.Event | None:
    """The input « annule » would take back, if any."""
    return next((e for e in reversed(_without_undone(events)) if isinstance(e, UNDOABLE)), None)


def _without_undone(events: list[dict]) -> list[ev.Event]:
    """The events, checked, less every input an « undo » took back (each undo takes the latest one left)."""
    kept: list[ev.Event] = []
    for event in map(ev.check, events):
        if not isinstance(event, ev.Undo):
            kept.append(event)
            continue
        for i in range(len(kept) - 1, -1, -1):
            if isinstance(kept[i], UNDOABLE):
                del kept[i]
                break
    return kept


def progress(events: list[dict]) -> Progress:
    """Replay journal events (in order) into the point where the game goes on; an « undo » replays all but
    the input it takes back. A « stop » changes nothing: the game goes on where it was."""
    state = Progress()
    for event in _without_undone(events):
        match event:
            case ev.Tick(phase="night", at=at) if at is not None:
                state.night_at = float(at)
            case ev.NightDone():
                state.stage = "debate"
            case ev.Tick(phase="debate", left=left) if left is not None:
                state.debate_left = float(left)
            case ev.MoreTime(seconds=seconds) if state.debate_left is not None:
                state.debate_left += seconds
            case ev.StartVote() | ev.DebateDone():
                state.stage = "vote"
            case ev.VoteInput(command=command) if command is not None:
                state.inputs.append(Command(**command))
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


def off_the_table(events: list[dict], players: Sequence[str], in_play: Sequence[str]) -> tuple[int, str] | None:
    """The first journaled input that names a player not at the table, or a card not in the game (an edited
    journal): its index in `events` and why, in French. The events' shapes are checked by events.py."""
    seats, cards = list(players), set(in_play)

    def stranger(*names: str | None) -> str | None:
        return next((n for n in names if n is not None and n not in seats), None)

    for index, event in enumerate(map(ev.check, events)):
        named: list[str | None] = []
        roles: list[str] = []
        match event:
            case ev.VoteInput(command=command) if command is not None:
                named = [name for key in ("voter", "target") if isinstance(name := command.get(key), str)]
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
        who = stranger(*named)
        if who is not None:
            return index, f"« {event.kind} » : {who} n'est pas un joueur de la partie ({', '.join(seats)})"
        for role in roles:
            plain, _, copied = role.partition(COPY_PREFIX)
            if (plain or "doppelganger") not in cards or (copied and copied not in cards):
                return index, f"« {event.kind} » : pas de carte {role} dans cette partie ({', '.join(sorted(cards))})"
    return None
