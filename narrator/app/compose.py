"""`narrator compose` and the advice said at setup: the rules of narrator/rules/compose.py over the
shipped advice (scripts/compose.yaml) and the game's box, each proposal checked by the engine's own
setup check before it is shown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache

from narrator.resources import data_dir
from narrator.rules.compose import Advice, Box, ComposeError, Proposal, against, compose
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
    try:
        proposal = compose(load_shipped_advice()[game], box_of(game), players, avec, sans)
    except ComposeError as exc:
        raise SetupError(f"compose : {exc}") from None
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
    for reason in proposal.reasons:
        print(f"  - {reason[:1].upper()}{reason[1:]}")


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
