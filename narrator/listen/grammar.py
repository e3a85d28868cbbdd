"""The phrases a Vosk grammar may hear in a phase: hassil's expansion of the French templates."""

from __future__ import annotations

import unicodedata

from hassil import RangeSlotList, TextSlotList, sample_intents
from hassil.intents import SlotList

from narrator.listen.french import PHASES, Parser

__all__ = ["bigram_cover", "phrases", "spoken_lists"]


def phrases(parser: Parser, phase: str, compact: bool = False) -> list[str]:
    """Every phrase the recognizer may hear now: lowercase, NFC, sorted, for json.dumps(ensure_ascii=False).

    compact: only enough phrases to hold every pair of neighbouring words (see `bigram_cover`).
    """
    if phase not in PHASES:
        raise ValueError(f"phase inconnue « {phase} » ; attendu : {', '.join(PHASES)}")
    book = parser.book
    # Hesitations and words no command uses are heard as themselves, not forced into a command
    # word: "alice vote pas contre bob" must reach the parser with its "pas" (it then refuses it).
    found = {*book.fillers, *book.not_names}
    for _, text in sample_intents(book.intents(phase, spoken=True), slot_lists=spoken_lists(parser), language="fr"):
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


def bigram_cover(said: set[str] | list[str]) -> list[str]:
    """A few of the phrases, holding every pair of neighbouring words (sentence ends too) of them all.

    Vosk turns a grammar into a bigram language model (recognizer.cc, UpdateGrammarFst: a
    LanguageModelEstimator with ngram_order 2): these phrases give it the same words and word
    pairs as the whole expansion — a reveal turn of ten players goes from ~56,000 phrases to
    ~1,250 — and no pair weighs more for being repeated in thousands of combinations.
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


def spoken_lists(parser: Parser) -> dict[str, SlotList]:
    """The table's lists as people say them (the parser's lists hold its folded words)."""
    book = parser.book
    players: list[tuple[str, str | None]] = [(name.lower(), name) for name in parser.players]
    nobody: list[tuple[str, str | None]] = [(word, None) for word in book.nobody]
    lists: dict[str, SlotList] = {
        "player": TextSlotList.from_tuples(players, allow_template=False, name="player"),
        "target": TextSlotList.from_tuples(players + nobody, allow_template=False, name="target"),
        "nobody": TextSlotList.from_tuples(nobody, allow_template=False, name="nobody"),
        "role": TextSlotList.from_tuples(
            [(said.lower(), rid) for said, rid in book.role_aliases(parser.game)], allow_template=False, name="role"
        ),
        "count": _number_words("count", 0, len(parser.players), 1),
    }
    for name, (start, stop, step) in book.ranges.items():
        lists[name] = _number_words(name, start, stop, step)
    return lists


def _number_words(name: str, start: int, stop: int, step: int) -> RangeSlotList:
    # hassil spells the numbers out itself (unicode-rbnf), both genders: "un" and "une"
    return RangeSlotList(name, start, stop, step, digits=False, words=True, words_language="fr")
