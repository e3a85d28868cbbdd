"""The controls a table says in a whole phrase (« répète », « on vote », « encore deux minutes »).

Their phrases are the templates of scripts/listen.fr.yaml expanded once by hassil; more time is
read with its duration, fractions and sums included (« une minute et demie », « dix minutes de
plus », « deux minutes et trente secondes »). « non, annule » is one undo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from hassil import Intents, sample_intents
from hassil.expression import ListReference
from hassil.intents import Intent, IntentData
from hassil.parse_expression import parse_sentence

from narrator.listen.commands import COMMANDS, FIELDS, SETUP_COMMANDS, Command
from narrator.listen.french import Phrasebook, _references, words

__all__ = ["CONTROLS", "Controls", "folded"]

# what a game in progress hears as a whole phrase: every command but the day's inputs (read from
# tags) and the spoken setup's
DAY_INPUTS = frozenset({"vote", "tally", "reveal", "choose"})
CONTROLS = frozenset(COMMANDS) - DAY_INPUTS - frozenset(SETUP_COMMANDS)
# commands that may open a sentence before a day's input: « non, Alice contre Chloé »
OPENERS = frozenset({"yes", "no", "undo"})
_MAX_WAYS = 2


class Controls:
    """The control phrases of one phase, and their reading."""

    def __init__(self, book: Phrasebook, phase: str, names: Iterable[tuple[str, ...]] = ()):
        """names: the seated names in the parser's words, never dropped as fillers (a player called Ben)."""
        self.phrases = _phrases(book, phase)
        self.fillers = {tuple(words(f, book.spellings)) for f in book.fillers} - {()} - set(names)
        self.longest = max((len(k) for k in (*self.phrases, *self.fillers)), default=1)
        more = sorted({" ".join(words(m, book.spellings)) for m in book.day_words.get("more", ())}, key=len)
        self._more = "|".join(re.escape(m) for m in reversed(more) if m)
        self._duration = re.compile(
            rf"(?:(?P<lead>{self._more}) )?(?:(?P<m>\d+) minutes?(?: et)?(?: (?:(?P<half>demie?)|(?P<s>\d+)"
            rf"(?: secondes?)?))?|(?P<s2>\d+) secondes?|(?:1 )?(?P<demi>demie?) minute)(?: (?P<trail>{self._more}))?"
        )
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

    def _more_time(self, key: tuple[str, ...]) -> Command | None:
        m = self._duration.fullmatch(" ".join(key))
        # « une minute et demie » alone asks for it; « deux minutes » alone does not
        if not m or not (m["lead"] or m["trail"] or m["m"] and (m["half"] or m["s"]) or m["demi"]):
            return None
        minutes = int(m["m"] or 0)
        seconds = int(m["s"] or m["s2"] or 0) + (30 if m["half"] or m["demi"] else 0)
        low, high, step = self._minutes
        if m["m"] and not low <= minutes <= high:
            return None
        low, high, step = self._seconds
        if (m["s"] or m["s2"]) and not (low <= seconds <= high and seconds % step == 0):
            return None
        total = minutes * 60 + seconds
        return Command("more_time", seconds=total) if total > 0 else None


def folded(way: Sequence[Command]) -> tuple[Command, ...]:
    """« non, annule » is one undo, « c'est bon, on vote » one start of the vote; a control said
    twice (« oui oui ») is said once."""
    out: list[Command] = []
    for command in way:
        if out and out[-1] == command and not FIELDS.get(command.command):
            continue
        if out and out[-1].command == "yes" and command.command == "start_vote":
            out[-1] = command  # « ok c'est bon, on vote » only starts the vote
            continue
        if out and out[-1].command == "no" and command.command in ("undo", "repeat"):
            out[-1] = command if command.command == "undo" else out[-1]  # « non pardon » is a no
            continue
        out.append(command)
    return tuple(out)


@cache
def _phrases(book: Phrasebook, phase: str) -> Mapping[tuple[str, ...], Command]:
    """Every phrase of the phase's control templates (those without a list), in the parser's words."""
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
            key = tuple(words(text, book.spellings))
            if key:
                out.setdefault(key, command)
    return out


def _has_list(text: str) -> bool:
    return any(isinstance(ref, ListReference) for ref in _references(parse_sentence(text).expression))
