"""French text -> commands: hassil sentence templates over normalized words, names matched loosely."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from types import MappingProxyType
from typing import Any, cast

import yaml
from hassil import Intents, RangeSlotList, TextSlotList, recognize_all
from hassil.expression import Alternative, Expression, Group, ListReference, RuleReference, Sentence, TextChunk
from hassil.intents import Intent, IntentData, SlotList, TextSlotValue
from hassil.parse_expression import parse_sentence
from rapidfuzz import fuzz, process
from text_to_num import alpha2digit

from narrator.listen.commands import COMMANDS, FIELDS, SETUP_COMMANDS, Command
from narrator.listen.phrasebook_schema import ALL_PHASES, PHASES, SCHEMA, SLOTS, TEMPLATED
from narrator.listen.phrasebook_schema import SETUP_PHASES as SETUP_PHASES  # the setup's parsers read it here
from narrator.resources import data_dir
from narrator.script.games import ONE_NIGHT, family_of, games_of
from narrator.script.marks import Marked, Problem, YamlError, load_marked
from narrator.script.onenight.script import load_shipped, script_path
from narrator.script.role_names import roles_of
from narrator.script.schema import schema_problems

__all__ = [
    *("ALL_PHASES", "PHASES", "SETUP_PHASES", "Listener", "Phrasebook", "TemplateParser", "fold"),
    *("phrasebook", "words"),
    *("number_words", "script_titles", "spoken_list", "spoken_title", "text_list"),
]

FILE = "listen.fr.yaml"
LISTS = ("player", "target", "nobody", "role", "count", "minutes", "seconds", "players", "game", "scenario")
# research/voice-stack.md: rapidfuzz ratio >= 80 once accents are gone; a runner-up this close
# means two seated players fit, so the name is not read at all.
FUZZY_CUTOFF = 80.0
FUZZY_MARGIN = 10.0
FUZZY_MIN_LETTERS = 3  # "le", "ne": too short to be a misheard name
MAX_WORDS = 64  # nobody says more in one turn; bounds the work on hostile input

_NOBODY = object()  # the target "personne" (hassil would turn out=None into the heard text)
_SYNTAX = re.compile(r"(\{[^}]*\}|<[^>]*>|[()\[\]|;])")
_NOT_WORD = re.compile(r"[\W_]+")
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})  # not split by NFKD


class _Bases(dict[int, str]):
    """A character's folded form (casefolded, ligatures opened, NFKD without its marks), made the first
    time the character is met: folding is per character, so `str.translate` then folds a whole text in C
    at twice the speed of normalizing it (a table's grammar folds some 100,000 phrases)."""

    def __missing__(self, code: int) -> str:
        text = unicodedata.normalize("NFKD", chr(code).casefold().translate(_LIGATURES))
        folded = self[code] = "".join(c for c in text if not unicodedata.combining(c))
        return folded


_BASES = _Bases()


def fold(text: str) -> str:
    """Lowercase, accents off, every run of non-letters one space: "J'ai  Chloé !" -> "j ai chloe "."""
    return _NOT_WORD.sub(" ", text.translate(_BASES))


def words(text: str, spellings: Mapping[str, str]) -> list[str]:
    """The words as the parser compares them: folded, number words as digits ("vingt et un" -> "21")."""
    folded = " ".join(spellings.get(w, w) for w in fold(text).split())
    # threshold 0: text2num leaves "un", "deux", "zéro" alone by default (research/voice-stack.md)
    return alpha2digit(folded, "fr", threshold=0).split()


@dataclass(frozen=True)
class Block:
    """Templates of one command that share their phases and fixed slot values."""

    command: str
    phases: frozenset[str]
    sentences: tuple[str, ...]
    slots: tuple[tuple[str, object], ...]


@dataclass(frozen=True, eq=False)  # hashed by identity: the loaded book keys caches
class Phrasebook:
    """scripts/listen.fr.yaml, checked: every French word the listener knows."""

    fillers: tuple[str, ...]
    not_names: tuple[str, ...]
    spellings: Mapping[str, str]
    nobody: tuple[str, ...]
    ranges: Mapping[str, tuple[int, int, int]]
    rules: Mapping[str, str]
    blocks: tuple[Block, ...]
    roles: Mapping[str, Mapping[str, tuple[str, ...]]]
    name_lead_ins: tuple[str, ...]
    filler_names: tuple[str, ...]  # fillers that are first names too, when said alone as a name (« ben »)
    games: Mapping[str, tuple[str, ...]]  # game id -> aliases
    scenarios: Mapping[str, Mapping[str, tuple[str, ...]]]  # game -> scenario id -> aliases
    day_words: Mapping[str, tuple[str, ...]]  # kind (DAY_KINDS) -> the words of that kind
    decoy_names: tuple[str, ...]  # common first names, heard as themselves

    def template(self, text: str) -> str:
        """A template in the parser's words: text between the syntax folded like any input."""
        out = []
        for piece in _SYNTAX.split(text):
            if not piece or _SYNTAX.fullmatch(piece):
                out.append(piece)
                continue
            said = " ".join(words(piece, self.spellings))
            out.append((" " if piece[0].isspace() else "") + said + (" " if said and piece[-1].isspace() else ""))
        return "".join(out)

    def role_aliases(self, game: str) -> list[tuple[str, str]]:
        """(spoken, role id) for every way a role of `game` is said, Doppelgänger copies included."""
        roles: Mapping[str, Any] = roles_of(game)
        said = {rid: (*self.roles.get(game, {}).get(rid, ()), role.name.lower()) for rid, role in roles.items()}
        pairs = [(alias, rid) for rid, aliases in said.items() for alias in aliases]
        # 000: "le terme Doppelgänger-voyante peut être utilisé pour désigner le caméléon ayant pris
        # l'identité de la voyante"; the card alone says nothing, so it is not a reveal on its own
        if "doppelganger" in roles:
            pairs += [
                (f"{d} {alias}", f"doppelganger:{rid}")
                for d in said["doppelganger"]
                if " " not in d  # « voleur d'identité voyante » is read from tags (narrator/listen/tagger.py)
                for alias, rid in pairs
                if rid != "doppelganger"
            ]
            pairs = [(alias, rid) for alias, rid in pairs if rid != "doppelganger"]
        return pairs

    def game_aliases(self) -> list[tuple[str, str]]:
        """(spoken, game id) for every way a game is named: the aliases, and each script's title."""
        pairs = [(alias, game) for game, aliases in self.games.items() for alias in aliases]
        pairs += [(spoken_title(script_titles(game)[0]), game) for game in games_of(ONE_NIGHT)]
        return [(said, game) for said, game in pairs if said]

    def intents(self, phase: str, spoken: bool = False, commands: frozenset[str] | None = None) -> Intents:
        """The templates of `phase` for hassil, in the parser's words (or as spoken, for a grammar).

        commands: only the templates of these commands (all of them when None).
        """
        return _intents(self, phase, spoken, commands)


@cache
def script_titles(game: str) -> tuple[str, Mapping[str, str]]:
    """A shipped game's title and its scenarios' titles (id -> title), as its script writes them."""
    announce = load_shipped(game).announce  # checked first: the titles of a broken script are never read
    title, titles = getattr(announce, "title", None), getattr(announce, "scenario_titles", None)
    if title is not None and titles is not None:
        return str(title), MappingProxyType(dict(titles))
    data = yaml.safe_load(script_path(game).read_text(encoding="utf-8"))  # a loader that keeps no titles
    scenarios = data.get("scenarios") or {}
    return str(data.get("title", "")), MappingProxyType({str(k): str(v.get("title", "")) for k, v in scenarios.items()})


def spoken_title(title: object) -> str:
    """A title as a recognizer writes it: lowercase, no punctuation but hyphens and apostrophes."""
    return " ".join(re.sub(r"[^\w\s'’-]", " ", str(title).lower()).split())


@cache
def _intents(book: Phrasebook, phase: str, spoken: bool, commands: frozenset[str] | None) -> Intents:
    shape = (lambda t: t) if spoken else book.template
    intents: dict[str, Intent] = {}
    for block in book.blocks:
        if phase in block.phases and (commands is None or block.command in commands):
            data = IntentData(sentence_texts=[shape(s) for s in block.sentences], slots=dict(block.slots))
            intents.setdefault(block.command, Intent(block.command)).data.append(data)
    rules = {name: parse_sentence(shape(body), keep_text=True) for name, body in book.rules.items()}
    return Intents(language="fr", intents=intents, expansion_rules=rules)


@cache
def phrasebook() -> Phrasebook:
    """The shipped phrasebook; raise `YamlError` (file:line:column, in French) if it is broken.

    Read from the compiled cache when it was checked before (narrator/listen/compiled.py).
    """
    from narrator.listen.compiled import load

    path = data_dir("scripts") / FILE
    return load("phrasebook", (), lambda: load_phrasebook(path.read_text(encoding="utf-8"), f"scripts/{FILE}"))


def load_phrasebook(text: str, file: str) -> Phrasebook:
    """Check a phrasebook's text: its shape (phrasebook_schema.py), then what only the loaded words
    can say; raise `YamlError` listing every problem."""
    doc = load_marked(text, file)
    problems = schema_problems(doc, SCHEMA)
    if problems:
        raise YamlError(problems)
    data = cast(dict[str, Any], doc.data)
    check = _Checker(doc)
    book = Phrasebook(
        fillers=tuple(data["fillers"]),
        not_names=tuple(data["not_names"]),
        spellings={fold(str(heard)).strip(): meant.casefold() for heard, meant in data["number_spellings"].items()},
        nobody=tuple(data["nobody"]),
        ranges=check.ranges(),
        rules=check.rules(),
        blocks=(),
        roles=check.roles(),
        name_lead_ins=tuple(data["name_lead_ins"]),
        filler_names=tuple(data["filler_names"]),
        games={game: tuple(aliases) for game, aliases in data["games"].items()},
        scenarios=check.scenarios(),
        day_words={kind: tuple(said) for kind, said in data["day_words"].items()},
        decoy_names=tuple(data["decoy_names"]),
    )
    book = replace(book, blocks=check.blocks(book))  # templates are checked against the rules above
    if check.problems:
        raise YamlError(sorted(check.problems, key=lambda p: (p.line, p.column)))
    return book


class _Checker:
    """What a schema cannot say of a phrasebook whose shape is right, each problem with its place."""

    def __init__(self, doc: Marked):
        self.doc = doc
        self.problems: list[Problem] = []
        self.data = cast(dict[str, Any], doc.data)

    def fail(self, path: tuple, message: str, at_key: bool = False) -> None:
        self.problems.append(self.doc.problem(path, message, at_key))

    def ranges(self) -> dict[str, tuple[int, int, int]]:
        out = {}
        for name, spec in self.data["ranges"].items():
            start, stop, step = spec["from"], spec["to"], spec.get("step", 1)
            if start > stop:
                self.fail(("ranges", name), f"attendu : from ≤ to ; trouvé : {start} > {stop}")
            else:
                out[name] = (start, stop, step)
        return out

    def template(self, text: str, path: tuple) -> Sentence | None:
        try:
            return parse_sentence(text, keep_text=True)
        except Exception as exc:  # hassil raises assorted errors on bad syntax
            self.fail(path, f"modèle illisible : {exc}")
            return None

    def rules(self) -> dict[str, str]:
        out = {}
        for name, body in self.data["rules"].items():
            sentence = self.template(body, ("rules", name))
            if sentence is None:
                continue
            if any(isinstance(ref, ListReference) for ref in _references(sentence.expression)):
                self.fail(("rules", name), "une règle ne prend pas de liste : écrivez {liste} dans la phrase")
                continue
            out[str(name)] = body
        return out

    def blocks(self, book: Phrasebook) -> tuple[Block, ...]:
        out = []
        for name in TEMPLATED:
            for i, block in enumerate(self.data["commands"][name]):
                for j, text in enumerate(block["sentences"]):
                    self.references(book, name, text, ("commands", name, i, "sentences", j))
                phases = frozenset(block.get("phases", ALL_PHASES))
                out.append(Block(name, phases, tuple(block["sentences"]), tuple(block.get("slots", {}).items())))
        return tuple(out)

    def references(self, book: Phrasebook, command: str, text: str, path: tuple) -> None:
        sentence = self.template(text, path)
        if sentence is None:
            return
        allowed = SLOTS.get(command, set())
        for ref in _references(sentence.expression):
            if isinstance(ref, RuleReference) and ref.rule_name not in book.rules:
                self.fail(path, f"règle <{ref.rule_name}> inconnue ; attendu : {', '.join(sorted(book.rules))}")
            elif isinstance(ref, ListReference) and (ref.list_name not in LISTS or ref.slot_name not in allowed):
                self.fail(
                    path,
                    f"{{{ref.list_name}:{ref.slot_name}}} : {command} prend {', '.join(sorted(allowed)) or 'rien'}"
                    f" ; listes : {', '.join(LISTS)}",
                )
        try:
            parse_sentence(book.template(text), keep_text=True)
        except Exception as exc:
            self.fail(path, f"modèle illisible une fois normalisé : {exc}")

    def scenarios(self) -> dict[str, dict[str, tuple[str, ...]]]:
        out: dict[str, dict[str, tuple[str, ...]]] = {}
        for game in self.data["scenarios"]:
            if family_of(game) != ONE_NIGHT:
                self.fail(("scenarios", game), f"attendu : {', '.join(games_of(ONE_NIGHT))}", at_key=True)
                continue
            known = load_shipped(str(game)).announce.scenarios
            out[str(game)] = {}
            for name, aliases in self.data["scenarios"][game].items():
                if name not in known:
                    self.fail(("scenarios", game, name), f"attendu : {', '.join(known) or 'aucun'}", at_key=True)
                    continue
                out[str(game)][str(name)] = tuple(aliases)
        return out

    def roles(self) -> dict[str, dict[str, tuple[str, ...]]]:
        out: dict[str, dict[str, tuple[str, ...]]] = {}
        for game, roles in self.data["roles"].items():
            try:
                known = roles_of(str(game))
            except ValueError as exc:
                self.fail(("roles", game), str(exc), at_key=True)
                continue
            for rid in known:
                if rid not in roles:
                    self.fail(("roles", game), f"rôle « {rid} » sans nom parlé", at_key=True)
            out[str(game)] = {}
            for rid, aliases in roles.items():
                if rid not in known:
                    self.fail(("roles", game, rid), f"attendu : {', '.join(known)}", at_key=True)
                    continue
                out[str(game)][str(rid)] = tuple(aliases)
        return out


def _references(expr: Expression) -> list[Expression]:
    """The list and rule references in a template."""
    if isinstance(expr, (ListReference, RuleReference)):
        return [expr]
    if isinstance(expr, Group):
        return [ref for item in expr.items for ref in _references(item)]
    return []


def _widest(values: SlotList) -> int:
    """The most words one value of a list takes."""
    if not isinstance(values, TextSlotList):
        return 1  # a number
    return max((len(v.text_in.text.split()) for v in values.values if isinstance(v.text_in, TextChunk)), default=1)


def _span(expr: Expression, rules: Mapping[str, Sentence], lists: Mapping[str, int], memo: dict[str, int]) -> int:
    """The most words a template can take: how far a command may reach in a sentence. memo: the rules'
    spans found so far (a rule is used by hundreds of templates)."""
    if isinstance(expr, TextChunk):
        return len(expr.text.split())
    if isinstance(expr, ListReference):
        return lists.get(expr.list_name, 1)
    if isinstance(expr, RuleReference):
        if expr.rule_name not in memo:
            rule = rules.get(expr.rule_name)
            memo[expr.rule_name] = _span(rule.expression, rules, lists, memo) if rule else 0
        return memo[expr.rule_name]
    if isinstance(expr, Group):
        spans = [_span(item, rules, lists, memo) for item in expr.items]
        return max(spans, default=0) if isinstance(expr, Alternative) else sum(spans)
    return 0


def closest_name(
    heard: Sequence[str], i: int, names: Sequence[str], longest: int, known: Callable[[int], bool]
) -> tuple[str | None, int] | None:
    """The seated name closest to the run of unknown words at `i` (`known(j)`: word j is a known word), and
    how many words it took; (None, k) when two names fit as well; None when no name is close."""
    if not names:
        return None
    end = i + 1  # the run of unknown words a name may span
    while end < len(heard) and end - i < longest and not known(end):
        end += 1
    for k in range(end - i, 0, -1):
        said = " ".join(heard[i : i + k])
        if len(said.replace(" ", "")) < FUZZY_MIN_LETTERS:
            continue
        best = process.extract(said, names, scorer=fuzz.ratio, limit=2, score_cutoff=FUZZY_CUTOFF)
        if not best:
            continue
        if len(best) == 2 and best[0][1] - best[1][1] < FUZZY_MARGIN:
            return None, k
        return str(best[0][0]), k
    return None


class Listener:
    """Words -> commands for one set of phases; a subclass fills the lists and may accept fewer readings.

    `parse` never raises on any text; an unknown phase is a programming error (ValueError).
    """

    phases: tuple[str, ...] = ()
    commands: frozenset[str] = frozenset()  # the commands this listener may hear

    def _prepare(self, names: Mapping[str, str], lists: dict[str, SlotList]) -> None:
        """names: the parser's words for each seated name -> its spelling; lists: hassil's, in the parser's words."""
        book = self.book = phrasebook()
        self._names = dict(names)
        self._name_list = list(self._names)
        self._longest_name = max((len(n.split()) for n in self._names), default=1)
        self._fillers = {tuple(words(f, book.spellings)) for f in book.fillers} - {()}
        self._longest_filler = max((len(f) for f in self._fillers), default=1)
        self.lists = lists
        self._intents = {phase: book.intents(phase, commands=self.commands) for phase in self.phases}
        self._vocabulary = self._known_words(book)
        # a filler that a template also uses ("bon" and "c'est bon") is kept on a second try
        self._template_words = self._known_words(book, templates_only=True)
        self._hard_fillers = {f for f in self._fillers if not set(f) <= self._template_words}
        sizes = {name: _widest(lst) for name, lst in self.lists.items()}
        spans: dict[str, int] = {}  # every phase's intents hold the book's rules
        self._reach = {
            phase: max(
                (
                    _span(s.expression, intents.expansion_rules, sizes, spans)
                    for intent in intents.intents.values()
                    for data in intent.data
                    for s in data.sentences
                ),
                default=1,
            )
            for phase, intents in self._intents.items()
        }

    def spoken_lists(self) -> dict[str, SlotList]:
        """The lists as people say them, for a recognizer's grammar (narrator/listen/grammar.py)."""
        raise NotImplementedError

    def chunks(self, phase: str) -> list[str]:
        """Words and word groups a sentence may be made of beyond the templates' phrases, as spoken."""
        return []

    def _known_words(self, book: Phrasebook, templates_only: bool = False) -> frozenset[str]:
        """Words the parser knows: never read as a misheard name."""
        known: set[str] = set()
        if not templates_only:
            known.update(w for filler in self._fillers for w in filler)
            # every game's roles: "loup" at a Poudlard table is a wrong role, not a misheard "Lou"
            roles = [said for game in book.roles for said, _ in book.role_aliases(game)]
            games = [said for said, _ in book.game_aliases()]
            scenarios = [a for by_name in book.scenarios.values() for aliases in by_name.values() for a in aliases]
            for text in (*book.not_names, *book.nobody, *roles, *games, *scenarios):
                known.update(words(text, book.spellings))
            for name, values in self.lists.items():  # the setup's plurals and titles
                if name not in ("player", "target") and isinstance(values, TextSlotList):
                    texts = [v.text_in.text for v in values.values if isinstance(v.text_in, TextChunk)]
                    known.update(w for text in texts for w in text.split())
        for block in book.blocks:
            for text in block.sentences:
                known.update(_SYNTAX.sub(" ", book.template(text)).split())
        for body in book.rules.values():
            known.update(_SYNTAX.sub(" ", book.template(body)).split())
        return frozenset(known)

    def parse(self, text: str, phase: str = "any") -> list[Command]:
        """The commands in `text`, in order; [] unless every word is understood one way only."""
        if phase not in self.phases:
            raise ValueError(f"phase inconnue « {phase} » ; attendu : {', '.join(self.phases)}")
        heard = words(text, self.book.spellings) if isinstance(text, str) else []
        for fillers in (self._fillers, self._hard_fillers):
            units = self._units(heard, fillers)
            if units is None:
                return []  # a word nobody knows: the second try would not know it either
            commands = self._cover(units, phase) if units else []
            if commands or fillers is self._hard_fillers or self._fillers == self._hard_fillers:
                return commands
        return []

    def _units(self, heard: list[str], fillers: set[tuple[str, ...]]) -> list[str] | None:
        """Words with each name made one unit in the parser's spelling; None if a word is not understood."""
        if len(heard) > MAX_WORDS:
            return None
        units: list[str] = []
        i = 0
        while i < len(heard):
            name = self._exact_name(heard, i)
            if name:
                units.append(name)
                i += len(name.split())
                continue
            filler = next((k for k in range(self._longest_filler, 0, -1) if tuple(heard[i : i + k]) in fillers), 0)
            if filler:
                i += filler
                continue
            if self._is_known(heard, i):
                units.append(heard[i])
                i += 1
                continue
            found = self._misheard_name(heard, i)
            if not found:
                return None
            units.append(found[0])
            i += found[1]
        return units

    def _is_known(self, heard: list[str], i: int) -> bool:
        """A word of the phrasebook, a number, or the start of a seated name."""
        word = heard[i]
        return word in self._vocabulary or (word.isascii() and word.isdigit()) or self._exact_name(heard, i) is not None

    def _exact_name(self, heard: list[str], i: int) -> str | None:
        for k in range(self._longest_name, 0, -1):
            said = " ".join(heard[i : i + k])
            if i + k <= len(heard) and said in self._names:
                return said
        return None

    def _misheard_name(self, heard: list[str], i: int) -> tuple[str, int] | None:
        """The one seated name closest to the unknown words at `i`, and how many words it took."""
        found = closest_name(heard, i, self._name_list, self._longest_name, lambda j: self._is_known(heard, j))
        if found is None or found[0] is None:
            return None  # none close, or two players fit: when in doubt, nothing
        return found[0], found[1]

    def _cover(self, units: list[str], phase: str) -> list[Command]:
        """Split the units into commands; the one reading if there is exactly one, else []."""
        n = len(units)
        whole = self._readings(" ".join(units), phase)
        if whole:
            return list(whole) if len(whole) == 1 else []
        reach = self._reach[phase]
        ways: list[set[tuple[Command, ...]]] = [set() for _ in range(n + 1)]
        ways[0].add(())
        for i in range(n):
            if not ways[i]:
                continue
            for j in range(i + 1, min(n, i + reach) + 1):
                if i == 0 and j == n:
                    continue  # the whole was tried first
                for reading in self._readings(" ".join(units[i:j]), phase):
                    ways[j].update(way + (reading,) for way in ways[i])
                if len(ways[j]) > 2:  # two readings are already one too many
                    ways[j] = set(list(ways[j])[:2])
        return list(next(iter(ways[n]))) if len(ways[n]) == 1 else []

    def _readings(self, text: str, phase: str) -> tuple[Command, ...]:
        """Every distinct command hassil reads in `text` (one command's worth of words)."""
        found: dict[Command, None] = {}  # ordered set: templates may agree on a reading
        for result in recognize_all(text, self._intents[phase], slot_lists=self.lists):
            command = _command(result.intent.name, {e.name: e.value for e in result.entities_list})
            if command and self._accept(command):
                found[command] = None
        return tuple(found)

    def _accept(self, command: Command) -> bool:
        """Whether a reading can be meant (a subclass refuses, say, more cards than the box holds)."""
        return True


class TemplateParser(Listener):
    """One table in play read with whole-sentence templates (hassil): the parser before the
    tagging one (narrator/listen/table_words.py builds on it, and benchmarks/parse.py compares them)."""

    phases = PHASES
    commands = frozenset(COMMANDS) - frozenset(SETUP_COMMANDS)

    def __init__(self, game: str, players: Sequence[str]):
        self.game = game
        self.players = tuple(players)
        book = phrasebook()
        names: dict[str, str] = {}  # the parser's words for a name -> the seated spelling
        for player in self.players:
            said = " ".join(words(player, book.spellings))
            if not said:
                raise ValueError(f"nom de joueur illisible : « {player} »")
            if said in names:
                raise ValueError(f"« {names[said]} » et « {player} » se prononcent pareil : renommez l'un d'eux")
            names[said] = player
        self._prepare(names, self._lists(book, names))

    def _lists(self, book: Phrasebook, names: Mapping[str, str]) -> dict[str, SlotList]:
        players = list(names.items())
        nobody = [(" ".join(words(w, book.spellings)), _NOBODY) for w in book.nobody]
        roles = [(" ".join(words(said, book.spellings)), rid) for said, rid in book.role_aliases(self.game)]
        out: dict[str, SlotList] = {
            "player": text_list("player", players),
            "target": text_list("target", players + nobody),
            "nobody": text_list("nobody", nobody),
            "role": text_list("role", roles),
            # a tally above the number of players is a mishearing
            "count": RangeSlotList("count", 0, len(self.players), words=False),
        }
        for name, (start, stop, step) in book.ranges.items():
            out[name] = RangeSlotList(name, start, stop, step, words=False)
        return out

    def spoken_lists(self) -> dict[str, SlotList]:
        book = self.book
        players: list[tuple[str, Any]] = [(name.lower(), name) for name in self.players]
        nobody: list[tuple[str, Any]] = [(word, None) for word in book.nobody]
        lists: dict[str, SlotList] = {
            "player": spoken_list("player", players),
            "target": spoken_list("target", players + nobody),
            "nobody": spoken_list("nobody", nobody),
            "role": spoken_list("role", [(said.lower(), rid) for said, rid in book.role_aliases(self.game)]),
            "count": number_words("count", 0, len(self.players), 1),
        }
        for name, (start, stop, step) in book.ranges.items():
            lists[name] = number_words(name, start, stop, step)
        return lists


def text_list(name: str, pairs: Sequence[tuple[str, object]]) -> TextSlotList:
    """A hassil list of (text in the parser's words, value)."""
    return TextSlotList(name, [TextSlotValue(TextChunk(said), out) for said, out in pairs])


def spoken_list(name: str, pairs: Sequence[tuple[str, object]]) -> TextSlotList:
    """A hassil list of (text as spoken, value), for a grammar."""
    return TextSlotList.from_tuples(pairs, allow_template=False, name=name)  # type: ignore[arg-type]


def number_words(name: str, start: int, stop: int, step: int) -> RangeSlotList:
    """Numbers as spoken, for a grammar: hassil spells them out itself (unicode-rbnf), "un" and "une"."""
    return RangeSlotList(name, start, stop, step, digits=False, words=True, words_language="fr")


def _command(name: str, values: dict[str, Any]) -> Command | None:
    """A complete command from a template's slot values, or None."""
    if name == "more_time":  # "encore une minute trente": the two add up
        seconds = int(values.get("minutes", 0)) * 60 + int(values.get("seconds", 0))
        return Command(name, seconds=seconds) if seconds > 0 else None
    fields: dict[str, Any] = {}
    for field in FIELDS.get(name, ()):
        if field not in values:
            return None
        value = values[field]
        # hassil gives range values as floats (3.0)
        fields[field] = None if value is _NOBODY else int(value) if field == "count" else value
    return Command(name, **fields)


def __getattr__(name: str) -> Any:
    # SetupParser lives in narrator/listen/setup_words.py, Parser in narrator/listen/table_words.py
    # (both build on this module); importable here too
    if name == "SetupParser":
        from narrator.listen.setup_words import SetupParser

        return SetupParser
    if name == "Parser":
        from narrator.listen.table_words import Parser

        return Parser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
