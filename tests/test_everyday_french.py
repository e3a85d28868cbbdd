"""Everyday French at a table (issue 22): the sentences of tests/spoken/, written by a native speaker
who had not read the parser (controls among other words, ballots in every construction, sentences
about a vote that are not one, names a syllable off a seated one, cards by every name).

Their words are a table's, not the grammar's: a recognizer given the phase's grammar writes a word
it does not hold as « [unk] », so each sentence is also read with those words so written. The
tests/utterances/ table holds the sentences the grammar can write whole (tests/test_grammar_coverage.py).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
import yaml

from narrator.listen.french import Parser, words
from narrator.listen.phrasebook_schema import PHASES

SPOKEN = Path(__file__).parent / "spoken"
TAKEN = ("vote", "tally", "reveal", "choose")
_SYNTAX = re.compile(r"(\{[^}]*\}|<[^>]*>|[()\[\]|;])")


def _cases() -> list[dict]:
    return [case for path in sorted(SPOKEN.glob("*.yaml")) for case in yaml.safe_load(path.read_text(encoding="utf-8"))]


CASES = _cases()


@cache
def _parser(game: str, players: tuple[str, ...]) -> Parser:
    return Parser(game, players)


def _parse(case: dict, text: str) -> list[dict]:
    return [c.to_json() for c in _parser(case["game"], tuple(case["players"])).parse(text, case["phase"])]


@cache
def _vocabulary(game: str, players: tuple[str, ...], phase: str) -> frozenset[str]:
    """Every word of the phase's grammar, in the parser's words: its templates, rules, lists and chunks
    (the words narrator/listen/grammar.py expands into phrases)."""
    table = _parser(game, players)
    book = table.book
    texts = [*book.fillers, *book.not_names, *table.chunks(phase), *book.rules.values()]
    texts += [s for block in book.blocks if phase in block.phases for s in block.sentences]
    for values in table.spoken_lists().values():
        texts += [str(getattr(v.text_in, "text", "")) for v in getattr(values, "values", [])]
    said = {w for text in texts for w in words(_SYNTAX.sub(" ", text), book.spellings)}
    return frozenset(said | {str(n) for n in range(0, 121)})  # numbers: the lists spell them out


def test_the_set_is_big_and_holds_refusals() -> None:
    assert len(CASES) >= 400
    assert sum(1 for c in CASES if not c["expect"]) >= 100
    assert {c["phase"] for c in CASES} <= set(PHASES)


def test_no_command_is_taken_from_a_sentence_that_gives_none() -> None:
    """The worst misreading: a prediction, a guess, a question, another first name taken as a command."""
    taken = [(c["text"], got) for c in CASES if not c["expect"] and (got := _parse(c, c["text"]))]
    assert taken == []


def test_no_wrong_vote_reveal_or_choice_is_taken() -> None:
    wrong = [
        (c["text"], got)
        for c in CASES
        if c["expect"]
        for got in [_parse(c, c["text"])]
        if any(command["command"] in TAKEN and command not in c["expect"] for command in got)
    ]
    assert wrong == []


def test_almost_every_sentence_is_understood() -> None:
    misses = [(c["text"], c["expect"], got) for c in CASES if (got := _parse(c, c["text"])) != c["expect"]]
    # 494 of 498 when written (benchmarks/understanding.py tests/spoken lists the misses)
    assert len(misses) <= len(CASES) // 50, misses


@pytest.mark.parametrize("phase", PHASES)
def test_words_off_the_grammar_written_unk_change_nothing(phase: str) -> None:
    """What vosk writes with the grammar: a table's word the grammar lacks comes as « [unk] »."""
    changed = []
    for case in (c for c in CASES if c["phase"] == phase):
        known = _vocabulary(case["game"], tuple(case["players"]), phase)
        heard = words(case["text"], _parser(case["game"], tuple(case["players"])).book.spellings)
        written = " ".join(w if w in known else "[unk]" for w in heard)
        if written != " ".join(heard) and _parse(case, written) != _parse(case, case["text"]):
            changed.append((case["text"], written, _parse(case, written)))
    assert changed == []
