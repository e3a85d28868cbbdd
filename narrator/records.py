"""Game records read one at a time, in bounded memory: a YAML or JSON document (one record, or a list of
them) or JSON Lines (one record a line).

A long list is never held whole: YAML is read as libyaml's events, each record of the list built
(with the line and column of each of its values) and handed over before the next is read. What a
document may hold is bounded before it is parsed — its size, its nesting, the values a record
expands to through YAML aliases — and every problem is one French line, `file:line:column: …`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, cast

import yaml

from narrator.script.marks import MAX_DEPTH, MAX_VALUES, french, shown_value

MAX_DOCUMENT_BYTES = 64 * 2**20  # a YAML or JSON document; a longer list is written as JSON Lines
MAX_LINE_BYTES = 2**20  # one record of a JSON Lines file

Path = tuple[object, ...]


class InputError(ValueError):
    """Input that is not a readable record or list of records; one French line with file:line:column."""


@dataclass
class Item:
    """One record as read, and where each of its values stands."""

    data: object
    index: int | None  # its place in the list (from 0), None for a lone record
    marks: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: Path) -> tuple[int, int]:
        """The line and column of `path` in the record, or of its closest ancestor that has one."""
        path = tuple(path)
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path, (1, 1))


@dataclass
class Records:
    """`shape`: `one` (a lone record), `list` (a YAML or JSON list) or `lines` (JSON Lines)."""

    shape: str
    items: Iterator[Item]


def read_records(stream: BinaryIO, file: str) -> Records:
    """The records of `stream`, read as they are needed; `InputError` when the input goes wrong."""
    first = stream.readline(MAX_LINE_BYTES + 1)
    if first.startswith((b"\xff\xfe", b"\xfe\xff")):  # a UTF-16 or UTF-32 mark: libyaml would decode it
        raise InputError(f"{file}:1:1: ce n'est pas du texte UTF-8 (octet 0x{first[0]:02x})")
    if first.lstrip().startswith(b"{") and first.endswith(b"\n"):
        try:
            record = _json_line(first, file, 1)
        except InputError:
            record = None
        if record is not None:
            return Records("lines", _lines(stream, file, record))
    limited = _Limited(first, stream, file)
    return _yaml(limited, file)


# -- JSON Lines ----------------------------------------------------------------------------------


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} n'est pas un nombre JSON")


def _refuse_duplicates(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        twice = next(key for key, n in Counter(k for k, _ in pairs).items() if n > 1)
        raise ValueError(f"clé en double « {twice} »")
    return out


_JSON_FRENCH = {  # the json module's messages, in French
    "Expecting value": "valeur attendue",
    "Expecting property name enclosed in double quotes": "nom de clé entre guillemets doubles attendu",
    "Expecting ',' delimiter": "« , » attendue",
    "Expecting ':' delimiter": "« : » attendu",
    "Extra data": "contenu en trop après la valeur",
    "Unterminated string starting at": "texte jamais fermé",
    "Invalid control character at": "caractère de contrôle dans un texte",
    "Invalid \\escape": "échappement inconnu",
}


def _json_line(raw: bytes, file: str, number: int) -> object:
    if len(raw) > MAX_LINE_BYTES:
        raise InputError(
            f"{file}:{number}:1: ligne de plus de {MAX_LINE_BYTES // 2**20} Mo : trop longue pour un enregistrement"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{file}:{number}:{exc.start + 1}: ce n'est pas du texte UTF-8 (octet 0x{raw[exc.start]:02x})"
        ) from None
    try:
        return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_refuse_duplicates)
    except json.JSONDecodeError as exc:
        said = _JSON_FRENCH.get(exc.msg, exc.msg)
        raise InputError(f"{file}:{number}:{exc.pos + 1}: JSON illisible : {said}") from None
    except (ValueError, RecursionError) as exc:
        said = str(exc) if isinstance(exc, ValueError) else "imbrication trop profonde"
        raise InputError(f"{file}:{number}:1: JSON illisible : {said}") from None


def _lines(stream: BinaryIO, file: str, first: object) -> Iterator[Item]:
    yield Item(first, 0, {(): (1, 1)})
    number, index = 1, 1
    while raw := stream.readline(MAX_LINE_BYTES + 1):
        number += 1
        if not raw.strip():
            continue
        yield Item(_json_line(raw, file, number), index, {(): (number, 1)})
        index += 1


# -- YAML and JSON documents ---------------------------------------------------------------------


class _Limited:
    """The stream for the YAML parser: the line already read first, then the rest, within the size limit."""

    def __init__(self, first: bytes, rest: BinaryIO, file: str) -> None:
        self.pending = first
        self.rest = rest
        self.file = file
        self.read_bytes = 0

    def read(self, size: int = -1) -> bytes:
        if self.pending:
            data, self.pending = self.pending, b""
        else:
            data = self.rest.read(size if size > 0 else 65536)
        self.read_bytes += len(data)
        if self.read_bytes > MAX_DOCUMENT_BYTES:
            raise InputError(
                f"{self.file} : plus de {MAX_DOCUMENT_BYTES // 2**20} Mo : trop grand pour un document YAML ou JSON "
                "(une longue liste s'écrit en JSON Lines, un enregistrement par ligne)"
            )
        return data


_SCALARS = yaml.SafeLoader("")  # its resolver (which tag a plain scalar has) and constructors


def _yaml(stream: _Limited, file: str) -> Records:
    events = _events(stream, file)
    next(events)  # the stream's start
    start = next(events)
    if isinstance(start, yaml.StreamEndEvent):
        raise InputError(f"{file}:1:1: fichier vide : un enregistrement ou une liste attendu")
    top = next(events)
    builder = _Builder(file)
    if isinstance(top, yaml.SequenceStartEvent):
        builder.anchor(top, [])
        return Records("list", _list_items(events, builder, file))
    item = Item(builder.build(top, events), None, builder.marks)
    _end(events, file)
    return Records("one", iter([item]))


def _list_items(events: Iterator[yaml.Event], builder: _Builder, file: str) -> Iterator[Item]:
    index = 0
    for event in events:
        if isinstance(event, yaml.SequenceEndEvent):
            break
        builder.marks = {}
        builder.values = 0
        yield Item(builder.build(event, events), index, builder.marks)
        index += 1
    _end(events, file)


def _at(event: yaml.Event) -> tuple[int, int]:
    """Where an event begins: line and column, 1-based."""
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _end(events: Iterator[yaml.Event], file: str) -> None:
    for event in events:
        if isinstance(event, yaml.DocumentStartEvent):
            line, column = _at(event)
            raise InputError(f"{file}:{line}:{column}: YAML illisible : un seul document attendu : « --- » en trop")


def _events(stream: _Limited, file: str) -> Iterator[yaml.Event]:
    """libyaml's events, its errors said in French."""
    loader: Any
    try:
        loader = yaml.CSafeLoader(cast(Any, stream))
    except AttributeError:  # no libyaml: PyYAML's own parser (slower)
        loader = yaml.SafeLoader(cast(Any, stream))
    try:
        while loader.check_event():
            yield loader.get_event()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise InputError(
            f"{file}:{line}:{column}: YAML illisible : {french(exc.problem or exc.context or '')}"
        ) from None
    except yaml.reader.ReaderError as exc:
        said = f"caractère interdit U+{exc.character:04X}" if isinstance(exc.character, int) else "octets illisibles"
        raise InputError(f"{file} : YAML illisible : {said} (octets qui ne sont pas du texte ?)") from None
    except yaml.YAMLError:
        raise InputError(f"{file} : YAML illisible : structure incorrecte") from None
    finally:
        loader.dispose()


class _Builder:
    """Plain data from the events of one value, noting where each part stands; aliases expanded within
    bounds (the values of one record, anchors shared across the document)."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.marks: dict[Path, tuple[int, int]] = {}
        self.values = 0
        self.anchors: dict[str, tuple[object, int]] = {}  # anchor -> (its value, how many values it holds)

    def fail(self, event: yaml.Event, message: str) -> InputError:
        line, column = _at(event)
        return InputError(f"{self.file}:{line}:{column}: {message}")

    def anchor(self, event: yaml.Event, value: object, count: int = 1) -> None:
        name = getattr(event, "anchor", None)
        if name is not None:
            self.anchors[name] = (value, count)

    def count(self, event: yaml.Event, n: int) -> None:
        self.values += n
        if self.values > MAX_VALUES:
            raise self.fail(event, f"plus de {MAX_VALUES} valeurs dans un enregistrement une fois les alias développés")

    def build(self, first: yaml.Event, events: Iterator[yaml.Event]) -> object:
        """The value that begins with event `first`, read to its end."""
        # each open container: [value, path, pending key or _NO_KEY, its start event, values before it, merges]
        stack: list[list] = []
        value: object = None
        event = first
        while True:
            path = self._path(stack)
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if stack and stack[-1][2] is _NO_KEY and isinstance(stack[-1][0], dict):
                    raise self.fail(event, "une clé doit être un simple texte")
                if len(stack) >= MAX_DEPTH:
                    raise self.fail(event, f"plus de {MAX_DEPTH} niveaux d'imbrication")
                self.count(event, 1)
                self.marks[path] = _at(event)
                container: object = {} if isinstance(event, yaml.MappingStartEvent) else []
                stack.append([container, path, _NO_KEY, event, self.values, []])
                event = next(events)
                continue
            if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                container, _, _, start, before, merges = stack.pop()
                for merge_event, merged in merges:
                    if isinstance(container, dict):
                        self._merge(container, merge_event, merged)
                self.anchor(start, container, self.values - before + 1)
                value = container
            elif isinstance(event, yaml.AliasEvent):
                if event.anchor not in self.anchors:
                    raise self.fail(event, f"alias *{event.anchor} jamais défini (il faut d'abord une ancre &…)")
                value, size = self.anchors[event.anchor]
                self.count(event, size)
                self.marks.setdefault(path, _at(event))
            elif isinstance(event, yaml.ScalarEvent):
                value = self._scalar(event)
                self.count(event, 1)
                self.anchor(event, value)
                if not (stack and stack[-1][2] is _NO_KEY and isinstance(stack[-1][0], dict)):
                    self.marks[path] = _at(event)
            else:
                raise self.fail(event, "YAML illisible : valeur attendue")
            if not stack:
                return value
            top = stack[-1]
            if isinstance(top[0], list):
                top[0].append(value)
            elif top[2] is _NO_KEY:  # a key
                if isinstance(event, yaml.ScalarEvent) and event.tag is None and event.value == "<<":
                    top[2] = _MERGE_KEY
                else:
                    try:
                        hash(value)
                    except TypeError:
                        raise self.fail(event, "une clé doit être un simple texte") from None
                    if value in top[0]:
                        raise self.fail(event, f"{_dotted(top[1] + (value,))} : clé en double")
                    top[2] = value
            elif top[2] is _MERGE_KEY:
                top[5].append((event, value))
                top[2] = _NO_KEY
            else:
                top[0][top[2]] = value
                top[2] = _NO_KEY
            event = next(events)

    def _path(self, stack: list[list]) -> Path:
        if not stack:
            return ()
        container, path, key = stack[-1][0], stack[-1][1], stack[-1][2]
        if isinstance(container, list):
            return (*path, len(container))
        return path if key is _NO_KEY or key is _MERGE_KEY else (*path, key)

    def _merge(self, into: dict, event: yaml.Event, merged: object) -> None:
        """« <<: *anchor » (or a list of them): keys the mapping does not have itself, the first source first."""
        sources = merged if isinstance(merged, list) else [merged]
        for source in sources:
            if not isinstance(source, dict):
                raise self.fail(event, "« << » fusionne un mapping (*ancre) ou une liste de mappings")
            for key, value in source.items():
                into.setdefault(key, value)

    def _scalar(self, event: yaml.ScalarEvent) -> object:
        if event.tag in (None, "!") and not event.implicit[0]:
            return event.value  # quoted: a text
        tag = (
            event.tag
            if event.tag not in (None, "!")
            else _SCALARS.resolve(yaml.ScalarNode, event.value, event.implicit)
        )
        if tag == "tag:yaml.org,2002:str":
            return event.value
        construct = _SCALARS.yaml_constructors.get(tag)
        node = yaml.ScalarNode(tag, event.value)
        if construct is None:
            raise self.fail(event, f"étiquette {tag.replace('tag:yaml.org,2002:', '!!')} inconnue")
        try:
            return construct(_SCALARS, node)
        except (yaml.constructor.ConstructorError, ValueError, TypeError, KeyError, AttributeError, OverflowError):
            raise self.fail(
                event, f"valeur illisible pour l'étiquette {tag.rsplit(':', 1)[-1]} : {shown_value(event.value)}"
            ) from None


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name


_NO_KEY = _Marker("no key")  # a mapping waiting for its next key
_MERGE_KEY = _Marker("<<")  # a mapping waiting for what « << » merges


def _dotted(path: Path) -> str:
    return ".".join(str(p) for p in path)
