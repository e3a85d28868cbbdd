"""YAML read with its positions: every value's key path -> (line, column), 1-based.

PyYAML's ordinary loaders forget where a value came from; composing the node tree keeps it, so
every error can say file:line:column. Duplicate keys, which PyYAML silently overwrites, are refused.
Hostile input stays an error, never a crash: PyYAML's messages are said in French, nesting and
alias expansion are bounded, and every problem is one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

Path = tuple[object, ...]

MAX_DEPTH = 100  # nesting levels; PyYAML's composer recurses, and a script needs about 6
MAX_VALUES = 100_000  # values once aliases are expanded (a "billion laughs" stops here); a script has ~2,000

# Characters that end a line for a terminal or an editor: shown escaped, so a problem is one line.
_ONE_LINE = str.maketrans({c: repr(c)[1:-1] for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"})
_MERGE = "tag:yaml.org,2002:merge"

SHOWN = 60  # characters of a value a message quotes: a 100,000-digit number is not printed whole


def shown_value(value: str) -> str:
    """A value as a message quotes it: whole when short, else its start and its length."""
    if len(value) <= SHOWN:
        return repr(value)
    return f"{value[:SHOWN]!r}… ({len(value)} caractères)"


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
        text = f"{self.file}:{self.line}:{self.column}: {where + ': ' if where else ''}{self.message}"
        return text.translate(_ONE_LINE)


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


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader with a bounded nesting depth (its composer recurses: deep input overflows)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self._depth >= MAX_DEPTH:
            mark = self.peek_event().start_mark
            raise yaml.composer.ComposerError(None, None, f"plus de {MAX_DEPTH} niveaux d'imbrication", mark)
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


_constructor = yaml.SafeLoader("")  # only its scalar construction is used

# PyYAML's messages, in French (the most frequent ones; any other is quoted as it is).
_FRENCH = (
    (r"found character (.+) that cannot start any token", "le caractère {0} ne peut commencer aucune valeur"
     " (une tabulation ? indentez avec des espaces, ou mettez le texte entre guillemets)"),
    (r"mapping values are not allowed here", "« : » inattendu ici (indentation fausse, ou texte à mettre entre"
     " guillemets ?)"),
    (r"could not find expected ':'", "« : » attendu (une ligne coupée, ou un guillemet de trop ?)"),
    (r"expected <block end>, but found (.+)", "indentation incohérente (trouvé ici : {0})"),
    (r"expected '<document start>', but found (.+)", "contenu après la fin du document (trouvé : {0}) :"
     " la ligne est-elle bien indentée ?"),
    (r"found unexpected end of stream", "fin du fichier inattendue (guillemet, crochet ou accolade jamais fermé ?)"),
    (r"expected ',' or '([\]}])', but got (.+)", "« , » ou « {0} » attendu ; trouvé : {1}"),
    (r"expected the node content, but found (.+)", "valeur attendue ; trouvé : {0}"),
    (r"found undefined alias (.+)", "alias {0} jamais défini (il faut d'abord une ancre &…)"),
    (r"second occurrence", "ancre définie deux fois"),
    (r"but found another document", "un seul document attendu : « --- » ou « ... » en trop"),
    (r"found unknown escape character (.+)", "échappement {0} inconnu entre guillemets doubles (\\\\ pour un \\)"),
    (r"expected alphabetic or numeric character, but found (.+)", "lettre ou chiffre attendu ; trouvé : {0}"),
    (r"sequence entries are not allowed here", "élément de liste « - » inattendu ici (indentation fausse ?)"),
    (r"mapping keys are not allowed here", "« ? » inattendu ici"),
    (r"invalid indentation or unclosed '\[' or '\{'", "indentation fausse, ou « [ » ou « { » jamais fermé"),
    (r"found unexpected document separator", "« --- » ou « ... » inattendu dans un texte entre guillemets"),
    (r"expected a comment or a line break, but found (.+)", "fin de ligne ou commentaire attendu ; trouvé : {0}"),
    (r"found undefined tag handle (.+)", "préfixe d'étiquette {0} inconnu"),
    (r"could not determine a constructor for the tag (.+)", "étiquette {0} inconnue"),
    (r"expected (.+), but (?:found|got) (.+)", "attendu : {0} ; trouvé : {1}"),
    # libyaml's own wording (`narrator resolve` reads with it)
    (r"did not find expected ',' or '([\]}])'", "« , » ou « {0} » attendu (crochet ou accolade jamais fermé ?)"),
    (r"did not find expected key", "clé attendue (indentation fausse ?)"),
    (r"did not find expected '-' indicator", "élément de liste « - » attendu (indentation fausse ?)"),
    (r"did not find expected node content", "valeur attendue"),
    (r"did not find expected <document start>", "contenu après la fin du document : la ligne est-elle bien indentée ?"),
    (r"did not find expected (.+)", "{0} attendu"),
    (r"exceeded maximum nesting depth", "trop de niveaux d'imbrication"),
    (r"(plus de \d+ niveaux d'imbrication)", "{0}"),  # our own composer's bound (_Loader), already French
    (r"found character that cannot start any token", "caractère qui ne peut commencer aucune valeur (une tabulation ?"
     " indentez avec des espaces, ou mettez le texte entre guillemets)"),
    (r"mapping values are not allowed in this context", "« : » inattendu ici (indentation fausse, ou texte à mettre"
     " entre guillemets ?)"),
    (r"block sequence entries are not allowed in this context", "élément de liste « - » inattendu ici"
     " (indentation fausse ?)"),
    (r"found a tab character that violates indentation", "tabulation dans l'indentation : indentez avec des espaces"),
)  # fmt: skip


_TOKENS = {
    "'<block mapping start>'": "une clé",
    "'<block sequence start>'": "un élément de liste",
    "'<block end>'": "une fin de bloc",
    "'<scalar>'": "un texte",
    "'<stream end>'": "la fin du fichier",
    "'<document start>'": "« --- »",
    "'<document end>'": "« ... »",
    "'<alias>'": "un alias",
    "'<anchor>'": "une ancre",
    "'<tag>'": "une étiquette",
    "'?'": "une clé",
    "'-'": "un élément de liste « - »",
}


def french(problem: str) -> str:
    """A PyYAML problem said in French."""
    for pattern, said in _FRENCH:
        found = re.fullmatch(pattern, problem, re.DOTALL)
        if found:
            words = [_TOKENS.get(group, group) for group in found.groups()]
            return said.format(*words).replace("tag:yaml.org,2002:", "!!")
    return "structure incorrecte à cet endroit"  # a wording not in the table: never shown in English


def load_marked(text: str, file: str) -> Marked:
    """Parse one YAML document; raise `YamlError` with file:line:column on bad YAML."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        said = french(exc.problem or exc.context or "")
        raise YamlError([Problem(file, line, column, (), f"YAML illisible : {said}")]) from None
    except yaml.reader.ReaderError as exc:  # a character YAML refuses (control, lone surrogate…)
        line, column = _position(text, exc.position)
        said = f"caractère interdit U+{exc.character:04X} (caractère de contrôle, ou octets qui ne sont pas du texte)"
        raise YamlError([Problem(file, line, column, (), f"YAML illisible : {said}")]) from None
    except yaml.YAMLError:  # none other is known when reading text; one line anyway (see Problem)
        raise YamlError([Problem(file, 1, 1, (), "YAML illisible : structure incorrecte")]) from None
    marks: dict[Path, tuple[int, int]] = {}
    key_marks: dict[Path, tuple[int, int]] = {}
    builder = _Builder(file, marks, key_marks)
    data = None if node is None else builder.build(node, ())
    _constructor.constructed_objects.clear()
    if builder.problems:
        raise YamlError(builder.problems)
    return Marked(data, marks, key_marks, file)


def _position(text: str, index: int) -> tuple[int, int]:
    """Line and column of a character, counting line breaks as PyYAML does."""
    breaks = list(re.finditer(r"\r\n|[\n\r\x85\u2028\u2029]", text[:index]))
    return len(breaks) + 1, index - (breaks[-1].end() if breaks else 0) + 1


class _Builder:
    """Plain data from the node tree, noting marks and problems; aliases expanded within bounds."""

    def __init__(self, file: str, marks: dict, key_marks: dict) -> None:
        self.file = file
        self.marks = marks
        self.key_marks = key_marks
        self.problems: list[Problem] = []
        self.values = 0
        self.active: set[int] = set()  # the nodes being built: an alias back to one is a loop

    def fail(self, node: yaml.Node, path: Path, message: str) -> None:
        mark = node.start_mark
        self.problems.append(Problem(self.file, mark.line + 1, mark.column + 1, path, message))

    def build(self, node: yaml.Node, path: Path) -> object:
        self.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        self.values += 1
        if self.values == MAX_VALUES:
            self.fail(node, path, f"plus de {MAX_VALUES} valeurs une fois les alias développés")
        if self.values >= MAX_VALUES:
            return None
        if id(node) in self.active:
            self.fail(node, path, "cet alias se contient lui-même")
            return None
        if len(path) > MAX_DEPTH:  # reached through aliases, each within the composer's bound
            self.fail(node, path, f"plus de {MAX_DEPTH} niveaux d'imbrication une fois les alias développés")
            return None
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path)
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
            return self._scalar(node, path)
        finally:
            self.active.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, path: Path) -> dict:
        out: dict = {}
        merges = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                merges.append(value_node)
                continue
            key = self._scalar(key_node, path)
            if key in out:
                self.fail(key_node, path + (key,), "clé en double")
                continue
            try:
                hash(key)
            except TypeError:
                key = str(key)
            self.key_marks[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = self.build(value_node, path + (key,))
        for merge in merges:  # <<: *anchor, or a list of them; the mapping's own keys win, then the first
            for source in merge.value if isinstance(merge, yaml.SequenceNode) else [merge]:
                self._merge(out, source, path)
        return out

    def _merge(self, out: dict, source: yaml.Node, path: Path) -> None:
        if not isinstance(source, yaml.MappingNode):
            self.fail(source, path, "« << » fusionne un mapping (*ancre) ou une liste de mappings")
            return
        marks, key_marks = self.marks, self.key_marks
        self.marks, self.key_marks = {}, {}
        try:
            merged = self.build(source, path)
        finally:
            theirs, their_keys = self.marks, self.key_marks
            self.marks, self.key_marks = marks, key_marks
        for key, value in merged.items() if isinstance(merged, dict) else ():
            if key not in out:
                out[key] = value
                inside = path + (key,)
                marks.update((p, m) for p, m in theirs.items() if p[: len(inside)] == inside)
                key_marks.update((p, m) for p, m in their_keys.items() if p[: len(inside)] == inside)

    def _scalar(self, node: yaml.Node, path: Path) -> object:
        if not isinstance(node, yaml.ScalarNode):
            line, column = node.start_mark.line + 1, node.start_mark.column + 1
            self.fail(node, path, "une clé doit être un simple texte")
            return f"<clé invalide {line}:{column}>"
        try:
            return _constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            self.fail(node, path, f"valeur illisible : {french(exc.problem or '')}")
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError):
            # an explicit tag on a value it cannot build (!!int abc, !!bool peut-être), or a date
            # that does not exist (2020-13-45): PyYAML raises whatever its conversion raised
            tag = node.tag.rsplit(":", 1)[-1]
            self.fail(node, path, f"valeur illisible pour l'étiquette {tag} : {shown_value(node.value)}")
        return None
