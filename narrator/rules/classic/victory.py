"""Who has won, checked after every death's cascade, change of camp and vote (003 "Conditions de victoire").

The order `check` tries the conditions in:

1. The ange devoured the first night or voted out at the first vote (003: "Il gagne s'il est éliminé
   dès le premier tour de vote ou dévoré la première nuit"; RULINGS 14: his win ends the game).
2. The lovers of two camps are the last two alive (003: "ils doivent rester les deux derniers
   survivants pour gagner ensemble"; 002: "ils doivent éliminer tous les autres joueurs").
3. 003's other lone characters, each alone (003: "Les Solitaires … ont leur propre condition de
   victoire"), while his card's camp is his own (in love across camps, his goal is the lovers'):
   the joueur de flûte alive with every other survivor charmed (RULINGS 13); the loup-garou blanc
   the only survivor ("Il doit rester seul survivant"); the abominable sectaire alive with every
   player of the other group dead ("Il gagne si tous les joueurs de l'autre groupe sont morts").
4. Every living player is of the village: no wolf, no lone character and no couple of opposite
   camps is left (003: "Le Village gagne quand tous les Loups sont morts"; the white wolf: RULINGS
   8; the other lone characters unless options.loners_block_village is off). Nobody left alive at
   all also reads so: the wolves are all dead, and a camp wins with its
   dead (RULINGS thiercelieux 7).
5. The wolves' camp is at least as many as everyone else alive (003: "les Loups gagnent quand ils
   sont aussi nombreux que les villageois restants"; RULINGS thiercelieux 1), with one wolf left
   at least. A wolf in love with a villager is of the lovers' camp, not the pack's, for this count;
   the loup-garou blanc is of his own (RULINGS 8: "he does not count with the wolves for their parity").
"""

from __future__ import annotations

from dataclasses import replace

from narrator.rules.classic.model import Camp, State
from narrator.rules.classic.turn import Turn

# the lone characters who are no wolf: with options.loners_block_village off, they do not keep the
# village from winning (the white wolf always does, RULINGS 8)
LONERS = (Camp.ANGEL, Camp.PIPER, Camp.SECT)
LONE_WINS = {
    Camp.ANGEL: "angel_wins",
    Camp.PIPER: "piper_wins",
    Camp.WHITE_WOLF: "white_wolf_wins",
    Camp.SECT: "sect_wins",
}


def check(state: State) -> Camp | None:
    """The winning camp at this moment, or None while the game goes on."""
    living = state.living()
    camps = [state.camp_of(p) for p in living]
    if state.heaven is not None:
        return Camp.ANGEL
    if state.lovers and state.camp_of(state.lovers[0]) is Camp.LOVERS and set(living) == set(state.lovers):
        return Camp.LOVERS
    for player, camp in zip(living, camps):
        if camp is Camp.PIPER and all(p in state.charmed for p in living if p != player):
            return Camp.PIPER
        if camp is Camp.WHITE_WOLF and living == [player]:
            return Camp.WHITE_WOLF
        if camp is Camp.SECT and state.groups:
            group = state.group_of(player)
            if all(not state.is_alive(p) for p in state.players if state.group_of(p) != group):
                return Camp.SECT
    village = {Camp.VILLAGE} if state.options.loners_block_village else {Camp.VILLAGE, *LONERS}
    if all(c in village for c in camps):
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
    elif camp in LONE_WINS:
        turn.say(LONE_WINS[camp], names=winners(replace(state, winner=camp)))
    elif camp is Camp.VILLAGE:
        turn.say("village_wins")
    else:
        turn.say("wolves_win")
    return replace(state, winner=camp)


def winners(state: State) -> list[str]:
    """The winning players in seating order, the dead included (RULINGS thiercelieux 6 and 7); a lone
    character wins alone."""
    if state.winner is None:
        return []
    if state.winner is Camp.LOVERS:
        return [p for p in state.players if p in state.lovers]
    if state.winner is Camp.ANGEL:
        return [p for p in state.players if p == state.heaven]
    if state.winner in LONE_WINS:
        # "il gagne seul": the one alive (a servante who took a lone card leaves its first holder dead)
        return [p for p in state.living() if state.camp_of(p) is state.winner]
    return [p for p in state.players if state.camp_of(p) is state.winner]
