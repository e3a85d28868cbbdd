"""The recognizer can write what the parser understands: each understood sentence of the utterance
table is a sequence of whole phrases of its phase's grammar, the way vosk decodes a grammar (a
bigram model over the phrases: a phrase after a phrase). Cases marked `typed: true` are written as
a keyboard or a free recognizer would (a misheard name, digits), which no grammar produces.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import table_yaml

from narrator.listen.french import Listener, Parser, words
from narrator.listen.grammar import FREE_PHASES, phrases
from narrator.listen.setup_words import SetupParser

UTTERANCES = Path(__file__).parent / "utterances"


def _understood() -> list:
    out = []
    for path in sorted(UTTERANCES.glob("*.yaml")):
        for i, case in enumerate(table_yaml.load(path.read_text(encoding="utf-8"))):
            if case["expect"] and not case.get("typed") and case["phase"] not in FREE_PHASES:
                out.append(pytest.param(case, id=f"{path.stem}:{i + 1}:{case['phase']}:{case['text'][:40]}"))
    return out


@cache
def _listener(game: str | None, players: tuple[str, ...] | None) -> Listener:
    return SetupParser(game) if players is None else Parser(game, players)


@cache
def _grammar(game: str | None, players: tuple[str, ...] | None, phase: str) -> tuple[frozenset[tuple[str, ...]], int]:
    """The phase's phrases in the parser's words, and how many words the longest holds."""
    listener = _listener(game, players)
    folded = _FOLDED.setdefault(tuple(sorted(listener.book.spellings.items())), {})
    # most phrases (the controls) are in every table's grammar: each is folded once for the run
    grammar = frozenset(
        folded[p] if p in folded else folded.setdefault(p, tuple(words(p, listener.book.spellings)))
        for p in phrases(listener, phase)
    )
    return grammar, max(len(p) for p in grammar)


_FOLDED: dict[tuple[tuple[str, str], ...], dict[str, tuple[str, ...]]] = {}


def _sequence(said: list[str], grammar: frozenset[tuple[str, ...]], longest: int) -> list[str] | None:
    """The sentence cut into phrases of the grammar (fewest phrases, none over `longest` words), or None."""
    best: list[list[str] | None] = [None] * (len(said) + 1)
    best[0] = []
    for i in range(len(said)):
        if best[i] is None:
            continue
        for j in range(i + 1, min(len(said), i + longest) + 1):
            if tuple(said[i:j]) in grammar:
                cut = [*best[i], " ".join(said[i:j])]  # type: ignore[misc]
                if best[j] is None or len(cut) < len(best[j]):  # type: ignore[arg-type]
                    best[j] = cut
    return best[len(said)]


CASES = _understood()


def test_most_understood_sentences_are_checked() -> None:
    assert len(CASES) >= 300


@pytest.mark.parametrize("case", CASES)
def test_the_grammar_can_write_the_sentence(case: dict) -> None:
    players = None if case["players"] is None else tuple(case["players"])
    listener = _listener(case["game"], players)
    grammar = _grammar(case["game"], players, case["phase"])
    said = words(case["text"], listener.book.spellings)
    assert _sequence(said, *grammar) is not None, f"« {case['text']} » is no sequence of the phrases of its grammar"


def test_the_grammar_stays_made_of_phrases() -> None:
    """Whole phrases, not a bag of words: most phrases of a phase hold several words."""
    table = _listener("onuw", ("Alice", "Bob", "Chloé"))
    for phase in ("vote", "tally", "reveal"):
        said = phrases(table, phase)
        assert sum(1 for p in said if len(p.split()) >= 3) > len(said) / 2, phase
    assert "alice vote contre bob" in phrases(table, "vote")
