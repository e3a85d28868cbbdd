"""WAV files: read and write int16 mono PCM (stdlib `wave`), and a Speaker that writes one."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

from .errors import VoiceError
from .pcm import SAMPLE_RATE
from .timeline import Rendered, Segment


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """Samples (int16, mono: channels are averaged) and sample rate of a 16-bit PCM WAV file."""
    try:
        with wave.open(str(path), "rb") as wav:
            width, channels, rate = wav.getsampwidth(), wav.getnchannels(), wav.getframerate()
            frames = wav.readframes(wav.getnframes())
    except (OSError, EOFError, wave.Error) as exc:
        raise VoiceError(f"{path}: fichier WAV illisible ({exc})") from None
    if width != 2:
        raise VoiceError(f"{path}: WAV en {8 * width} bits ; seul le PCM 16 bits est lu")
    pcm = np.frombuffer(frames, dtype="<i2")
    if channels > 1:
        pcm = pcm[: len(pcm) // channels * channels].reshape(-1, channels).mean(axis=1)
        pcm = np.round(pcm).astype(np.int16)
    return pcm.astype(np.int16, copy=False), rate


def write_wav(path: str | Path, pcm: np.ndarray, rate: int) -> None:
    """Write int16 mono samples as a WAV file."""
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(np.ascontiguousarray(pcm, dtype="<i2").tobytes())


class WavSpeaker:
    """A Speaker that appends everything it plays to one WAV file (no sound card needed)."""

    def __init__(self, path: str | Path, rate: int = SAMPLE_RATE) -> None:
        self.path = Path(path)
        self.rate = rate
        self.segments: list[Segment] = []  # every line played, in seconds from the file's start
        # the file opened here, not by `wave`: a failed open leaves no half-made writer behind
        self._file = open(self.path, "wb")  # noqa: SIM115 (closed by `close`)
        self._wav: wave.Wave_write | None = wave.open(self._file, "wb")
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(rate)
        self._frames = 0

    def play(self, rendered: Rendered) -> None:
        """Append the rendered audio to the file."""
        if self._wav is None:
            raise ValueError(f"{self.path}: fichier déjà fermé")
        if rendered.rate != self.rate:
            raise ValueError(f"taux d'échantillonnage {rendered.rate} Hz ≠ {self.rate} Hz du fichier")
        offset = self._frames / self.rate
        self.segments.extend(s.shifted(offset) for s in rendered.segments)
        try:
            self._wav.writeframes(np.ascontiguousarray(rendered.pcm, dtype="<i2").tobytes())
        except OSError as exc:
            raise VoiceError(f"{self.path} : écriture impossible ({exc.strerror or exc})") from None
        self._frames += len(rendered.pcm)

    def close(self) -> None:
        """Finish the file (its header holds the final length)."""
        wav, self._wav = self._wav, None
        if wav is None:
            return
        try:
            try:
                wav.close()  # (`wave` forgets its file even when this fails: nothing left for `__del__`)
            finally:
                self._file.close()
        except OSError as exc:
            raise VoiceError(f"{self.path} : écriture impossible ({exc.strerror or exc})") from None

    def __enter__(self) -> WavSpeaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
