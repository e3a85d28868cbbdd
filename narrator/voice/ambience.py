"""The night's ambience, generated (no recording from anyone): wind, crickets or rain, each a loop brought
to the narration's loudness, which the `Bed` plays under the narration at the profile's level.

Why this spectrum: a card slid on a table, a hand on cards, are broadband rustles whose energy sits
between 1 and 4 kHz. Noise masks best what falls in the same critical bands (about a third of an octave
wide there), so every sound here spreads its energy evenly over the third-octave bands of 1–4 kHz:
pink noise (equal energy per band) gently band-passed around them. Below that, nothing is masked that
matters and speech is clearer without a rumble; above, only hiss.

Every layer is generated circularly (noise shaped in the frequency domain, events placed modulo the
loop's length, envelopes made of whole periods), so the last sample flows into the first exactly as any
sample into the next: the loop wraps without a click and without a crossfade's dip. numpy only: a loop
takes tens of milliseconds, cheap enough to make at start-up with no cache on disk.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from .bed import Bed
from .loudness import TARGET_LUFS, kept_loudness
from .pcm import SAMPLE_RATE

if TYPE_CHECKING:
    from .profile import Ambience

NO_SOUND = "aucune"  # in a profile: no bed at all
LOOP_S = 20.0
BAND_HZ = (1000.0, 4000.0)  # what the bed must cover
_EDGES_HZ = (700.0, 5000.0)  # the band-pass's corners, just outside it so that its edge bands stay level


def _band_shape(freqs: np.ndarray, low: float = _EDGES_HZ[0], high: float = _EDGES_HZ[1]) -> np.ndarray:
    """Magnitude of pink noise (1/√f) through a 4th-order band-pass `low`–`high` (Butterworth-like)."""
    f = np.maximum(freqs, 1.0)
    return f**-0.5 / np.sqrt((1 + (low / f) ** 8) * (1 + (f / high) ** 8))


def _shaped(spectrum: np.ndarray, length: int, rate: int, **band: float) -> np.ndarray:
    """A periodic signal: `spectrum` (rfft of `length` samples) through the band shape, back in time."""
    freqs = np.fft.rfftfreq(length, 1 / rate)
    out = np.fft.irfft(spectrum * _band_shape(freqs, **band), length)
    return out / np.sqrt(np.mean(out**2))


def _noise(rng: np.random.Generator, length: int, rate: int, **band: float) -> np.ndarray:
    """Periodic band-passed pink noise of unit RMS (white noise drawn as its spectrum: one FFT, not two)."""
    bins = length // 2 + 1
    white = rng.standard_normal(bins) + 1j * rng.standard_normal(bins)
    return _shaped(white, length, rate, **band)


def _slow(rng: np.random.Generator, length: int, rate: int, below_hz: float) -> np.ndarray:
    """A smooth periodic random curve in [0, 1] changing slower than `below_hz` (gusts, showers): drawn
    at 50 points a second, then interpolated."""
    coarse = round(length / rate * 50)
    curve = _shaped_low(rng.standard_normal(coarse), below_hz, 50)
    curve = (curve - curve.min()) / (curve.max() - curve.min())
    points = np.arange(coarse + 1) * (length / coarse)
    return np.interp(np.arange(length), points, np.append(curve, curve[0]))


def _shaped_low(samples: np.ndarray, below_hz: float, rate: float) -> np.ndarray:
    """The periodic `samples` with everything above `below_hz` taken out."""
    spectrum = np.fft.rfft(samples)
    spectrum[np.fft.rfftfreq(len(samples), 1 / rate) > below_hz] = 0
    return np.fft.irfft(spectrum, len(samples))


def _place(kernels: np.ndarray, times_s: np.ndarray, length: int, rate: int) -> np.ndarray:
    """Each row of `kernels` (one event each) added at its time, wrapping at the loop's end."""
    starts = np.round(times_s * rate).astype(np.int64)
    index = (starts[:, None] + np.arange(kernels.shape[1])) % length
    return np.bincount(index.ravel(), kernels.ravel(), minlength=length)


def wind(rng: np.random.Generator, length: int, rate: int) -> np.ndarray:
    """Wind: the band's noise in gusts (a few seconds each), and a softer higher whistle gusting apart."""
    body = _noise(rng, length, rate) * (0.25 + 0.75 * _slow(rng, length, rate, 0.25))
    whistle = _noise(rng, length, rate, low=1800.0, high=4500.0) * _slow(rng, length, rate, 0.15)
    return body + 0.5 * whistle


def crickets(rng: np.random.Generator, length: int, rate: int) -> np.ndarray:
    """Crickets: a soft noise floor over the band, and a few crickets each chirping its own pitch (three
    15 ms pulses a chirp, about two chirps a second). The pitches are spread over the band and the floor
    carries most of the energy, so no third-octave band stands out on average."""
    seconds = length / rate
    t = np.arange(round(0.015 * rate)) / rate
    chirps = np.zeros(length)
    for pitch, gain_db in ((1500.0, -2.0), (2150.0, 0.0), (2900.0, -1.0), (3800.0, 0.0)):
        pulse = np.sin(2 * np.pi * pitch * t) * np.hanning(len(t))
        starts = np.cumsum(rng.uniform(0.35, 0.7, round(seconds * 3)))
        starts = starts[starts < seconds]  # whole chirps in the loop; the last may wrap around
        times = (starts[:, None] + np.array([0.0, 0.04, 0.08])).ravel()
        weights = np.repeat(rng.uniform(0.5, 1.0, len(starts)), 3) * 10 ** (gain_db / 20)
        chirps += _place(weights[:, None] * pulse, times, length, rate)
    return _noise(rng, length, rate) + 0.5 * chirps / np.sqrt(np.mean(chirps**2))


def rain(rng: np.random.Generator, length: int, rate: int) -> np.ndarray:
    """Rain: its hiss and many drops (short decaying clicks, each its own, a few louder), through the
    band's shape, in showers that swell and ebb."""
    seconds = length / rate
    drops = np.zeros(length)
    for decay_s, per_second in ((0.002, 60.0), (0.008, 12.0)):
        count = round(seconds * per_second)
        t = np.arange(round(decay_s * 6 * rate)) / rate
        weights = np.minimum(rng.pareto(3.0, count) + 0.3, 2.0)  # mostly small drops, now and then a big one
        clicks = rng.standard_normal((count, len(t))) * np.exp(-t / decay_s) * weights[:, None]
        drops += _place(clicks, rng.uniform(0, seconds, count), length, rate)
    raw = rng.standard_normal(length) + 3.0 * drops / np.sqrt(np.mean(drops**2))
    return _shaped(np.fft.rfft(raw), length, rate) * (0.6 + 0.4 * _slow(rng, length, rate, 0.1))


GENERATORS: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "vent": wind,
    "grillons": crickets,
    "pluie": rain,
}
SOUNDS = tuple(GENERATORS)


@lru_cache(maxsize=4)
def make_loop(sound: str, rate: int = SAMPLE_RATE, seconds: float = LOOP_S, seed: int = 0) -> np.ndarray:
    """`seconds` of the sound as float samples (full scale 1.0) at the narration's loudness, looping
    without a click. The same sound, rate and seed give the same samples."""
    if sound not in GENERATORS:
        raise ValueError(f"ambiance inconnue : {sound!r} ; connues : {', '.join(SOUNDS)}, {NO_SOUND}")
    raw = GENERATORS[sound](np.random.default_rng(seed), round(seconds * rate), rate)
    probe = raw / np.abs(raw).max() * 0.5  # measured at a safe level, then brought to the target
    from .tts import cache_dir  # not at the top: the profile reads this module's sounds, tts the profile

    measured = kept_loudness(np.rint(probe * 32767).astype(np.int16), rate, cache_dir() / "loudness")
    if measured is None:
        raise ValueError(f"ambiance {sound!r} silencieuse")
    loop = (probe * 10 ** ((TARGET_LUFS - measured) / 20)).astype(np.float32)
    loop.flags.writeable = False  # shared by every Bed of the process
    return loop


def make_bed(ambience: Ambience, rate: int = SAMPLE_RATE) -> Bed | None:
    """The profile's bed, or None when it asks for none (`sound: aucune`)."""
    if ambience.sound == NO_SOUND:
        return None
    return Bed(make_loop(ambience.sound, rate), rate, ambience.level_lu, ambience.duck_db)
