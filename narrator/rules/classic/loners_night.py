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
from narrator.rules.reason import Reason


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
        context=Reason("ask_he_wakes", {"role": role.id, "name": piper}),
        expected=Reason("expect_charm", {"count": count}) if count == 2 else Reason("expect_charm_last"),
        screen=Reason("screen_charm"),
        choices=choices,
        count=count,
        by=(piper,),
        notes=((piper, SELF),) + tuple((p, Reason("note_charmed")) for p in state.charmed),
    )
    charmed = turn.decider.players(ask)
    if not charmed:
        return state
    turn.say("charmed", names=list(charmed))
    return replace(state, charmed=state.charmed + charmed)
