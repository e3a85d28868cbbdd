"""The phrasebook's words for the recognizer rather than the parser: `go_on` and `respell`.

scripts/listen.fr.yaml ends with them: `go_on`, the words after which a speaker is still going
(narrator/listen/endpoint.py waits for vosk's end-point after them); `respell`, for each game,
other ways to say a character in common French words, for a speech model that lacks its name
(narrator/listen/heard.py picks those the installed model has).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, cast

from narrator.listen.phrasebook_schema import SCHEMA
from narrator.resources import data_dir
from narrator.script.marks import YamlError, load_marked
from narrator.script.schema import schema_problems

__all__ = ["SECTIONS", "EarWords", "ear_words", "load_ear_words"]

FILE = "listen.fr.yaml"
SECTIONS = ("go_on", "respell")


@dataclass(frozen=True)
class EarWords:
    go_on: frozenset[str]
    respell: Mapping[str, Mapping[str, tuple[str, ...]]]  # game -> character id -> spoken forms


@cache
def ear_words() -> EarWords:
    """The shipped sections; `YamlError` (file:line:column, in French) if they are broken."""
    path = data_dir("scripts") / FILE
    return load_ear_words(path.read_text(encoding="utf-8"), f"scripts/{FILE}")


def load_ear_words(text: str, file: str) -> EarWords:
    """Read and check `go_on` and `respell` in a phrasebook's text (their part of the phrasebook's
    schema); every problem at once."""
    doc = load_marked(text, file)
    own = {"type": "object", "properties": {k: SCHEMA["properties"][k] for k in SECTIONS}, "required": list(SECTIONS)}
    problems = schema_problems(doc, own)
    if problems:
        raise YamlError(problems)
    data = cast(dict[str, Any], doc.data)
    respell = {
        str(game): MappingProxyType({str(role): _words(forms) for role, forms in roles.items()})
        for game, roles in data["respell"].items()
    }
    return EarWords(frozenset(_words(data["go_on"])), MappingProxyType(respell))


def _words(said: list[str]) -> tuple[str, ...]:
    """Each form as the recognizer writes it: lowercase, one space between words."""
    return tuple(" ".join(word.lower().split()) for word in said)
