"""The night's bed of sound under the narration: a loop played at a level under the speech, faded in and
out with the night, ducked under every spoken line, and changed by the table (« coupe la musique »).

The bed is mixed at the output: a speaker mixes it under each buffer it plays (`mix`) and, if it plays
in real time, fills the silences between buffers with it (`fill`). The speech track itself is never
changed, so the timeline's pauses stay exact; the loop's position and the fades go on across buffers.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from .timeline import Rendered, Segment

LEVEL_LU = -20.0  # the bed's loudness against the narration's, by default
LEVEL_STEP_LU = 3.0  # one « musique plus forte »
LEVEL_RANGE_LU = (-40.0, -8.0)  # never louder than this under the narration
DUCK_DB = 12.0  # how much the bed gives way under a spoken line
DUCK_ATTACK_S = 0.08  # the bed starts giving way this long before a line
DUCK_RELEASE_S = 0.35  # and comes back over this long after it
FADE_S = 2.0  # a fade in or out of the whole bed (the night begins, ends; « coupe la musique »)


def duck_envelope(length: int, segments: Sequence[Segment], rate: int, duck_db: float = DUCK_DB) -> np.ndarray:
    """The bed's gain over `length` samples: 1 between lines, lowered by `duck_db` under each line, with
    ramps (no click) that begin before the line and end after it."""
    low = 10 ** (-duck_db / 20)
    depth = np.zeros(length, np.float32)  # 0: the bed in full, 1: fully ducked
    t = np.arange(length, dtype=np.float32) / rate
    for segment in segments:
        rise = np.clip((t - (segment.start_s - DUCK_ATTACK_S)) / DUCK_ATTACK_S, 0, 1)
        fall = np.clip(((segment.end_s + DUCK_RELEASE_S) - t) / DUCK_RELEASE_S, 0, 1)
        np.maximum(depth, np.minimum(rise, fall), out=depth)
    return 1 - depth * (1 - low)


class Bed:
    """A loop (float samples at the narration's loudness: gain 1 is 0 LU under it) and what the table
    and the night made of it. Thread-safe: the real-time speaker fills from its own thread."""

    def __init__(self, loop: np.ndarray, rate: int, level_lu: float = LEVEL_LU, duck_db: float = DUCK_DB) -> None:
        if loop.ndim != 1 or len(loop) < rate:
            raise ValueError("la boucle d'ambiance doit durer au moins une seconde")
        self.loop = loop.astype(np.float32, copy=False)
        self.rate = rate
        self.duck_db = duck_db
        self._lock = threading.Lock()
        self._level_lu = float(np.clip(level_lu, *LEVEL_RANGE_LU))
        self._night = False  # the bed plays at night only
        self._muted = False  # « coupe la musique »
        self._gain = 0.0  # the gain now (it moves toward the target, FADE_S for a whole fade)
        self._position = 0  # where the loop is

    # -- what the night and the table change ---------------------------------------------------

    def night(self, on: bool) -> None:
        """The night begins (the bed fades in) or ends (it fades out)."""
        with self._lock:
            self._night = on

    def mute(self, muted: bool) -> None:
        """« coupe la musique » / « remets la musique »."""
        with self._lock:
            self._muted = muted

    def louder(self) -> bool:
        """« musique plus forte »: one step; False at the limit."""
        return self._step(+LEVEL_STEP_LU)

    def softer(self) -> bool:
        """« musique moins forte »: one step; False at the limit."""
        return self._step(-LEVEL_STEP_LU)

    def _step(self, lu: float) -> bool:
        with self._lock:
            wanted = float(np.clip(self._level_lu + lu, *LEVEL_RANGE_LU))
            changed = wanted != self._level_lu
            self._level_lu = wanted
            return changed

    @property
    def level_lu(self) -> float:
        return self._level_lu

    @property
    def muted(self) -> bool:
        return self._muted

    @property
    def playing(self) -> bool:
        """Heard now or fading: the night is on and the table did not cut it, or a fade is not over."""
        with self._lock:
            return self._target() > 0 or self._gain > 0

    # -- sound ---------------------------------------------------------------------------------

    def mix(self, rendered: Rendered) -> Rendered:
        """The buffer with the bed under it, ducked under its lines (the speech itself unchanged)."""
        if rendered.rate != self.rate:
            raise ValueError(f"ambiance à {self.rate} Hz, narration à {rendered.rate} Hz")
        bed = self._next(len(rendered.pcm))
        if bed is None:
            return rendered
        bed *= duck_envelope(len(bed), rendered.segments, self.rate, self.duck_db)
        out = rendered.pcm.astype(np.float32) + bed * 32767
        return Rendered(np.clip(np.rint(out), -32768, 32767).astype(np.int16), rendered.rate, rendered.segments)

    def fill(self, frames: int) -> np.ndarray | None:
        """The bed alone for `frames` samples of silence between buffers; None when it is not heard."""
        bed = self._next(frames)
        return None if bed is None else np.clip(np.rint(bed * 32767), -32768, 32767).astype(np.int16)

    def _target(self) -> float:
        return 10 ** (self._level_lu / 20) if self._night and not self._muted else 0.0

    def _next(self, frames: int) -> np.ndarray | None:
        """The next `frames` samples of the loop at the gain of the moment (fading toward the target)."""
        with self._lock:
            target = self._target()
            if target == 0 and self._gain == 0:
                return None  # silent: the loop does not move, the next night starts where this one ended
            # a whole fade goes from silence to the bed's level (or back) in FADE_S
            step = 10 ** (self._level_lu / 20) / (FADE_S * self.rate)
            ramp = self._gain + np.sign(target - self._gain) * step * np.arange(1, frames + 1, dtype=np.float32)
            gains = np.minimum(ramp, target) if target >= self._gain else np.maximum(ramp, target)
            self._gain = float(gains[-1]) if frames else self._gain
            index = (self._position + np.arange(frames)) % len(self.loop)
            self._position = (self._position + frames) % len(self.loop)
            return self.loop[index] * gains
