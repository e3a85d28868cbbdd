"""Text to speech: pyttsx3 (espeak-ng) renders each line to a WAV file in a disk cache.

A cache that cannot be written (read-only, full disk, a file where the folder should be) never
silences the narrator: lines are synthesized in a temporary folder instead, with one warning.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import hashlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from narrator.resources import french_reason, user_folder

from .errors import VoiceError
from .loudness import kept_loudness
from .pcm import SAMPLE_RATE, rms, sound_span
from .profile import Profile
from .wavfile import read_wav

CACHE_VERSION = 1  # bump when the rendering changes, so old cached WAVs are not reused
SILENCE_RMS = 30.0  # a missing mbrola voice writes exact zeros; real speech is in the thousands

# pyttsx3 keeps one espeak instance per process (espeak cannot be initialised twice), so the
# engine, its error list and the properties last sent to it are process-wide, behind a lock.
_lock = threading.Lock()
_engine: Any = None
_errors: list[BaseException] = []
_finished = threading.Event()
_outcomes: list[bool] = []  # `completed` of each finished utterance
_applied: dict[str, Any] | None = None


def cache_dir() -> Path:
    """Where rendered lines are kept: $NARRATOR_CACHE_DIR, else the user's cache folder."""
    if os.environ.get("NARRATOR_CACHE_DIR"):
        return Path(os.environ["NARRATOR_CACHE_DIR"]) / "tts"
    return user_folder("XDG_CACHE_HOME", ".cache") / "narrator" / "tts"


class Tts:
    """Synthesizes lines with one profile's voice, each at most once thanks to the cache."""

    def __init__(self, profile: Profile, cache: str | Path | None = None, notice: TextIO | None = None) -> None:
        if profile.engine != "pyttsx3":
            raise VoiceError(f"{profile.source}: moteur de synthèse {profile.engine!r} non pris en charge")
        self.profile = profile
        self.cache = Path(cache) if cache is not None else cache_dir()
        self.notice = notice  # where the one warning about an unusable cache goes (stderr by default)
        self.synthesized = 0  # cache misses: lines actually sent to the engine

    def path_for(self, text: str) -> Path:
        """The cache file of `text` spoken with this profile."""
        key = json.dumps(
            {"v": CACHE_VERSION, "text": text, **self.profile.tts_key()}, sort_keys=True, ensure_ascii=False
        )
        return self.cache / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}.wav"

    def render(self, text: str) -> np.ndarray:
        """The line as int16 mono PCM at 22050 Hz, from the cache or synthesized and checked."""
        path = self.path_for(text)
        fallback = _fallbacks.get(self.cache)
        for cached in (path, fallback / path.name) if fallback else (path,):
            pcm = _read_cached(cached)
            if pcm is not None:
                return pcm
        folder = self._folder(text)
        temporary = folder / f".{path.stem}.{os.getpid()}.{threading.get_ident()}.wav"
        try:
            errors = self._synthesize(text, temporary)
            pcm = self._check(text, temporary, errors)
            with contextlib.suppress(OSError):  # the disk filled up since _folder: spoken, just not kept
                os.replace(temporary, folder / path.name)  # atomic: a cached file is always a checked one
        finally:
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)
        self.synthesized += 1
        return pcm

    def _folder(self, text: str) -> Path:
        """Where `text` is synthesized: the cache, or — once it cannot take a line — a temporary folder, said once.

        espeak writes the WAV from a callback that cannot report a failed write (the line would
        just never finish), so the room for the line is checked before it is synthesized.
        """
        size = _wav_bytes(text, self.profile.rate)
        with _fallback_lock:
            fallback = _fallbacks.get(self.cache)
            if fallback is None:
                try:
                    _make_room(self.cache, size)
                    return self.cache
                except OSError as exc:
                    problem = exc
                fallback = _fallbacks[self.cache] = _temporary_folder(self.cache, problem)
                warning = (
                    f"Attention : le cache de la voix {self.cache} est inutilisable ({_reason(problem)}) ; "
                    f"les répliques sont synthétisées dans {fallback}, sans être gardées pour la prochaine partie."
                )
                print(warning, file=self.notice if self.notice is not None else sys.stderr)
        try:
            _make_room(fallback, size)
        except OSError as exc:
            raise VoiceError(
                f"impossible de synthétiser « {text} » : ni le cache {self.cache} ni le dossier temporaire "
                f"{fallback} ne peuvent recevoir la réplique ({_reason(exc)})"
            ) from None
        return fallback

    def loudness(self, pcm: np.ndarray) -> float | None:
        """The loudness of a line's clip, kept in the cache: a warm cache never loads the meter."""
        return kept_loudness(pcm, SAMPLE_RATE, self.cache / "loudness")

    def render_all(self, texts: Iterable[str]) -> list[np.ndarray]:
        """Render every text (before the night starts, so the table never waits for synthesis)."""
        done: dict[str, np.ndarray] = {}
        return [done[t] if t in done else done.setdefault(t, self.render(t)) for t in texts]

    def _synthesize(self, text: str, path: Path) -> list[BaseException]:
        global _applied
        profile = self.profile
        wanted = {"voice": profile.voice, "rate": profile.rate, "volume": profile.volume, "pitch": profile.pitch}
        with _lock, contextlib.redirect_stdout(io.StringIO()):  # pyttsx3 prints "Audio saved to …"
            engine = _start_engine()
            for _attempt in range(3):
                errors = _apply(engine, wanted)
                if errors:
                    return errors
                finished = _run(engine, text, path)
                if finished and _outcomes[0]:
                    return []  # the WAV is complete (a cancel reported after it is harmless)
                _applied = None
                if not finished:
                    break
                # A stale stop flag in pyttsx3 cancelled the line; iterate() has cleared it, so
                # one more try is clean.
        if not finished:
            raise VoiceError(
                f"{profile.source}: la synthèse de « {text} » ne s'est pas terminée (voix {profile.voice!r})"
            )
        raise VoiceError(f"{profile.source}: la synthèse de « {text} » a été interrompue (voix {profile.voice!r})")

    def _check(self, text: str, path: Path, errors: list[BaseException]) -> np.ndarray:
        voice, source = self.profile.voice, self.profile.source
        if errors:
            # pyttsx3 swallows a failed setProperty('voice') and speaks with the previous voice
            # (English by default): only its error event tells us.
            raise VoiceError(
                f"{source}: la voix {voice!r} est introuvable ou inutilisable dans espeak-ng ({errors[0]}) ; "
                f"voix françaises disponibles : {', '.join(french_voices()) or 'aucune'}"
            )
        if not path.is_file() or path.stat().st_size <= 44:
            raise VoiceError(f"{source}: la synthèse n'a écrit aucun son pour « {text} » (voix {voice!r})")
        pcm, rate = read_wav(path)
        if rate != SAMPLE_RATE:
            raise VoiceError(f"{source}: la synthèse a écrit du {rate} Hz au lieu de {SAMPLE_RATE} Hz pour « {text} »")
        span = sound_span(pcm)
        if span is None or rms(pcm) < SILENCE_RMS:
            raise VoiceError(
                f"{source}: la voix {voice!r} a produit un son muet pour « {text} » (voix mbrola absente ?)"
            )
        spoken = (span[1] - span[0]) / rate
        low, high = _plausible_seconds(text, self.profile.rate)
        if not low <= spoken <= high:
            raise VoiceError(
                f"{source}: « {text} » dure {spoken:.2f} s avec la voix {voice!r}, "
                f"attendu entre {low:.2f} et {high:.2f} s : synthèse défectueuse"
            )
        return pcm


# Unusable cache folder -> the temporary folder this process synthesizes into instead.
_fallbacks: dict[Path, Path] = {}
_fallback_lock = threading.Lock()
_REASONS = {
    errno.ENOSPC: "disque plein",
    errno.EDQUOT: "quota disque dépassé",
    errno.EFBIG: "fichier trop gros pour ce disque",
    errno.EROFS: "disque en lecture seule",
    errno.EACCES: "écriture refusée",
    errno.EPERM: "écriture refusée",
    errno.ENOTDIR: "un fichier se trouve là où un dossier est attendu",
    errno.EEXIST: "un fichier se trouve là où un dossier est attendu",
}


def _reason(exc: OSError) -> str:
    return _REASONS.get(exc.errno or 0) or french_reason(exc)


def _read_cached(path: Path) -> np.ndarray | None:
    """A cached line, or None if it is missing or unreadable (a cache miss, never an error)."""
    try:
        if path.is_file():
            pcm, rate = read_wav(path)
            if rate == SAMPLE_RATE and pcm.size:
                return pcm
    except (OSError, VoiceError):
        pass
    return None


def _wav_bytes(text: str, rate_wpm: int) -> int:
    """The most bytes the WAV of `text` can take (the longest plausible duration)."""
    return 44 + int(_plausible_seconds(text, rate_wpm)[1] * SAMPLE_RATE) * 2


def _make_room(folder: Path, size: int) -> None:
    """Raise OSError unless `folder` can take a new file of `size` bytes: created, written, removed."""
    folder.mkdir(parents=True, exist_ok=True)
    probe = folder / f".place-{os.getpid()}"
    try:
        with open(probe, "wb") as out:
            out.write(bytes(size))
    finally:
        with contextlib.suppress(OSError):
            probe.unlink(missing_ok=True)


def _temporary_folder(cache: Path, problem: OSError) -> Path:
    try:
        folder = Path(tempfile.mkdtemp(prefix="narrator-voix-"))
    except OSError as exc:
        raise VoiceError(
            f"le cache de la voix {cache} est inutilisable ({_reason(problem)}) "
            f"et aucun dossier temporaire ne peut être créé ({_reason(exc)})"
        ) from None
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def french_voices() -> list[str]:
    """Identifiers of the French voices espeak-ng offers here."""
    with _lock:
        engine = _start_engine()
        voices = engine.getProperty("voices")
    return sorted(v.id for v in voices if re.search(r"(^|/)fr($|-)", v.id))


def _plausible_seconds(text: str, rate_wpm: int) -> tuple[float, float]:
    # About 6 characters per word (space included) in French; numbers are read out in words,
    # so each digit may take as long as a whole word.
    chars = len(re.sub(r"\s+", " ", text.strip()))
    digits = sum(c.isdigit() for c in text)
    expected = chars * 60 / (rate_wpm * 6)
    return 0.25 * expected, 4 * expected + 1.0 + digits * 60 / rate_wpm * 2


def _timeout_s(text: str) -> float:
    # espeak renders far faster than real time (about 1/20 here); this only catches a hang.
    return 10.0 + len(text) * 0.01


def _apply(engine: Any, wanted: dict[str, Any]) -> list[BaseException]:
    global _applied
    if wanted == _applied:
        return []
    _applied = None
    _errors.clear()
    for name, value in wanted.items():
        engine.setProperty(name, value)  # applied at once: the engine is warmed up
    if _errors:
        return list(_errors)
    # espeak queues parameter changes for its own thread; runAndWait() would cancel them (and
    # then the line) if it found espeak still busy with them.
    if not _wait_idle():
        raise VoiceError("espeak-ng ne répond plus")
    _applied = wanted
    return []


def _run(engine: Any, text: str, path: Path) -> bool:
    # One save_to_file per runAndWait: with two, pyttsx3 writes only the last file.
    engine.save_to_file(text, str(path))
    _finished.clear()
    _outcomes.clear()
    engine.runAndWait()
    # pyttsx3 starts espeak in its asynchronous mode: the WAV is written (and "Audio saved to"
    # printed) from espeak's thread, and the first runAndWait() returns before that. Wait for
    # the end-of-utterance event, then for espeak to be idle before the next line.
    return _finished.wait(_timeout_s(text)) and _wait_idle()


def _wait_idle(timeout_s: float = 5.0) -> bool:
    # The end-of-utterance event comes from inside espeak's callback, before espeak is idle.
    # If the next runAndWait() starts then, pyttsx3's endLoop sees espeak "playing", sets a
    # stop flag and cancels the *next* line (reported as an interrupted utterance).
    from pyttsx3.drivers import _espeak

    deadline = time.monotonic() + timeout_s
    while _espeak.IsPlaying():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def _on_finished(completed: bool = True, **_: Any) -> None:
    _outcomes.append(completed)
    _finished.set()


def _start_engine() -> Any:
    global _engine
    if _engine is None:
        try:
            import pyttsx3

            engine = pyttsx3.init("espeak")
            # A first, empty runAndWait() takes pyttsx3 out of its start-up state, in which
            # setProperty() is deferred to the next run (and its errors reported only then).
            # Wait for the driver's own start-up settings first: if runAndWait() finds espeak
            # busy, it leaves a stop flag that cancels a later line.
            _wait_idle()
            engine.runAndWait()
            _wait_idle()
        except Exception as exc:  # ImportError, OSError (no libespeak-ng), RuntimeError from espeak
            raise VoiceError(
                f"synthèse vocale indisponible ({exc}) : installez espeak-ng (apt-get install espeak-ng) et pyttsx3"
            ) from None
        engine.connect("error", lambda exception=None, **_: _errors.append(exception))
        engine.connect("finished-utterance", _on_finished)
        _engine = engine
        atexit.register(_drop_engine)
    return _engine


def _drop_engine() -> None:
    # pyttsx3's DriverProxy.__del__ fails noisily ("Exception ignored …") when it runs during
    # interpreter shutdown; release the engine while the modules it needs are still there.
    global _engine
    _engine = None
