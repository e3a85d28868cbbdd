"""The controls a table says in a whole phrase (« répète », « on vote », « encore deux minutes »).

Their phrases are the templates of scripts/listen.fr.yaml expanded once by hassil; more time is
read with its duration, fractions and sums included (« une minute et demie », « dix minutes de
plus », « deux minutes et trente secondes »). « non, annule » is one undo.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from hassil import Intents, sample_intents
from hassil.expression import ListReference
from hassil.intents import Intent, IntentData
from hassil.parse_expression import parse_sentence

from narrator.listen.commands import COMMANDS, FIELDS, SETUP_COMMANDS, Command
from narrator.listen.compiled import load
from narrator.listen.french import Phrasebook, _references, phrasebook, words

__all__ = ["CONTROLS", "Controls", "folded"]

# what a game in progress hears as a whole phrase: every command but the day's inputs (read from
# tags) and the spoken setup's
DAY_INPUTS = frozenset({"vote", "tally", "reveal", "choose"})
CONTROLS = frozenset(COMMANDS) - DAY_INPUTS - frozenset(SETUP_COMMANDS)
# commands that may open a sentence before a day's input: « non, Alice contre Chloé »
OPENERS = frozenset({"yes", "no", "undo"})
_MAX_WAYS = 2
WEAK = frozenset({"pardon", "comment", "attends", "attendez", "continue", "continuez", "vas y", "allez y", "votez"})
WEAK |= frozenset({"erreur", "faux", "correction", "aide"})
ASIDE_NOT = frozenset({"plus", "moins", "trop"})
NEGATION = frozenset({"pas", "ne", "n", "jamais"})
# a control said in the second person next to a seated name is said to that player (« vas-y Paul,
# on t'écoute », « tu t'es trompé Hugo »); with a seated name anywhere, the voice's settings are about the
# player (« trop fort Paul », « Romane parle trop vite »); « pause » is a noun, said to nobody
SECOND_PERSON = frozenset({"tu", "t", "ta", "ton", "tes", "te", "toi", "vas"})
VOICE = frozenset({"louder", "quieter", "slower", "faster"})
NAMED = frozenset({("pause",)})
OPENING = frozenset(
    {"attends", "attendez"}
)  # weak, but a pause when they open a sentence that names nobody  # left aside, they would change what a setting says


class Controls:
    """The control phrases of one phase, and their reading."""

    def __init__(self, book: Phrasebook, phase: str, names: Iterable[tuple[str, ...]] = ()):
        """names: the seated names in the parser's words, never dropped as fillers (a player called Ben)."""
        self.phrases = _phrases(book, phase)
        names = set(names)
        self.fillers = {tuple(words(f, book.spellings)) for f in book.fillers} - {()} - names
        self.longest = max((len(k) for k in (*self.phrases, *self.fillers)), default=1)
        more = sorted({" ".join(words(m, book.spellings)) for m in book.day_words.get("more", ())}, key=len)
        self._more = "|".join(re.escape(m) for m in reversed(more) if m)
        small = "(?:(?:petites?|bonnes?|pauvres?|malheureuses?) )?"  # « deux petites minutes »
        self._duration = re.compile(
            rf"(?:(?P<lead>{self._more}) )?(?:(?P<m>\d+) {small}minutes?(?: et)?(?: (?:(?P<half>demie?)|"
            rf"(?P<quarter>quart)|(?P<s>\d+)(?: secondes?)?))?|(?P<s2>\d+) {small}secondes?"
            rf"|(?:1 )?(?P<demi>demie?) minute|(?P<q>1|3) (?:petits? )?(?P<qs>quarts?) d heure"
            rf"|(?:1 )?(?P<dh>demi) heure)"
            rf"(?: (?P<trail>{self._more}))?"
        )
        # the phrases that say a control among other words: not yes and no, nor a word as common in
        # talk as « pardon » or « attends » (« attends, Karim a dit quoi ? »)
        self.strong = {
            key: command
            for key, command in self.phrases.items()
            if command.command not in ("yes", "no") and " ".join(key) not in WEAK
        }
        # with a seated name in the sentence, a one-word control is said to that player (« arrête Paul »)
        self.strong_long = {
            key: command
            for key, command in self.strong.items()
            if (len(key) > 1 or key in NAMED) and command.command not in VOICE
        }
        self.names = {w for name in names for w in name}
        # one-word ones only: « pour que » must not make « le temps que Lucie revienne » a ballot
        self.against = {
            w for said in book.day_words.get("against", ()) if len(ws := words(said, book.spellings)) == 1 for w in ws
        }
        self.turns = {tuple(words(t, book.spellings)) for t in book.day_words.get("turns", ())} - {()}
        self.longest_turn = max((len(k) for k in self.turns), default=1)
        self._minutes = book.ranges["minutes"]
        self._seconds = book.ranges["seconds"]

    def read(self, heard: Sequence[str]) -> list[Command] | None:
        """The controls the words say, all of them; None unless every word is one, one way only."""
        n = len(heard)
        ways: list[dict[tuple[Command, ...], None]] = [{} for _ in range(n + 1)]
        ways[0][()] = None
        for i in range(n):
            if not ways[i]:
                continue
            for j in range(i + 1, min(n, i + self.longest) + 1):
                key = tuple(heard[i:j])
                if key in self.fillers:
                    ways[j].update(ways[i])
                command = self.phrases.get(key) or self._more_time(key)
                if command:
                    for done in ways[i]:
                        ways[j][done + (command,)] = None
                if len(ways[j]) > _MAX_WAYS:
                    ways[j] = dict(sorted(ways[j].items(), key=lambda w: len(w[0]))[:_MAX_WAYS])
        found = {folded(way): None for way in ways[n] if way}
        fewest = min((len(way) for way in found), default=0)
        found = {way: None for way in found if len(way) == fewest}  # « répète la légende » is one command
        return list(next(iter(found))) if len(found) == 1 else None

    def spot(self, heard: Sequence[str]) -> list[Command] | None:
        """The controls said among other words (« pause pipi », « il nous faudrait encore cinq
        minutes »): the reading that leaves the fewest words aside, if there is one only; None when
        a word aside turns the sentence around (« ne répète pas », « après on vote »)."""
        n = len(heard)
        turned = {i for i in range(n) for k in range(1, self.longest_turn + 1) if tuple(heard[i : i + k]) in self.turns}
        if any(w in self.against and heard[k + 1] in self.names for k, w in enumerate(heard[:-1])):
            return None  # « une minute et demie pour Paul »: a day's word, not a control
        strong = self.strong_long if any(w in self.names for w in heard) else self.strong
        # best[i]: fewest words aside to read heard[:i] -> the readings with that many
        best: list[tuple[int, dict[tuple[Command, ...], None]]] = [(n + 1, {}) for _ in range(n + 1)]
        best[0] = (0, {(): None})
        for i in range(n):
            aside, ways = best[i]
            if not ways:
                continue
            moves: list[tuple[int, int, Command | None]] = []
            if heard[i] not in ASIDE_NOT and i not in turned:
                moves.append((i + 1, aside + 1, None))
            for j in range(i + 1, min(n, i + self.longest) + 1):
                key = tuple(heard[i:j])
                if key in self.fillers:
                    moves.append((j, aside, None))
                command = strong.get(key) or self._more_time(key)
                if not command and i == 0 and strong is self.strong and " ".join(key) in OPENING:
                    command = self.phrases.get(key)  # « attendez, on sonne à la porte »
                if command and SECOND_PERSON.intersection(key) and self._next_to_name(heard, i, j):
                    command = None
                if command and not _negated(heard, i, j):
                    moves.append((j, aside, command))
            for j, cost, command in moves:
                if cost > best[j][0]:
                    continue
                grown = {(way + (command,) if command else way): None for way in ways}
                if cost < best[j][0]:
                    best[j] = (cost, {})
                best[j][1].update(grown)
                if len(best[j][1]) > _MAX_WAYS:
                    best[j] = (best[j][0], dict(list(best[j][1].items())[:_MAX_WAYS]))
        found = {folded(way): None for way in best[n][1] if way}
        if len(found) != 1:
            return None
        said = list(next(iter(found)))
        if "nuit" in heard:  # « laisse plus de temps aux joueurs la nuit »: the night's waits
            said = [Command("longer_waits") if c.command == "more_time" else c for c in said]
        return said

    def _next_to_name(self, heard: Sequence[str], start: int, end: int) -> bool:
        # « Inès, vas-y, on t'écoute »: a few words before it, or right after; a name that is the
        # subject of its own verb before it is talked about (« Bastien est revenu, tu peux continuer »)
        before = heard[max(0, start - 3) : start]
        named = [k for k, w in enumerate(before) if w in self.names]
        if named and not _OWN_VERB.intersection(before[named[-1] + 1 :]):
            return True
        return any(w in self.names for w in heard[end : end + 1])

    def _more_time(self, key: tuple[str, ...]) -> Command | None:
        # text2num leaves « neuf » a word after some words (« le débat de neuf minutes »)
        key = tuple(
            "9" if w == "neuf" and key[i + 1 : i + 2] in (("minutes",), ("minute",)) else w for i, w in enumerate(key)
        )
        m = self._duration.fullmatch(" ".join(key))
        # « une minute et demie » alone asks for it; « deux minutes » alone does not
        if not m or not (
            m["lead"] or m["trail"] or m["m"] and (m["half"] or m["s"] or m["quarter"]) or m["demi"] or m["q"]
        ):
            return None
        if (m["q"] or m["dh"]) and not (m["lead"] or m["trail"]):
            return None  # « un quart d'heure » alone is no request
        if m["q"] and (m["q"] == "1") != (m["qs"] == "quart"):
            return None  # « un quarts », « trois quart »
        minutes = int(m["m"] or 0) + (15 * int(m["q"]) if m["q"] else 0) + (30 if m["dh"] else 0)
        seconds = int(m["s"] or m["s2"] or 0) + (30 if m["half"] or m["demi"] else 0) + (15 if m["quarter"] else 0)
        low, high, step = self._minutes
        if (m["m"] or m["q"] or m["dh"]) and not low <= minutes <= high:
            return None
        low, high, step = self._seconds
        if (m["s"] or m["s2"]) and not (low <= seconds <= high and seconds % step == 0):
            return None
        total = minutes * 60 + seconds
        return Command("more_time", seconds=total) if total > 0 else None


_OWN_VERB = frozenset({"est", "sont", "a", "ont", "revient", "arrive"})


def _negated(heard: Sequence[str], start: int, end: int) -> bool:
    """A negation just before a control or right after it: « ne fais pas de pause », « on arrête pas »."""
    return any(w in NEGATION for w in heard[max(0, start - 3) : start]) or any(
        w in NEGATION for w in heard[end : end + 1]
    )


# a control said on the way to another, which is what is asked: « attends » before an undo, « stop »
# before a pause
_LEAD_INS = frozenset({("pause", "undo"), ("stop", "pause"), ("repeat", "help"), ("repeat", "legend")})


def folded(way: Sequence[Command]) -> tuple[Command, ...]:
    """« non, annule » is one undo, « c'est bon, on vote » one start of the vote; a control said
    twice (« oui oui ») is said once."""
    out: list[Command] = []
    for command in way:
        if out and out[-1] == command and not FIELDS.get(command.command):
            continue
        if out and (out[-1].command, command.command) in _LEAD_INS:
            out.pop()  # « non attends, reviens en arrière » is one undo; « stop stop, pause » one pause
            if out and out[-1] == command:
                continue
        if out and out[-1].command == "no" and command.command == "undo":
            out[-1] = command
            continue
        if out and out[-1].command == "yes" and command.command in ("start_vote", "more_time", "resume"):
            # « ok c'est bon, on vote » only starts the vote; « ouais, encore cinq minutes »; « c'est bon, vas-y »
            out[-1] = command
            continue
        if out and out[-1].command == "no" and command.command in ("undo", "repeat"):
            out[-1] = command if command.command == "undo" else out[-1]  # « non pardon » is a no
            continue
        out.append(command)
    return tuple(out)


def by_phase(book: Phrasebook, phases: Iterable[str], names: Iterable[tuple[str, ...]] = ()) -> dict[str, Controls]:
    """The controls of each phase; the phases that hear the same controls share one object (most do)."""
    names = tuple(names)
    made: dict[int, Controls] = {}
    out = {}
    for phase in phases:
        phrases = _phrases(book, phase)
        if id(phrases) not in made:
            made[id(phrases)] = Controls(book, phase, names)
        out[phase] = made[id(phrases)]
    return out


@cache
def _phrases(book: Phrasebook, phase: str) -> Mapping[tuple[str, ...], Command]:
    """Every phrase of the phase's control templates (those without a list), in the parser's words; equal
    phrases for two phases are one object (`by_phase` then builds their controls once).

    The shipped phrasebook's are kept in the compiled cache: the same for every table, they are most of
    what a new table's parser costs to build (some 1.5 s a phase)."""
    found = load("controls", (phase,), lambda: _expand(book, phase)) if book is phrasebook() else _expand(book, phase)
    seen = _SEEN.setdefault(book, [])
    same = next((earlier for earlier in seen if earlier == found), None)
    if same is None:
        seen.append(same := found)
    return same


_SEEN: dict[Phrasebook, list[Mapping[tuple[str, ...], Command]]] = {}


def _expand(book: Phrasebook, phase: str) -> Mapping[tuple[str, ...], Command]:
    out: dict[tuple[str, ...], Command] = {}
    rules = {name: parse_sentence(body, keep_text=True) for name, body in book.rules.items()}
    for block in book.blocks:
        if phase not in block.phases or block.command not in CONTROLS:
            continue
        texts = [s for s in block.sentences if not _has_list(s)]
        if not texts:
            continue
        data = IntentData(sentence_texts=texts, slots=dict(block.slots))
        intents = Intents(
            language="fr", intents={block.command: Intent(block.command, data=[data])}, expansion_rules=rules
        )
        command = Command(block.command, **dict(block.slots))  # type: ignore[arg-type]
        for _, text in sample_intents(intents):
            key = tuple(map(sys.intern, words(text, book.spellings)))  # each word kept once, in memory and cache
            if key:
                out.setdefault(key, command)
    return out


def _has_list(text: str) -> bool:
    return any(isinstance(ref, ListReference) for ref in _references(parse_sentence(text).expression))
