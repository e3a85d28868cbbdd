"""The night's bed of sound under the narration: a loop played at a level under the speech, faded in and
out with the night, ducked under every spoken line, and changed by the table (« coupe la musique »).

The bed is mixed at the output, by each speaker through its own track: a WAV file mixes it under each
buffer it writes (`mix`); the sound card, block by block in its audio thread, under the buffers and
alone in the silences between them (`mix_into`). The speech track itself is never changed, so the
timeline's pauses stay exact; the loop's position, the fades and the ducking go on from block to block.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence

import numpy as np

from .timeline import Rendered, Segment

LEVEL_LU = -20.0  # the bed's loudness against the narration's, by default
LEVEL_STEP_LU = 3.0  # one « musique plus forte »
LEVEL_RANGE_LU = (-40, -8)  # never louder than this under the narration
DUCK_DB = 12.0  # how much the bed gives way under a spoken line
DUCK_ATTACK_S = 0.08  # the bed starts giving way this long before a line
DUCK_RELEASE_S = 0.35  # and comes back over this long after it
FADE_S = 2.0  # a fade in or out of the whole bed (the night begins, ends; « coupe la musique »)


Span = tuple[float, float]  # (start_s, end_s) of a spoken line, in seconds from the block's first sample


def duck_envelope(
    length: int, segments: Sequence[Segment], rate: int, duck_db: float = DUCK_DB, start_depth: float = 0.0
) -> np.ndarray:
    """The bed's gain over `length` samples: 1 between lines, lowered by `duck_db` under each line, with
    ramps (no click) that begin before the line and end after it. `start_depth` (0: the bed in full, 1:
    fully ducked) is where the previous block ended: the envelope goes on from it."""
    depth = duck_depth(length, [(s.start_s, s.end_s) for s in segments], rate, start_depth)
    return 1 - depth * (1 - 10 ** (-duck_db / 20))


def duck_depth(length: int, spans: Sequence[Span], rate: int, start_depth: float = 0.0) -> np.ndarray:
    """How ducked the bed is at each sample (0 to 1), continuous from `start_depth` at the first sample:
    a release left over from the block before goes on, and a line at the very start of the block is
    ramped into from there rather than jumped to."""
    depth = np.zeros(length, np.float32)
    attack, release = round(DUCK_ATTACK_S * rate), round(DUCK_RELEASE_S * rate)
    for start_s, end_s in spans:
        start, end = round(start_s * rate), round(end_s * rate)
        lo, hi = max(0, start - attack), min(length, end + release)
        if lo >= hi:
            continue
        n = np.arange(lo, hi, dtype=np.float32)
        rise = np.clip((n - (start - attack)) / attack, 0, 1)
        fall = np.clip(((end + release) - n) / release, 0, 1)
        np.maximum(depth[lo:hi], np.minimum(rise, fall), out=depth[lo:hi])
    carried = min(length, round(start_depth * release))  # the release of the block before, going on
    np.maximum(depth[:carried], start_depth - np.arange(carried, dtype=np.float32) / release, out=depth[:carried])
    capped = min(length, attack)  # no faster than an attack away from where the block before ended
    np.minimum(depth[:capped], start_depth + np.arange(capped, dtype=np.float32) / attack, out=depth[:capped])
    return depth


class Bed:
    """A loop (float samples at the narration's loudness: gain 1 is 0 LU under it) and what the table
    and the night made of it: one for the whole table, shared by every speaker.

    Each speaker plays it through its own `track()` (the loop's place, the fade and the ducking of its
    own output: a WAV file and the sound card each run on their own clock); `mix` and `fill` here use
    one track of the bed's own. Thread-safe: the real-time speaker mixes from its audio thread."""

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
        self._voice_db = 0.0  # the voice's own volume (« moins fort »): the bed's level is under the voice
        self._tracks: weakref.WeakSet[BedTrack] = weakref.WeakSet()  # a speaker gone takes its track along
        self._own: BedTrack | None = None

    # -- what the night and the table change ---------------------------------------------------

    def night(self, on: bool) -> None:
        """The night begins (the bed fades in) or ends (it fades out)."""
        with self._lock:
            self._night = on

    def mute(self, muted: bool) -> None:
        """« coupe la musique » / « remets la musique »."""
        with self._lock:
            self._muted = muted

    def follow_voice(self, gain_db: float) -> None:
        """The voice is `gain_db` from the narration's loudness (its profile's volume, « moins fort »):
        the bed keeps its level under the voice as heard, not under the loudness it was made for."""
        with self._lock:
            self._voice_db = gain_db

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
    def at_night(self) -> bool:
        """The night is on: the bed plays unless the table cut it."""
        return self._night

    @property
    def playing(self) -> bool:
        """Heard now or fading on some speaker: the night is on and the table did not cut it, or a fade
        is not over."""
        with self._lock:
            tracks, target = list(self._tracks), self._target()
        return target > 0 or any(track.gain > 0 for track in tracks)

    def gains(self) -> tuple[float, float]:
        """(the loop's gain the tracks move toward, the gain of the bed's level): the target is the level
        at night unless muted, else silence."""
        with self._lock:
            return self._target(), self._level_gain()

    def _target(self) -> float:
        return self._level_gain() if self._night and not self._muted else 0.0

    def _level_gain(self) -> float:
        return 10 ** ((self._level_lu + self._voice_db) / 20)

    # -- sound ---------------------------------------------------------------------------------

    def track(self) -> BedTrack:
        """A new track for one more output (it starts silent, at the loop's start)."""
        track = BedTrack(self)
        with self._lock:
            self._tracks.add(track)
        return track

    def mix(self, rendered: Rendered) -> Rendered:
        """The buffer with the bed under it, ducked under its lines (the speech itself unchanged)."""
        return self._own_track().mix(rendered)

    def fill(self, frames: int) -> np.ndarray | None:
        """The bed alone for `frames` samples of silence between buffers; None when it is not heard."""
        return self._own_track().fill(frames)

    def _own_track(self) -> BedTrack:
        with self._lock:
            own = self._own
        if own is None:
            own = self._own = self.track()
        return own


class BedTrack:
    """The bed on one output: where the loop is, the gain of the moment (fading toward the bed's target)
    and how ducked it is, each going on from one block to the next so that nothing clicks."""

    def __init__(self, bed: Bed) -> None:
        self.bed = bed
        self.gain = 0.0
        self._depth = 0.0  # how ducked the bed was at the end of the last block
        self._position = 0
        self._lock = threading.Lock()

    def mix(self, rendered: Rendered) -> Rendered:
        """The buffer with the bed under it, ducked under its lines (the speech itself unchanged)."""
        if rendered.rate != self.bed.rate:
            raise ValueError(f"ambiance à {self.bed.rate} Hz, narration à {rendered.rate} Hz")
        pcm = np.array(rendered.pcm, dtype=np.int16)
        if not self.mix_into(pcm, [(s.start_s, s.end_s) for s in rendered.segments]):
            return rendered
        return Rendered(pcm, rendered.rate, rendered.segments)

    def fill(self, frames: int) -> np.ndarray | None:
        """The bed alone for `frames` samples of silence; None when it is not heard."""
        pcm = np.zeros(frames, np.int16)
        return pcm if self.mix_into(pcm, ()) else None

    def mix_into(self, pcm: np.ndarray, spans: Sequence[Span]) -> bool:
        """Add the bed's next `len(pcm)` samples to the int16 block in place, ducked under `spans` (the
        lines of the block, in seconds from its first sample; a line may start before it or end after
        it). False, and the block untouched, when the bed is silent."""
        bed = self._next(len(pcm), spans)
        if bed is None:
            return False
        bed += pcm
        np.clip(np.rint(bed, out=bed), -32768, 32767, out=bed)
        pcm[:] = bed
        return True

    def _next(self, frames: int, spans: Sequence[Span]) -> np.ndarray | None:
        """The next `frames` samples of the bed at int16 scale, faded and ducked; None when silent."""
        bed, rate = self.bed, self.bed.rate
        with self._lock:
            target, level = bed.gains()
            if (target == 0 and self.gain == 0) or frames == 0:
                self._depth = 0.0
                return None  # silent: the loop does not move, the next night starts where this one ended
            if self.gain == target:
                gains: np.ndarray | float = target
            else:  # a whole fade goes from silence to the bed's level (or back) in FADE_S
                ramp = np.arange(1, frames + 1, dtype=np.float32) * (level / (FADE_S * rate))
                faded = (
                    np.minimum(self.gain + ramp, target) if target > self.gain else np.maximum(self.gain - ramp, target)
                )
                self.gain, gains = float(faded[-1]), faded
            depth = duck_depth(frames, spans, rate, self._depth)
            self._depth = float(depth[-1])
            out = self._loop(frames)
        out *= gains
        out *= 1 - depth * (1 - 10 ** (-bed.duck_db / 20))
        out *= 32767
        return out

    def _loop(self, frames: int) -> np.ndarray:
        """The next `frames` samples of the loop (a copy), wrapping as often as needed."""
        loop = self.bed.loop
        out = np.empty(frames, np.float32)
        done = 0
        while done < frames:
            n = min(frames - done, len(loop) - self._position)
            out[done : done + n] = loop[self._position : self._position + n]
            done += n
            self._position = (self._position + n) % len(loop)
        return out
