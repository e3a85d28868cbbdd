"""The whole game: the table dealt, then night 1, day 1, night 2… until a camp wins or the phases run out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from narrator.rules.classic.asks import Decider, Words
from narrator.rules.classic.day import SECOND_VOTES, play_day
from narrator.rules.classic.model import PhaseReport, Power, Role, Rules, State
from narrator.rules.classic.night import play_night
from narrator.rules.classic.record import Phase, Record, RecordDecider
from narrator.rules.classic.turn import Turn
from narrator.rules.classic.victory import winners
from narrator.rules.errors import RecordError
from narrator.rules.phase import label
from narrator.rules.reason import Reason

Listener = Callable[[Reason], None]


@dataclass(frozen=True, slots=True)
class Outcome:
    phases: tuple[PhaseReport, ...]
    state: State
    winners: tuple[str, ...]
    why: tuple[Reason, ...]


def start(rules: Rules, record: Record) -> State:
    """The table as dealt: every player alive, in the camp of his card."""
    camps = tuple(rules.roles[r].camp for r in record.roles)
    alive = tuple(True for _ in record.players)
    return State(
        record.players,
        record.roles,
        camps,
        alive,
        options=record.options,
        sides=camps,
        extra=record.extra,
        groups=record.groups,
    )


def play_phase(
    rules: Rules, state: State, kind: str, number: int, decider: Decider, listener: Listener | None = None
) -> tuple[State, PhaseReport]:
    """One night (with its morning) or one day, its questions answered by `decider`; `listener` hears each
    reason as it happens (a table speaks the morning's deaths before it asks the hunter whom he shoots)."""
    turn = Turn(rules, decider, kind, number, listener=listener)
    state = play_night(turn, state) if kind == "night" else play_day(turn, state)
    return state, turn.report()


def play(rules: Rules, record: Record, words: Words) -> Outcome:
    """Every phase of a checked record, in order; raise `RecordError` where a phase breaks the rules,
    its reasons worded by `words`."""
    state = start(rules, record)
    reports: list[PhaseReport] = []
    for phase in record.phases:
        if state.winner is not None:
            # the game ends at the first victory: phases given after it are an error
            last = reports[-1]
            over = Reason("over", {"camp": state.winner.value, "phase": label(last.kind, last.number)})
            raise RecordError(phase.path[:2], words(over), phase.kind)
        decider = RecordDecider(phase, words)
        before = state
        state, report = play_phase(rules, state, phase.kind, phase.number, decider)
        decider.close(partial(why_not_asked, rules, before, state, phase))
        reports.append(report)
    won = tuple(winners(state))
    why = [reason for report in reports for reason in report.why]
    why.append(Reason("winners", {"names": list(won)}) if state.winner is not None else Reason("goes_on"))
    return Outcome(tuple(reports), state, won, tuple(why))


def why_not_asked(rules: Rules, before: State, after: State, phase: Phase, key: str) -> Reason:
    """Why the game did not ask for `key` in this phase (worded in the error that refuses it)."""
    key, _, field = key.partition(".")
    role = rules.roles.get(key)
    if role is not None:
        return _why_not_role(rules, before, after, phase, role, field)
    if key == "successor":
        return Reason("not_asked_successor")
    if key == "captain":
        if not before.options.captain:
            return Reason("not_asked_no_captain")
        return Reason("not_asked_captain")
    if key == "tiebreak":
        return Reason("not_asked_tiebreak")
    if key == "revote":
        return Reason("not_asked_revote")
    if key == SECOND_VOTES:
        return Reason("not_asked_second_votes")
    if after.winner is not None:
        return Reason("not_asked_over")
    return Reason("not_asked_now")


def _why_not_role(rules: Rules, before: State, after: State, phase: Phase, role: Role, field: str) -> Reason:
    holders = before.holders(role.id)
    if role.power in (Power.STEAL, Power.MODEL, Power.CHOOSE) and phase.number != 1:
        # said first: after the first night the voleur's card may lie undealt, the chien-loup's is gone
        return Reason("not_asked_first_night", {"role": role.id})
    if not holders:
        if role.id in before.extra and any(rules.roles[r].power is Power.PERFORM for r in before.roles):
            return Reason("not_asked_performed", {"role": role.id})
        if role.id in before.extra:
            return Reason("not_asked_undealt", {"role": role.id})
        return Reason("not_asked_nobody", {"role": role.id})
    living = [h for h in holders if before.is_alive(h)]
    power = role.power
    if not living:
        return Reason("not_asked_dead", {"name": holders[0], "role": role.id})  # 002: "Il ne pourront plus communiquer"
    if power is Power.SHOOT:
        return Reason("not_asked_shoot", {"role": role.id})
    if power is Power.DEVOTE:
        return Reason("not_asked_devote")
    if power is Power.SCAPEGOAT:
        return Reason("not_asked_scapegoat")
    if power is Power.PAIR and phase.number != 1:
        return Reason("not_asked_pair", {"role": role.id})
    if living[0] in before.powerless:
        return Reason("not_asked_powerless", {"name": living[0], "role": role.id})
    if power is Power.DEVOUR:
        return Reason("not_asked_devour")
    if power is Power.BETRAY and phase.number % 2:
        return Reason("not_asked_betray_odd")
    if power is Power.BETRAY:
        return Reason("not_asked_betray")
    if power is Power.SECOND and before.wolf_died:
        return Reason("not_asked_second")
    if power is Power.SNIFF and role.id in before.spent:
        return Reason("not_asked_sniff")
    if power in (Power.INFECT, Power.STUTTER) and role.id in before.spent:
        return Reason("not_asked_spent", {"role": role.id})
    if power is Power.INFECT:
        return Reason("not_asked_infect")
    if power is Power.FIRE:
        if role.id in before.spent:
            return Reason("not_asked_fired")
        if field == "ignite":
            return Reason("not_asked_ignite")
        if field == "douse":
            return Reason("not_asked_douse")
    if after.winner is not None:
        return Reason("not_asked_over")
    return Reason("not_asked_now")
