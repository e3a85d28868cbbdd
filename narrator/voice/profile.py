"""Voice profiles: which TTS voice, how fast, how loud, and an optional recorded voice pack (a folder
holding its own profile: narrator/voice/pack.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from narrator.resources import data_dir, french_reason, read_bounded
from narrator.script.marks import YamlError, load_marked
from narrator.script.schema import schema_problems

from .ambience import NO_SOUND, SOUNDS
from .bed import DUCK_DB, LEVEL_LU, LEVEL_RANGE_LU
from .errors import VoiceError
from .pack import PROFILE_FILE

ENGINES = ("pyttsx3",)

# Ranges accepted by espeak-ng through pyttsx3's espeak driver (RATE in words per minute,
# VOLUME as 0–100 %, PITCH 0–100 with 50 the voice's own pitch).
RATE_RANGE = (80, 450)
PITCH_RANGE = (0, 100)


@dataclass(frozen=True, slots=True)
class Ambience:
    """The night's bed of sound: which one (`aucune`: none), how far under the narration, how much it
    gives way under a spoken line."""

    sound: str = "vent"
    level_lu: float = LEVEL_LU
    duck_db: float = DUCK_DB


@dataclass(frozen=True, slots=True)
class Profile:
    """How the narrator sounds: a TTS voice and, optionally, a folder of recorded lines."""

    engine: str = "pyttsx3"
    voice: str = "roa/fr"
    rate: int = 160
    volume: float = 1.0
    pitch: int = 50
    wait_multiplier: float = 1.0
    pack: Path | None = None  # a recorded voice pack's folder (its lines.yaml says what each file says)
    ambience: Ambience = Ambience()
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


_TEXT = {"type": "string", "pattern": r"\S"}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "engine": {"enum": list(ENGINES)},
        "voice": _TEXT,
        "rate": {"type": "integer", "minimum": RATE_RANGE[0], "maximum": RATE_RANGE[1]},
        "volume": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
        "pitch": {"type": "integer", "minimum": PITCH_RANGE[0], "maximum": PITCH_RANGE[1]},
        "wait_multiplier": {"type": "number", "exclusiveMinimum": 0, "maximum": 10},
        "pack": {"type": ["string", "null"], "pattern": r"\S"},  # ~: no recorded voice
        "ambience": {
            "type": "object",
            "properties": {
                "sound": {"enum": [*SOUNDS, NO_SOUND]},
                "level": {"type": "number", "minimum": LEVEL_RANGE_LU[0], "maximum": LEVEL_RANGE_LU[1]},
                "duck": {"type": "number", "minimum": 0, "maximum": 40},
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}


@lru_cache(maxsize=16)  # a start reads its profile several times (options, renderer, tuner): checked once
def parse_profile(text: str, source: str, base: Path | None = None) -> Profile:
    """Build a profile from YAML text; every problem is reported at once, with file:line:column."""
    try:
        doc = load_marked(text, source)  # the project's one YAML reader: positions, depth and alias limits
    except YamlError as exc:
        raise VoiceError(str(exc)) from None
    if not isinstance(doc.data, dict):  # not a profile at all: say what is wanted, quote nothing of the file
        raise VoiceError(
            str(doc.problem((), "profil de voix : attendu : des réglages « clé: valeur » (engine, voice, rate…)"))
        )
    problems = schema_problems(doc, SCHEMA)
    if problems:
        raise VoiceError("\n".join(str(p) for p in problems))
    values: dict[str, Any] = dict(cast(dict, doc.data))
    if "volume" in values:
        values["volume"] = float(values["volume"])
    if "wait_multiplier" in values:
        values["wait_multiplier"] = float(values["wait_multiplier"])
    if "ambience" in values:
        bed, default = values["ambience"], Ambience()
        values["ambience"] = Ambience(
            bed.get("sound", default.sound),
            float(bed.get("level", default.level_lu)),
            float(bed.get("duck", default.duck_db)),
        )
    if values.get("pack") is not None:
        pack = Path(values["pack"]).expanduser()
        values["pack"] = pack if pack.is_absolute() or base is None else base / pack
    return Profile(**values, source=source)


def load_profile(path: str | Path) -> Profile:
    """Read and validate a voice profile file (a `pack:` folder is relative to the file), or a voice
    pack's folder: its profile.yaml, with the folder's recordings."""
    path = Path(path)
    if path.is_dir():
        inside = path / PROFILE_FILE
        if not inside.is_file():
            raise VoiceError(
                f"{path} : pas de {PROFILE_FILE} : ce n'est pas un dossier de voix "
                f"(« narrator voice record {path} --game JEU » en crée un)"
            )
        return replace(load_profile(inside), pack=path)
    try:
        text = read_bounded(path).decode("utf-8")
    except OSError as exc:
        raise VoiceError(f"{path}: profil de voix illisible : {french_reason(exc)}") from None
    return parse_profile(text, str(path), base=path.parent)


def find_profile(name: str = "fr") -> Profile:
    """Load a shipped profile by name (`fr` → voices/fr.yaml, a pack `NAME` → voices/NAME/), or a
    profile file or a pack folder by path."""
    if name.endswith((".yaml", ".yml")) or "/" in name:
        return load_profile(name)
    folder = data_dir("voices")
    for path in (folder / f"{name}.yaml", folder / name / PROFILE_FILE):
        if path.is_file():
            return load_profile(path.parent if path.name == PROFILE_FILE else path)
    if Path(name).is_dir():  # a pack folder in the current directory
        return load_profile(name)
    shipped = sorted(p.stem for p in folder.glob("*.yaml")) + sorted(
        p.parent.name for p in folder.glob(f"*/{PROFILE_FILE}")
    )
    raise VoiceError(f"profil de voix {name!r} introuvable ; profils fournis : {', '.join(shipped) or 'aucun'}")
