"""The pack's night: the wolves' victim, the infect père des loups, the loup-garou blanc, the grand méchant loup.

Each is one of the night's steps (classic/night.py, `STEPS`); their victims go to `Dark` and die in
the morning unless something stops them.
"""

from __future__ import annotations

from dataclasses import replace

from narrator.rules.classic.asks import Ask, Kind
from narrator.rules.classic.dark import Dark, actor, choose_player, spare
from narrator.rules.classic.death import spared_note
from narrator.rules.classic.model import Camp, Role, State
from narrator.rules.classic.turn import Turn
from narrator.rules.classic.victory import settle
from narrator.rules.reason import Reason


def devour(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "Chaque nuit, ils dévorent un Villageois. … (En aucun cas un Loup-Garou ne peut dévorer
    # un Loup-Garou)." The pack is every living loup-garou: the wolves' cards, the infected, the
    # enfant sauvage who became one.
    wolves = [p for p in state.living() if turn.rules.is_wolf(state, p)]
    if not wolves:
        return state
    notes = tuple((w, Reason("note_wolf")) for w in wolves)
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
    target = choose_player(
        turn,
        role,
        by=tuple(wolves),
        # 002: "elle meurt à la place de la victime éventuellement choisie": once the petite fille
        # is caught, the pack need not have chosen
        forced=not dark.caught,
        context=Reason("ask_devour"),
        expected=Reason("expect_devour"),
        choices=choices,
        notes=notes,
    )
    if dark.caught:
        if target is not None and target != dark.victim:
            turn.say("spared_by_girl", name=target)
    elif target is not None:
        dark.victim = target
    return state


def infect(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Infect Père des Loups: "Une fois par partie, il infecte la victime des Loups-Garous : elle
    # survit et rejoint le camp des Loups." She keeps her card and its power (RULINGS 18). A victim the
    # salvateur protects is neither killed nor infected, and the infection is spent.
    father = actor(turn, state, dark, role)
    if father is None or role.id in state.spent or dark.victim is None or dark.caught:
        return state
    victim = dark.victim
    ask = Ask(
        role.id,
        Kind.YES_NO,
        forced=False,
        context=Reason("ask_infect", {"role": role.id, "name": father, "victim": victim}),
        expected=Reason("expect_infect"),
        screen=Reason("screen_infect", {"role": role.id, "victim": victim}),
        by=(father,),
    )
    if not turn.decider.yes(ask):
        return state
    state = replace(state, spent=state.spent | {role.id})
    if victim == dark.guarded:
        return state  # the morning says the salvateur saved her
    dark.victim = None
    state = state.with_side(victim, Camp.WOLVES)
    turn.say("infected", name=victim)
    return settle(turn, state)


def betray(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Loup-Garou Blanc: "une nuit sur deux il peut dévorer un Loup-Garou": nights 2, 4… (RULINGS 8)
    white = actor(turn, state, dark, role)
    if white is None or turn.number % 2:
        return state
    spared = spare(state, white)
    prey = [p for p in state.living() if p != white and turn.rules.is_wolf(state, p)]
    choices = tuple(p for p in prey if p != spared)
    if not choices:
        return state
    dark.betrayed = choose_player(
        turn,
        role,
        by=(white,),
        forced=False,
        context=Reason("ask_betray", {"role": role.id, "name": white}),
        expected=Reason("expect_betray"),
        choices=choices,
        notes=spared_note(spared),
    )
    return state


def second(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Grand Méchant Loup: "Tant qu'aucun Loup-Garou n'est mort, il dévore une seconde victime après
    # le repas des Loups."
    big = actor(turn, state, dark, role)
    if big is None or state.wolf_died:
        return state
    spared = spare(state, big)
    notes = spared_note(spared)
    if dark.victim is not None:
        notes += ((dark.victim, Reason("note_second")),)
    choices = tuple(p for p in state.living() if p not in (spared, dark.victim) and not turn.rules.is_wolf(state, p))
    if not choices:
        return state
    dark.second = choose_player(
        turn,
        role,
        by=(big,),
        forced=False,
        context=Reason("ask_second", {"role": role.id, "name": big}),
        expected=Reason("expect_second"),
        choices=choices,
        notes=notes,
    )
    return state
