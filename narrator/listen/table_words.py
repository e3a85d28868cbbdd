"""French text -> the commands of a table in play: controls said whole, the day read from tags.

A sentence is first tried as controls (« répète », « non, annule », « encore deux minutes »);
otherwise its words are tagged (narrator/listen/tagger.py) and the day's inputs are read from
the tags (narrator/listen/reading.py), after an opening « oui », « non » or « annule » if any.
A first name that nobody at the table has is never read as a seated player: the sentence gives
nothing, and `stranger` says which name was heard.
"""

from __future__ import annotations

from collections.abc import Sequence

from narrator.listen.commands import Command
from narrator.listen.controls import OPENERS, Controls
from narrator.listen.french import MAX_WORDS, TemplateParser, phrasebook, words
from narrator.listen.reading import Reader
from narrator.listen.tagger import Lexicon

__all__ = ["Parser"]

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
        self._controls = {phase: Controls(book, phase) for phase in self.phases}

    def parse(self, text: str, phase: str = "any") -> list[Command]:
        """The commands in `text`, in order; [] unless it reads one way only."""
        if phase not in self.phases:
            raise ValueError(f"phase inconnue « {phase} » ; attendu : {', '.join(self.phases)}")
        heard = words(text, self.book.spellings) if isinstance(text, str) else []
        if not heard or len(heard) > MAX_WORDS:
            return []
        controls = self._controls[phase]
        said = controls.read(heard)
        if said:
            return said
        tokens = self.lexicon.tag(heard)
        if any(tag.kind == "?" for token in tokens for tag in token):
            return []  # « Zoé » is not at the table: never a seated player
        for k in range(min(MAX_AROUND, len(heard) - 1), 0, -1):
            opening = controls.read(heard[:k])
            if opening and all(c.command in OPENERS for c in opening):
                rest = self.reader.read(self.lexicon.tag(heard[k:]), phase)
                if rest:
                    return opening + rest
        for k in range(min(MAX_AROUND, len(heard) - 1), 0, -1):  # « Alice contre Bob, plus fort »
            closing = controls.read(heard[-k:])
            if closing:
                rest = self.reader.read(self.lexicon.tag(heard[:-k]), phase)
                if rest:
                    return rest + closing
        return self.reader.read(tokens, phase) or []

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
