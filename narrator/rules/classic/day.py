"""A day: the captain's election (day 1), the vote, its tie-break or revote, the cascade (002 steps 5 and 6).

003's characters: the corbeau's two votes open the vote; on a tie the bouc émissaire dies before any
tie-break (RULINGS thiercelieux 16); the idiot voted out is pardoned; the ange not eliminated by the
first day's vote becomes a simple villager; the juge bègue may call a second vote right after the
first. Only the players allowed to vote cast a ballot: not a pardoned idiot, and on the day after
the bouc émissaire's death only those he named (RULINGS 17).
"""

from __future__ import annotations

from dataclasses import replace

from narrator.rules.classic.asks import Ask, Kind
from narrator.rules.classic.death import blow, spared_note
from narrator.rules.classic.model import Camp, Cause, Power, State
from narrator.rules.classic.turn import Turn
from narrator.rules.classic.victory import settle
from narrator.rules.reason import Reason

SECOND_VOTES = "second_votes"


def play_day(turn: Turn, state: State) -> State:
    """Day `turn.number`: debate and vote; victory is checked after the vote, whoever died."""
    turn.say("day", number=turn.number)
    if turn.number == 1 and state.options.captain:
        # RULINGS thiercelieux 2: "The captain is elected on the first day (an input)."
        ask = Ask(
            "captain",
            Kind.PLAYER,
            context=Reason("ask_captain"),
            expected=Reason("expect_captain"),
            choices=tuple(state.living()),
        )
        captain = turn.decider.player(ask)
        if captain is not None:
            state = replace(state, captain=captain)
            turn.say("captain_elected", name=captain)
    turn.first_vote = True
    victim, cause = _vote(turn, state, "votes", first=True)
    state = _eliminate(turn, state, victim, cause, check=False)
    turn.first_vote = False
    if turn.number == 1 and state.heaven is None:
        state = _angel_stays(turn, state)
    state = settle(turn, state)  # 003: victory "après … chaque vote"
    state = _stutter(turn, state)
    return settle(turn, replace(state, raven=None))


def _eliminate(turn: Turn, state: State, victim: str | None, cause: Cause, check: bool = True) -> State:
    if victim is None:
        return state
    role = turn.rules.roles[state.role_of(victim)]
    if (
        cause is Cause.VOTED
        and role.power is Power.PARDON
        and victim not in state.pardoned
        and victim not in state.powerless
    ):
        # 003, Idiot du Village: "S'il est éliminé par le vote, il est gracié : il reste en vie mais perd
        # son droit de vote." Voted out again, he dies (RULINGS 18).
        turn.say("pardoned", name=victim)
        return replace(state, pardoned=state.pardoned + (victim,))
    return blow(turn, state, [(victim, cause, {})], check)


def _angel_stays(turn: Turn, state: State) -> State:
    # 003, Ange: "Sinon il devient Simple Villageois." — once the first day's vote is over, his card is
    # a villager's (RULINGS 15), dead or alive: a dead ange who did not win then wins with the village.
    for player in state.players:
        if turn.rules.roles[state.role_of(player)].power is Power.ANGEL and state.side_of(player) is Camp.ANGEL:
            state = state.with_role(player, turn.rules.villager).with_side(player, Camp.VILLAGE)
            turn.say("angel_stays", name=player)
    return state


def _stutter(turn: Turn, state: State) -> State:
    # 003, Juge Bègue: "Une fois par partie, il peut provoquer un second vote immédiatement après le premier."
    rid = turn.rules.keyed(Power.STUTTER)
    if rid is None or state.winner is not None or rid in state.spent:
        return state
    judge = next((p for p in state.holders(rid) if state.is_alive(p)), None)
    if judge is None or judge in state.powerless:
        return state
    ask = Ask(
        rid,
        Kind.YES_NO,
        forced=False,
        context=Reason("ask_stutter", {"role": rid, "name": judge}),
        expected=Reason("expect_stutter"),
        screen=Reason("screen_stutter"),
        by=(judge,),
    )
    if not turn.decider.yes(ask):
        return state
    state = replace(state, spent=state.spent | {rid})
    turn.say("second_vote", name=judge)
    victim, cause = _vote(turn, state, SECOND_VOTES, first=False)
    return _eliminate(turn, state, victim, cause)


def _vote(turn: Turn, state: State, key: str, first: bool) -> tuple[str | None, Cause]:
    """Who the vote eliminates, if anyone, and how. 002: "Le joueur qui a la majorité des voix est
    éliminé. La voix du Capitaine compte double." (RULINGS thiercelieux 2: the most votes)."""
    living = tuple(state.living())
    voters = tuple(state.voters(turn.number))
    # a captain who may not vote today (a pardoned idiot…) neither doubles nor breaks a tie
    captain = state.captain if state.captain in voters else None
    context = Reason("ask_vote" if first else "ask_second_vote")
    ballots = turn.decider.ballots(_ballots(turn, state, key, voters, context, living))
    marks: dict[str, int] = {}
    if first and state.raven is not None and state.is_alive(state.raven):
        # 003, Corbeau: "commencera le vote du lendemain avec deux voix contre lui"
        marks[state.raven] = 2
        turn.say("raven_votes", name=state.raven)
    if captain is not None and ballots.get(captain) is not None:
        turn.say("captain_double", name=captain)
    tied, top = _most(ballots, living, captain, marks)
    if top == 0:
        turn.say("no_votes")
        return None, Cause.VOTED
    if len(tied) == 1:
        turn.say("most_votes", name=tied[0], count=top)
        return tied[0], Cause.VOTED
    turn.say("tie", names=list(tied), count=top)
    rid = turn.rules.keyed(Power.SCAPEGOAT)
    goat = next((p for p in state.holders(rid) if state.is_alive(p)), None) if rid is not None else None
    if goat is not None and goat not in state.powerless:
        # 003, Bouc Émissaire: "En cas d'égalité au vote du village, c'est lui qui est éliminé." Before
        # any tie-break by the captain (RULINGS thiercelieux 16).
        return goat, Cause.SCAPEGOAT
    if captain is not None:
        # 002: "En cas d'égalité, s'il est présent, le vote du Capitaine désigne la victime." His
        # ballot, when it went to one of the tied, is that choice.
        own = ballots.get(captain)
        if not first:
            # the second vote has no tie-break key of its own: his ballot decides, or nobody goes
            if own is not None and own in tied:
                turn.say("tiebreak", captain=captain, name=own)
                return own, Cause.VOTED
            turn.say("still_tied")
            return None, Cause.VOTED
        spared = state.beloved(captain) if state.options.lovers_spare_each_other else None
        choices = (own,) if own in tied else tuple(p for p in tied if p != spared)
        ask = Ask(
            "tiebreak",
            Kind.PLAYER,
            context=Reason("ask_tiebreak", {"tied": tied, "name": captain}),
            expected=Reason("expect_tiebreak_own", {"name": own}) if own in tied else Reason("expect_tiebreak"),
            choices=tuple(c for c in choices if c is not None),
            notes=spared_note(spared),
            who=captain,
        )
        pick = turn.decider.player(ask)
        if pick is not None:
            turn.say("tiebreak", captain=captain, name=pick)
        return pick, Cause.VOTED
    if not first:
        turn.say("still_tied")  # the second vote is not revoted: one revote key per day
        return None, Cause.VOTED
    # 002: "Sinon, les joueurs votent à nouveau pour départager les ex-æquo (y compris les joueurs
    # en cause). S'il y a toujours égalité, aucun joueur n'est éliminé."
    turn.say("revote", names=list(tied))
    context = Reason("ask_revote", {"tied": tied})
    again = turn.decider.ballots(_ballots(turn, state, "revote", voters, context, tuple(tied)))
    tied, top = _most(again, living, None, {})
    if top == 0 or len(tied) > 1:
        turn.say("still_tied")
        return None, Cause.VOTED
    turn.say("most_votes", name=tied[0], count=top)
    return tied[0], Cause.VOTED


def _ballots(
    turn: Turn, state: State, key: str, voters: tuple[str, ...], context: Reason, targets: tuple[str, ...]
) -> Ask:
    """RULINGS thiercelieux 17: every living player allowed to vote casts a ballot; blank is null.
    RULINGS thiercelieux 19: "a ballot the rules forbid because of a secret (a lover against the beloved) is
    counted as said and shown to the operator alone, who may take it back": it is legal here, and `secret`."""
    spare = state.options.lovers_spare_each_other
    rows = tuple((voter, targets) for voter in voters)
    loved = {voter: state.beloved(voter) for voter in voters} if spare else {}
    secret = tuple((voter, beloved) for voter, beloved in loved.items() if beloved in targets)
    expected = Reason("expect_ballots", {"targets": targets})
    notes = []
    for player in state.living():
        if player in state.pardoned:
            notes.append((player, Reason("note_pardoned_voter")))
        elif player not in voters:
            notes.append((player, Reason("note_not_chosen")))
    # nobody allowed to vote (the bouc émissaire named nobody): there is nothing to ask
    return Ask(
        key,
        Kind.BALLOTS,
        forced=bool(rows),
        context=context,
        expected=expected,
        screen=Reason("screen_ballots", {"targets": targets}),  # a voter's phone: words, not the record's null
        ballots=rows,
        by=voters,
        secret=secret,
        notes=tuple(notes),
    )


def _most(
    ballots: dict[str, str | None], living: tuple[str, ...], captain: str | None, marks: dict[str, int]
) -> tuple[list[str], int]:
    counts = dict.fromkeys(living, 0)
    for marked, extra in marks.items():
        counts[marked] += extra
    for voter, target in ballots.items():
        if target is not None:
            counts[target] += 2 if voter == captain else 1
    top = max(counts.values(), default=0)
    return [p for p in living if counts[p] == top], top
