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
wounded; their deaths' cascade follows (classic/death.py), then the bear growls or not.
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
    guarded: str | None = None  # the salvateur's protection tonight
    second: str | None = None  # the grand méchant loup's victim
    betrayed: str | None = None  # the loup-garou blanc's victim
    fire: bool = False  # the pyromane sets the doused on fire


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
        state = blow(turn, state, victims)
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
    tamer = _holder(turn, state, rid) if rid is not None else None
    if tamer is None:
        return replace(state, growl=None)
    near = {state.neighbour(tamer, 1), state.neighbour(tamer, -1)} - {None, tamer}
    growl = any(turn.rules.is_wolf(state, p) for p in near if p is not None)
    turn.say("growl" if growl else "no_growl", name=tamer)
    return replace(state, growl=growl)


def _holder(turn: Turn, state: State, rid: str) -> str | None:
    """The living player with a one-card role's power (its holder, or the comédien who took the card
    tonight), if he still has his powers."""
    holder = next((p for p in turn.rules.acting(state, rid) if state.is_alive(p)), None)
    return None if holder is None or holder in state.powerless else holder


def _actor(turn: Turn, state: State, dark: Dark, role: Role) -> str | None:
    """Who acts as `role` tonight: its living holder with his power, or the comédien who took it."""
    return _holder(turn, state, role.id)


def _spare(state: State, player: str) -> str | None:
    """The beloved a lover may not harm (options.lovers_spare_each_other)."""
    return state.beloved(player) if state.options.lovers_spare_each_other else None


def _steal(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Voleur: "La première nuit, il consulte les deux cartes non distribuées et peut échanger la
    # sienne. S'il y a deux Loups-Garous, il doit en prendre un." He plays his new card from this very
    # night (RULINGS 18); his own goes to the undealt cards.
    thief = _actor(turn, state, dark, role)
    if turn.number != 1 or thief is None or not state.extra:
        return state
    cards = state.extra
    both_wolves = all(turn.rules.roles[c].wolf for c in cards)
    ask = Ask(
        role.id,
        Kind.OPTION,
        forced=both_wolves,
        field="take",
        context=f"le {role.name} {thief} consulte les cartes non distribuées : "
        + ", ".join(cards)
        + (" ; deux loups-garous, il doit en prendre un" if both_wolves else ""),
        expected="{take: 0 ou 1}, la carte qu'il prend" + ("" if both_wolves else ", ou {} pour garder la sienne"),
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


def _pair(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "La première nuit (tour préliminaire), il désigne les 2 joueurs … amoureux. Cupidon peut,
    # s'il le veut, se désigner comme l'un des deux Amoureux."
    cupid = _actor(turn, state, dark, role)
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
    state = replace(state, lovers=pair).recamp()
    turn.say("lovers", names=list(pair))
    if state.camp_of(pair[0]) is Camp.LOVERS:
        # 002: "si l'un des deux Amoureux est un Loup-Garou et l'autre un Villageois, le but de la
        # partie change pour eux" — a change of camp, after which victory is checked (003)
        turn.say("lovers_apart", names=list(pair))
        state = settle(turn, state)
    return state


def _model(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Enfant Sauvage: "Il choisit un modèle la première nuit." Forced, as Cupidon's choice.
    child = _actor(turn, state, dark, role)
    if turn.number != 1 or child is None:
        return state
    ask = Ask(
        role.id,
        Kind.PLAYER,
        context=f"l'{role.name} {child} choisit son modèle la première nuit",
        expected="le modèle de l'enfant sauvage, un autre joueur en vie",
        choices=tuple(p for p in state.living() if p != child),
        notes=((child, "lui-même"),),
    )
    model = turn.decider.player(ask)
    if model is None:
        return state
    turn.say("model", name=child, model=model)
    return replace(state, model=model)


def _choose(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Chien-Loup: "La première nuit, il choisit d'être Simple Villageois ou Loup-Garou pour toute
    # la partie." His card becomes the one he chose (as RULINGS 15 reads "il devient"); forced.
    dog = _actor(turn, state, dark, role)
    if turn.number != 1 or dog is None:
        return state
    cards = (turn.rules.villager, turn.rules.pack)
    ask = Ask(
        role.id,
        Kind.OPTION,
        context=f"le {role.name} {dog} choisit son camp pour toute la partie",
        expected="le personnage que le chien-loup choisit d'être",
        options=tuple((c, turn.name(c)) for c in cards),
    )
    card = turn.decider.option(ask)
    if card is None:
        return state
    # 003: "Les Ambigus (Chien-Loup, Amoureux) choisissent ou changent de camp": his is a choice, not a
    # change of camp — victory is next checked at dawn
    turn.say("chose", name=dog, role=card)
    return state.with_role(dog, str(card)).with_side(dog, turn.rules.roles[str(card)].camp)


def _recognize(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003: "Deux Sœurs … Trois Frères … qui se reconnaissent la première nuit"
    group = [p for p in state.holders(role.id) if state.is_alive(p)]
    if turn.number != 1 or not group:
        return state
    for player in group:
        turn.tell(player, role.id + "s", list(group))  # learned: {soeurs: […]}, {freres: […]}
    turn.say("recognize", names=group, role=role.id)
    return state


def _perform(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Comédien: "Trois cartes de personnages sont posées au centre. Chaque nuit, il en choisit une et
    # en prend le pouvoir pour la nuit." Each card once (options.comedien_cards_once); he acts under
    # that card's key when it wakes.
    actor = _holder(turn, state, role.id)
    if actor is None:
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
        context=f"le {role.name} {actor} peut prendre le pouvoir d'une carte pour la nuit",
        expected="{use: 0, 1 ou 2}, la carte dont il prend le pouvoir cette nuit"
        + (" (chaque carte une fois)" if once else ""),
        options=tuple((i, turn.name(c)) for i, c in left),
    )
    use = turn.decider.option(ask)
    if use is None:
        return state
    card = state.extra[int(use)]
    turn.say("perform", name=actor, role=card)
    return replace(state, spent=state.spent | {f"{role.id}:{use}"}, performing=(actor, card))


def _protect(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Salvateur: "Chaque nuit, il protège un joueur de l'attaque des Loups-Garous. Il ne peut pas
    # protéger deux fois de suite la même personne." Himself too (RULINGS 18; options.salvateur_self).
    guard = _actor(turn, state, dark, role)
    target = None
    if guard is not None:
        notes: tuple[tuple[str, str], ...] = ()
        refused = set()
        if state.guarded is not None:
            refused.add(state.guarded)
            notes += ((state.guarded, "protégé la nuit dernière (003 : « pas deux fois de suite »)"),)
        if not state.options.salvateur_self:
            refused.add(guard)
            notes += ((guard, "lui-même (options.salvateur_self)"),)
        ask = Ask(
            role.id,
            Kind.PLAYER,
            forced=False,
            context=f"le {role.name} {guard} se réveille",
            expected=f"le joueur que le {role.name} protège cette nuit, un joueur en vie",
            choices=tuple(p for p in state.living() if p not in refused),
            notes=notes,
        )
        target = turn.decider.player(ask)
        if target is not None:
            turn.say("guarded", name=target)
    dark.guarded = target
    return replace(state, guarded=target)


def _see(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "Chaque nuit, elle découvre la vraie personnalité d'un joueur de son choix."
    seer = _actor(turn, state, dark, role)
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


def _sniff(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Renard: "Il flaire un groupe de trois joueurs voisins. Si aucun Loup-Garou ne s'y trouve, il
    # perd son pouvoir." The record names the middle one (formats); neighbours skip the dead (RULINGS 11).
    fox = _actor(turn, state, dark, role)
    if fox is None or role.id in state.spent:
        return state
    ask = Ask(
        role.id,
        Kind.PLAYER,
        forced=False,
        context=f"le {role.name} {fox} se réveille",
        expected="le joueur au milieu des trois voisins que le renard flaire, un joueur en vie",
        choices=tuple(state.living()),
    )
    middle = turn.decider.player(ask)
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


def _spy(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "Si elle se fait surprendre par un des Loups-Garous, elle meurt immédiatement (en silence),
    # à la place de la victime désignée." (RULINGS thiercelieux 5)
    girl = _actor(turn, state, dark, role)
    if girl is None or not any(turn.rules.is_wolf(state, p) for p in state.living()):
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
    # un Loup-Garou)." The pack is every living loup-garou: the wolves' cards, the infected, the
    # enfant sauvage who became one.
    wolves = [p for p in state.living() if turn.rules.is_wolf(state, p)]
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


def _infect(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Infect Père des Loups: "Une fois par partie, il infecte la victime des Loups-Garous : elle
    # survit et rejoint le camp des Loups." She keeps her card and its power (RULINGS 18). A victim the
    # salvateur protects is neither killed nor infected, and the infection is spent.
    father = _actor(turn, state, dark, role)
    if father is None or role.id in state.spent or dark.victim is None or dark.caught:
        return state
    victim = dark.victim
    ask = Ask(
        role.id,
        Kind.YES_NO,
        forced=False,
        context=f"l'{role.name} {father} peut infecter {victim}, la victime des loups-garous (une fois par partie)",
        expected="true : la victime survit et rejoint les loups-garous ; false ou rien : elle est dévorée",
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


def _betray(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Loup-Garou Blanc: "une nuit sur deux il peut dévorer un Loup-Garou": nights 2, 4… (RULINGS 8)
    white = _actor(turn, state, dark, role)
    if white is None or turn.number % 2:
        return state
    spared = _spare(state, white)
    prey = [p for p in state.living() if p != white and turn.rules.is_wolf(state, p)]
    choices = tuple(p for p in prey if p != spared)
    if not choices:
        return state
    ask = Ask(
        role.id,
        Kind.PLAYER,
        forced=False,
        context=f"le {role.name} {white} se réveille seul (nuit paire)",
        expected="le loup-garou que le loup-garou blanc dévore, un autre loup-garou en vie",
        choices=choices,
        notes=spared_note(spared),
    )
    dark.betrayed = turn.decider.player(ask)
    return state


def _second(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Grand Méchant Loup: "Tant qu'aucun Loup-Garou n'est mort, il dévore une seconde victime après
    # le repas des Loups."
    big = _actor(turn, state, dark, role)
    if big is None or state.wolf_died:
        return state
    spared = _spare(state, big)
    notes = spared_note(spared)
    if dark.victim is not None:
        notes += ((dark.victim, "déjà la victime des loups-garous cette nuit"),)
    choices = tuple(p for p in state.living() if p not in (spared, dark.victim) and not turn.rules.is_wolf(state, p))
    if not choices:
        return state
    ask = Ask(
        role.id,
        Kind.PLAYER,
        forced=False,
        context=f"le {role.name} {big} se réveille : aucun loup-garou n'est encore mort",
        expected="la seconde victime du grand méchant loup, un joueur en vie qui n'est pas loup-garou",
        choices=choices,
        notes=notes,
    )
    dark.second = turn.decider.player(ask)
    return state


def _potions(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 002: "La Sorcière doit utiliser chaque potion 1 seule fois dans la partie. Elle peut se servir
    # des ses 2 potions la même nuit."
    witch = _actor(turn, state, dark, role)
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
        spared = _spare(state, witch)
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


def _charm(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Joueur de Flûte: "Chaque nuit il enchante deux joueurs." Two who are not yet charmed, not
    # himself; fewer when fewer are left.
    piper = _actor(turn, state, dark, role)
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
        context=f"le {role.name} {piper} se réveille",
        expected=f"les {count} joueurs que le joueur de flûte enchante : [X, Y], en vie, pas encore enchantés"
        if count == 2
        else "le dernier joueur à enchanter : [X]",
        choices=choices,
        count=count,
        notes=((piper, "lui-même"),) + tuple((p, "déjà enchanté") for p in state.charmed),
    )
    charmed = turn.decider.players(ask)
    if not charmed:
        return state
    turn.say("charmed", names=list(charmed))
    return replace(state, charmed=state.charmed + charmed)


def _mark(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Corbeau: "Chaque nuit, il désigne un joueur qui commencera le vote du lendemain avec deux voix
    # contre lui."
    raven = _actor(turn, state, dark, role)
    if raven is None:
        return state
    spared = _spare(state, raven)
    ask = Ask(
        role.id,
        Kind.PLAYER,
        forced=False,
        context=f"le {role.name} {raven} se réveille",
        expected="le joueur qui commencera le vote de demain avec deux voix contre lui, un joueur en vie",
        choices=tuple(p for p in state.living() if p != spared),
        notes=spared_note(spared),
    )
    target = turn.decider.player(ask)
    if target is None:
        return state
    turn.say("raven", name=target)
    return replace(state, raven=target)


def _fire(turn: Turn, state: State, dark: Dark, role: Role) -> State:
    # 003, Pyromane: "il asperge des joueurs d'essence puis peut y mettre le feu." Each night he douses
    # one player ({douse: X}) or sets every living doused player on fire ({ignite: true}), once a game.
    pyro = _actor(turn, state, dark, role)
    if pyro is None or role.id in state.spent:
        return state
    context = f"le {role.name} {pyro} se réveille"
    if any(state.is_alive(p) for p in state.doused):
        ask = Ask(
            role.id,
            Kind.YES_NO,
            forced=False,
            field="ignite",
            context=context,
            expected="{ignite: true} : il met le feu aux joueurs aspergés (une fois par partie)",
        )
        if turn.decider.yes(ask):
            dark.fire = True
            turn.say("ignite")
            return replace(state, spent=state.spent | {role.id})
    spared = _spare(state, pyro)
    notes = ((pyro, "lui-même"),) + tuple((p, "déjà aspergé") for p in state.doused) + spared_note(spared)
    choices = tuple(p for p in state.living() if p not in (pyro, spared) and p not in state.doused)
    if not choices:
        return state
    ask = Ask(
        role.id,
        Kind.PLAYER,
        forced=False,
        field="douse",
        context=context,
        expected="{douse: X} : le joueur que le pyromane asperge d'essence, un autre joueur en vie",
        choices=choices,
        notes=notes,
    )
    target = turn.decider.player(ask)
    if target is None:
        return state
    turn.say("doused", name=target)
    return replace(state, doused=state.doused + (target,))


STEPS: dict[Power, Callable[[Turn, State, Dark, Role], State]] = {
    Power.STEAL: _steal,
    Power.PAIR: _pair,
    Power.MODEL: _model,
    Power.CHOOSE: _choose,
    Power.RECOGNIZE: _recognize,
    Power.PERFORM: _perform,
    Power.PROTECT: _protect,
    Power.SEE: _see,
    Power.SNIFF: _sniff,
    Power.SPY: _spy,
    Power.DEVOUR: _devour,
    Power.INFECT: _infect,
    Power.BETRAY: _betray,
    Power.SECOND: _second,
    Power.POTIONS: _potions,
    Power.CHARM: _charm,
    Power.MARK: _mark,
    Power.FIRE: _fire,
}
