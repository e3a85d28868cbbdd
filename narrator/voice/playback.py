"""Live playback: one persistent sounddevice output stream fed with pre-rendered PCM."""

from __future__ import annotations

import collections
import os
import sys
import threading
import time
from typing import Any, TextIO

import numpy as np

from .bed import Bed, BedTrack, Span
from .errors import NoSoundCard, VoiceError
from .pcm import SAMPLE_RATE
from .ports import Speaker
from .timeline import Rendered

# The audio queued ahead of the device. PortAudio's "high" (35 ms through PulseAudio) ran dry twice in
# 30 s while two busy processes loaded a 2-core machine, each time shifting the rest of the night;
# 100 ms did not (benchmarks/play.py). It is paid once per play, before the first sample. With five
# busy processes 100 ms ran dry 11 times in 40 s (the night 23 s late) unless the audio thread had a
# real-time priority (`_real_time`): then never.
LATENCY_S = 0.1
REAL_TIME_PRIORITY = 10  # low among real-time threads: the sound server's own come first


class _Queued:
    """A buffer waiting to be played, and how far the device has taken it."""

    __slots__ = ("pcm", "spans", "taken")

    def __init__(self, rendered: Rendered) -> None:
        self.pcm = np.ascontiguousarray(rendered.pcm, dtype=np.int16)
        self.spans = tuple((s.start_s, s.end_s) for s in rendered.segments)
        self.taken = 0


class SoundDeviceSpeaker:
    """Plays rendered audio gaplessly: the stream stays open and outputs silence between plays, or the
    night's bed when there is one (mixed under the buffers and heard alone between them)."""

    def __init__(
        self,
        device: int | str | None = None,
        rate: int = SAMPLE_RATE,
        latency: str | float = LATENCY_S,
        bed: Bed | None = None,
    ) -> None:
        sd = _import_sounddevice()
        self.rate = rate
        self.underflows = 0  # the stream ran dry mid-play: an audible gap (should stay 0)
        # the bed is mixed in the audio thread, block by block: one clock for the speech and the bed,
        # so the loop, the fades and the ducking go on in the order they are heard
        self._bed: BedTrack | None = bed.track() if bed is not None else None
        self._pending: collections.deque[_Queued] = collections.deque()
        self._lock = threading.Lock()
        self._drained = threading.Event()
        self._drained.set()
        self._playing = False
        self._raised = False  # the audio thread asked for a real-time priority (once)
        try:
            sd.query_devices(device, kind="output")  # raises when there is no output at all
            # A late Python callback must never starve the device: each gap the script did not ask
            # for delays all that follows (see LATENCY_S).
            self._stream = sd.RawOutputStream(
                samplerate=rate, channels=1, dtype="int16", device=device, latency=latency, callback=self._callback
            )
            self._stream.start()
        except (sd.PortAudioError, ValueError) as exc:
            raise NoSoundCard(f"aucune sortie audio : {portaudio_reason(exc)}") from None
        # Some outputs take their time to start pulling samples (PulseAudio's null sink: about
        # 2 s). Wait for that now, once, so that play() returns when its audio has been heard.
        try:
            self.play(Rendered(np.zeros(round(rate * 0.05), np.int16), rate, ()))
        except VoiceError as exc:
            self._stream.close()
            raise NoSoundCard(str(exc)) from None

    def play(self, rendered: Rendered) -> None:
        """Play the audio and return when it has been heard (blocks for its duration)."""
        if not self.start(rendered):
            return
        # The callback consumes the samples in real time; allow generous slack before deciding
        # the device is stuck rather than waiting forever.
        if not self._drained.wait(rendered.duration_s * 1.5 + 5.0):
            raise VoiceError("la lecture audio s'est bloquée (la sortie son ne consomme plus l'audio)")
        time.sleep(self._stream.latency)  # the last block still has to leave the device buffer

    def start(self, rendered: Rendered) -> bool:
        """Queue the audio and return at once; the next play() follows it without a gap. False if empty."""
        if rendered.rate != self.rate:
            raise ValueError(f"taux d'échantillonnage {rendered.rate} Hz ≠ {self.rate} Hz du flux")
        if not len(rendered.pcm):
            return False
        queued = _Queued(rendered)
        with self._lock:
            self._drained.clear()
            self._pending.append(queued)
        return True

    def close(self) -> None:
        """Stop and release the output stream."""
        self._stream.close()

    def __enter__(self) -> SoundDeviceSpeaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _callback(self, outdata: Any, frames: int, time_info: Any, status: Any) -> None:
        # Runs in PortAudio's thread: copies the block's samples under the lock, mixes the bed after it;
        # a few block-sized arrays, never anything the length of a buffer.
        if not self._raised:
            self._raised = True
            _real_time()
        out = np.frombuffer(outdata, dtype=np.int16)
        wanted = len(out)
        filled = 0
        spans: list[Span] = []
        with self._lock:
            if status.output_underflow and self._playing:
                self.underflows += 1
            ahead = 0  # where the next queued buffer starts, in samples from the block's start
            horizon = wanted / self.rate + 1  # lines starting later do not duck this block
            for queued in self._pending:
                if ahead > wanted + self.rate:  # lines further on do not duck this block
                    break
                shift = (ahead - queued.taken) / self.rate
                spans += [(a + shift, b + shift) for a, b in queued.spans if b + shift > -1 and a + shift < horizon]
                ahead += len(queued.pcm) - queued.taken
            while filled < wanted and self._pending:
                queued = self._pending[0]
                n = min(wanted - filled, len(queued.pcm) - queued.taken)
                out[filled : filled + n] = queued.pcm[queued.taken : queued.taken + n]
                filled += n
                queued.taken += n
                if queued.taken == len(queued.pcm):
                    self._pending.popleft()
            self._playing = bool(self._pending)
            if not self._pending and not self._drained.is_set():
                self._drained.set()
        out[filled:] = 0
        if self._bed is not None:
            self._bed.mix_into(out, spans)


# PortAudio's error codes (portaudio.h's PaErrorCode) said in French: its own text is English
_PORTAUDIO = {
    -9996: "périphérique audio inconnu",
    -9985: "périphérique occupé ou indisponible",
    -9997: "fréquence d'échantillonnage refusée",
    -9998: "nombre de canaux refusé",
    -9994: "format audio refusé",
    -9999: "erreur du système audio",
    -10000: "PortAudio n'est pas prêt",
}


def portaudio_reason(exc: Exception) -> str:
    """Why the sound card cannot be used, in French: never PortAudio's or sounddevice's English words."""
    code = exc.args[1] if len(exc.args) > 1 and isinstance(exc.args[1], int) else None
    if code in _PORTAUDIO:
        return _PORTAUDIO[code]
    text = str(exc.args[0]) if exc.args else ""
    if "querying device" in text or isinstance(exc, ValueError):  # sounddevice: no such (or no) device
        return "aucun périphérique audio trouvé"
    return f"erreur PortAudio n° {code}" if code is not None else "le système audio l'a refusée"


def _real_time() -> None:
    """This (audio) thread scheduled before ordinary work where the system allows it (root, or the
    `rtprio` limit audio users are given): a busy machine then delays its blocks no more than the
    sound server's. Refused elsewhere, and nothing changes."""
    try:
        os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(REAL_TIME_PRIORITY))
    except (AttributeError, OSError):  # no such call here, or no right to it
        pass


def open_speaker(device: int | str | None = None, notice: TextIO | None = None, bed: Bed | None = None) -> Speaker:
    """The sound card if there is one (with the night's `bed` under the narration); otherwise say so in
    one French sentence and use the console."""
    from .console import ConsoleSpeaker

    try:
        return SoundDeviceSpeaker(device, bed=bed)
    except NoSoundCard as exc:
        print(
            f"Pas de carte son utilisable ({exc}) : le texte s'affichera à l'écran à la place de la voix.",
            file=notice if notice is not None else sys.stderr,
        )
        return ConsoleSpeaker(realtime=True)


def _import_sounddevice() -> Any:
    try:
        import sounddevice
    except OSError:  # the wheel does not bundle PortAudio on Linux
        raise NoSoundCard("la bibliothèque PortAudio est absente (paquet libportaudio2)") from None
    return sounddevice
