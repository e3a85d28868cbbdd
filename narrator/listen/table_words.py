"""French text -> the commands of a table in play: controls said whole, the day read from tags.

A sentence is first tried as controls (« répète », « non, annule », « encore deux minutes »);
otherwise its words are tagged (narrator/listen/tagger.py) and the day's inputs are read from
the tags (narrator/listen/reading.py), after an opening « oui », « non » or « annule » if any.
A first name that nobody at the table has is never read as a seated player: the sentence gives
nothing, and `stranger` says which name was heard.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from hassil import Intents, recognize_all, sample_intents
from hassil.intents import Intent, IntentData, SlotList

from narrator.listen.commands import Command
from narrator.listen.controls import OPENERS, by_phase
from narrator.listen.french import MAX_WORDS, TemplateParser, _command, number_words, phrasebook, words
from narrator.listen.reading import Reader
from narrator.listen.tagger import Lexicon, role_forms

__all__ = ["Parser"]

# the day_words each phase's grammar holds, besides names, first names, nobody and the links
# (chatter, more and turns: the words around a control, heard in every phase)
_EVERYWHERE: tuple[str, ...] = ("nobody", "and", "also", "correct", "presents", "link", "block", "or", "not", "chatter")
_EVERYWHERE += ("more", "turns", "reason")
PHASE_WORDS = {
    "vote": ("vote", "against", "abstain", "each", "passive", "ballot_of", "goes", "object"),
    "tally": ("vote", "against", "ballot", "zero", "each", "abstain"),
    "reveal": ("copy", "each"),
    "choose": ("vote", "against", "choosing", "zero", "among"),
}
PHASE_WORDS["any"] = tuple(dict.fromkeys(w for words in PHASE_WORDS.values() for w in words))
SEAT_CONTROLS = frozenset({"free_seat"})
_QUESTION = re.compile(r"^[^?]*\w\s*\?\s*$")  # one question mark, at the end
MAX_AROUND = 4  # « non c'est pas ça » before a day's input, « parle plus fort » after it


class Parser(TemplateParser):
    """Understands one table in play: a game's roles and its seated players, prepared once.

    `parse` never raises on any text; an unknown phase is a programming error (ValueError).
    The hassil lists and templates of `TemplateParser` stay the grammar's (narrator/listen/grammar.py).
    """

    def __init__(self, game: str, players: Sequence[str]):
        super().__init__(game, players)
        book = phrasebook()
        self.lexicon = Lexicon(book, game, self._names)
        self.reader = Reader(len(self.players))
        self._controls = by_phase(book, self.phases, self.lexicon.names)
        # the controls that name a seat (« libère la place de Ana »), read from their templates whole
        self._seated = {phase: book.intents(phase, commands=SEAT_CONTROLS) for phase in self.phases}

    def parse(self, text: str, phase: str = "any") -> list[Command]:
        """The commands in `text`, in order; [] unless it reads one way only."""
        if phase not in self.phases:
            raise ValueError(f"phase inconnue « {phase} » ; attendu : {', '.join(self.phases)}")
        heard = words(text, self.book.spellings) if isinstance(text, str) else []
        if not heard or len(heard) > MAX_WORDS:
            return []
        controls = self._controls[phase]
        said = controls.read(heard) or self._seat_control(heard, phase)
        if said:
            return said
        if _QUESTION.search(text):  # typed as a question: a vote or a card asked about is not said
            return controls.spot(heard) or []
        tokens = self.lexicon.tag(heard)
        if any(tag.kind == "?" for token in tokens for tag in token):
            return controls.spot(heard) or []  # « Zoé » is not at the table: never a seated player
        return self._day(heard, tokens, phase) or controls.spot(heard) or []

    def _day(self, heard: list[str], tokens: list, phase: str) -> list[Command] | None:
        """The day's inputs, after an opening « oui », « non », « annule » or before a closing setting."""
        controls = self._controls[phase]
        for k in range(min(MAX_AROUND, len(heard) - 1), 0, -1):
            opening = controls.read(heard[:k])
            if opening and all(c.command in OPENERS for c in opening):
                rest = self.reader.read(self.lexicon.tag(heard[k:]), phase)
                if rest:
                    return opening + rest
        for k in range(min(MAX_AROUND, len(heard) - 1), 0, -1):  # « Alice contre Bob, plus fort »
            closing = controls.read(heard[-k:])
            if closing and not any(c.command in ("yes", "no") for c in closing):  # « … contre Max, non »: ask
                rest = self.reader.read(self.lexicon.tag(heard[:-k]), phase)
                if rest:
                    return rest + closing
        whole = self.reader.read(tokens, phase)
        if whole:
            return whole
        # « Hugo vote contre Lou, et après on fait une pause »: a day's input, then controls said among words
        for k in range(len(heard) - 1, 0, -1):
            closing = controls.read(heard[k:]) or controls.spot(heard[k:])
            if closing and not any(c.command in ("yes", "no") for c in closing):
                rest = self.reader.read(self.lexicon.tag(heard[:k]), phase)
                if rest:
                    return rest + closing
        return None

    def _seat_control(self, heard: list[str], phase: str) -> list[Command]:
        """« libère la place de Ana »: one reading, of a seated player, or nothing."""
        units = self._units(heard, self._fillers)  # « euh » dropped, a name misheard a little mended
        if not units:
            return []
        found = {
            command
            for result in recognize_all(" ".join(units), self._seated[phase], slot_lists=self.lists)
            if (command := _command(result.intent.name, {e.name: e.value for e in result.entities_list}))
        }
        return list(found) if len(found) == 1 else []

    def chunks(self, phase: str) -> list[str]:
        """The words and word groups a sentence of `phase` is made of, as spoken (for the grammar)."""
        book = self.book
        said = [name.lower() for name in self.players] + [name.lower() for name in book.decoy_names]
        for kind in (*_EVERYWHERE, *PHASE_WORDS[phase]):
            said += book.day_words.get(kind, ())
        if phase in ("tally", "any"):
            said += _numbers(len(self.players))
        if phase == "reveal":
            said += _numbers(3)  # « une villageoise », « les deux francs-maçons »
        if phase in ("reveal", "choose", "any"):
            said += role_forms(book, self.game)  # choose: « le chasseur tue Dan »
        return said

    def stranger(self, text: str) -> str | None:
        """The first name heard in `text` that nobody at the table has (« Zoé »), if any."""
        heard = words(text, self.book.spellings) if isinstance(text, str) else []
        if len(heard) > MAX_WORDS:
            return None
        for token in self.lexicon.tag(heard):
            for tag in token:
                if tag.kind == "?":
                    return str(tag.value)
        return None


@cache
def _numbers(most: int) -> tuple[str, ...]:
    """0 to `most` in words, as hassil spells them for a grammar."""
    data = IntentData(sentence_texts=["{count}"])
    intents = Intents(language="fr", intents={"count": Intent("count", data=[data])})
    lists: dict[str, SlotList] = {"count": number_words("count", 0, most, 1)}
    return tuple(text for _, text in sample_intents(intents, slot_lists=lists, language="fr"))
