"""Deaths and what they set off: the hunter's shot, the lover's grief, the captain's heir, then victory.

002, step 4: "Si un de ces joueurs est le Chasseur, il doit répliquer et éliminer immédiatement un
autre joueur de son choix. Si un des joueurs est l'Amoureux, l'autre Amoureux meurt de chagrin
immédiatement. Si un des joueurs est Capitaine, il désigne son successeur." The cascade follows
that order for each death, depth first (each new death's own triggers come at once: "immédiatement").
The captain names his heir once the cascade is over, so the heir is alive. Then victory is checked
(RULINGS thiercelieux 4: a death's triggers resolve before the check that follows it).
"""

from __future__ import annotations

from dataclasses import replace

from narrator.rules.classic.asks import Ask, Kind
from narrator.rules.classic.model import Cause, Power, State
from narrator.rules.classic.turn import Turn
from narrator.rules.classic.victory import settle

Victim = tuple[str, Cause, dict[str, object]]  # who, why, the sentence's other names


def blow(turn: Turn, state: State, victims: list[Victim]) -> State:
    """Players who die together (a night's victims at dawn, the vote's), their cascade, the heir, victory."""
    captain = state.captain
    state = _strike(turn, state, victims)
    if captain is not None and not state.is_alive(captain):
        state = _succession(turn, state, captain)
    return settle(turn, state)


def _strike(turn: Turn, state: State, victims: list[Victim]) -> State:
    fresh: list[Victim] = []
    for victim in victims:
        if state.is_alive(victim[0]) and all(victim[0] != f[0] for f in fresh):
            fresh.append(victim)
    # those who die together are all dead before any of them acts: a hunter's shot goes to the living
    for name, cause, params in fresh:
        state = state.kill(name)
        turn.dead.append(name)
        turn.say("death_" + cause.value, name=name, role=state.role_of(name), **params)
    for name, _, _ in fresh:
        state = _last_words(turn, state, name)
    return state


def _last_words(turn: Turn, state: State, name: str) -> State:
    role = turn.rules.roles[state.role_of(name)]
    if role.power is Power.SHOOT:
        # 002: "éliminant immédiatement n'importe quel autre joueur de son choix"; 003: "quelle qu'en
        # soit la cause" (RULINGS thiercelieux 3)
        others = [p for p in state.living() if p != name]
        spared = state.beloved(name) if state.options.lovers_spare_each_other else None
        choices = tuple(p for p in others if p != spared)
        if choices:
            ask = Ask(
                role.id,
                Kind.PLAYER,
                context=f"le {role.name} {name} est mort",
                expected=f"le joueur que le {role.name} élimine en mourant, un autre joueur en vie",
                choices=choices,
                notes=spared_note(spared) + ((name, "lui-même"),),
                who=name,
            )
            target = turn.decider.player(ask)
            if target is not None:
                state = _strike(turn, state, [(target, Cause.SHOT, {"hunter": name})])
    beloved = state.beloved(name)
    if beloved is not None and state.is_alive(beloved):
        # 002: "Si l'un des Amoureux est éliminé, l'autre meurt de chagrin immédiatement."
        state = _strike(turn, state, [(beloved, Cause.GRIEF, {"lover": name})])
    return state


def _succession(turn: Turn, state: State, captain: str) -> State:
    living = tuple(state.living())
    if not living:
        return replace(state, captain=None)
    ask = Ask(
        "successor",
        Kind.PLAYER,
        context=f"le capitaine {captain} est mort",
        expected="le successeur que le capitaine désigne, un joueur en vie",
        choices=living,
        who=captain,
    )
    heir = turn.decider.player(ask)
    if heir is None:
        return replace(state, captain=None)
    turn.say("successor", captain=captain, name=heir)
    return replace(state, captain=heir)


def spared_note(beloved: str | None) -> tuple[tuple[str, str], ...]:
    """Why a lover's beloved is refused as his target (options.lovers_spare_each_other)."""
    if beloved is None:
        return ()
    return ((beloved, "son amour (002 : « ni lui porter aucun préjudice »)"),)
