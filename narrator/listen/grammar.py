"""The phrases a Vosk grammar may hear in a phase: hassil's expansion of the French templates."""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Callable

from hassil.expression import (
    Alternative,
    Expression,
    ListReference,
    Permutation,
    RuleReference,
    Sentence,
    Sequence,
    TextChunk,
)
from hassil.intents import Intents, RangeSlotList, SlotList, TextSlotList
from hassil.numbers import get_rbnf_engine

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
    found |= expansions(intents, spoken_lists(parser))
    out = set()
    for text in found:
        said = unicodedata.normalize("NFC", " ".join(text.lower().split()))
        out.add(said)
        # numbers come hyphenated from the spell-out rules ("dix-sept") and names may be
        # ("jean-marc"); a model may know the words only apart
        out.add(said.replace("-", " "))
    out.discard("")
    return bigram_cover(out) if compact else sorted(out)


def expansions(intents: Intents, lists: dict[str, SlotList]) -> set[str]:
    """Every sentence the intents' templates hold, their lists filled from `lists`: the texts of
    hassil's `sample_intents` (language fr), whitespace left as it comes. Each rule and list is expanded
    once, and each alternative's texts are a set: a table's phase takes a fraction of a second where
    hassil's sampling, which walks every rule again in every sentence and repeats the same texts, takes
    several (tests/test_grammar.py holds the two equal)."""
    return set().union(*expansions_by_intent(intents, lists).values())


def expansions_by_intent(intents: Intents, lists: dict[str, SlotList]) -> dict[str, set[str]]:
    """`expansions`, by intent name (a command)."""
    lists = {**intents.slot_lists, **lists}
    out: dict[str, set[str]] = {}
    for command, intent in intents.intents.items():
        said = out.setdefault(command, set())
        for data in intent.data:
            rules = {**intents.expansion_rules, **data.expansion_rules}
            texts = _Texts(lists, rules)
            for sentence in data.sentences:
                # hassil leaves out a sentence holding one of its wildcards (any text): no phrase to hear
                if not any(name in data.wildcard_list_names for name in sentence.list_names(rules)):
                    said |= texts.of(sentence.expression)
    return out


class _Texts:
    """The texts of hassil expressions, rules and lists expanded once (hassil's `sample_expression`)."""

    def __init__(self, lists: dict[str, SlotList], rules: dict[str, Sentence]):
        self.lists = lists
        self.rules = rules
        self._named: dict[tuple[str, str], frozenset[str]] = {}

    def of(self, expression: Expression) -> frozenset[str]:
        if isinstance(expression, TextChunk):
            return frozenset((expression.original_text,))
        if isinstance(expression, Alternative):
            return frozenset().union(*(self.of(item) for item in expression.items))
        if isinstance(expression, Sequence):
            return self._joined([self.of(item) for item in expression.items])
        if isinstance(expression, Permutation):
            parts = [self.of(item) for item in expression.items]
            return frozenset(
                text.strip() for order in itertools.permutations(parts) for text in self._joined(list(order))
            )
        if isinstance(expression, RuleReference):
            return self._once(("rule", expression.rule_name), lambda: self._rule(expression.rule_name))
        if isinstance(expression, ListReference):
            return self._once(("list", expression.list_name), lambda: self._list(expression.list_name))
        raise ValueError(f"expression inattendue : {expression!r}")

    @staticmethod
    def _joined(parts: list[frozenset[str]]) -> frozenset[str]:
        return frozenset("".join(words) for words in itertools.product(*parts))

    def _once(self, key: tuple[str, str], build: Callable[[], frozenset[str]]) -> frozenset[str]:
        if key not in self._named:
            self._named[key] = build()
        return self._named[key]

    def _rule(self, name: str) -> frozenset[str]:
        if name not in self.rules:
            raise ValueError(f"règle inconnue <{name}>")
        return self.of(self.rules[name].expression)

    def _list(self, name: str) -> frozenset[str]:
        found = self.lists.get(name)
        if isinstance(found, TextSlotList):
            return frozenset().union(*(self.of(value.text_in) for value in found.values))
        if isinstance(found, RangeSlotList):
            numbers = list(found.get_numbers())
            said = {str(n) for n in numbers} if found.digits else set()
            if found.words:
                engine = get_rbnf_engine(found.words_language or "fr")
                said |= {t for n in numbers for t in engine.format_number(n).text_by_ruleset.values()}
            return frozenset(said)
        raise ValueError(f"liste inconnue ou sans texte {{{name}}}")


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
