"""The night's ambience, generated (no recording from anyone): a loop of filtered noise whose spectrum
covers 1–4 kHz, where a card slid on a table is heard, brought to the narration's loudness; the `Bed`
plays it under the narration at the profile's level."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .bed import Bed
from .loudness import TARGET_LUFS, loudness
from .pcm import SAMPLE_RATE
from .profile import Ambience

SOUNDS = ("vent",)  # `aucune` in a profile: no bed at all
LOOP_S = 20.0
CROSSFADE_S = 1.0


@lru_cache(maxsize=4)
def make_loop(sound: str, rate: int = SAMPLE_RATE, seconds: float = LOOP_S, seed: int = 0) -> np.ndarray:
    """`seconds` of the sound as float samples at the narration's loudness, looping without a click
    (its last second is crossfaded into its first)."""
    from scipy import signal

    if sound not in SOUNDS:
        raise ValueError(f"ambiance inconnue : {sound!r} ; connues : {', '.join(SOUNDS)}")
    rng = np.random.default_rng(seed)
    fade = round(CROSSFADE_S * rate)
    noise = rng.standard_normal(round(seconds * rate) + fade)
    band = signal.butter(2, [700, 4500], btype="bandpass", fs=rate, output="sos")
    raw = signal.sosfilt(band, noise)
    t = np.arange(len(raw)) / rate
    raw *= 0.6 + 0.4 * np.sin(2 * np.pi * t / (seconds / 2))  # slow gusts: whole periods in the loop
    ramp = np.linspace(0.0, 1.0, fade)
    loop = raw[:-fade].copy()
    loop[:fade] = raw[:fade] * ramp + raw[-fade:] * (1 - ramp)  # the end flows into the start
    measured = loudness((loop / np.abs(loop).max() * 16000).astype(np.int16), rate)
    gain = 10 ** ((TARGET_LUFS - measured) / 20) * 16000 / np.abs(loop).max() / 32767 if measured else 0.0
    return (loop * gain).astype(np.float32)


def make_bed(ambience: Ambience, rate: int = SAMPLE_RATE) -> Bed | None:
    """The profile's bed, or None when it asks for none (`sound: aucune`)."""
    if ambience.sound == "aucune":
        return None
    return Bed(make_loop(ambience.sound, rate), rate, ambience.level_lu, ambience.duck_db)
