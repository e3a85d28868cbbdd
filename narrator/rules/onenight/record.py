"""A one-night game record (docs/record.md) checked and turned into a `Game`.

Only the table is checked here (players, deal, vote); each night choice is checked by the power
that reads it, when the night reaches it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import fields, replace

from narrator.rules.errors import RecordError, missing
from narrator.rules.names import parse_id, parse_players
from narrator.rules.onenight.model import CENTER, Game, Options, Ruleset, Victory

RECORD_KEYS = ("id", "ruleset", "players", "deal", "night", "votes", "options")
RESERVED_NAMES = frozenset(CENTER) | {"center", "self"}
RESERVED_SAID = (
    f"un nom autre que {', '.join(CENTER[:-1])} ou {CENTER[-1]} (les cartes du centre dans un enregistrement)"
    " et autre que center ou self (mots réservés des enregistrements)"
)


def parse_game(rules: Ruleset, raw: Mapping[str, object]) -> Game:
    """Check a record of `rules`' game and build the engine's `Game`; raise `RecordError`."""
    for key in raw:
        if key not in RECORD_KEYS:
            raise RecordError((key,), "une des clés " + ", ".join(RECORD_KEYS), key)
    players = _players(raw)
    deal = _deal(rules, raw, players)
    seated = frozenset(players)
    night = _mapping(raw, "night")
    for name, choice in night.items():
        if name not in seated:
            raise RecordError(("night", name), "un joueur assis à la table", name)
        if choice is not None and not isinstance(choice, dict):
            raise RecordError(("night", name), "le choix du joueur (un mapping, {} pour rien)", choice)
    votes = _mapping(raw, "votes")
    for voter, target in votes.items():
        if voter not in seated:
            raise RecordError(("votes", voter), "un joueur assis à la table", voter)
        if target is not None and (not isinstance(target, str) or target not in seated):
            raise RecordError(("votes", voter), "un joueur assis ou null (personne)", target)
    return Game(
        id=parse_id(raw),
        players=players,
        deal=deal,
        night={k: v or {} for k, v in night.items()},
        votes=votes,
        options=_options(rules.options, raw.get("options")),
    )


def _players(raw: Mapping[str, object]) -> tuple[str, ...]:
    return parse_players(raw.get("players"), RESERVED_NAMES, "dans l'ordre où ils sont assis", RESERVED_SAID)


def _deal(rules: Ruleset, raw: Mapping[str, object], players: tuple[str, ...]) -> tuple[str, ...]:
    deal = raw.get("deal")
    if not isinstance(deal, dict):
        raise RecordError(("deal",), "un mapping joueur -> carte, et center: [A, B, C]", deal)
    for key in deal:
        if key != "center" and key not in players:
            raise RecordError(("deal", key), "un joueur assis à la table ou center", key)
    cards = []
    for name in players:
        if name not in deal:
            raise missing(("deal", name), "la carte distribuée à " + name)
        cards.append(deal[name])
    center = deal.get("center")
    if center is None:
        raise missing(("deal", "center"), "les trois cartes du centre [A, B, C]")
    if not isinstance(center, list) or len(center) != 3:
        raise RecordError(("deal", "center"), "exactement trois cartes au centre", center)
    cards.extend(center)
    n = len(players)
    _check_deck(rules, cards, lambda i: ("deal", players[i]) if i < n else ("deal", "center", i - n), ("deal",))
    return tuple(cards)


def check_setup(rules: Ruleset, players: list[str], cards: list[str]) -> None:
    """A table about to play: its names, and the cards in play (players + 3); raise `RecordError`."""
    _players({"players": players})
    if len(cards) != len(players) + 3:
        raise RecordError(
            ("roles",), f"{len(players) + 3} cartes pour {len(players)} joueurs (joueurs + 3)", len(cards)
        )
    _check_deck(rules, cards, lambda i: ("roles", i), ("roles",))


def _check_deck(rules: Ruleset, cards: list, path_of: Callable[[int], tuple], whole: tuple) -> None:
    """Known characters, no more copies than the box has, linked cards together (000, 001)."""
    roles = rules.roles
    for i, card in enumerate(cards):
        if not isinstance(card, str) or card not in roles:
            raise RecordError(path_of(i), f"un personnage de {rules.game} ({', '.join(roles)})", card)
    count: dict[str, int] = {}
    for card in cards:
        count[card] = count.get(card, 0) + 1
    for role_id, n in count.items():
        if n > roles[role_id].copies:
            raise RecordError(whole, f"au plus {roles[role_id].copies} carte(s) {role_id}", n)
    for group in rules.together:
        need = Counter(group)
        if any(r in count for r in need) and any(count.get(r, 0) != need[r] for r in need):
            # 000: "Ils sont toujours deux dans la distribution initiale."; 001: "entrent toujours ensemble"
            expected = "les cartes " + " et ".join(group) + " toutes ensemble, ou aucune"
            raise RecordError(whole, expected, dict(count))


def _mapping(raw: Mapping[str, object], key: str) -> dict:
    value = raw.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError((key,), "un mapping par joueur", value)
    return value


def _options(defaults: Options, raw: object) -> Options:
    if raw is None:
        return defaults
    if not isinstance(raw, dict):
        raise RecordError(("options",), "un mapping d'options", raw)
    changes = {}
    for key, value in raw.items():
        names = [f.name for f in fields(Options)]
        if key not in names:
            raise RecordError(("options", key), "une des options " + ", ".join(names), key)
        if key == "victory":
            if value not in {v.value for v in Victory}:
                raise RecordError(("options", key), "individual ou team", value)
            value = Victory(value)
        elif not isinstance(value, bool):
            raise RecordError(("options", key), "true ou false", value)
        changes[key] = value
    return replace(defaults, **changes)
