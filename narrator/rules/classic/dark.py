"""What a night has decided so far (`Dark`), and who acts in it: the helpers every night step shares."""

from __future__ import annotations

from dataclasses import dataclass

from narrator.rules.classic.asks import Ask, Kind
from narrator.rules.classic.model import Role, State
from narrator.rules.classic.turn import Turn
from narrator.rules.reason import Reason


@dataclass
class Dark:
    """What the night has decided so far, before the morning reveals it."""

    victim: str | None = None  # the pack's victim, or the caught petite fille in its place
    caught: bool = False
    healed: bool = False
    poisoned: str | None = None
    guarded: str | None = None  # the salvateur's protection tonight
    second: str | None = None  # the grand méchant loup's victim
    betrayed: str | None = None  # the loup-garou blanc's victim
    fire: bool = False  # the pyromane sets the doused on fire


def holder(turn: Turn, state: State, rid: str) -> str | None:
    """The living player with a one-card role's power (its holder, or the comédien who took the card
    tonight), if he still has his powers."""
    player = next((p for p in turn.rules.acting(state, rid) if state.is_alive(p)), None)
    return None if player is None or player in state.powerless else player


def actor(turn: Turn, state: State, dark: Dark, role: Role) -> str | None:
    """Who acts as `role` tonight: its living holder with his power, or the comédien who took it."""
    return holder(turn, state, role.id)


def spare(state: State, player: str) -> str | None:
    """The beloved a lover may not harm (options.lovers_spare_each_other)."""
    return state.beloved(player) if state.options.lovers_spare_each_other else None


def choose_player(
    turn: Turn,
    role: Role,
    *,
    by: tuple[str, ...],
    context: Reason,
    expected: Reason,
    choices: tuple[str, ...],
    forced: bool = False,
    notes: tuple[tuple[str, Reason], ...] = (),
    field: str = "",
    screen: Reason | None = None,
) -> str | None:
    """The one player `role` chooses now, asked under its id of `by`, who act as it; None when the power is
    not used (a night power is not forced unless the rules say so)."""
    ask = Ask(
        role.id,
        Kind.PLAYER,
        context,
        expected,
        forced=forced,
        choices=choices,
        notes=notes,
        field=field,
        screen=screen,
        by=by,
    )
    return turn.decider.player(ask)
