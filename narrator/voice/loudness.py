"""One programme loudness for every line, recorded or synthesized (ITU-R BS.1770, measured by pyloudnorm).

A line is brought to `TARGET_LUFS`; a line too short to measure (BS.1770 gates 400 ms blocks) takes
the gain its source usually needs: the median of the gains measured so far (a pack keeps its own).
Peaks are never clipped: a line that would clip is lowered instead, and says by how much.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import statistics
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

TARGET_LUFS = -23.0  # EBU R 128's programme level: espeak-ng says about -22 LUFS, recordings vary more
PEAK = 0.944  # -0.5 dBFS: the loudest sample a levelled line may reach
MIN_MEASURABLE_S = 0.4  # one BS.1770 gating block


@lru_cache(maxsize=4)
def _meter(rate: int) -> Any:
    import pyloudnorm  # scipy underneath: imported when the first line is levelled, not at start-up

    return pyloudnorm.Meter(rate)


def loudness(pcm: np.ndarray, rate: int) -> float | None:
    """The integrated loudness of int16 mono samples in LUFS; None when too short or silent to measure."""
    if len(pcm) < MIN_MEASURABLE_S * rate:
        return None
    value = float(_meter(rate).integrated_loudness(pcm.astype(np.float64) / 32768.0))
    return value if math.isfinite(value) else None


def kept_loudness(pcm: np.ndarray, rate: int, folder: Path) -> float | None:
    """`loudness`, measured once per content and kept in `folder`: a process whose lines were all
    measured before never loads the meter (scipy: a second or two of every game's start-up)."""
    digest = hashlib.sha256(np.ascontiguousarray(pcm, dtype="<i2").tobytes() + str(rate).encode()).hexdigest()
    kept = folder / f"{digest[:32]}.lufs"
    with contextlib.suppress(OSError, ValueError):
        said = kept.read_text(encoding="ascii").strip()
        return None if said == "-" else float(said)
    value = loudness(pcm, rate)
    with contextlib.suppress(OSError):  # a folder that cannot take it: measured again next time
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f".{kept.name}.{os.getpid()}.{threading.get_ident()}"
        temporary.write_text("-" if value is None else repr(value), encoding="ascii")
        os.replace(temporary, kept)
    return value


def scale(pcm: np.ndarray, gain_db: float) -> np.ndarray:
    """The samples `gain_db` louder, as int16 (the caller has checked the peak)."""
    out = np.rint(pcm.astype(np.float64) * 10 ** (gain_db / 20))
    return np.clip(out, -32768, 32767).astype(np.int16)


def peak_gain_db(pcm: np.ndarray) -> float:
    """The largest gain that keeps every sample under `PEAK` (inf for silence)."""
    top = int(np.abs(pcm.astype(np.int32)).max()) if pcm.size else 0
    return math.inf if top == 0 else 20 * math.log10(PEAK * 32767 / top)


class Unmeasured:
    """A line's loudness not known yet (None is known: too short to measure)."""


UNMEASURED = Unmeasured()


@dataclass
class Leveller:
    """Brings lines to one loudness; `offset_db` moves the target (« plus fort »: the profile's volume)."""

    rate: int
    target_lufs: float = TARGET_LUFS
    fallback_db: float = 0.0  # the gain of a line too short to measure, until some were measured
    measured: list[float] = field(default_factory=list)  # the gains measured so far

    def gain_db(self, pcm: np.ndarray) -> float:
        """The gain that brings this line to the target (a short line: its source's usual gain)."""
        return self.gain_for(loudness(pcm, self.rate))

    def gain_for(self, lufs: float | None) -> float:
        """The gain that brings a line of this loudness to the target (None, too short: the usual gain)."""
        if lufs is None:
            return statistics.median(self.measured) if self.measured else self.fallback_db
        gain = self.target_lufs - lufs
        self.measured.append(gain)
        return gain

    def level(
        self, pcm: np.ndarray, offset_db: float = 0.0, lufs: float | None | Unmeasured = UNMEASURED
    ) -> np.ndarray:
        """The line at the target loudness (plus `offset_db`), lowered if it would clip; `lufs`: its
        loudness if already known (a cached line), so that the meter is not loaded for it."""
        gain = self.gain_db(pcm) if isinstance(lufs, Unmeasured) else self.gain_for(lufs)
        return scale(pcm, min(gain + offset_db, peak_gain_db(pcm)))


def volume_db(volume: float) -> float:
    """A profile's volume (0–1] as a gain in dB: 1.0 is the target loudness itself."""
    return 20 * math.log10(volume)
