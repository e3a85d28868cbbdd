"""A `ruleset: thiercelieux` record (formats/game-record.md, "Multi-night games") checked, and its answers.

`parse_record` checks the table (players, deal, options, the shape of the phases). Each phase's
choices are read by a `RecordDecider` when the game asks for them, so a choice is checked against
the table as it stands at that moment; whatever the phase holds that the game never asked for is
an error too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace

from narrator.rules.classic.asks import Ask, MissingDecision, Potions, Spy, Value
from narrator.rules.classic.model import LENDABLE, Camp, Options, Power, Rules
from narrator.rules.errors import RecordError, missing
from narrator.rules.names import parse_id, parse_players
from narrator.rules.phase import label

RECORD_KEYS = ("id", "ruleset", "players", "deal", "options", "phases")
DAY_KEYS = ("captain", "votes", "tiebreak", "revote")
HEIR = "successor"
SECOND_VOTES = "second_votes"  # the juge bègue's second vote
DEAL_KEYS = ("extra", "groups")  # undealt cards (voleur, comédien), the sectaire's groups
# how many undealt cards each character that uses them looks at (003: "les deux cartes non
# distribuées", "Trois cartes de personnages sont posées au centre")
EXTRA_CARDS = {Power.STEAL: 2, Power.PERFORM: 3}


@dataclass(frozen=True, slots=True)
class Phase:
    kind: str  # "night" | "day"
    number: int
    choices: Mapping[str, object]
    path: tuple[object, ...]  # ("phases", i, kind)

    @property
    def label(self) -> str:
        return label(self.kind, self.number)


@dataclass(frozen=True, slots=True)
class Record:
    id: object
    players: tuple[str, ...]
    roles: tuple[str, ...]  # the card dealt to each seat
    options: Options
    phases: tuple[Phase, ...]
    extra: tuple[str, ...] = ()  # the undealt cards, for the voleur or the comédien
    groups: tuple[int, ...] = ()  # each seat's group, when the sectaire plays


def parse_record(rules: Rules, raw: Mapping[str, object]) -> Record:
    """Check a thiercelieux record's table and the shape of its phases; raise `RecordError`."""
    for key in raw:
        if key not in RECORD_KEYS:
            raise RecordError((key,), "une des clés " + ", ".join(RECORD_KEYS), key)
    players = _players(raw.get("players"))
    roles, extra, groups = _deal(rules, raw.get("deal"), players)
    options = _options(rules.options, raw.get("options"))
    phases = _phases(rules, raw.get("phases"))
    return Record(parse_id(raw), players, roles, options, phases, extra, groups)


def supported(rules: Rules) -> str:
    return "un personnage pris en charge (" + ", ".join(rules.roles) + ")"


def _players(players: object) -> tuple[str, ...]:
    return parse_players(
        players, DEAL_KEYS, "dans l'ordre du cercle", "un nom autre que extra ou groups (mots réservés du tirage)"
    )


def _deal(
    rules: Rules, deal: object, players: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """The dealt cards, the undealt ones and the sectaire's groups, each checked as a table expects."""
    if not isinstance(deal, dict):
        raise RecordError(("deal",), "un mapping joueur -> personnage", deal)
    for key in deal:
        if key not in players and key not in DEAL_KEYS:
            raise RecordError(("deal", key), "un joueur assis à la table", key)
    roles = []
    for name in players:
        if name not in deal:
            raise missing(("deal", name), "le personnage distribué à " + name)
        role = deal[name]
        if not isinstance(role, str) or role not in rules.roles:
            raise RecordError(("deal", name), supported(rules), role)
        roles.append(role)
    extra = _extra(rules, deal, roles)
    for role_id, role in rules.roles.items():
        count = roles.count(role_id)
        if role.power is Power.RECOGNIZE:
            if count not in (0, role.copies):
                # 003: "Deux Sœurs", "Trois Frères"
                raise RecordError(("deal",), f"{role.copies} cartes {role_id} ou aucune : ce personnage se joue à "
                                  f"{role.copies}", count)  # fmt: skip
        elif role.copies is not None and count + extra.count(role_id) > role.copies:
            # 002: "Ils sont 1, 2, 3 ou 4 suivant le nombre de joueurs"; one card of each other character,
            # the undealt ones included
            undealt = ", distribuées ou non" if role_id in extra else ""
            total = count + extra.count(role_id)
            raise RecordError(("deal",), f"au plus {role.copies} carte(s) {role_id}{undealt}", total)
    groups = _groups(rules, deal, roles + list(extra), players)
    wolves = sum(1 for r in roles if rules.roles[r].wolf)
    if wolves == 0:
        raise RecordError(("deal",), "au moins un loup-garou", dict(deal))
    if wolves >= len(roles) - wolves:
        # the wolves would already be as many as the others: the game would be over before it starts
        raise RecordError(("deal",), "moins de loups-garous que d'autres joueurs", wolves)
    return tuple(roles), extra, groups


def _extra(rules: Rules, deal: dict, roles: list[str]) -> tuple[str, ...]:
    """deal.extra: the voleur's two undealt cards or the comédien's three, and nothing otherwise."""
    users = [rules.roles[r] for r in dict.fromkeys(roles) if rules.roles[r].power in EXTRA_CARDS]
    raw = deal.get("extra")
    if len(users) > 1:
        names = " et ".join(u.name for u in users)
        raise RecordError(("deal",), f"un seul personnage qui prend les cartes non distribuées, pas {names}",
                          [u.id for u in users])  # fmt: skip
    if not users:
        if raw is not None:
            raise RecordError(("deal", "extra"), "rien : des cartes non distribuées ne vont qu'avec le voleur (2) "
                              "ou le comédien (3)", raw)  # fmt: skip
        return ()
    user = users[0]
    assert user.power is not None
    count = EXTRA_CARDS[user.power]
    what = f"les {count} cartes non distribuées du {user.name}"
    if raw is None:
        raise missing(("deal", "extra"), what + " : [carte, carte…]")
    if not isinstance(raw, list) or len(raw) != count:
        raise RecordError(("deal", "extra"), f"{what} : une liste de {count} personnages", raw)
    lendable = [rid for rid, r in rules.roles.items() if r.camp is Camp.VILLAGE and r.power in LENDABLE]
    # 003: "Trois cartes de personnages": village characters with a power, not the first night's ones
    for i, card in enumerate(raw):
        if not isinstance(card, str) or card not in rules.roles:
            raise RecordError(("deal", "extra", i), supported(rules), card)
        if rules.roles[card].power in EXTRA_CARDS:
            raise RecordError(("deal", "extra", i), "une carte autre que celles du voleur et du comédien : un seul "
                              "des deux joue", card)  # fmt: skip
        if rules.roles[card].power is Power.RECOGNIZE:
            raise RecordError(("deal", "extra", i), "une carte qui se joue seule : les " + card + " sont toutes "
                              "distribuées", card)  # fmt: skip
        if user.power is Power.PERFORM and card not in lendable:
            # 003: "il en choisit une et en prend le pouvoir pour la nuit": a village power of the night
            raise RecordError(("deal", "extra", i), "un personnage du village à pouvoir dont le comédien peut "
                              "prendre le pouvoir : " + ", ".join(lendable), card)  # fmt: skip
    if user.power is Power.PERFORM and len(set(raw)) != count:
        raise RecordError(("deal", "extra"), f"{what} : {count} personnages différents", raw)
    return tuple(raw)


def _groups(rules: Rules, deal: dict, cards: list[str], players: tuple[str, ...]) -> tuple[int, ...]:
    """deal.groups: every player in group 1 or 2, both groups peopled, when the sectaire plays (003)."""
    sect = any(rules.roles[c].power is Power.SECT for c in cards)
    raw = deal.get("groups")
    if not sect:
        if raw is not None:
            raise RecordError(("deal", "groups"), "rien : les groupes ne vont qu'avec le sectaire", raw)
        return ()
    expected = "les deux groupes du sectaire : {joueur: 1 ou 2} pour chaque joueur"
    if raw is None:
        raise missing(("deal", "groups"), expected)
    if not isinstance(raw, dict):
        raise RecordError(("deal", "groups"), expected, raw)
    for name, group in raw.items():
        if name not in players:
            raise RecordError(("deal", "groups", name), "un joueur assis à la table", name)
        if isinstance(group, bool) or group not in (1, 2):
            raise RecordError(("deal", "groups", name), "1 ou 2", group)
    for name in players:
        if name not in raw:
            raise missing(("deal", "groups", name), f"le groupe de {name} : 1 ou 2")
    groups = tuple(int(raw[p]) for p in players)
    if len(set(groups)) != 2:
        # 003: "Le village est séparé en deux groupes."
        raise RecordError(("deal", "groups"), "deux groupes : des joueurs dans le groupe 1 et dans le groupe 2", raw)
    return groups


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
    """The keys a phase may hold: the night's choosing roles, the day's decisions, and what a death asks
    in either (the hunter's shot, the servante's takeover, the heir)."""

    def ids(*powers: Power) -> tuple[str, ...]:
        return tuple(r.id for r in rules.roles.values() if r.power in powers)

    deaths = ids(Power.SHOOT) + (HEIR,) + ids(Power.DEVOTE)
    if kind == "night":
        return tuple(r.id for r in rules.night_roles()) + deaths
    return DAY_KEYS + deaths + ids(Power.STUTTER) + (SECOND_VOTES,) + ids(Power.SCAPEGOAT)


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
                raise RecordError(path + (name,), "une des clés " + ", ".join(allowed), name)
        out.append(Phase(kind, number, choices, path))
    return tuple(out)


_ABSENT = object()


class RecordDecider:
    """Answers the game's questions from one phase of a record, refusing what the rules do not allow."""

    def __init__(self, phase: Phase):
        self.phase = phase
        self.used: set[str] = set()
        self.read: dict[str, set[str]] = {}  # the fields read in a choice's mapping ({take: 1})
        self.asked: dict[str, int] = {}  # how many times each key was asked

    def _get(self, ask: Ask) -> object:
        choices = self.phase.choices
        if ask.key not in choices:
            if ask.forced:
                raise MissingDecision(self.phase.path, self.phase.label, ask.context, ask.key)
            return _ABSENT
        self.used.add(ask.key)
        value = choices[ask.key]
        if ask.field:
            if value is None and not ask.forced:
                return _ABSENT
            if not isinstance(value, dict):
                raise RecordError(self.phase.path + (ask.key,), ask.expected, value)
            self.read.setdefault(ask.key, set()).add(ask.field)
            if ask.field not in value:
                if ask.forced:
                    raise MissingDecision(self.phase.path + (ask.key,), self.phase.label, ask.context, ask.field)
                return _ABSENT
            value = value[ask.field]
        if value is None and ask.forced:
            raise RecordError(self._path(ask), ask.expected, None)
        return _ABSENT if value is None else value

    def _path(self, ask: Ask, *more: object) -> tuple[object, ...]:
        return self.phase.path + (ask.key,) + ((ask.field,) if ask.field else ()) + more

    def _one(self, ask: Ask, value: object, path: tuple[object, ...]) -> str:
        if isinstance(value, str) and value in ask.choices:
            return value
        expected = f"{ask.expected} : " + (", ".join(ask.choices) or "personne")
        note = ask.note(value)
        if note:
            expected += f" ; pas {value} : {note}"
        raise RecordError(path, expected, value)

    def player(self, ask: Ask) -> str | None:
        if ask.again and ask.key in self.phase.choices:
            waiting = self.phase.choices[ask.key]
            if isinstance(waiting, str) and waiting not in ask.choices and ask.note(waiting) is None:
                return None  # a player eliminated later in the phase, or an error when the phase closes
        nth = self.asked.get(ask.key, 0)
        self.asked[ask.key] = nth + 1
        value = self._get(ask)
        if isinstance(value, list) and ask.many:
            # one answer per question under that key in the phase: [first, second]
            if nth >= len(value):
                raise RecordError(self._path(ask), f"une liste d'au moins {nth + 1} joueurs, un par question "
                                  f"({ask.context})", value)  # fmt: skip
            return self._one(ask, value[nth], self._path(ask, nth))
        if nth and ask.many:
            expected = f"[…] : une réponse par question, la {nth + 1}e : {ask.context}"
            raise RecordError(self._path(ask), expected, value)
        if value is _ABSENT or value is False and ask.again:
            return None
        if value is True and ask.again:
            if len(ask.choices) == 1:
                return ask.choices[0]
            raise RecordError(self._path(ask), f"{ask.expected} : un de " + ", ".join(ask.choices), value)
        return self._one(ask, value, self._path(ask))

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

    def players(self, ask: Ask) -> tuple[str, ...] | None:
        value = self._get(ask)
        if value is _ABSENT:
            return None
        if not isinstance(value, list) or (ask.count is not None and len(value) != ask.count):
            raise RecordError(self._path(ask), ask.expected, value)
        out: list[str] = []
        for i, item in enumerate(value):
            name = self._one(ask, item, self._path(ask, i))
            if name in out:
                raise RecordError(self._path(ask, i), "des joueurs tous différents", name)
            out.append(name)
        return tuple(out)

    def option(self, ask: Ask) -> Value | None:
        value = self._get(ask)
        if value is _ABSENT:
            return None
        for legal, _ in ask.options:
            if type(value) is type(legal) and value == legal:
                return legal
        labels = ", ".join(f"{legal} ({label})" for legal, label in ask.options)
        raise RecordError(self._path(ask), f"{ask.expected} : {labels}", value)

    def yes(self, ask: Ask) -> bool:
        value = self._get(ask)
        if value is _ABSENT:
            return False
        if not isinstance(value, bool):
            raise RecordError(self._path(ask), ask.expected, value)
        return value

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
            check_ballot(ask, self._path(ask, voter), voter, target)
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
            if key in self.read and isinstance(value, dict):
                for name, item in value.items():
                    if name not in self.read[key]:
                        raise RecordError(self.phase.path + (key, name), "rien : ce choix n'a pas lieu d'être ("
                                          + why_not(f"{key}.{name}") + ")", item)  # fmt: skip


def check_ballot(ask: Ask, path: tuple[object, ...], voter: object, target: object) -> None:
    """One ballot of a BALLOTS question: a voter the rules let vote, for one of his targets or nobody."""
    legal = dict(ask.ballots)
    if voter not in legal:
        # RULINGS thiercelieux 17: a ballot from a player who may not vote is an error
        expected = "seuls votent les joueurs en vie : " + (", ".join(legal) or "personne")
        note = ask.note(voter)
        if note:
            expected += f" ; pas {voter} : {note}"
        raise RecordError(path, expected, voter)
    if target is not None and (not isinstance(target, str) or target not in legal[voter]):
        allowed = ", ".join(legal[voter]) or "personne"
        raise RecordError(path, f"{ask.expected} ; pour {voter} : {allowed}", target)


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


def hold(choices: dict[str, object], key: str, value: object, field: str = "", many: bool = False) -> None:
    """One answer put where a phase of a record holds it (formats/game-record.md): under a field of the
    key's mapping (`{take: 1}`), one more of a list when the question comes again (`successor: [X, Y]`),
    else the key's value; "not used" (None) never overwrites an answer already there."""
    held = choices.get(key)
    if field:
        fields = dict(held) if isinstance(held, dict) else {}
        if value is not None:
            fields[field] = value
        choices[key] = fields
    elif held is not None and many:
        choices[key] = [*held, value] if isinstance(held, list) else [held, value]
    elif value is not None or held is None:
        choices[key] = value
