"""`narrator compose` and the advice said at setup: the rules of narrator/rules/compose.py over the
shipped advice (scripts/compose.yaml) and the game's box, each proposal checked by the engine's own
setup check before it is shown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from typing import cast

from narrator.resources import data_dir
from narrator.rules.compose import Advice, Box, ComposeError, Proposal, Why, against, compose
from narrator.rules.reason import Reason
from narrator.script.compose import parse_advice
from narrator.script.games import CLASSIC, GAMES, family_of
from narrator.table.setup import SetupError


@cache
def box_of(game: str) -> Box:
    """The game's box as its own script gives it: copies, names, wolves, linked cards, scenarios."""
    if family_of(game) == CLASSIC:
        from narrator.script.classic.script import load_classic

        rules = load_classic()
        return Box(
            copies={rid: role.copies for rid, role in rules.roles.items()},
            names={rid: role.name for rid, role in rules.roles.items()},
            wolves=frozenset(rid for rid, role in rules.roles.items() if role.wolf),
        )
    from narrator.script.onenight.script import load_shipped

    script = load_shipped(game)
    roles = script.rules.roles
    return Box(
        copies={rid: role.copies for rid, role in roles.items()},
        names={rid: role.name for rid, role in roles.items()},
        wolves=frozenset(rid for rid, role in roles.items() if role.wolf),
        together=script.rules.together,
        scenarios=script.announce.scenarios,
        titles=script.announce.scenario_titles,
    )


def boxes() -> dict[str, Box]:
    return {game: box_of(game) for game in GAMES}


@cache
def load_shipped_advice() -> dict[str, Advice]:
    """The shipped scripts/compose.yaml, checked against the games' boxes."""
    path = data_dir("scripts") / "compose.yaml"
    return parse_advice(path.read_text(encoding="utf-8"), f"scripts/{path.name}", boxes())


def propose(game: str, players: int, avec: Sequence[str] = (), sans: Sequence[str] = ()) -> Proposal:
    """The proposed cards for `players`, legal for the engine; `SetupError` (French) when none can be."""
    advice, box = load_shipped_advice()[game], box_of(game)
    try:
        proposal = compose(advice, box, players, avec, sans)
    except ComposeError as exc:
        raise SetupError(f"compose : {said(exc.reason, advice, box)}") from None
    check_legal(game, proposal)
    return proposal


def check_legal(game: str, proposal: Proposal) -> None:
    """The engine's own setup check of a proposal, at a table of placeholder names; `SetupError` if it
    refuses (what it expected, never the placeholder table it was shown)."""
    from narrator.rules.errors import RecordError

    try:
        if family_of(game) == CLASSIC:
            from narrator.rules.classic import parse_record
            from narrator.script.classic.script import load_classic

            names = _names(len(proposal.cards))
            deal: dict[str, object] = dict(zip(names, proposal.cards))
            if proposal.undealt:
                deal["extra"] = list(proposal.undealt)
            if "sectaire" in proposal.cards:  # the groups are the table's seating, given at play: any two do here
                deal["groups"] = {name: 1 + i % 2 for i, name in enumerate(names)}
            parse_record(load_classic(), {"players": names, "deal": deal, "phases": []})
        else:
            from narrator.rules.onenight.record import check_setup
            from narrator.script.onenight.script import load_game

            center = load_shipped_advice()[game].center
            check_setup(load_game(game), _names(len(proposal.cards) - center), list(proposal.cards))
    except RecordError as exc:
        raise SetupError(f"compose : ces cartes ne font pas une partie ; il faudrait : {exc.expected}") from None


def print_proposal(game: str, players: int, proposal: Proposal) -> None:
    """The proposal as `narrator compose` prints it: the cards by name, what --roles takes, and why."""
    from narrator.script.role_names import title_of

    box = box_of(game)
    print(f"{title_of(game)}, {players} joueurs : {len(proposal.cards)} cartes")
    print("  " + names_of(box.names, proposal.cards))
    if proposal.undealt:
        print("  non distribuées : " + names_of(box.names, proposal.undealt))
    print("À donner à narrator play : --roles " + ",".join(proposal.cards), end="")
    print(" --extra " + ",".join(proposal.undealt) if proposal.undealt else "")
    if "sectaire" in proposal.cards and family_of(game) == CLASSIC:
        print("Avec le sectaire, donnez aussi le groupe de chaque joueur : --groups Ana=1,Ben=2,…")
    print("Pourquoi :")
    advice = load_shipped_advice()[game]
    for reason in proposal.reasons:
        text = said(reason, advice, box)
        print(f"  - {text[:1].upper()}{text[1:]}")


def said(reason: Reason, advice: Advice, box: Box) -> str:
    """A reason or a refusal of narrator/rules/compose.py, in French, with the rulebook sentence it follows."""
    p = reason.params
    found = p.get("why")
    why = _why(found, advice.rulebook) if isinstance(found, Why) else ""

    def name(key: str = "card") -> str:
        return box.names.get(str(p[key]), str(p[key]))

    def cards(key: str = "cards", last: str = "et") -> str:
        counted: Counter[str] = Counter(cast(list, p[key]))
        named = [(f"{n} × " if n > 1 else "") + box.names.get(c, c) for c, n in counted.items()]
        return named[0] if len(named) == 1 else ", ".join(named[:-1]) + f" {last} " + named[-1]

    texts = {
        # why a proposal is what it is
        "size": lambda: f"{p['size']} cartes pour {p['players']} joueurs : {why}",
        "box": lambda: f"pas plus de cartes d'un personnage que la boîte n'en a : {why}",
        "asked": lambda: f"les cartes demandées d'abord : {cards()}.",
        "scenario": lambda: f"le scénario « {box.titles.get(str(p['scenario']), p['scenario'])} » : {why}",
        "wolves": lambda: (
            ("un loup-garou" if p["count"] == 1 else f"{p['count']} loups-garous")
            + f" pour {p['players']} joueurs : {why}"
        ),
        "order": lambda: f"les autres cartes : {why}",
        "need": lambda: f"{name()} avec {cards('any_of', 'ou')} : {why}",
        "group": lambda: f"{cards()} ensemble : {why}",
        "undealt": lambda: f"{name()} : {p['count']} cartes non distribuées, {why}",
        # why a request is refused
        "range": lambda: (
            f"de {p['least']} à {p['most']} joueurs pour ce jeu"
            + (f" ({why})" if why else "")
            + f" ; demandé : {p['players']}"
        ),
        "unknown": lambda: f"« {p['card']} » n'est pas un personnage de ce jeu (narrator roles {p['game']})",
        "asked_and_refused": lambda: f"{name()} est à la fois demandé et refusé",
        "no_wolf": lambda: (
            "il ne reste pas de place pour un loup-garou : demandez moins de cartes, ou --sans moins de loups"
        ),
        "short": lambda: (
            f"pas assez de cartes permises pour {p['players']} joueurs : "
            f"{p['size']} cartes demandées, {p['found']} trouvées"
        ),
        "group_full": lambda: f"{name()} : ses cartes sont déjà toutes en jeu, ensemble",
        "group_refused": lambda: f"{name()} ne va pas sans {cards()}",
        "apart": lambda: f"{cards()} : {cast(Why, found).follows or cast(Why, found).source}",
        "need_refused": lambda: f"{p['advice']} Or --sans écarte {cards('any_of')}.",
        "need_no_room": lambda: f"{p['advice']} Or il ne reste pas de place pour {cards('any_of', 'ou')}.",
        "too_many": lambda: f"trop de cartes demandées pour la table ({p['size']} au plus)",
        "box_limit": lambda: f"{name()} : la boîte n'en a que {p['copies']}",
        "undealt_short": lambda: f"{name()} : pas assez de cartes à laisser au centre",
    }
    return texts[reason.key]()


def _why(why: Why, rulebook: str) -> str:
    """Where a rule comes from: « 001 : « … » », and what the proposal follows where the rulebook is silent."""
    parts = []
    if why.source:
        parts.append(f"{why.rulebook or rulebook} : « {why.source} »")
    if why.follows:
        parts.append(("le livret est muet ; la proposition suit : " if not why.source else "et ") + why.follows)
    text = " ; ".join(parts)
    return text if text.endswith(("»", ".", ")")) else text + "."


def names_of(names: Mapping[str, str], cards: Sequence[str]) -> str:
    """« 2 × loup-garou, voyante, voleur », in the order the cards come."""
    counted = Counter(cards)
    return ", ".join((f"{n} × " if n > 1 else "") + names.get(card, card) for card, n in counted.items())


def advice_against(game: str, cards: Sequence[str], undealt: Sequence[str] = ()) -> list[str]:
    """What a table's cards go against in the rulebooks' advice, each a French sentence to say; never a refusal."""
    return against(load_shipped_advice()[game], box_of(game), cards, undealt)


def warn_against(game: str, cards: Sequence[str], undealt: Sequence[str] = ()) -> list[str]:
    """Tell the table (on stderr, before its game) what its cards go against; the game is played all the same."""
    import sys

    said = advice_against(game, cards, undealt)
    for advice in said:
        print(f"Conseil des livrets : {advice} La partie se joue quand même.", file=sys.stderr)
    return said


def _names(n: int) -> list[str]:
    """`n` names every game's table can say and tell apart: the engine checks cards at a seated table."""
    return list(_SEATED[:n])


_SEATED = (
    "Ana",
    "Ben",
    "Cléo",
    "Dan",
    "Eva",
    "Félix",
    "Gaspard",
    "Inès",
    "Jules",
    "Karim",
    "Léa",
    "Marc",
    "Nina",
    "Oscar",
    "Paul",
    "Quentin",
    "Rose",
    "Samuel",
    "Thomas",
    "Valérie",
)
