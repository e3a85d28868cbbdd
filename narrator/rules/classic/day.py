"""A day: the captain's election (day 1), the vote, its tie-break or revote, the cascade (002 steps 5 and 6)."""

from __future__ import annotations

from dataclasses import replace

from narrator.rules.classic.asks import Ask, Kind
from narrator.rules.classic.death import blow, spared_note
from narrator.rules.classic.model import Cause, State
from narrator.rules.classic.turn import Turn
from narrator.rules.classic.victory import settle


def play_day(turn: Turn, state: State) -> State:
    """Day `turn.number`: debate and vote; victory is checked after the vote, whoever died."""
    turn.say("day", number=turn.number)
    if turn.number == 1 and state.options.captain:
        # RULINGS thiercelieux 2: "The captain is elected on the first day (an input)."
        ask = Ask(
            "captain",
            Kind.PLAYER,
            context="le village élit son capitaine (options.captain)",
            expected="le capitaine élu, un joueur en vie",
            choices=tuple(state.living()),
        )
        captain = turn.decider.player(ask)
        if captain is not None:
            state = replace(state, captain=captain)
            turn.say("captain_elected", name=captain)
    victim = _vote(turn, state)
    if victim is not None:
        state = blow(turn, state, [(victim, Cause.VOTED, {})])
    return settle(turn, state)  # 003: victory "après … chaque vote"


def _vote(turn: Turn, state: State) -> str | None:
    """Who the vote eliminates, if anyone. 002: "Le joueur qui a la majorité des voix est éliminé.
    La voix du Capitaine compte double." (RULINGS thiercelieux 2: the most votes)."""
    living = tuple(state.living())
    captain = state.captain
    ballots = turn.decider.ballots(_ballots(state, "votes", living, "le village vote", living))
    if captain is not None and ballots.get(captain) is not None:
        turn.say("captain_double", name=captain)
    tied, top = _most(ballots, living, captain)
    if top == 0:
        turn.say("no_votes")
        return None
    if len(tied) == 1:
        turn.say("most_votes", name=tied[0], count=top)
        return tied[0]
    turn.say("tie", names=list(tied), count=top)
    if captain is not None:
        # 002: "En cas d'égalité, s'il est présent, le vote du Capitaine désigne la victime." His
        # ballot, when it went to one of the tied, is that choice.
        own = ballots.get(captain)
        spared = state.beloved(captain) if state.options.lovers_spare_each_other else None
        choices = (own,) if own in tied else tuple(p for p in tied if p != spared)
        why = f" ; son vote désigne {own}" if own in tied else ""
        ask = Ask(
            "tiebreak",
            Kind.PLAYER,
            context=f"égalité entre {', '.join(tied)} ; le capitaine {captain} départage",
            expected="le joueur que le capitaine désigne parmi les ex-æquo" + why,
            choices=tuple(c for c in choices if c is not None),
            notes=spared_note(spared),
            who=captain,
        )
        pick = turn.decider.player(ask)
        if pick is not None:
            turn.say("tiebreak", captain=captain, name=pick)
        return pick
    # 002: "Sinon, les joueurs votent à nouveau pour départager les ex-æquo (y compris les joueurs
    # en cause). S'il y a toujours égalité, aucun joueur n'est éliminé."
    turn.say("revote", names=list(tied))
    context = f"égalité entre {', '.join(tied)}, sans capitaine : le village revote"
    again = turn.decider.ballots(_ballots(state, "revote", living, context, tuple(tied)))
    tied, top = _most(again, living, None)
    if top == 0 or len(tied) > 1:
        turn.say("still_tied")
        return None
    turn.say("most_votes", name=tied[0], count=top)
    return tied[0]


def _ballots(state: State, key: str, voters: tuple[str, ...], context: str, targets: tuple[str, ...]) -> Ask:
    """RULINGS thiercelieux 17: every living player allowed to vote casts a ballot; blank is null."""
    spare = state.options.lovers_spare_each_other
    rows = []
    for voter in voters:
        beloved = state.beloved(voter) if spare else None
        rows.append((voter, tuple(t for t in targets if t != beloved)))
    expected = "le bulletin de chaque joueur en vie : un joueur parmi " + ", ".join(targets) + ", ou null (blanc)"
    if spare and state.lovers:
        expected += " ; jamais contre son amour (002 : « Un Amoureux ne doit jamais voter contre son aimé »)"
    return Ask(key, Kind.BALLOTS, context=context, expected=expected, ballots=tuple(rows))


def _most(ballots: dict[str, str | None], living: tuple[str, ...], captain: str | None) -> tuple[list[str], int]:
    counts = dict.fromkeys(living, 0)
    for voter, target in ballots.items():
        if target is not None:
            counts[target] += 2 if voter == captain else 1
    top = max(counts.values(), default=0)
    return [p for p in living if counts[p] == top], top
