"""A night and its morning (002 "Déroulement de la partie", steps 1 to 4).

The roles wake in the script's order (`wake`: Cupidon the first night, then the voyante, the
wolves with the petite fille spying, the sorcière). Nobody dies during the night: its victims are
revealed in the morning (003: "Les morts de la nuit ne sont révélés qu'au matin"), so everyone who
was alive at nightfall acts, the wolves' victim included. The morning reveals the pack's victim
(or the caught petite fille) then the poisoned player, and their deaths' cascade follows
(classic/death.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from narrator.rules.classic.asks import Ask, Kind
from narrator.rules.classic.death import Victim, blow, spared_note
from narrator.rules.classic.model import Camp, Cause, Power, Role, State
from narrator.rules.classic.turn import Turn
from narrator.rules.classic.victory import settle

HEAL, POISON = "heal", "poison"  # the sorcière's one-shot potions, in State.spent


@dataclass
class Dark:
    """What the night has decided so far, before the morning reveals it."""

    victim: str | None = None  # the pack's victim, or the caught petite fille in its place
    caught: bool = False
    healed: bool = False
    poisoned: str | None = None


def play_night(turn: Turn, state: State) -> State:
    """Night `turn.number` then its morning's announcements."""
    turn.say("night", number=turn.number)
    dark = Dark()
    for role in turn.rules.night_roles():
        if state.winner is not None:
            return state
        if role.power is not None:
            state = STEPS[role.power](turn, state, dark, role)
    if state.winner is not None:
        return state
    victims: list[Victim] = []
    if dark.victim is not None and not dark.healed:
        victims.append((dark.victim, Cause.CAUGHT if dark.caught else Cause.DEVOURED, {}))
    if dark.poisoned is not None:
        victims.append((dark.poisoned, Cause.POISONED, {}))
    if not victims:
        turn.say("quiet_night")
        return settle(turn, state)
    return blow(turn, state, victims)


def _awake(state: State, role: Role) -> str | None:
    """The living holder of a one-card role: the dead never act."""
    return next((p for p in state.holders(role.id) if state.is_alive(p)), None)


def _pair(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "La première nuit (tour préliminaire), il désigne les 2 joueurs … amoureux. Cupidon peut,
    # s'il le veut, se désigner comme l'un des deux Amoureux."
    cupid = _awake(state, role)
    if turn.number != 1 or cupid is None:
        return state
    ask = Ask(
        role.id,
        Kind.PAIR,
        context=f"{role.name} {cupid} désigne les deux amoureux la première nuit",
        expected=f"les deux amoureux, deux joueurs différents ({role.name} peut se désigner)",
        choices=tuple(state.living()),
    )
    pair = turn.decider.pair(ask)
    if pair is None:
        return state
    state = replace(state, lovers=pair)
    turn.say("lovers", names=list(pair))
    first, second = pair
    if state.camp_of(first) is not state.camp_of(second):
        # 002: "si l'un des deux Amoureux est un Loup-Garou et l'autre un Villageois, le but de la
        # partie change pour eux" — a change of camp, after which victory is checked (003)
        state = state.with_camp(first, Camp.LOVERS).with_camp(second, Camp.LOVERS)
        turn.say("lovers_apart", names=list(pair))
        state = settle(turn, state)
    return state


def _see(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "Chaque nuit, elle découvre la vraie personnalité d'un joueur de son choix."
    seer = _awake(state, role)
    if seer is None:
        return state
    ask = Ask(
        role.id,
        Kind.PLAYER,
        forced=False,
        context=f"la {role.name} {seer} se réveille",
        expected=f"le joueur dont la {role.name} découvre le rôle, un autre joueur en vie",
        choices=tuple(p for p in state.living() if p != seer),
        notes=((seer, "elle-même"),),
    )
    target = turn.decider.player(ask)
    if target is not None:
        seen = state.role_of(target)
        turn.tell(seer, target, seen)
        turn.say("seen", name=target, role=seen)
    return state


def _spy(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "Si elle se fait surprendre par un des Loups-Garous, elle meurt immédiatement (en silence),
    # à la place de la victime désignée." (RULINGS thiercelieux 5)
    girl = _awake(state, role)
    if girl is None or not any(turn.rules.roles[state.role_of(p)].wolf for p in state.living()):
        return state
    ask = Ask(
        role.id,
        Kind.SPY,
        forced=False,
        context=f"la {role.name} {girl} peut espionner les loups-garous",
        expected="{spied: true ou false, caught: true ou false} ; surprise seulement si elle espionne",
    )
    spy = turn.decider.spy(ask)
    if spy is not None and spy.caught:
        dark.victim, dark.caught = girl, True
    elif spy is not None and spy.spied:
        turn.say("spied", name=girl)
    return state


def _devour(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "Chaque nuit, ils dévorent un Villageois. … (En aucun cas un Loup-Garou ne peut dévorer
    # un Loup-Garou)."
    wolves = [p for p in state.living() if turn.rules.roles[state.role_of(p)].wolf]
    if not wolves:
        return state
    notes = tuple(
        (w, "un loup-garou (002 : « En aucun cas un Loup-Garou ne peut dévorer un Loup-Garou »)") for w in wolves
    )
    spared: set[str] = set()
    if state.options.lovers_spare_each_other and len(wolves) == 1:
        # 002: "ni lui porter aucun préjudice": a lone wolf in love never devours his beloved; in a
        # pack of several, the victim is the pack's choice, not his alone
        beloved = state.beloved(wolves[0])
        if beloved is not None:
            spared.add(beloved)
            notes += spared_note(beloved)
    choices = tuple(p for p in state.living() if p not in wolves and p not in spared)
    if not choices:
        return state
    ask = Ask(
        role.id,
        Kind.PLAYER,
        # 002: "elle meurt à la place de la victime éventuellement choisie": once the petite fille
        # is caught, the pack need not have chosen
        forced=not dark.caught,
        context="les loups-garous se réveillent et désignent une victime",
        expected="la victime des loups-garous, un joueur en vie qui n'est pas loup-garou",
        choices=choices,
        notes=notes,
    )
    target = turn.decider.player(ask)
    if dark.caught:
        if target is not None and target != dark.victim:
            turn.say("spared_by_girl", name=target)
    elif target is not None:
        dark.victim = target
    return state


def _potions(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "La Sorcière doit utiliser chaque potion 1 seule fois dans la partie. Elle peut se servir
    # des ses 2 potions la même nuit."
    witch = _awake(state, role)
    if witch is None:
        return state
    heal: str | None = None
    if HEAL in state.spent:
        no_heal = "la potion de guérison est déjà utilisée"
    elif dark.victim is None:
        no_heal = "les loups-garous n'ont tué personne cette nuit"
    elif dark.victim == witch and not state.options.witch_self_heal:
        no_heal = "la sorcière ne peut pas se guérir elle-même (options.witch_self_heal)"
    else:
        heal, no_heal = dark.victim, ""
    notes: tuple[tuple[str, str], ...] = ()
    if POISON in state.spent:
        poison: tuple[str, ...] = ()
        no_poison = "la potion d'empoisonnement est déjà utilisée"
    else:
        spared = state.beloved(witch) if state.options.lovers_spare_each_other else None
        # the pack's victim is already dying (or being saved): the poison is for someone else
        poison = tuple(p for p in state.living() if p not in (dark.victim, spared))
        no_poison = "personne à empoisonner"
        if dark.victim is not None:
            notes += ((dark.victim, "la victime des loups-garous, qui meurt déjà ou que la potion de vie sauve"),)
        notes += spared_note(spared)
    ask = Ask(
        role.id,
        Kind.POTIONS,
        forced=False,
        context=f"la {role.name} {witch} se réveille",
        expected="{heal: true ou false, poison: un joueur ou null}",
        choices=poison,
        notes=notes,
        heal=heal,
        no_heal=no_heal,
        no_poison=no_poison,
    )
    used = turn.decider.potions(ask)
    if used is None:
        return state
    if used.heal and heal is not None:
        dark.healed = True
        state = replace(state, spent=state.spent | {HEAL})
        turn.say("healed", name=heal)
    if used.poison is not None:
        dark.poisoned = used.poison
        state = replace(state, spent=state.spent | {POISON})
    return state


STEPS: dict[Power, Callable[[Turn, State, Dark, Role], State]] = {
    Power.PAIR: _pair,
    Power.SEE: _see,
    Power.SPY: _spy,
    Power.DEVOUR: _devour,
    Power.POTIONS: _potions,
}
