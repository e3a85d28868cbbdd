"""The whole game: the table dealt, then night 1, day 1, night 2… until a camp wins or the phases run out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from narrator.rules.classic.asks import Decider
from narrator.rules.classic.day import play_day
from narrator.rules.classic.model import PhaseReport, Power, Reason, Rules, State
from narrator.rules.classic.night import play_night
from narrator.rules.classic.record import Phase, Record, RecordDecider
from narrator.rules.classic.turn import Turn
from narrator.rules.classic.victory import winners
from narrator.rules.errors import RecordError

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
    return State(record.players, record.roles, camps, alive, options=record.options)


def play_phase(
    rules: Rules, state: State, kind: str, number: int, decider: Decider, listener: Listener | None = None
) -> tuple[State, PhaseReport]:
    """One night (with its morning) or one day, its questions answered by `decider`; `listener` hears each
    reason as it happens (a table speaks the morning's deaths before it asks the hunter whom he shoots)."""
    turn = Turn(rules, decider, kind, number, listener=listener)
    state = play_night(turn, state) if kind == "night" else play_day(turn, state)
    return state, turn.report()


def play(rules: Rules, record: Record) -> Outcome:
    """Every phase of a checked record, in order; raise `RecordError` where a phase breaks the rules."""
    state = start(rules, record)
    reports: list[PhaseReport] = []
    for phase in record.phases:
        if state.winner is not None:
            # formats/game-record.md: "The game ends at the first victory: phases given after it are an error."
            last = reports[-1]
            label = f"{'nuit' if last.kind == 'night' else 'jour'} {last.number}"
            expected = f"rien : la partie est finie ({state.winner.value} a gagné, {label})"
            raise RecordError(phase.path[:2], expected, phase.kind)
        decider = RecordDecider(phase)
        before = state
        state, report = play_phase(rules, state, phase.kind, phase.number, decider)
        decider.close(partial(why_not_asked, rules, before, state, phase))
        reports.append(report)
    won = tuple(winners(state))
    why = [reason for report in reports for reason in report.why]
    why.append(Reason("winners", {"names": list(won)}) if state.winner is not None else Reason("goes_on"))
    return Outcome(tuple(reports), state, won, tuple(why))


def why_not_asked(rules: Rules, before: State, after: State, phase: Phase, key: str) -> str:
    """Why the game did not ask for `key` in this phase (said in the error that refuses it)."""
    role = rules.roles.get(key)
    if role is not None:
        holders = before.holders(key)
        if not holders:
            return f"personne n'est {role.name} dans cette partie"
        if not any(before.is_alive(h) for h in holders):
            return f"{holders[0]}, {role.name}, n'est plus en vie"  # 002: "Il ne pourront plus communiquer"
        if role.power is Power.SHOOT:
            return f"le {role.name} n'est pas mort pendant cette phase, ou personne ne peut recevoir son tir"
        if role.power is Power.PAIR:
            return f"{role.name} ne désigne les amoureux que la première nuit"
        if role.power is Power.DEVOUR:
            return "les loups-garous n'ont aucune victime possible"
    elif key == "successor":
        return "aucun capitaine n'est mort pendant cette phase"
    elif key == "captain":
        if not before.options.captain:
            return "cette partie se joue sans capitaine (options.captain)"
        return "le capitaine n'est élu que le premier jour"
    elif key == "tiebreak":
        return "pas d'égalité que le capitaine doive départager"
    elif key == "revote":
        return "pas d'égalité sans capitaine"
    if after.winner is not None:
        return "la partie est finie"
    return "ce choix n'est pas demandé à ce moment de la partie"
