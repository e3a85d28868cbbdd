"""A phase's grammar is the texts hassil's own sampling gives: `expansions` expands each rule and list
once instead of once per sentence, and must write the same phrases, none missing, none more."""

from __future__ import annotations

import pytest
from hassil import sample_intents

from narrator.listen.french import Listener, Parser
from narrator.listen.grammar import FREE_PHASES, expansions, spoken_lists
from narrator.listen.setup_words import SetupParser


def _said(texts) -> set[str]:
    return {" ".join(text.lower().split()) for text in texts}


LISTENERS = {
    "onuw": lambda: Parser("onuw", ("Alice", "Bob", "Chloé")),
    "poudlard": lambda: Parser("poudlard", ("Ana", "Ben", "Cléo")),
    "thiercelieux": lambda: Parser("thiercelieux", ("Ana", "Ben", "Cléo", "Dan")),
    "setup": lambda: SetupParser(None),
    "setup-poudlard": lambda: SetupParser("poudlard"),
}


@pytest.mark.parametrize("table", LISTENERS)
def test_expansions_are_hassils_sampling(table: str) -> None:
    listener: Listener = LISTENERS[table]()
    lists = spoken_lists(listener)
    for phase in listener.phases:
        if phase in FREE_PHASES:
            continue
        intents = listener.book.intents(phase, spoken=True, commands=listener.commands)
        ours = _said(expansions(intents, lists))
        hassils = _said(text for _, text in sample_intents(intents, slot_lists=lists, language="fr"))
        assert ours == hassils, (phase, sorted(ours - hassils)[:5], sorted(hassils - ours)[:5])
        assert ours, phase
