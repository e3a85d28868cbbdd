"""One validation path for every YAML file: its JSON Schema over the marked YAML, French at file:line:column."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from narrator.listen.ear_words import load_ear_words
from narrator.listen.french import load_phrasebook
from narrator.resources import data_dir
from narrator.script.marks import YamlError

ROOT = Path(__file__).resolve().parent.parent
FILE = "scripts/listen.fr.yaml"
SHIPPED = (data_dir("scripts") / "listen.fr.yaml").read_text(encoding="utf-8")


def broken(old: str, new: str) -> tuple[str, int]:
    """The shipped phrasebook with `old` replaced by `new` once, and the line the change is on."""
    assert old in SHIPPED, old
    return SHIPPED.replace(old, new, 1), SHIPPED[: SHIPPED.index(old)].count("\n") + 1


def problems(load, text: str) -> list[str]:
    with pytest.raises(YamlError) as caught:
        load(text, FILE)
    return [str(p) for p in caught.value.problems]


def test_a_blank_word_is_refused_where_it_stands() -> None:
    text, line = broken("\nfillers:\n  - ", '\nfillers:\n  - "  "\n  - ')
    assert problems(load_phrasebook, text) == [
        f'{FILE}:{line + 2}:5: fillers.0: attendu : un texte non vide ; trouvé : "  "'
    ]


def test_the_recognizer_sections_are_checked_once_by_both_loaders() -> None:
    text, line = broken("go_on:\n", "go_on: []\nx_go_on:\n")
    said = f"{FILE}:{line}:8: go_on: attendu : une valeur non vide ; trouvé : []"
    assert said in problems(load_phrasebook, text)
    assert problems(load_ear_words, text) == [said]  # its own part of the schema; the rest is the parser's
    run = subprocess.run(
        [sys.executable, "-m", "narrator", "check", "-"], cwd=ROOT, input=text, capture_output=True, text=True
    )
    assert run.returncode == 2 and run.stdout == "" and run.stderr.count("go_on: attendu") == 1, run.stderr


def test_a_slot_a_command_does_not_fill_is_refused() -> None:
    text, line = broken("      slots: {count: 0}", "      slots: {voter: 0}")
    found = problems(load_phrasebook, text)
    assert found == [
        f"{FILE}:{line}:15: commands.tally.1.slots.voter: identifiant invalide « voter » ; attendu : une de count,"
        " target"
    ]


def test_what_the_schema_cannot_say_is_still_checked() -> None:
    text, line = broken("  seconds: {from: 5, to: 120, step: 5}", "  seconds: {from: 50, to: 12}")
    assert problems(load_phrasebook, text) == [
        f"{FILE}:{line}:12: ranges.seconds: attendu : from ≤ to ; trouvé : 50 > 12"
    ]
    text, line = broken("    tannelier: [tannelier, tanneur, tanneuse]", "    tanner: [tanneur]")
    found = problems(load_phrasebook, text)
    assert any(p.startswith(f"{FILE}:{line}:5: roles.onuw.tanner: attendu : doppelganger, loup") for p in found), found
