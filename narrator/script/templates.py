"""The `{name}` templates of every script, checked once for every loader, and the lists they say.

A template is filled by `str.format` with named values only. Anything else `format` accepts —
a format spec (`{number:%}` is spoken « 100.000000% »), a conversion (`{name!r}`), an index or an
attribute (`{name[0]}`, `{name.x}`), a positional `{}` — loads, then speaks wrongly or fails in the
middle of a game: it is refused when the file is read, at its file:line:column, in French.
A fixed line (said as written, never filled) takes no brace at all.
"""

from __future__ import annotations

import re
import string
from collections.abc import Collection, Mapping, Sequence
from typing import Protocol

from narrator.script.marks import Marked, Path, Problem
from narrator.script.plural import COUNTED, variants

STRAY = "accolade { ou } seule : attendu {nom} ; écrire {{ ou }} pour une accolade"


class TemplateError(ValueError):
    """What is wrong with a template's braces, said in French."""


def fields(text: str) -> set[str]:
    """The names `text` fills; `TemplateError` if it has anything but plain `{name}` fields."""
    try:
        parsed = [(name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(text)]
    except ValueError:
        raise TemplateError(STRAY) from None
    names = set()
    for name, spec, conversion in parsed:
        if name is None:  # plain text (with {{ and }} already read as braces)
            continue
        written = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
        if spec or conversion:
            raise TemplateError(f"{written} : ni « ! » ni « : » dans un {{…}} ; attendu {{{_base(name)}}}")
        if not name.isidentifier():  # {}, {0}, {name.x}, {name[0]}, { name }
            raise TemplateError(f"{written} : un nom attendu entre les accolades, comme {{nom}}")
        names.add(name)
    return names


def _base(name: str) -> str:
    """The name a field starts with (« name » of `name.x`), to say what was meant."""
    return name.split(".")[0].split("[")[0] or "nom"


def text_problems(doc: Marked, path: Path, text: str, allowed: Collection[str]) -> list[Problem]:
    """What is wrong with one template's text: its braces, and every name it may not use."""
    try:
        used = fields(text)
    except TemplateError as exc:
        return [doc.problem(path, str(exc))]
    hint = ", ".join("{" + a + "}" for a in sorted(allowed)) or "aucun {…}"
    return [doc.problem(path, f"{{{name}}} inconnu ; attendu : {hint}") for name in sorted(set(used) - set(allowed))]


def template_problems(
    doc: Marked, path: Path, template: str | Mapping[str, str], allowed: Collection[str]
) -> list[Problem]:
    """A template of the scripts — a text, or its forms by number (narrator/script/plural.py) — checked:
    forms only where a count or a list chooses between them, each form's braces and names."""
    if not isinstance(template, str) and not set(allowed).intersection(COUNTED):
        return [doc.problem(path, "attendu : un texte (one/two/many ne vont qu'avec {names} ou {count})")]
    out = []
    for variant, text in variants(template):
        out += text_problems(doc, (*path, variant) if variant else path, text, allowed)
    return out


def fixed_problems(doc: Marked, path: Path, text: str) -> list[Problem]:
    """A line said as it is written: a brace would be read aloud, or meant a value nobody fills."""
    if "{" in text or "}" in text:
        return [doc.problem(path, "ce texte est dit tel quel : aucune accolade, aucun {…}")]
    return []


# The words French elides before a vowel or a mute h (« de Ana » is said « d'Ana »), when a template
# puts one right before a value it fills. Most first names with an h take the elision (« d'Hugo »,
# « d'Hélène »); the few cards whose h is aspirated (the French books say « de Harry », « de Hagrid »)
# do not, nor a « y » said as a consonant (« de Yann », but « d'Yves »).
_ELIDED = re.compile(r"(?:^|(?<=[\s«(’'\-]))(de|que|le|la|je|ne|se|me|te|lorsque|puisque|jusque) $", re.IGNORECASE)
_ASPIRATED = ("harry", "hagrid", "hibou", "héros", "hérisson", "hache", "haine")
_VOWELS = "aeiouàâäéèêëîïôöùûüœæ"


def elides(word: str) -> bool:
    """Whether a word said after « de », « que », « le »… takes their elision."""
    low = word.lower()
    if not low:
        return False
    if low[0] in _VOWELS:
        return True
    if low[0] == "h":
        return not low.startswith(_ASPIRATED)
    return low[0] == "y" and len(low) > 1 and low[1] not in _VOWELS


def fill(template: str, **values: object) -> str:
    """`template.format(**values)`, with the template's « de », « que », « le »… elided before a value
    that starts with a vowel or a mute h: « La carte de {player} » says « La carte d'Ana »; and a
    value's last dot (an initial, « Léa B. ») left out before the template's punctuation."""
    out: list[str] = []
    for literal, name, spec, conversion in string.Formatter().parse(template):
        if out and out[-1].endswith(".") and literal[:1] in (".", ",", ":", ";", "!", "?"):
            out[-1] = out[-1][:-1]  # « Léa B. » before « . » or « , »: the dot would be read aloud
        if name is None:
            out.append(literal)
            continue
        value = format(string.Formatter().convert_field(values[name], conversion), spec or "")
        if elides(value):
            literal = _ELIDED.sub(lambda m: m.group(1)[:-1] + "'", literal)
        out.append(literal + value)
    return "".join(out)


class Worded(Protocol):
    """Anything holding a script's `texts`, among them the word `and` (« et »)."""

    @property
    def texts(self) -> Mapping[str, object]: ...


def join_names(script: Worded, names: Sequence[str]) -> str:
    """ "Ana", "Ana et Ben", "Ana, Ben et Cleo", with the script's word for « et »."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {script.texts['and']} " + names[-1]
