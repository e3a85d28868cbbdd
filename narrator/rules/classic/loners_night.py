"""The lone characters' night powers: the joueur de flûte's charm.

A night step (classic/night.py, `STEPS`). The loup-garou blanc, a loner too, wakes with the pack
(wolves_night.py).
"""

from __future__ import annotations

from dataclasses import replace

from narrator.rules.classic.asks import SELF, Ask, Kind
from narrator.rules.classic.dark import Dark, actor
from narrator.rules.classic.model import Role, State
from narrator.rules.classic.turn import Turn


def charm(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Joueur de Flûte: "Chaque nuit il enchante deux joueurs." Two who are not yet charmed, not
    # himself; fewer when fewer are left.
    piper = actor(turn, state, dark, role)
    if piper is None:
        return state
    choices = tuple(p for p in state.living() if p != piper and p not in state.charmed)
    if not choices:
        return state
    count = min(2, len(choices))
    ask = Ask(
        role.id,
        Kind.PLAYERS,
        forced=False,
        context=f"le {role.name} {piper} se réveille",
        expected=f"les {count} joueurs que le joueur de flûte enchante : [X, Y], en vie, pas encore enchantés"
        if count == 2
        else "le dernier joueur à enchanter : [X]",
        screen="les joueurs que le joueur de flûte enchante, pas encore enchantés",
        choices=choices,
        count=count,
        notes=((piper, SELF),) + tuple((p, "déjà sous le charme") for p in state.charmed),
    )
    charmed = turn.decider.players(ask)
    if not charmed:
        return state
    turn.say("charmed", names=list(charmed))
    return replace(state, charmed=state.charmed + charmed)
