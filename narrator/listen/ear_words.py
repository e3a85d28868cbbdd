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

from narrator.resources import data_dir
from narrator.script.marks import Marked, Problem, YamlError, load_marked

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
    """Read and check `go_on` and `respell` in a phrasebook's text; every problem at once."""
    doc = load_marked(text, file)
    data = doc.data if isinstance(doc.data, dict) else {}
    problems: list[Problem] = []
    go_on = _words(doc, data.get("go_on"), ("go_on",), problems)
    respell: dict[str, Mapping[str, tuple[str, ...]]] = {}
    games = data.get("respell")
    if not isinstance(games, dict):
        problems.append(doc.problem(("respell",), "attendu : par jeu, par personnage, une liste de formes dites"))
        games = {}
    for game, roles in games.items():
        if not isinstance(roles, dict):
            problems.append(doc.problem(("respell", game), "attendu : personnage: [formes dites]"))
            continue
        respell[str(game)] = MappingProxyType(
            {str(role): _words(doc, forms, ("respell", game, role), problems) for role, forms in roles.items()}
        )
    if problems:
        raise YamlError(problems)
    return EarWords(frozenset(go_on), MappingProxyType(respell))


def _words(doc: Marked, value: object, path: tuple, problems: list[Problem]) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        problems.append(doc.problem(path, f"attendu : une liste de mots ; trouvé : {value!r}"))
        return ()
    out = []
    for i, word in enumerate(value):
        if not isinstance(word, str) or not word.strip():
            problems.append(doc.problem((*path, i), f"attendu : un mot ou des mots ; trouvé : {word!r}"))
        else:
            out.append(" ".join(word.lower().split()))
    return tuple(out)
