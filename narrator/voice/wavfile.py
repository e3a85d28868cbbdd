"""WAV files: read and write int16 mono PCM (stdlib `wave`), and a Speaker that writes one."""

from __future__ import annotations

import errno
import struct
import wave
from pathlib import Path
from typing import BinaryIO

import numpy as np

from narrator.resources import french_reason, open_regular, open_to_write

from .bed import Bed
from .errors import VoiceError
from .pcm import SAMPLE_RATE
from .timeline import Rendered, Segment


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """Samples (int16, mono: channels are averaged) and sample rate of a 16-bit PCM WAV file."""
    try:
        with open_regular(path) as file, wave.open(file, "rb") as wav:  # a named pipe is refused, not awaited
            width, channels, rate = wav.getsampwidth(), wav.getnchannels(), wav.getframerate()
            frames = wav.readframes(wav.getnframes())
    except OSError as exc:
        raise VoiceError(f"{path}: fichier WAV illisible ({french_reason(exc)})") from None
    except (EOFError, wave.Error):
        raise VoiceError(f"{path}: fichier WAV illisible (en-tête WAV incorrect ou fichier coupé)") from None
    if width != 2:
        raise VoiceError(f"{path}: WAV en {8 * width} bits ; seul le PCM 16 bits est lu")
    pcm = np.frombuffer(frames, dtype="<i2")
    if channels > 1:
        pcm = pcm[: len(pcm) // channels * channels].reshape(-1, channels).mean(axis=1)
        pcm = np.round(pcm).astype(np.int16)
    return pcm.astype(np.int16, copy=False), rate


def write_wav(path: str | Path, pcm: np.ndarray, rate: int) -> None:
    """Write int16 mono samples as a WAV file."""
    # the file opened first: a Wave_write built on a path it cannot open fails again in its __del__
    with open_to_write(path) as file, wave.open(file, "wb") as wav:  # a named pipe is refused, not awaited
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(np.ascontiguousarray(pcm, dtype="<i2").tobytes())


class WavSpeaker:
    """A Speaker that appends everything it plays to one WAV file (no sound card needed).

    With `append`, a narration WAV already there is continued (`narrator resume`): the new audio
    goes after the old, and the segments count from the file's start. The header is rewritten
    after every write, so a game killed mid-night leaves a file every player reads. With a `bed`, the
    night's ambience is mixed under every buffer (a file has no silence between buffers to fill).
    """

    def __init__(self, path: str | Path, rate: int = SAMPLE_RATE, append: bool = False, bed: Bed | None = None) -> None:
        self.path = Path(path)
        self.rate = rate
        self._bed = bed.track() if bed is not None else None
        self.segments: list[Segment] = []  # every line played, in seconds from the file's start
        self._file: BinaryIO | None = None
        if append and self.path.exists() and self.path.stat().st_size > 0:
            self._file, self._size_at, self._data_at, self._frames = _continued(self.path, rate)
        else:
            self._file = open_to_write(self.path)  # closed by close(); a named pipe is refused, not awaited
            self._file.write(_header(rate))
            self._size_at, self._data_at, self._frames = 4, _HEADER_SIZE, 0
            self._file.flush()

    def play(self, rendered: Rendered) -> None:
        """Append the rendered audio to the file."""
        if self._file is None:
            raise ValueError(f"{self.path}: fichier déjà fermé")
        if rendered.rate != self.rate:
            raise ValueError(f"taux d'échantillonnage {rendered.rate} Hz ≠ {self.rate} Hz du fichier")
        if self._bed is not None:
            rendered = self._bed.mix(rendered)
        offset = self._frames / self.rate
        self.segments.extend(s.shifted(offset) for s in rendered.segments)
        self._file.seek(self._data_at + 2 * self._frames)
        self._file.write(np.ascontiguousarray(rendered.pcm, dtype="<i2").tobytes())
        self._frames += len(rendered.pcm)
        data = 2 * self._frames
        self._file.seek(self._size_at)
        self._file.write(struct.pack("<I", self._data_at - 8 + data))
        self._file.seek(self._data_at - 4)
        self._file.write(struct.pack("<I", data))
        self._file.flush()

    def close(self) -> None:
        """Finish the file (its header already holds the final length)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> WavSpeaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_HEADER_SIZE = 44  # RIFF, fmt and data headers of a plain PCM file


def _header(rate: int) -> bytes:
    """The header of an empty 16-bit mono PCM WAV file."""
    fmt = struct.pack("<HHIIHH", 1, 1, rate, 2 * rate, 2, 16)
    return b"RIFF" + struct.pack("<I", 36) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt + b"data" + b"\0" * 4


def _continued(path: Path, rate: int) -> tuple[BinaryIO, int, int, int]:
    """The file opened to write after its audio: (file, where the RIFF size is, where data starts, frames).

    Only a file this program could have written is continued: 16-bit mono PCM at `rate`, its audio
    last. Anything else is refused (OSError with a French reason) rather than overwritten.
    """
    file = open_to_write(path, keep=True)  # the speaker closes it
    try:
        riff = file.read(12)
        if riff[:4] != b"RIFF" or riff[8:12] != b"WAVE":
            raise _not_ours(path, "ce n'est pas un fichier WAV")
        fmt: tuple = ()
        while True:
            head = file.read(8)
            if len(head) < 8:
                raise _not_ours(path, "fichier WAV sans données audio")
            kind, size = head[:4], struct.unpack("<I", head[4:])[0]
            if kind == b"fmt ":
                fmt = struct.unpack("<HHIIHH", file.read(16))
                file.seek(size - 16, 1)
            elif kind == b"data":
                break
            else:
                file.seek(size + size % 2, 1)
        if fmt[:3] != (1, 1, rate) or fmt[5:] != (16,):
            raise _not_ours(path, f"le WAV n'est pas en PCM 16 bits mono à {rate} Hz")
        data_at = file.tell()
        end = file.seek(0, 2)
        # every sample after the data header counts, even those a killed game wrote after its
        # header's last update (this program writes its audio last)
        return file, 4, data_at, (end - data_at) // 2
    except BaseException:
        file.close()
        raise


def _not_ours(path: Path, why: str) -> OSError:
    error = OSError(errno.EINVAL, f"{why} ; pour continuer la narration, il faut celui de la partie")
    error.filename = str(path)
    return error
