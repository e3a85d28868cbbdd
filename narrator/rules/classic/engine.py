"""The whole game: the table dealt, then night 1, day 1, night 2… until a camp wins or the phases run out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from narrator.rules.classic.asks import Decider
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


def play(rules: Rules, record: Record) -> Outcome:
    """Every phase of a checked record, in order; raise `RecordError` where a phase breaks the rules."""
    state = start(rules, record)
    reports: list[PhaseReport] = []
    for phase in record.phases:
        if state.winner is not None:
            # formats/game-record.md: "The game ends at the first victory: phases given after it are an error."
            last = reports[-1]
            expected = f"rien : la partie est finie ({state.winner.value} a gagné, {label(last.kind, last.number)})"
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
    key, _, field = key.partition(".")
    role = rules.roles.get(key)
    if role is not None:
        return _why_not_role(rules, before, after, phase, role, field)
    if key == "successor":
        return "aucun capitaine n'est mort pendant cette phase"
    if key == "captain":
        if not before.options.captain:
            return "cette partie se joue sans capitaine (options.captain)"
        return "le capitaine n'est élu que le premier jour"
    if key == "tiebreak":
        return "pas d'égalité que le capitaine doive départager"
    if key == "revote":
        return "pas d'égalité sans capitaine"
    if key == SECOND_VOTES:
        return "le juge bègue n'a pas provoqué de second vote"
    if after.winner is not None:
        return "la partie est finie"
    return "ce choix n'est pas demandé à ce moment de la partie"


def _why_not_role(rules: Rules, before: State, after: State, phase: Phase, role: Role, field: str) -> str:
    holders = before.holders(role.id)
    if role.power in (Power.STEAL, Power.MODEL, Power.CHOOSE) and phase.number != 1:
        # said first: after the first night the voleur's card may lie undealt, the chien-loup's is gone
        return f"{role.name} : ce personnage ne choisit que la première nuit"
    if not holders:
        if role.id in before.extra and any(rules.roles[r].power is Power.PERFORM for r in before.roles):
            return f"le comédien n'a pas pris le pouvoir de la carte {role.name} cette nuit"
        if role.id in before.extra:
            return f"la carte {role.name} est restée parmi les cartes non distribuées"
        return f"personne n'est {role.name} dans cette partie"
    living = [h for h in holders if before.is_alive(h)]
    power = role.power
    if not living:
        return f"{holders[0]}, {role.name}, n'est plus en vie"  # 002: "Il ne pourront plus communiquer"
    if power is Power.SHOOT:
        return f"le {role.name} n'est pas mort pendant cette phase, ou personne ne peut recevoir son tir"
    if power is Power.DEVOTE:
        return "aucun joueur éliminé pendant cette phase dont la servante puisse prendre la place sous ce nom"
    if power is Power.SCAPEGOAT:
        return "le bouc émissaire n'a pas été éliminé sur une égalité pendant cette phase"
    if power is Power.PAIR and phase.number != 1:
        return f"{role.name} ne désigne les amoureux que la première nuit"
    if living[0] in before.powerless:
        return f"{living[0]}, {role.name}, a perdu son pouvoir avec l'ancien"
    if power is Power.DEVOUR:
        return "les loups-garous n'ont aucune victime possible"
    if power is Power.BETRAY and phase.number % 2:
        return "le loup-garou blanc ne dévore qu'une nuit sur deux : les nuits 2, 4…"
    if power is Power.BETRAY:
        return "le loup-garou blanc n'a aucun autre loup-garou à dévorer (jamais son amour)"
    if power is Power.SECOND and before.wolf_died:
        return "un loup-garou est déjà mort : le grand méchant loup ne dévore plus de seconde victime"
    if power is Power.SNIFF and role.id in before.spent:
        return "le renard a perdu son flair"
    if power in (Power.INFECT, Power.STUTTER) and role.id in before.spent:
        return f"{role.name} : un pouvoir à usage unique, déjà utilisé"
    if power is Power.INFECT:
        return "pas de victime des loups-garous à infecter cette nuit"
    if power is Power.FIRE:
        if role.id in before.spent:
            return "le pyromane a déjà mis le feu"
        if field == "ignite":
            return "aucun joueur aspergé n'est en vie"
        if field == "douse":
            return "le pyromane met le feu cette nuit : il n'asperge personne"
    if after.winner is not None:
        return "la partie est finie"
    return "ce choix n'est pas demandé à ce moment de la partie"
