"""The first night's choices: the voleur, Cupidon, the enfant sauvage, the chien-loup, the sœurs and frères.

Each acts on night 1 only (002 "tour préliminaire", 003's characters) and is one of the night's steps
(classic/night.py, `STEPS`).
"""

from __future__ import annotations

from dataclasses import replace

from narrator.rules.classic.asks import SELF, Ask, Kind
from narrator.rules.classic.dark import Dark, actor, choose_player
from narrator.rules.classic.model import Camp, Role, State
from narrator.rules.classic.turn import Turn
from narrator.rules.classic.victory import settle
from narrator.rules.reason import Reason


def steal(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Voleur: "La première nuit, il consulte les deux cartes non distribuées et peut échanger la
    # sienne. S'il y a deux Loups-Garous, il doit en prendre un." He plays his new card from this very
    # night (RULINGS 18); his own goes to the undealt cards.
    thief = actor(turn, state, dark, role)
    if turn.number != 1 or thief is None or not state.extra:
        return state
    cards = state.extra
    both_wolves = all(turn.rules.roles[c].wolf for c in cards)
    ask = Ask(
        role.id,
        Kind.OPTION,
        forced=both_wolves,
        field="take",
        context=Reason(
            "ask_steal_wolves" if both_wolves else "ask_steal", {"role": role.id, "name": thief, "cards": cards}
        ),
        expected=Reason("expect_steal_wolves" if both_wolves else "expect_steal"),
        screen=Reason("screen_steal_wolves" if both_wolves else "screen_steal"),
        by=(thief,),
        options=tuple((i, turn.name(c)) for i, c in enumerate(cards)),
    )
    take = turn.decider.option(ask)
    if take is None:
        return state
    card = cards[int(take)]
    extra = cards[: int(take)] + (role.id,) + cards[int(take) + 1 :]
    state = replace(state, extra=extra).with_role(thief, card).with_side(thief, turn.rules.roles[card].camp)
    turn.say("stolen", name=thief, role=card)
    return settle(turn, state)  # 003: victory "après … chaque changement de camp"


def pair(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "La première nuit (tour préliminaire), il désigne les 2 joueurs … amoureux. Cupidon peut,
    # s'il le veut, se désigner comme l'un des deux Amoureux."
    cupid = actor(turn, state, dark, role)
    if turn.number != 1 or cupid is None:
        return state
    ask = Ask(
        role.id,
        Kind.PAIR,
        context=Reason("ask_pair", {"role": role.id, "name": cupid}),
        expected=Reason("expect_pair", {"role": role.id}),
        choices=tuple(state.living()),
        by=(cupid,),
    )
    pair = turn.decider.pair(ask)
    if pair is None:
        return state
    state = replace(state, lovers=pair).recamp()
    turn.say("lovers", names=list(pair))
    if state.camp_of(pair[0]) is Camp.LOVERS:
        # 002: "si l'un des deux Amoureux est un Loup-Garou et l'autre un Villageois, le but de la
        # partie change pour eux" — a change of camp, after which victory is checked (003)
        turn.say("lovers_apart", names=list(pair))
        state = settle(turn, state)
    return state


def model(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Enfant Sauvage: "Il choisit un modèle la première nuit." Forced, as Cupidon's choice.
    child = actor(turn, state, dark, role)
    if turn.number != 1 or child is None:
        return state
    model = choose_player(
        turn,
        role,
        by=(child,),
        forced=True,  # as Cupidon's choice
        context=Reason("ask_model", {"role": role.id, "name": child}),
        expected=Reason("expect_model"),
        choices=tuple(p for p in state.living() if p != child),
        notes=((child, SELF),),
    )
    if model is None:
        return state
    turn.say("model", name=child, model=model)
    return replace(state, model=model)


def choose(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Chien-Loup: "La première nuit, il choisit d'être Simple Villageois ou Loup-Garou pour toute
    # la partie." His card becomes the one he chose (as RULINGS 15 reads "il devient"); forced.
    dog = actor(turn, state, dark, role)
    if turn.number != 1 or dog is None:
        return state
    cards = (turn.rules.villager, turn.rules.pack)
    ask = Ask(
        role.id,
        Kind.OPTION,
        context=Reason("ask_choose", {"role": role.id, "name": dog}),
        expected=Reason("expect_choose"),
        options=tuple((c, turn.name(c)) for c in cards),
        by=(dog,),
    )
    card = turn.decider.option(ask)
    if card is None:
        return state
    # 003: "Les Ambigus (Chien-Loup, Amoureux) choisissent ou changent de camp": choosing the wolves is
    # a change of camp, after which victory is checked at once (003: "après … chaque changement de
    # camp … pas seulement en fin de nuit"), as after the voleur's or an infection
    turn.say("chose", name=dog, role=card)
    state = state.with_role(dog, str(card)).with_side(dog, turn.rules.roles[str(card)].camp)
    return settle(turn, state)


def recognize(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003: "Deux Sœurs … Trois Frères … qui se reconnaissent la première nuit"
    group = [p for p in state.holders(role.id) if state.is_alive(p)]
    if turn.number != 1 or not group:
        return state
    for player in group:
        turn.tell(player, role.id + "s", list(group))  # learned: {soeurs: […]}, {freres: […]}
    turn.say("recognize", names=group, role=role.id)
    return state
