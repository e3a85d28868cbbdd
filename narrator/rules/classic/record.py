"""A `ruleset: thiercelieux` record (formats/game-record.md, "Multi-night games") checked, and its answers.

`parse_record` checks the table (players, deal, options, the shape of the phases). Each phase's
choices are read by a `RecordDecider` when the game asks for them, so a choice is checked against
the table as it stands at that moment; whatever the phase holds that the game never asked for is
an error too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace

from narrator.rules.classic.asks import Ask, MissingDecision, Potions, Spy
from narrator.rules.classic.model import NIGHT_POWERS, Options, Power, Rules
from narrator.rules.errors import RecordError, missing
from narrator.rules.names import parse_players

RECORD_KEYS = ("id", "ruleset", "players", "deal", "options", "phases")
DAY_KEYS = ("captain", "votes", "tiebreak", "revote")
HEIR = "successor"
# The format's choices that belong to 003's characters (issue 6): named apart in the errors.
LATER_ROLES = (
    "voleur", "salvateur", "ancien", "bouc_emissaire", "idiot", "renard", "enfant_sauvage", "comedien",
    "chevalier", "juge_begue", "montreur_ours", "soeur", "frere", "villageois_villageois", "servante",
    "corbeau", "pyromane", "gitane", "grand_mechant_loup", "infect", "joueur_de_flute", "loup_blanc",
    "sectaire", "ange", "chien_loup",
)  # fmt: skip
LATER_KEYS = LATER_ROLES + ("second_votes",)
LATER_DEAL = ("extra", "groups")  # undealt cards (voleur, comédien), the sectaire's groups


@dataclass(frozen=True, slots=True)
class Phase:
    kind: str  # "night" | "day"
    number: int
    choices: Mapping[str, object]
    path: tuple[object, ...]  # ("phases", i, kind)

    @property
    def label(self) -> str:
        return f"{'nuit' if self.kind == 'night' else 'jour'} {self.number}"


@dataclass(frozen=True, slots=True)
class Record:
    id: object
    players: tuple[str, ...]
    roles: tuple[str, ...]  # the card dealt to each seat
    options: Options
    phases: tuple[Phase, ...]


def parse_record(rules: Rules, raw: Mapping[str, object]) -> Record:
    """Check a thiercelieux record's table and the shape of its phases; raise `RecordError`."""
    for key in raw:
        if key not in RECORD_KEYS:
            raise RecordError((key,), "une des clés " + ", ".join(RECORD_KEYS), key)
    players = _players(raw.get("players"))
    roles = _deal(rules, raw.get("deal"), players)
    options = _options(rules.options, raw.get("options"))
    phases = _phases(rules, raw.get("phases"))
    return Record(raw.get("id"), players, roles, options, phases)


def supported(rules: Rules) -> str:
    return "un personnage pris en charge (" + ", ".join(rules.roles) + ")"


def _players(players: object) -> tuple[str, ...]:
    return parse_players(players, LATER_DEAL, "dans l'ordre du cercle")


def _deal(rules: Rules, deal: object, players: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(deal, dict):
        raise RecordError(("deal",), "un mapping joueur -> personnage", deal)
    for key in deal:
        if key in LATER_DEAL:
            expected = (
                "rien : des cartes non distribuées ou des groupes vont avec le voleur, le comédien ou le sectaire"
            )
            raise RecordError(("deal", key), expected + ", pas encore pris en charge", key)
        if key not in players:
            raise RecordError(("deal", key), "un joueur assis à la table", key)
    roles = []
    for name in players:
        if name not in deal:
            raise missing(("deal", name), "le personnage distribué à " + name)
        role = deal[name]
        if not isinstance(role, str) or role not in rules.roles:
            # 002's characters are played here; 003's others are issue 6
            raise RecordError(("deal", name), supported(rules), role)
        roles.append(role)
    for role_id, role in rules.roles.items():
        count = roles.count(role_id)
        if role.copies is not None and count > role.copies:
            # 002: "Ils sont 1, 2, 3 ou 4 suivant le nombre de joueurs"; one card of each other character
            raise RecordError(("deal",), f"au plus {role.copies} carte(s) {role_id}", count)
    wolves = sum(1 for r in roles if rules.roles[r].wolf)
    if wolves == 0:
        raise RecordError(("deal",), "au moins un loup-garou", dict(deal))
    if wolves >= len(roles) - wolves:
        # the wolves would already be as many as the others: the game would be over before it starts
        raise RecordError(("deal",), "moins de loups-garous que d'autres joueurs", wolves)
    return tuple(roles)


def _options(defaults: Options, raw: object) -> Options:
    if raw is None:
        return defaults
    if not isinstance(raw, dict):
        raise RecordError(("options",), "un mapping d'options", raw)
    names = [f.name for f in fields(Options)]
    changes = {}
    for key, value in raw.items():
        if key not in names:
            raise RecordError(("options", key), "une des options " + ", ".join(names), key)
        if not isinstance(value, bool):
            raise RecordError(("options", key), "true ou false", value)
        changes[key] = value
    return replace(defaults, **changes)


def phase_keys(rules: Rules, kind: str) -> tuple[str, ...]:
    """The keys a phase may hold: the night's waking roles, the day's decisions, the hunter's shot, the heir."""
    shooters = tuple(r.id for r in rules.with_power(Power.SHOOT))
    if kind == "night":
        return tuple(r.id for r in rules.night_roles() if r.power in NIGHT_POWERS) + shooters + (HEIR,)
    return DAY_KEYS + shooters + (HEIR,)


def _phases(rules: Rules, raw: object) -> tuple[Phase, ...]:
    if raw is None:
        raise missing(("phases",), "la liste des phases : - night: {…}, - day: {…}, en alternance")
    if not isinstance(raw, list):
        raise RecordError(("phases",), "une liste de phases : - night: {…}, - day: {…}", raw)
    out = []
    for i, item in enumerate(raw):
        kind = "night" if i % 2 == 0 else "day"
        number = i // 2 + 1
        # formats/game-record.md: "in order: night 1, day 1, night 2, …"
        expected = f"{kind}: {{…}} (les phases alternent : nuit 1, jour 1, nuit 2…)"
        if not isinstance(item, dict) or len(item) != 1:
            raise RecordError(("phases", i), expected, item)
        key, choices = next(iter(item.items()))
        if key != kind:
            raise RecordError(("phases", i), expected, key)
        path = ("phases", i, kind)
        choices = {} if choices is None else choices
        if not isinstance(choices, dict):
            raise RecordError(path, "les choix de la phase (un mapping ; {} pour aucun)", choices)
        allowed = phase_keys(rules, kind)
        for name in choices:
            if name not in allowed:
                hint = "une des clés " + ", ".join(allowed)
                if name in LATER_KEYS:
                    hint += f" ({name} est un choix de 003, pas encore pris en charge)"
                raise RecordError(path + (name,), hint, name)
        out.append(Phase(kind, number, choices, path))
    return tuple(out)


_ABSENT = object()


class RecordDecider:
    """Answers the game's questions from one phase of a record, refusing what the rules do not allow."""

    def __init__(self, phase: Phase):
        self.phase = phase
        self.used: set[str] = set()

    def _get(self, ask: Ask) -> object:
        if ask.key not in self.phase.choices:
            if ask.forced:
                raise MissingDecision(self.phase.path, self.phase.label, ask.context, ask.key)
            return _ABSENT
        self.used.add(ask.key)
        value = self.phase.choices[ask.key]
        if value is None and ask.forced:
            raise RecordError(self.phase.path + (ask.key,), ask.expected, None)
        return _ABSENT if value is None else value

    def _path(self, ask: Ask, *more: object) -> tuple[object, ...]:
        return self.phase.path + (ask.key,) + more

    def _one(self, ask: Ask, value: object, path: tuple[object, ...]) -> str:
        if isinstance(value, str) and value in ask.choices:
            return value
        expected = f"{ask.expected} : " + (", ".join(ask.choices) or "personne")
        note = ask.note(value)
        if note:
            expected += f" ; pas {value} : {note}"
        raise RecordError(path, expected, value)

    def player(self, ask: Ask) -> str | None:
        value = self._get(ask)
        return None if value is _ABSENT else self._one(ask, value, self._path(ask))

    def pair(self, ask: Ask) -> tuple[str, str] | None:
        value = self._get(ask)
        if value is _ABSENT:
            return None
        if not isinstance(value, list) or len(value) != 2:
            raise RecordError(self._path(ask), ask.expected + " : [X, Y]", value)
        first = self._one(ask, value[0], self._path(ask, 0))
        second = self._one(ask, value[1], self._path(ask, 1))
        if first == second:
            raise RecordError(self._path(ask, 1), "un autre joueur que " + first, second)
        return first, second

    def potions(self, ask: Ask) -> Potions | None:
        value = self._get(ask)
        if value is _ABSENT:
            return None
        value = _flags(value, self._path(ask), ask.expected, {"heal": bool, "poison": (str, type(None))})
        heal, poison = value.get("heal", False), value.get("poison")
        if heal and ask.heal is None:
            # 002: "La Sorcière doit utiliser chaque potion 1 seule fois dans la partie."
            raise RecordError(self._path(ask, "heal"), "false : " + ask.no_heal, heal)
        if poison is not None and not ask.choices:
            raise RecordError(self._path(ask, "poison"), "null : " + ask.no_poison, poison)
        target = None if poison is None else self._one(ask, poison, self._path(ask, "poison"))
        return Potions(bool(heal), target)

    def spy(self, ask: Ask) -> Spy | None:
        value = self._get(ask)
        if value is _ABSENT:
            return None
        value = _flags(value, self._path(ask), ask.expected, {"spied": bool, "caught": bool})
        spied, caught = value.get("spied", False), value.get("caught", False)
        if caught and not spied:
            # 002: "Si elle se fait surprendre…": only a petite fille who spies can be caught
            raise RecordError(
                self._path(ask, "caught"), "false : seule la petite fille qui espionne est surprise", True
            )
        return Spy(bool(spied), bool(caught))

    def ballots(self, ask: Ask) -> dict[str, str | None]:
        value = self._get(ask)
        legal = dict(ask.ballots)
        if value is _ABSENT:
            value = {}
        if not isinstance(value, dict):
            raise RecordError(self._path(ask), ask.expected, value)
        out: dict[str, str | None] = {}
        for voter, target in value.items():
            if voter not in legal:
                # RULINGS thiercelieux 17: a ballot from a player who may not vote is an error
                raise RecordError(
                    self._path(ask, voter), "seuls votent les joueurs en vie : " + ", ".join(legal), voter
                )
            if target is not None and (not isinstance(target, str) or target not in legal[voter]):
                allowed = ", ".join(legal[voter]) or "personne"
                raise RecordError(self._path(ask, voter), f"{ask.expected} ; pour {voter} : {allowed}", target)
            out[voter] = target
        for voter in legal:
            if voter not in out:
                raise missing(self._path(ask, voter), f"le bulletin de {voter} : un joueur, ou null pour un vote blanc")
        return out

    def close(self, why_not: Callable[[str], str]) -> None:
        """Refuse whatever the phase holds that the game never asked for."""
        for key, value in self.phase.choices.items():
            if key not in self.used:
                raise RecordError(
                    self.phase.path + (key,), "rien : ce choix n'a pas lieu d'être (" + why_not(key) + ")", value
                )


def _flags(
    value: object, path: tuple[object, ...], expected: str, keys: dict[str, type | tuple[type, ...]]
) -> dict[str, object]:
    if not isinstance(value, dict):
        raise RecordError(path, expected, value)
    for key, item in value.items():
        if key not in keys:
            raise RecordError(path + (key,), "une des clés " + ", ".join(keys), key)
        if not isinstance(item, keys[key]):
            raise RecordError(path + (key,), expected, item)
    return value
