"""Deaths and what they set off: the servante, the hunter's shot, the lover's grief, the captain's heir, then victory.

002, step 4: "Si un de ces joueurs est le Chasseur, il doit répliquer et éliminer immédiatement un
autre joueur de son choix. Si un des joueurs est l'Amoureux, l'autre Amoureux meurt de chagrin
immédiatement. Si un des joueurs est Capitaine, il désigne son successeur." The cascade follows
that order for each death, depth first (each new death's own triggers come at once: "immédiatement").
The captain names his heir once the cascade is over, so the heir is alive. Then victory is checked
(RULINGS thiercelieux 4: a death's triggers resolve before the check that follows it).

003's characters add to each death, in this order: the servante may take the eliminated player's
place "juste avant qu'une carte éliminée ne soit révélée" (RULINGS thiercelieux 12); then the card's
own last act, unless she took it — the ancien killed by the village takes the villagers' powers
(RULINGS 9), the hunter shoots, the devoured chevalier wounds the first wolf on his left (RULINGS 10),
the bouc émissaire names tomorrow's voters; then what belongs to the person, whoever has his card —
the lover's grief, the enfant sauvage whose model he was becoming a wolf (RULINGS 15).
"""

from __future__ import annotations

from dataclasses import replace

from narrator.rules.classic.asks import SELF, Ask, Kind
from narrator.rules.classic.model import BY_THE_VILLAGE, DEVOURING, Camp, Cause, Power, State
from narrator.rules.classic.turn import Turn
from narrator.rules.classic.victory import settle
from narrator.rules.reason import Reason

Victim = tuple[str, Cause, dict[str, object]]  # who, why, the sentence's other names


def blow(turn: Turn, state: State, victims: list[Victim], check: bool = True, dawn: bool = False) -> State:
    """Players who die together (a night's victims at `dawn`, the vote's), their cascade, the heir, then
    victory (unless `check` is false: the caller checks once it is done)."""
    captain = state.captain
    state = _strike(turn, state, victims, dawn)
    if captain is not None and not state.is_alive(captain):
        state = _succession(turn, state, captain)
    return settle(turn, state) if check else state


def _strike(turn: Turn, state: State, victims: list[Victim], dawn: bool = False) -> State:
    fresh: list[Victim] = []
    for victim in victims:
        if state.is_alive(victim[0]) and all(victim[0] != f[0] for f in fresh):
            fresh.append(victim)
    # those who die together are all dead before any of them acts: a hunter's shot goes to the living
    for name, _, _ in fresh:
        if turn.rules.is_wolf(state, name):
            state = replace(state, wolf_died=True)  # 003, Grand Méchant Loup: "Tant qu'aucun Loup-Garou n'est mort"
        state = state.kill(name)
        turn.dead.append(name)
    if fresh:
        # RULINGS thiercelieux 20: the servante decides before the eliminated card is said; the card she
        # takes is not said
        state = _devotion(turn, state, [name for name, _, _ in fresh])
    told = [(name, cause, params) for name, cause, params in fresh if name not in turn.replaced]
    lines = [Reason("death_" + c.value, {"name": n, "role": state.role_of(n), **p}) for n, c, p in told]
    if dawn and told:
        # RULINGS 23: the morning names its dead and their cards, never the cause: in seat order, in one
        # sentence, so that their order does not tell the wolves' victim from the poisoned
        seated = sorted((name for name, _, _ in told), key=state.seat)
        roles = [state.role_of(name) for name in seated]
        turn.say_together(Reason("morning_deaths", {"names": seated, "roles": roles}), lines)
    else:
        for line in lines:
            turn.say(line.key, **line.params)
    for name, cause, _ in fresh:
        state = _heaven(turn, state, name, cause)
    for name, cause, _ in fresh:
        state = _last_words(turn, state, name, cause)
    return state


def _devotion(turn: Turn, state: State, eliminated: list[str]) -> State:
    # 003, Servante Dévouée: "Juste avant qu'une carte éliminée ne soit révélée, elle peut prendre la
    # place et le rôle de ce joueur." Whoever was eliminated, by the vote or at night (RULINGS 12).
    rid = turn.rules.keyed(Power.DEVOTE)
    if rid is None:
        return state
    maid = next((p for p in turn.rules.acting(state, rid) if state.is_alive(p)), None)
    if maid is None or maid in state.powerless or state.beloved(maid) is not None:
        # a servante in love stays by her love: she may not take another's place (the published rule)
        return state
    ask = Ask(
        rid,
        Kind.PLAYER,
        forced=False,
        again=True,
        context=Reason("ask_devote", {"role": rid, "name": maid, "eliminated": eliminated}),
        expected=Reason("expect_devote", {"role": rid}),
        screen=Reason("screen_devote", {"role": rid}),
        choices=tuple(eliminated),
        by=(maid,),
    )
    pick = turn.decider.player(ask)
    if pick is None:
        return state
    role = state.role_of(pick)
    state = state.with_role(maid, role).with_side(maid, state.side_of(pick))
    if state.performing is not None and state.performing[0] == maid:
        state = replace(state, performing=None)  # the comédien who had her card tonight: his card is the taken one
    turn.replaced.add(pick)
    turn.say("devoted", servante=maid, name=pick, role=role)
    return state


def _heaven(turn: Turn, state: State, name: str, cause: Cause) -> State:
    # 003, Ange: "Il gagne s'il est éliminé dès le premier tour de vote ou dévoré la première nuit."
    if name in turn.replaced or state.camp_of(name) is not Camp.ANGEL:
        return state
    first_night = turn.kind == "night" and turn.number == 1 and cause in DEVOURING
    first_vote = turn.kind == "day" and turn.number == 1 and turn.first_vote and cause is Cause.VOTED
    if first_night or first_vote:
        return replace(state, heaven=name)  # RULINGS thiercelieux 14: his win ends the game
    return state


def _last_words(turn: Turn, state: State, name: str, cause: Cause) -> State:
    for role in turn.rules.cards(state, name) if name not in turn.replaced and name not in state.powerless else []:
        if role.power is Power.LIFE and cause in BY_THE_VILLAGE:
            # 003, Ancien: "Si le village l'élimine, tous les villageois perdent leurs pouvoirs." (RULINGS 9)
            lost = {p for p in state.living() if state.side_of(p) is Camp.VILLAGE}
            state = replace(state, powerless=state.powerless | lost)
            # poisoned at night, the curse is the operator's secret: said aloud, it would tell the table
            # that the witch killed him and that her poison is spent (RULINGS 23)
            turn.say("elder_curse_poisoned" if cause is Cause.POISONED else "elder_curse", name=name)
        elif role.power is Power.SHOOT:
            state = _shoot(turn, state, name, role.id)
        elif role.power is Power.SWORD and cause in DEVOURING:
            state = _wound(turn, state, name)
        elif role.power is Power.SCAPEGOAT and cause is Cause.SCAPEGOAT:
            state = _scapegoat(turn, state, name, role.id)
    beloved = state.beloved(name)
    if beloved is not None and state.is_alive(beloved):
        # 002: "Si l'un des Amoureux est éliminé, l'autre meurt de chagrin immédiatement."
        state = _strike(turn, state, [(beloved, Cause.GRIEF, {"lover": name})])
    if state.model == name:
        state = _wild(turn, state, name)
    return state


def _shoot(turn: Turn, state: State, name: str, rid: str) -> State:
    # 002: "éliminant immédiatement n'importe quel autre joueur de son choix"; 003: "quelle qu'en soit la
    # cause" (RULINGS thiercelieux 3)
    others = [p for p in state.living() if p != name]
    spared = state.beloved(name) if state.options.lovers_spare_each_other else None
    choices = tuple(p for p in others if p != spared)
    if not choices:
        return state
    ask = Ask(
        rid,
        Kind.PLAYER,
        context=Reason("ask_shoot", {"role": rid, "name": name}),
        expected=Reason("expect_shoot", {"role": rid}),
        choices=choices,
        notes=spared_note(spared) + ((name, SELF),),
        who=name,
    )
    target = turn.decider.player(ask)
    if target is not None:
        state = _strike(turn, state, [(target, Cause.SHOT, {"hunter": name})])
    return state


def _wound(turn: Turn, state: State, knight: str) -> State:
    # 003, Chevalier: "S'il est dévoré, le premier Loup-Garou à sa gauche meurt de la septicémie la nuit
    # suivante." Left is the next name, the dead skipped (RULINGS 11); he dies at the next dawn (RULINGS 10).
    n = len(state.players)
    seat = state.seat(knight)
    for k in range(1, n):
        other = state.players[(seat + k) % n]
        if state.is_alive(other) and turn.rules.is_wolf(state, other):
            turn.say("wounded", name=other, knight=knight)
            return replace(state, wounded=other)
    return state


def _scapegoat(turn: Turn, state: State, name: str, rid: str) -> State:
    # 003, Bouc Émissaire: "Il décide alors qui pourra voter le lendemain."
    living = [p for p in state.living() if p not in state.pardoned]
    ask = Ask(
        rid,
        Kind.PLAYERS,
        context=Reason("ask_scapegoat", {"role": rid, "name": name}),
        expected=Reason("expect_scapegoat"),
        screen=Reason("screen_scapegoat"),
        choices=tuple(living),
        notes=tuple((p, Reason("note_pardoned")) for p in state.pardoned),
        who=name,
    )
    allowed = turn.decider.players(ask)
    if allowed is None:
        return state
    turn.say("scapegoat_voters" if allowed else "scapegoat_nobody", name=name, names=list(allowed))
    return replace(state, allowed=allowed, allowed_day=turn.number + 1)


def _wild(turn: Turn, state: State, model: str) -> State:
    # 003, Enfant Sauvage: "Si son modèle meurt, il devient Loup-Garou." — his card is a wolf's from then
    # on (RULINGS thiercelieux 15): a change of camp, checked for victory with the cascade.
    rid = turn.rules.keyed(Power.MODEL)
    for child in state.holders(rid) if rid is not None else []:
        if state.is_alive(child):
            state = state.with_role(child, turn.rules.pack).with_side(child, Camp.WOLVES)
            turn.say("wild", name=child, model=model)
    return state


def _succession(turn: Turn, state: State, captain: str) -> State:
    living = tuple(state.living())
    if not living:
        return replace(state, captain=None)
    ask = Ask(
        "successor",
        Kind.PLAYER,
        context=Reason("ask_successor", {"name": captain}),
        expected=Reason("expect_successor"),
        choices=living,
        who=captain,
        many=True,
    )
    heir = turn.decider.player(ask)
    if heir is None:
        return replace(state, captain=None)
    turn.say("successor", captain=captain, name=heir)
    return replace(state, captain=heir)


SPARED = Reason("note_spared")  # a secret: not in the script's `public` sentences, shown to the operator only


def spared_note(beloved: str | None) -> tuple[tuple[str, Reason], ...]:
    """Why a lover's beloved is refused as his target (options.lovers_spare_each_other)."""
    if beloved is None:
        return ()
    return ((beloved, SPARED),)
