"""A night and its morning (002 "Déroulement de la partie", steps 1 to 4, and 003's characters).

The roles wake in the script's order (`wake`: the published game's, RULINGS thiercelieux 18): the
first night's voleur, Cupidon, enfant sauvage, chien-loup, sœurs and frères; then every night the
comédien, salvateur, voyante, renard, the wolves with the petite fille spying, the infect père, the
loup-garou blanc, the grand méchant loup, the sorcière, the joueur de flûte, the corbeau and the
pyromane. Nobody dies during the night: its victims are revealed in the morning (003: "Les morts de
la nuit ne sont révélés qu'au matin"), so everyone who was alive at nightfall acts, the wolves'
victim included. The morning reveals the wolves' victims (the pack's or the caught petite fille,
the grand méchant loup's, the white wolf's) unless the salvateur, the potion of life or the
ancien's extra life stops them, then the poisoned, the burned and the wolf the chevalier's sword
wounded; the table hears them in seat order, in one sentence (RULINGS 23); their deaths' cascade follows
(classic/death.py), then the bear growls or not.

Each power's step lives with its kind: first_night.py, village_night.py, wolves_night.py and
loners_night.py; what they share (`Dark`, who acts) is in dark.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from narrator.rules.classic import first_night, loners_night, village_night, wolves_night
from narrator.rules.classic.dark import Dark, holder
from narrator.rules.classic.death import Victim, blow
from narrator.rules.classic.model import Cause, Power, Role, State
from narrator.rules.classic.turn import Turn
from narrator.rules.classic.victory import settle


def play_night(turn: Turn, state: State) -> State:
    """Night `turn.number` then its morning's announcements."""
    turn.say("night", number=turn.number)
    dark = Dark()
    for role in turn.rules.night_order():
        if state.winner is not None:
            return state
        if role.power is not None:
            state = STEPS[role.power](turn, state, dark, role)
    if state.winner is not None:
        return state
    state, victims = _dawn(turn, state, dark)
    if victims:
        state = blow(turn, state, victims, dawn=True)
    else:
        turn.say("quiet_night")
        state = settle(turn, state)
    if state.winner is None:
        state = _bear(turn, state)
    return replace(state, performing=None)


def _dawn(turn: Turn, state: State, dark: Dark) -> tuple[State, list[Victim]]:
    """Who dies at dawn, in the order the morning reveals them."""
    victims: list[Victim] = []

    def attack(player: str | None, cause: Cause) -> None:
        nonlocal state
        if player is None:
            return
        if player == dark.guarded:
            # 003, Salvateur: "il protège un joueur de l'attaque des Loups-Garous"
            turn.say("guard_saves", name=player)
            return
        for role in turn.rules.cards(state, player):
            if role.power is Power.LIFE and role.id not in state.spent and player not in state.powerless:
                # 003, Ancien: "Il survit à la première attaque des Loups-Garous." (RULINGS 9)
                state = replace(state, spent=state.spent | {role.id})
                turn.say("elder_resists", name=player)
                return
        victims.append((player, cause, {}))

    if dark.victim is not None and not dark.healed:
        attack(dark.victim, Cause.CAUGHT if dark.caught else Cause.DEVOURED)
    attack(dark.second, Cause.GREEDY)
    attack(dark.betrayed, Cause.BETRAYED)
    if dark.poisoned is not None:
        victims.append((dark.poisoned, Cause.POISONED, {}))
    if dark.fire:
        victims += [(p, Cause.BURNED, {}) for p in state.doused if state.is_alive(p)]
    if state.wounded is not None:
        if state.is_alive(state.wounded):
            victims.append((state.wounded, Cause.SICKNESS, {}))
        state = replace(state, wounded=None)
    return state, victims


def _bear(turn: Turn, state: State) -> State:
    # 003, Montreur d'Ours: "Chaque matin, si l'un de ses voisins directs est Loup-Garou, l'ours grogne."
    # His neighbours are the nearest living players on either side (RULINGS 11).
    rid = turn.rules.keyed(Power.GROWL)
    tamer = holder(turn, state, rid) if rid is not None else None
    if tamer is None:
        return replace(state, growl=None)
    near = {state.neighbour(tamer, 1), state.neighbour(tamer, -1)} - {None, tamer}
    growl = any(turn.rules.is_wolf(state, p) for p in near if p is not None)
    turn.say("growl" if growl else "no_growl", name=tamer)
    return replace(state, growl=growl)


STEPS: dict[Power, Callable[[Turn, State, Dark, Role], State]] = {
    Power.STEAL: first_night.steal,
    Power.PAIR: first_night.pair,
    Power.MODEL: first_night.model,
    Power.CHOOSE: first_night.choose,
    Power.RECOGNIZE: first_night.recognize,
    Power.PERFORM: village_night.perform,
    Power.PROTECT: village_night.protect,
    Power.SEE: village_night.see,
    Power.SNIFF: village_night.sniff,
    Power.SPY: village_night.spy,
    Power.DEVOUR: wolves_night.devour,
    Power.INFECT: wolves_night.infect,
    Power.BETRAY: wolves_night.betray,
    Power.SECOND: wolves_night.second,
    Power.POTIONS: village_night.potions,
    Power.CHARM: loners_night.charm,
    Power.MARK: village_night.mark,
    Power.FIRE: village_night.fire,
}
