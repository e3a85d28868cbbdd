"""The phrases a Vosk grammar may hear in a phase: hassil's expansion of the French templates."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from hassil import sample_intents
from hassil.intents import SlotList

from narrator.listen.compiled import load, setup_parser
from narrator.listen.french import Listener, TemplateParser
from narrator.listen.setup_words import SetupParser
from narrator.listen.table_words import Parser

__all__ = ["FREE_PHASES", "bigram_cover", "phrases", "setup_phrases", "spoken_lists"]

FREE_PHASES = ("name",)  # heard without a grammar: any first name may come


def phrases(parser: Listener, phase: str, compact: bool = False) -> list[str]:
    """Every phrase the recognizer may hear now: lowercase, NFC, sorted, for json.dumps(ensure_ascii=False).

    [] in a phase heard without a grammar (a player's name at the setup): the recognizer then
    takes any word it knows. compact: only enough phrases to hold every pair of neighbouring words
    (see `bigram_cover`).
    """
    if phase not in parser.phases:
        raise ValueError(f"phase inconnue « {phase} » ; attendu : {', '.join(parser.phases)}")
    if phase in FREE_PHASES:
        return []
    table = _table(parser)
    if table is None:  # a listener the cache cannot name: built each time
        return _expand(parser, phase, compact)
    return load("grammar", (*table, phase, compact), lambda: _expand(parser, phase, compact))


# The listeners whose grammar depends only on their class and these fields (and on the sources the
# cache hashes): the name of a phase's grammar in the cache.
_TABLES: dict[type, Callable[[Listener], tuple[object, ...]]] = {
    Parser: lambda p: (p.game, p.players),  # type: ignore[attr-defined]
    TemplateParser: lambda p: (p.game, p.players),  # type: ignore[attr-defined]
    SetupParser: lambda p: (p.game,),  # type: ignore[attr-defined]
}


def _table(parser: Listener) -> tuple[object, ...] | None:
    fields = _TABLES.get(type(parser))
    return None if fields is None else (type(parser).__name__, *fields(parser))


def _expand(parser: Listener, phase: str, compact: bool) -> list[str]:
    book = parser.book
    # Hesitations and words no command uses are heard as themselves, not forced into a command
    # word: "alice vote pas contre bob" must reach the parser with its "pas" (it then refuses it).
    # The parser's chunks (names, first names nobody has, the day's words, cards, numbers) let
    # the recognizer write a sentence no template holds, phrase after phrase.
    found = {*book.fillers, *book.not_names, *parser.chunks(phase)}
    intents = book.intents(phase, spoken=True, commands=parser.commands)
    for _, text in sample_intents(intents, slot_lists=spoken_lists(parser), language="fr"):
        found.add(text)
    out = set()
    for text in found:
        said = unicodedata.normalize("NFC", " ".join(text.lower().split()))
        out.add(said)
        # numbers come hyphenated from the spell-out rules ("dix-sept") and names may be
        # ("jean-marc"); a model may know the words only apart
        out.add(said.replace("-", " "))
    out.discard("")
    return bigram_cover(out) if compact else sorted(out)


def setup_phrases(game: str | None, phase: str, compact: bool = True) -> list[str]:
    """What the recognizer may hear in a phase of the spoken setup of `game` (None: not chosen yet).

    Compact by default, as a recognizer is given it; [] in the name phase (no grammar).
    """
    return phrases(setup_parser(game), phase, compact=compact)


def bigram_cover(said: set[str] | list[str]) -> list[str]:
    """A few of the phrases, holding every pair of neighbouring words (sentence ends too) of them all.

    Vosk turns a grammar into a bigram language model (recognizer.cc, UpdateGrammarFst: a
    LanguageModelEstimator with ngram_order 2): these phrases give it the same words and word
    pairs as the whole expansion — a reveal turn of ten players goes from ~180,000 phrases to
    ~2,900 (benchmarks/parse.py) — and no pair weighs more for being repeated in thousands of combinations.
    """
    seen: set[tuple[str, str]] = set()
    kept = []
    for text in sorted(said, key=lambda t: (len(t.split()), t)):  # short phrases first: fewer kept
        heard = ["<s>", *text.split(), "</s>"]
        pairs = set(zip(heard, heard[1:]))
        if not pairs <= seen:
            kept.append(text)
            seen |= pairs
    return sorted(kept)


def spoken_lists(parser: Listener) -> dict[str, SlotList]:
    """The parser's lists as people say them (the parser's own lists hold its folded words)."""
    return parser.spoken_lists()
