"""Voice profiles: which TTS voice, how fast, how loud, and an optional recorded voice pack."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from narrator.resources import data_dir

from .errors import VoiceError

ENGINES = ("pyttsx3",)

# Ranges accepted by espeak-ng through pyttsx3's espeak driver (RATE in words per minute,
# VOLUME as 0–100 %, PITCH 0–100 with 50 the voice's own pitch).
RATE_RANGE = (80, 450)
PITCH_RANGE = (0, 100)


@dataclass(frozen=True, slots=True)
class Profile:
    """How the narrator sounds: a TTS voice and, optionally, a folder of recorded lines."""

    engine: str = "pyttsx3"
    voice: str = "roa/fr"
    rate: int = 160
    volume: float = 1.0
    pitch: int = 50
    wait_multiplier: float = 1.0
    pack: Path | None = None
    source: str = "<défaut>"  # where the profile came from, for messages only

    def tts_key(self) -> dict[str, Any]:
        """The fields that change synthesized audio (the TTS cache key)."""
        return {
            "engine": self.engine,
            "voice": self.voice,
            "rate": self.rate,
            "volume": self.volume,
            "pitch": self.pitch,
        }


def _number(lo: float, hi: float, *, integer: bool, low_open: bool = False) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:  # NaN
            return f"nombre attendu ; trouvé {value!r}"
        if integer and not isinstance(value, int):
            return f"nombre entier attendu ; trouvé {value!r}"
        if value < lo or value > hi or (low_open and value == lo):
            left = "]" if low_open else "["
            return f"nombre dans {left}{lo} ; {hi}] attendu ; trouvé {value!r}"
        return None

    return check


def _text(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return f"texte non vide attendu ; trouvé {value!r}"
    return None


def _engine(value: Any) -> str | None:
    if value not in ENGINES:
        return f"un de {', '.join(ENGINES)} attendu ; trouvé {value!r}"
    return None


def _pack(value: Any) -> str | None:
    if value is None:
        return None
    return _text(value)


_FIELDS: dict[str, Callable[[Any], str | None]] = {
    "engine": _engine,
    "voice": _text,
    "rate": _number(*RATE_RANGE, integer=True),
    "volume": _number(0.0, 1.0, integer=False, low_open=True),
    "pitch": _number(*PITCH_RANGE, integer=True),
    "wait_multiplier": _number(0.0, 10.0, integer=False, low_open=True),
    "pack": _pack,
}


def parse_profile(text: str, source: str, base: Path | None = None) -> Profile:
    """Build a profile from YAML text; every problem is reported at once, with file:line:column."""
    problems: list[str] = []
    values: dict[str, Any] = {}
    loader = None
    try:
        loader = _Loader(text)
        root = loader.get_single_node()
        if root is None or not isinstance(root, yaml.MappingNode):
            where = f"{source}:1:1" if root is None else _where(source, root)
            raise VoiceError(f"{where}: profil de voix : dictionnaire attendu (engine, voice, rate…)")
        seen = set()
        for key_node, value_node in root.value:
            key, problem = _scalar(loader, key_node)
            if problem or not isinstance(key, str) or key not in _FIELDS:
                known = ", ".join(_FIELDS)
                shown = "une clé doit être un simple texte" if problem else f"clé inconnue {key!r}"
                problems.append(f"{_where(source, key_node)}: {shown} ; clés possibles : {known}")
                continue
            if key in seen:
                problems.append(f"{_where(source, key_node)}: {key} : clé en double")
                continue
            seen.add(key)
            value, problem = _scalar(loader, value_node)
            problem = problem or _FIELDS[key](value)
            if problem:
                problems.append(f"{_where(source, value_node)}: {key} : {problem}")
            else:
                values[key] = value
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else f"{source}:1:1"
        raise VoiceError(f"{where}: YAML illisible : {exc.problem or exc.context or ''}") from None
    except yaml.reader.ReaderError as exc:  # a character YAML refuses (control, lone surrogate…)
        breaks = list(re.finditer(r"\r\n|[\n\r\x85\u2028\u2029]", text[: exc.position]))  # as PyYAML counts
        line, column = len(breaks) + 1, exc.position - (breaks[-1].end() if breaks else 0) + 1
        said = f"caractère interdit U+{exc.character:04X}"
        raise VoiceError(f"{source}:{line}:{column}: YAML illisible : {said}") from None
    finally:
        if loader is not None:
            loader.dispose()
    if problems:
        raise VoiceError("\n".join(problems))
    if "volume" in values:
        values["volume"] = float(values["volume"])
    if "wait_multiplier" in values:
        values["wait_multiplier"] = float(values["wait_multiplier"])
    if values.get("pack") is not None:
        pack = Path(values["pack"]).expanduser()
        values["pack"] = pack if pack.is_absolute() or base is None else base / pack
    return Profile(**values, source=source)


def load_profile(path: str | Path) -> Profile:
    """Read and validate a voice profile file (a `pack:` folder is relative to the file)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise VoiceError(f"{path}: profil de voix illisible : {exc.strerror or exc}") from None
    return parse_profile(text, str(path), base=path.parent)


def find_profile(name: str = "fr") -> Profile:
    """Load a shipped profile by name (`fr` → voices/fr.yaml), or a profile file by path."""
    if name.endswith((".yaml", ".yml")) or "/" in name:
        return load_profile(name)
    folder = data_dir("voices")
    path = folder / f"{name}.yaml"
    if not path.is_file():
        shipped = sorted(p.stem for p in folder.glob("*.yaml"))
        raise VoiceError(f"profil de voix {name!r} introuvable ; profils fournis : {', '.join(shipped) or 'aucun'}")
    return load_profile(path)


MAX_DEPTH = 100  # nesting levels; PyYAML's composer recurses, so deeper input would overflow


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader with a bounded nesting depth."""

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


def _scalar(loader: yaml.SafeLoader, node: yaml.Node) -> tuple[Any, str | None]:
    """A plain value, or why there is none."""
    if not isinstance(node, yaml.ScalarNode):
        kind = "une liste" if isinstance(node, yaml.SequenceNode) else "un dictionnaire"
        return None, f"une seule valeur attendue ; trouvé {kind}"
    try:
        return loader.construct_object(node, deep=True), None
    except (yaml.constructor.ConstructorError, ValueError, TypeError, KeyError, AttributeError, OverflowError):
        # an unknown tag, a tag on a value it cannot build (!!int abc), or a date that does not exist
        return None, f"valeur illisible {node.value!r}"


def _where(source: str, node: yaml.Node) -> str:
    return f"{source}:{node.start_mark.line + 1}:{node.start_mark.column + 1}"
