"""PCM helpers: int16 mono arrays, trimming to a fixed margin, loudness."""

from __future__ import annotations

import numpy as np

SAMPLE_RATE = 22050  # pyttsx3's espeak driver always writes 22050 Hz mono s16
MARGIN_S = 0.03  # silence kept before and after every clip, so clip edges are predictable

# A sample counts as sound above this: espeak's silences are exact zeros, recordings have a
# noise floor, so the threshold follows the clip's peak (-34 dB) with an absolute floor.
_FLOOR = 64
_RELATIVE = 0.02


def rms(pcm: np.ndarray) -> float:
    """Root mean square of int16 samples (0 for an empty array)."""
    if pcm.size == 0:
        return 0.0
    return float(np.sqrt(np.mean(np.square(pcm, dtype=np.float64))))


def sound_span(pcm: np.ndarray) -> tuple[int, int] | None:
    """First and one-past-last sample index of sound, or None if the clip is silent."""
    if pcm.size == 0:
        return None
    magnitude = np.abs(pcm.astype(np.int32))
    threshold = max(_FLOOR, int(magnitude.max() * _RELATIVE))
    loud = np.flatnonzero(magnitude > threshold)
    if loud.size == 0:
        return None
    return int(loud[0]), int(loud[-1]) + 1


def trim(pcm: np.ndarray, rate: int = SAMPLE_RATE, margin_s: float = MARGIN_S) -> np.ndarray:
    """Cut leading and trailing silence down to exactly `margin_s` each side (padding if short)."""
    span = sound_span(pcm)
    if span is None:
        raise ValueError("clip silencieux")
    margin = round(margin_s * rate)
    start, end = span
    body = pcm[max(0, start - margin) : end + margin]
    before = margin - (start - max(0, start - margin))
    after = margin - (min(len(pcm), end + margin) - end)
    if before or after:
        body = np.concatenate([np.zeros(before, np.int16), body, np.zeros(after, np.int16)])
    return np.ascontiguousarray(body, dtype=np.int16)
