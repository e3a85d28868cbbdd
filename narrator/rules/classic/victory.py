"""Who has won, checked after every death's cascade, change of camp and vote (003 "Conditions de victoire").

The three conditions exclude one another, so their order only fixes the reading; it is the
order `check` tries them in:

1. The lovers of two camps are the last two alive (003: "ils doivent rester les deux derniers
   survivants pour gagner ensemble"; 002: "ils doivent éliminer tous les autres joueurs").
2. Every living player is of the village: no wolf and no couple of opposite camps is left (003:
   "Le Village gagne quand tous les Loups sont morts"). Nobody left alive at all also reads so:
   the wolves are all dead, and a camp wins with its dead (RULINGS thiercelieux 7).
3. The wolves' camp is at least as many as everyone else alive (003: "les Loups gagnent quand ils
   sont aussi nombreux que les villageois restants"; RULINGS thiercelieux 1), with one wolf left
   at least. A wolf in love with a villager is of the lovers' camp, not the pack's, for this count.
"""

from __future__ import annotations

from dataclasses import replace

from narrator.rules.classic.model import Camp, State
from narrator.rules.classic.turn import Turn


def check(state: State) -> Camp | None:
    """The winning camp at this moment, or None while the game goes on."""
    living = state.living()
    camps = [state.camp_of(p) for p in living]
    if state.lovers and state.camp_of(state.lovers[0]) is Camp.LOVERS and set(living) == set(state.lovers):
        return Camp.LOVERS
    if all(c is Camp.VILLAGE for c in camps):
        return Camp.VILLAGE
    wolves = sum(1 for c in camps if c is Camp.WOLVES)
    if wolves and wolves >= len(living) - wolves:
        return Camp.WOLVES
    return None


def settle(turn: Turn, state: State) -> State:
    """Check victory now; a win is said once and ends the game."""
    if state.winner is not None:
        return state
    camp = check(state)
    if camp is None:
        return state
    if camp is Camp.LOVERS:
        turn.say("lovers_win", names=list(state.lovers))
    elif camp is Camp.VILLAGE:
        turn.say("village_wins")
    else:
        turn.say("wolves_win")
    return replace(state, winner=camp)


def winners(state: State) -> list[str]:
    """The winning players in seating order, the dead included (RULINGS thiercelieux 6 and 7)."""
    if state.winner is None:
        return []
    if state.winner is Camp.LOVERS:
        return [p for p in state.players if p in state.lovers]
    return [p for p in state.players if state.camp_of(p) is state.winner]
