"""A recorded voice pack: a folder holding a voice profile, a manifest of what was recorded, the recordings.

    PACK/profile.yaml   the voice profile: TTS settings for the lines not recorded, the ambience…
    PACK/lines.yaml     the manifest: for each line id the exact text recorded, its file, its loudness
    PACK/lines/ID.wav   22050 Hz mono s16, trimmed and levelled when recorded

A recording is played only for a line whose text is exactly the text recorded: a line with a name
or a number in it, or a line whose script changed since (a stale recording), is said by TTS.
Every write goes to a temporary file renamed over the old one, so a crash leaves the pack as it was
before the line being written (docs/voice-packs.md).
"""

from __future__ import annotations

import io
import os
import tempfile
import wave
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, cast

import numpy as np
import yaml

from narrator.resources import french_reason, read_bounded
from narrator.script.line import Line
from narrator.script.marks import YamlError, load_marked
from narrator.script.schema import schema_problems

from .errors import VoiceError
from .pcm import SAMPLE_RATE, trim
from .wavfile import read_wav

FORMAT = 1  # the manifest's version: a later program reads older manifests, refuses newer ones
PROFILE_FILE = "profile.yaml"
MANIFEST_FILE = "lines.yaml"
LINES_DIR = "lines"

_TEXT = {"type": "string", "pattern": r"\S"}
_NUMBER_OR_NULL = {"type": ["number", "null"]}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "format": {"type": "integer", "minimum": 1, "maximum": FORMAT},
        "game": _TEXT,
        "rate": {"const": SAMPLE_RATE},
        "lines": {
            "type": "object",
            "propertyNames": {"pattern": r"^[A-Za-z0-9_]+$"},
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "text": _TEXT,
                    "file": {"type": "string", "pattern": r"^lines/[A-Za-z0-9_]+\.wav$"},
                    "lufs": _NUMBER_OR_NULL,  # None: too short to measure
                    "gain_db": {"type": "number"},
                    "recorded": _TEXT,
                },
                "required": ["text", "file", "gain_db", "recorded"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["format", "lines"],
    "additionalProperties": False,
}


@dataclass(frozen=True, slots=True)
class Recorded:
    """One recorded line: the text said, its file (relative to the pack), its loudness once levelled,
    the gain the levelling applied, and when it was recorded (ISO 8601, UTC)."""

    text: str
    file: str
    lufs: float | None
    gain_db: float
    recorded: str


@dataclass
class Pack:
    """A pack folder and its manifest (`lines`: line id -> what was recorded)."""

    folder: Path
    game: str | None = None
    lines: dict[str, Recorded] = field(default_factory=dict)

    def recording(self, line_id: str, text: str) -> Path | None:
        """The file to play for this line: only when its text is exactly the one recorded."""
        kept = self.lines.get(line_id)
        if kept is None or kept.text != text:
            return None
        path = self.folder / kept.file
        return path if path.is_file() else None

    def measured_gains(self) -> list[float]:
        """The gains of the lines measured when recorded: a line too short to measure takes their median,
        in a resumed recording as in the first."""
        return [line.gain_db for line in self.lines.values() if line.lufs is not None]


@dataclass(frozen=True, slots=True)
class Check:
    """A pack against a game's fixed lines."""

    missing: tuple[Line, ...]
    stale: tuple[tuple[Line, str], ...]  # the script's line now, and the text that was recorded
    unused: tuple[str, ...]  # ids recorded that the game no longer says
    bad: tuple[tuple[Line, str], ...] = ()  # recordings of the current text that cannot be played, and why

    @property
    def complete(self) -> bool:
        return not (self.missing or self.stale or self.bad)


def check(pack: Pack, lines: Iterable[Line]) -> Check:
    """Which of `lines` are not recorded, which were recorded with another text, which recordings are unused."""
    wanted = list(lines)
    missing = tuple(
        line for line in wanted if line.id not in pack.lines or not (pack.folder / _file(line.id)).is_file()
    )
    stale = tuple(
        (line, pack.lines[line.id].text)
        for line in wanted
        if line.id in pack.lines and pack.lines[line.id].text != line.text and line not in missing
    )
    ids = {line.id for line in wanted}
    unused = tuple(sorted(i for i in pack.lines if i not in ids))
    return Check(missing, stale, unused, tuple(_unplayable(pack, wanted, missing)))


def _unplayable(pack: Pack, lines: list[Line], missing: tuple[Line, ...]) -> Iterator[tuple[Line, str]]:
    """Each line whose recording is there but cannot be played (corrupt, cut, silent, another format)."""
    for line in lines:
        path = pack.recording(line.id, line.text)
        if path is None or line in missing:
            continue
        try:
            read_recording(path)
        except VoiceError as exc:
            yield line, str(exc)


def read_recording(path: Path) -> np.ndarray:
    """A recording's samples, trimmed; `VoiceError` saying in French what is wrong with the file."""
    pcm, rate = read_wav(path)
    if rate != SAMPLE_RATE:
        raise VoiceError(
            f"{path}: enregistré à {rate} Hz ; la voix enregistrée doit être en {SAMPLE_RATE} Hz "
            f"(par exemple : ffmpeg -i {path.name} -ar {SAMPLE_RATE} -ac 1 -sample_fmt s16 nouveau.wav)"
        )
    try:
        return trim(pcm, rate)
    except ValueError:
        raise VoiceError(f"{path}: enregistrement muet ou vide") from None


def is_pack(folder: Path) -> bool:
    """A pack folder: it has a profile or a manifest."""
    return (folder / PROFILE_FILE).is_file() or (folder / MANIFEST_FILE).is_file()


def load_pack(folder: str | Path) -> Pack:
    """Read a pack's manifest (none yet: an empty pack); `VoiceError` in French, at file:line."""
    folder = Path(folder)
    if not folder.is_dir():
        raise VoiceError(f"{folder} : dossier de voix enregistrée introuvable")
    path = folder / MANIFEST_FILE
    if not path.is_file():
        if not is_pack(folder) and any(folder.glob("*.wav")):
            raise VoiceError(
                f"{folder} : un dossier de WAV sans lines.yaml n'est plus lu (rien n'y dit quel texte chaque "
                "fichier enregistre : une réplique changée depuis serait jouée telle quelle) ; "
                f"enregistrez la voix avec « narrator voice record {folder} --game JEU »"
            )
        return Pack(folder)
    try:
        text = read_bounded(path).decode("utf-8")
    except OSError as exc:
        raise VoiceError(f"{path} : illisible ({french_reason(exc)})") from None
    except UnicodeDecodeError:
        raise VoiceError(f"{path} : ce n'est pas du texte UTF-8") from None
    try:
        doc = load_marked(text, str(path))
    except YamlError as exc:
        raise VoiceError(str(exc)) from None
    if not isinstance(doc.data, dict):
        raise VoiceError(
            str(doc.problem((), "manifeste de voix : attendu : des champs « clé: valeur » (format, game, lines)"))
        )
    problems = schema_problems(doc, SCHEMA)
    if problems:
        raise VoiceError("\n".join(str(p) for p in problems))
    data = cast(dict, doc.data)
    lines = {
        line_id: Recorded(
            str(entry["text"]),
            str(entry["file"]),
            None if entry.get("lufs") is None else float(entry["lufs"]),
            float(entry["gain_db"]),
            str(entry["recorded"]),
        )
        for line_id, entry in (data["lines"] or {}).items()
    }
    return Pack(folder, data.get("game"), lines)


def save_line(pack: Pack, line: Line, pcm: np.ndarray, lufs: float | None, gain_db: float, when: str) -> None:
    """Write one recorded line, then the manifest that names it; each file replaced whole (a crash
    leaves the old file or the new one, never half of one)."""
    name = _file(line.id)
    (pack.folder / LINES_DIR).mkdir(parents=True, exist_ok=True)
    with _replacing(pack.folder / name) as out:
        out.write(wav_bytes(pcm))
    rounded = None if lufs is None else round(lufs, 2)
    pack.lines[line.id] = Recorded(line.text, name, rounded, round(gain_db, 2), when)
    save_manifest(pack)


def save_manifest(pack: Pack) -> None:
    """Write lines.yaml (atomically), the lines in id order."""
    data = {
        "format": FORMAT,
        **({"game": pack.game} if pack.game else {}),
        "rate": SAMPLE_RATE,
        "lines": {
            line_id: {
                "text": kept.text,
                "file": kept.file,
                "lufs": kept.lufs,
                "gain_db": kept.gain_db,
                "recorded": kept.recorded,
            }
            for line_id, kept in sorted(pack.lines.items())
        },
    }
    heading = "# Voix enregistrée : ce que chaque fichier de lines/ dit (écrit par « narrator voice record »).\n"
    text = heading + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
    with _replacing(pack.folder / MANIFEST_FILE) as out:
        out.write(text.encode("utf-8"))


def wav_bytes(pcm: np.ndarray) -> bytes:
    """A whole WAV file (22050 Hz mono s16) in memory."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(SAMPLE_RATE)
        wav.writeframes(np.ascontiguousarray(pcm, dtype="<i2").tobytes())
    return buffer.getvalue()


def _file(line_id: str) -> str:
    return f"{LINES_DIR}/{line_id}.wav"


@contextmanager
def _replacing(path: Path) -> Iterator[IO[bytes]]:
    """A temporary file beside `path`, flushed to disk and renamed over it when the block ends well."""
    handle = tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False)
    try:
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise
