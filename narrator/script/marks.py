"""YAML read with its positions: every value's key path -> (line, column), 1-based.

PyYAML's ordinary loaders forget where a value came from; composing the node tree keeps it, so
every error can say file:line:column. Duplicate keys, which PyYAML silently overwrites, are refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml

Path = tuple[object, ...]


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a file, where it is, what was expected."""

    file: str
    line: int
    column: int
    path: Path
    message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path)
        return f"{self.file}:{self.line}:{self.column}: {where + ': ' if where else ''}{self.message}"


class YamlError(ValueError):
    """A file that is not YAML, or YAML with problems; `problems` lists them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class Marked:
    """Plain Python data and where each piece of it stands in the file."""

    data: object
    marks: dict[Path, tuple[int, int]]  # where each value starts
    key_marks: dict[Path, tuple[int, int]]  # where the key of each mapping value stands
    file: str

    def where(self, path: Path, at_key: bool = False) -> tuple[int, int]:
        """The position of `path` (its key's, if asked), or of its closest ancestor that has one."""
        path = tuple(path)
        if at_key and path in self.key_marks:
            return self.key_marks[path]
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path, (1, 1))

    def problem(self, path: Path, message: str, at_key: bool = False) -> Problem:
        line, column = self.where(path, at_key)
        return Problem(self.file, line, column, tuple(path), message)


_constructor = yaml.SafeLoader("")  # only its scalar construction is used


def load_marked(text: str, file: str) -> Marked:
    """Parse one YAML document; raise `YamlError` with file:line:column on bad YAML."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise YamlError([Problem(file, line, column, (), f"YAML illisible : {exc.problem or exc}")]) from None
    except yaml.YAMLError as exc:  # e.g. a byte the reader refuses
        raise YamlError([Problem(file, 1, 1, (), f"YAML illisible : {exc}")]) from None
    marks: dict[Path, tuple[int, int]] = {}
    key_marks: dict[Path, tuple[int, int]] = {}
    problems: list[Problem] = []
    data = None if node is None else _build(node, (), marks, key_marks, problems, file)
    _constructor.constructed_objects.clear()
    if problems:
        raise YamlError(problems)
    return Marked(data, marks, key_marks, file)


def _build(node: yaml.Node, path: Path, marks: dict, key_marks: dict, problems: list, file: str) -> object:
    marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        _constructor.flatten_mapping(node)  # merge keys (<<)
        out: dict = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node, path, problems, file)
            if key in out:
                line, column = key_node.start_mark.line + 1, key_node.start_mark.column + 1
                problems.append(Problem(file, line, column, path + (key,), "clé en double"))
                continue
            try:
                hash(key)
            except TypeError:
                key = str(key)
            key_marks[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = _build(value_node, path + (key,), marks, key_marks, problems, file)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), marks, key_marks, problems, file) for i, item in enumerate(node.value)]
    return _scalar(node, path, problems, file)


def _scalar(node: yaml.Node, path: Path, problems: list, file: str) -> object:
    if not isinstance(node, yaml.ScalarNode):
        line, column = node.start_mark.line + 1, node.start_mark.column + 1
        problems.append(Problem(file, line, column, path, "une clé doit être un simple texte"))
        return f"<clé invalide {line}:{column}>"
    try:
        return _constructor.construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as exc:
        line, column = node.start_mark.line + 1, node.start_mark.column + 1
        problems.append(Problem(file, line, column, path, f"valeur illisible : {exc.problem}"))
        return None
