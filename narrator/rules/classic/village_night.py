"""The village's night powers: comédien, salvateur, voyante, renard, petite fille, sorcière, corbeau, pyromane.

Each is one of the night's steps (classic/night.py, `STEPS`); what the night decides goes to `Dark`
and is revealed in the morning.
"""

from __future__ import annotations

from dataclasses import replace

from narrator.rules.classic.asks import SELF, Ask, Kind
from narrator.rules.classic.dark import Dark, actor, choose_player, holder, spare
from narrator.rules.classic.death import spared_note
from narrator.rules.classic.model import Role, State
from narrator.rules.classic.turn import Turn
from narrator.rules.reason import Reason

HEAL, POISON = "heal", "poison"  # the sorcière's one-shot potions, in State.spent


def perform(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Comédien: "Trois cartes de personnages sont posées au centre. Chaque nuit, il en choisit une et
    # en prend le pouvoir pour la nuit." Each card once (options.comedien_cards_once); he acts under
    # that card's key when it wakes.
    comedian = holder(turn, state, role.id)
    if comedian is None:
        return state
    once = state.options.comedien_cards_once
    left = [(i, c) for i, c in enumerate(state.extra) if not (once and f"{role.id}:{i}" in state.spent)]
    if not left:
        return state
    ask = Ask(
        role.id,
        Kind.OPTION,
        forced=False,
        field="use",
        context=Reason("ask_perform", {"role": role.id, "name": comedian}),
        expected=Reason("expect_perform_once" if once else "expect_perform"),
        screen=Reason("screen_perform"),
        options=tuple((i, turn.name(c)) for i, c in left),
        by=(comedian,),
    )
    use = turn.decider.option(ask)
    if use is None:
        return state
    card = state.extra[int(use)]
    turn.say("perform", name=comedian, role=card)
    return replace(state, spent=state.spent | {f"{role.id}:{use}"}, performing=(comedian, card))


def protect(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Salvateur: "Chaque nuit, il protège un joueur de l'attaque des Loups-Garous. Il ne peut pas
    # protéger deux fois de suite la même personne." Himself too (RULINGS 18; options.salvateur_self).
    guard = actor(turn, state, dark, role)
    target = None
    if guard is not None:
        notes: tuple[tuple[str, Reason], ...] = ()
        refused = set()
        if state.guarded is not None:
            refused.add(state.guarded)
            notes += ((state.guarded, Reason("note_guarded")),)
        if not state.options.salvateur_self:
            refused.add(guard)
            notes += ((guard, Reason("note_self_guard")),)
        target = choose_player(
            turn,
            role,
            by=(guard,),
            forced=False,
            context=Reason("ask_he_wakes", {"role": role.id, "name": guard}),
            expected=Reason("expect_protect", {"role": role.id}),
            choices=tuple(p for p in state.living() if p not in refused),
            notes=notes,
        )
        if target is not None:
            turn.say("guarded", name=target)
    dark.guarded = target
    return replace(state, guarded=target)


def see(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "Chaque nuit, elle découvre la vraie personnalité d'un joueur de son choix."
    seer = actor(turn, state, dark, role)
    if seer is None:
        return state
    target = choose_player(
        turn,
        role,
        by=(seer,),
        forced=False,
        context=Reason("ask_she_wakes", {"role": role.id, "name": seer}),
        expected=Reason("expect_see", {"role": role.id}),
        choices=tuple(p for p in state.living() if p != seer),
        notes=((seer, SELF),),
    )
    if target is not None:
        seen = state.role_of(target)
        turn.tell(seer, target, seen)
        turn.say("seen", name=target, role=seen)
    return state


def sniff(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Renard: "Il flaire un groupe de trois joueurs voisins. Si aucun Loup-Garou ne s'y trouve, il
    # perd son pouvoir." The record names the middle one (formats); neighbours skip the dead (RULINGS 11).
    fox = actor(turn, state, dark, role)
    if fox is None or role.id in state.spent:
        return state
    middle = choose_player(
        turn,
        role,
        by=(fox,),
        forced=False,
        context=Reason("ask_he_wakes", {"role": role.id, "name": fox}),
        expected=Reason("expect_sniff"),
        choices=tuple(state.living()),
    )
    if middle is None:
        return state
    near = [state.neighbour(middle, -1), middle, state.neighbour(middle, 1)]
    group = [p for p in state.players if p in near]  # seating order, each once
    found = any(turn.rules.is_wolf(state, p) for p in group)
    turn.tell(fox, "wolf_in_group", found)
    turn.say("sniff_yes" if found else "sniff_no", names=group)
    if not found:
        state = replace(state, spent=state.spent | {role.id})
    return state


def spy(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "Si elle se fait surprendre par un des Loups-Garous, elle meurt immédiatement (en silence),
    # à la place de la victime désignée." (RULINGS thiercelieux 5)
    girl = actor(turn, state, dark, role)
    wolves = tuple(p for p in state.living() if turn.rules.is_wolf(state, p))
    if girl is None or not wolves:
        return state
    ask = Ask(
        role.id,
        Kind.SPY,
        forced=False,
        context=Reason("ask_spy", {"role": role.id, "name": girl}),
        expected=Reason("expect_spy"),
        by=(girl, *wolves),
    )
    spy = turn.decider.spy(ask)
    if spy is not None and spy.caught:
        dark.victim, dark.caught = girl, True
    elif spy is not None and spy.spied:
        turn.say("spied", name=girl)
    return state


def potions(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "La Sorcière doit utiliser chaque potion 1 seule fois dans la partie. Elle peut se servir
    # des ses 2 potions la même nuit."
    witch = actor(turn, state, dark, role)
    if witch is None:
        return state
    heal: str | None = None
    no_heal: Reason | None = None
    if HEAL in state.spent:
        no_heal = Reason("no_heal_spent")
    elif dark.victim is None:
        no_heal = Reason("no_heal_nobody")
    elif dark.victim == witch and not state.options.witch_self_heal:
        no_heal = Reason("no_heal_self")
    else:
        heal = dark.victim
    notes: tuple[tuple[str, Reason], ...] = ()
    if POISON in state.spent:
        poison: tuple[str, ...] = ()
        no_poison = Reason("no_poison_spent")
    else:
        spared = spare(state, witch)
        # the pack's victim is already dying (or being saved): the poison is for someone else
        poison = tuple(p for p in state.living() if p not in (dark.victim, spared))
        no_poison = Reason("no_poison_nobody")
        if dark.victim is not None:
            notes += ((dark.victim, Reason("note_pack_victim")),)
        notes += spared_note(spared)
    ask = Ask(
        role.id,
        Kind.POTIONS,
        forced=False,
        context=Reason("ask_she_wakes", {"role": role.id, "name": witch}),
        expected=Reason("expect_potions"),
        choices=poison,
        notes=notes,
        heal=heal,
        no_heal=no_heal,
        no_poison=no_poison,
        by=(witch,),
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


def mark(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Corbeau: "Chaque nuit, il désigne un joueur qui commencera le vote du lendemain avec deux voix
    # contre lui."
    raven = actor(turn, state, dark, role)
    if raven is None:
        return state
    spared = spare(state, raven)
    target = choose_player(
        turn,
        role,
        by=(raven,),
        forced=False,
        context=Reason("ask_he_wakes", {"role": role.id, "name": raven}),
        expected=Reason("expect_mark"),
        choices=tuple(p for p in state.living() if p != spared),
        notes=spared_note(spared),
    )
    if target is None:
        return state
    turn.say("raven", name=target)
    return replace(state, raven=target)


def fire(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Pyromane: "il asperge des joueurs d'essence puis peut y mettre le feu." Each night he douses
    # one player ({douse: X}) or sets every living doused player on fire ({ignite: true}), once a game.
    pyro = actor(turn, state, dark, role)
    if pyro is None or role.id in state.spent:
        return state
    context = Reason("ask_he_wakes", {"role": role.id, "name": pyro})
    if any(state.is_alive(p) for p in state.doused):
        ask = Ask(
            role.id,
            Kind.YES_NO,
            forced=False,
            field="ignite",
            context=context,
            expected=Reason("expect_ignite"),
            screen=Reason("screen_ignite"),
            by=(pyro,),
        )
        if turn.decider.yes(ask):
            dark.fire = True
            turn.say("ignite")
            return replace(state, spent=state.spent | {role.id})
    spared = spare(state, pyro)
    notes = ((pyro, SELF),) + tuple((p, Reason("note_doused")) for p in state.doused) + spared_note(spared)
    choices = tuple(p for p in state.living() if p not in (pyro, spared) and p not in state.doused)
    if not choices:
        return state
    target = choose_player(
        turn,
        role,
        by=(pyro,),
        forced=False,
        field="douse",
        context=context,
        expected=Reason("expect_douse"),
        screen=Reason("screen_douse"),
        choices=choices,
        notes=notes,
    )
    if target is None:
        return state
    turn.say("doused", name=target)
    return replace(state, doused=state.doused + (target,))
