"""Voice profiles: which TTS voice, how fast, how loud, and an optional recorded voice pack."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.resources import data_dir, french_reason, read_bounded
from narrator.script.marks import Marked, YamlError, load_marked

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
    try:
        doc = load_marked(text, source)  # the project's one YAML reader: positions, depth and alias limits
    except YamlError as exc:
        raise VoiceError("\n".join(str(p) for p in exc.problems)) from None
    if not isinstance(doc.data, dict):
        raise VoiceError(f"{source}:1:1: profil de voix : dictionnaire attendu (engine, voice, rate…)")
    problems: list[str] = []
    values: dict[str, Any] = {}
    for key, value in doc.data.items():
        if not isinstance(key, str) or key not in _FIELDS:
            known = ", ".join(_FIELDS)
            problems.append(f"{_where(doc, (key,), at_key=True)}: clé inconnue {key!r} ; clés possibles : {known}")
            continue
        if isinstance(value, (dict, list)):
            kind = "une liste" if isinstance(value, list) else "un dictionnaire"
            problems.append(f"{_where(doc, (key,))}: {key} : une seule valeur attendue ; trouvé {kind}")
            continue
        problem = _FIELDS[key](value)
        if problem:
            problems.append(f"{_where(doc, (key,))}: {key} : {problem}")
        else:
            values[key] = value
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
        text = read_bounded(path).decode("utf-8")
    except OSError as exc:
        raise VoiceError(f"{path}: profil de voix illisible : {french_reason(exc)}") from None
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


def _where(doc: Marked, path: tuple, at_key: bool = False) -> str:
    line, column = doc.where(path, at_key)
    return f"{doc.file}:{line}:{column}"
