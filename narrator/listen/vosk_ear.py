"""Vosk on the microphone: a grammar per listening turn, decoded off PortAudio's thread."""

from __future__ import annotations

import json
import queue
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from narrator.voice.playback import portaudio_reason

from .ear import Ear, Heard, ListenError, NoMicrophone
from .endpoint import Complete, EndPoint
from .model import NameProblem, check_names, find_model, load_model, normalize

RATE = 16000  # what vosk's small models are trained on; asked of the device, which may give another
BLOCK_S = 0.02  # the decoder and the end-point see the end of speech at most one block late
GUARD_S = 0.3  # after listen() is called, the tail of the narrator's voice may still be in the pipe
PARTIAL_LAG_S = 0.5  # a word shows in vosk's partial result about 0.45 s after it begins (measured)
MAX_UTTERANCE_S = 15.0  # speech still going this long after the timeout: take what was heard
STALL_S = 3.0  # no audio at all for this long: the microphone is gone


@dataclass(frozen=True, slots=True)
class Decoded:
    """A recognized utterance; `end_s` is when its last word ended, in seconds of audio fed."""

    text: str
    end_s: float | None


def grammar_json(phrases: Sequence[str], unk: bool = False) -> str:
    """The grammar as vosk wants it: normalized phrases, non-ASCII written as is."""
    # ensure_ascii=False: vosk silently drops every word escaped as \\u00e9 (vosk-api#1276).
    words = list(dict.fromkeys(p for p in (normalize(p) for p in phrases) if p))
    if not words:
        raise ValueError("grammaire vide : aucune phrase à reconnaître")
    return json.dumps(words + (["[unk]"] if unk else []), ensure_ascii=False)


def new_recognizer(model: Any, phrases: Sequence[str], rate: float) -> Any:
    """A fresh recognizer for one turn (SetGrammar on a used one kills vosk 0.3.45)."""
    import vosk

    unk = model.vosk_model_find_word("[unk]") >= 0  # the Korean model has none; vosk would ignore it
    recognizer = vosk.KaldiRecognizer(model, float(rate), grammar_json(phrases, unk))
    recognizer.SetWords(True)  # word times tell when the speech ended
    return recognizer


def decode(
    recognizer: Any,
    blocks: Iterable[bytes],
    rate: float,
    timeout_s: float,
    max_utterance_s: float = MAX_UTTERANCE_S,
    complete: Complete | None = None,
    stop: Callable[[], bool] | None = None,
) -> Decoded | None:
    """The first non-empty utterance in `blocks` (int16 mono); None if none began within `timeout_s` of audio,
    or as soon as `stop()` is true while nothing is being said (the phones' words came meanwhile).

    None comes PARTIAL_LAG_S after the timeout: a word begun just before it is only known then.
    complete: the parser's judge; a partial result it calls complete ends the utterance after
    a short silence (narrator/listen/endpoint.py) instead of vosk's longer end-point.
    """
    # speech told by its energy: a command's end, and whether someone is speaking before vosk shows a word
    end = EndPoint(complete or _incomplete, rate) if complete is not None or stop is not None else None
    fed = 0
    for data in blocks:
        fed += len(data) // 2
        if recognizer.AcceptWaveform(data):
            found = _decoded(recognizer.Result())
            if found:
                return found
            continue  # an utterance of silence ended (vosk's 5 s rule): keep listening
        heard_s = fed / rate
        if heard_s >= timeout_s + max_utterance_s:
            return _decoded(recognizer.FinalResult())
        partial = json.loads(recognizer.PartialResult()).get("partial", "")
        if end is not None:
            end.feed(data)
            if complete is not None and end.over(partial):
                return _decoded(recognizer.FinalResult())
        if heard_s >= timeout_s + PARTIAL_LAG_S and not partial:
            return None  # nothing is being said
        if stop is not None and end is not None and not partial and _quiet(end) and stop():
            return None  # the turn given up, no word lost: nothing is being said
    return _decoded(recognizer.FinalResult())


def _incomplete(text: str) -> bool:
    return False


def _quiet(end: EndPoint) -> bool:
    """Nobody spoke for as long as vosk takes to show a word begun (or at all this turn)."""
    quiet = end.quiet_for()
    return quiet is None or quiet >= PARTIAL_LAG_S


def _decoded(result: str) -> Decoded | None:
    found = json.loads(result)
    if not found.get("text"):
        return None
    words = found.get("result") or []
    return Decoded(found["text"], words[-1]["end"] if words else None)


class VoskEar:
    """Listens on the microphone (or Pulse's monitor) with a shared, loaded `vosk.Model`."""

    def __init__(
        self,
        model: Any,
        device: int | str | None = None,
        rate: int = RATE,
        guard_s: float = GUARD_S,
        complete: Complete | None = None,
    ) -> None:
        sd = _import_sounddevice()
        self.model = model
        self.complete = complete  # listen()'s judge of a complete command; None: vosk's end-point only
        self.guard_s = guard_s
        # (bytes, monotonic time its first sample was captured); filled only while listening
        self._queue: queue.SimpleQueue[tuple[bytes, float]] = queue.SimpleQueue()
        self._accepting = False
        self._started = False
        try:
            sd.query_devices(device, kind="input")  # raises when there is no input at all
            self._stream = self._open(sd, device, rate)
            self.rate = float(self._stream.samplerate)  # the true rate: vosk resamples what it is told
            self._stream.start()
        except (sd.PortAudioError, ValueError) as exc:
            raise NoMicrophone(f"aucune entrée audio : {portaudio_reason(exc)}") from None
        # Some inputs take their time to deliver the first block (PulseAudio: about 2 s the
        # first time): wait once here, not in the first listening turn.
        deadline = time.monotonic() + STALL_S * 2
        while not self._started and time.monotonic() < deadline:
            time.sleep(0.01)
        if not self._started:
            self._stream.close()
            raise NoMicrophone("l'entrée audio ne transmet aucun son")

    def _open(self, sd: Any, device: int | str | None, rate: int) -> Any:
        try:
            return self._stream_at(sd, device, rate)
        except sd.PortAudioError:  # 16 kHz refused: the device's own rate, which vosk is told
            return self._stream_at(sd, device, sd.query_devices(device, kind="input")["default_samplerate"])

    def _stream_at(self, sd: Any, device: int | str | None, rate: float) -> Any:
        self.rate = float(rate)  # read by the callback as soon as the stream starts
        return sd.RawInputStream(
            samplerate=rate,
            blocksize=round(rate * BLOCK_S),
            channels=1,
            dtype="int16",
            device=device,
            latency="low",
            callback=self._callback,
        )

    def listen(self, phrases: Sequence[str], timeout_s: float) -> Heard | None:
        """Hear one utterance among `phrases` begun within `timeout_s` of this call, in audio captured after it.

        Audio from before the call and during the guard is dropped (half-duplex): call it once
        the speaker's play() has returned. Each call starts afresh: poll with long timeouts.
        """
        return self.listen_for(phrases, timeout_s, self.complete)

    def listen_for(self, phrases: Sequence[str], timeout_s: float, complete: Complete | None) -> Heard | None:
        """`listen`, the utterance ending soon after it is a command `complete` calls complete."""
        return self.listen_until(phrases, timeout_s, complete, None)

    def listen_until(
        self, phrases: Sequence[str], timeout_s: float, complete: Complete | None, stop: Callable[[], bool] | None
    ) -> Heard | None:
        """`listen_for`, given up (None) as soon as `stop()` is true while nothing is being said."""
        keep_from = time.monotonic() + self.guard_s
        recognizer = new_recognizer(self.model, phrases, self.rate)
        while not self._queue.empty():  # left over from an earlier turn
            self._queue.get_nowait()
        captured: list[tuple[int, float]] = []  # (samples fed so far, capture time of the block's end)
        self._accepting = True
        try:
            # the timeout counts from this call: the guard is part of it
            blocks = self._blocks(keep_from, captured)
            found = decode(
                recognizer, blocks, self.rate, max(0.0, timeout_s - self.guard_s), complete=complete, stop=stop
            )
        finally:
            self._accepting = False
        if found is None:
            return None
        return Heard(found.text, None if found.end_s is None else self._when(found.end_s, captured))

    def check_names(self, names: Sequence[str]) -> list[NameProblem]:
        """Seated names this model cannot hear (see `model.check_names`)."""
        return check_names(self.model, names)

    def close(self) -> None:
        """Stop and release the input stream."""
        self._stream.close()

    def __enter__(self) -> VoskEar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _blocks(self, keep_from: float, captured: list[tuple[int, float]]) -> Iterator[bytes]:
        fed = 0
        while True:
            try:
                data, at = self._queue.get(timeout=STALL_S)
            except queue.Empty:
                raise NoMicrophone("le micro ne transmet plus de son") from None
            if at < keep_from:  # half-duplex: the narrator, or what was said before the question
                continue
            fed += len(data) // 2
            captured.append((fed, at + len(data) / 2 / self.rate))
            yield data

    def _when(self, end_s: float, captured: list[tuple[int, float]]) -> float:
        # monotonic time of a moment `end_s` seconds into the audio fed to the recognizer
        sample = end_s * self.rate
        for fed, block_end in captured:
            if fed >= sample:
                return block_end - (fed - sample) / self.rate
        return captured[-1][1]

    def _callback(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        # PortAudio's thread: note when the block began, queue it, nothing else. Blocks arrive
        # at a steady pace, so arrival minus duration dates them; PortAudio's own ADC times do
        # not (through ALSA's pulse plugin they claim 0.77 s of age for the first second).
        self._started = True
        if self._accepting:
            self._queue.put((bytes(indata), time.monotonic() - frames / self.rate))


def open_ear(
    model_path: str | Path | None = None,
    device: int | str | None = None,
    keyboard: TextIO | None = None,
    notice: TextIO | None = None,
) -> Ear:
    """Vosk on the microphone if a model and an input exist; otherwise say why in French and use the keyboard."""
    from .simple_ears import KeyboardEar

    try:
        return VoskEar(load_model(find_model(model_path)), device)
    except ListenError as exc:
        print(
            f"Pas d'écoute vocale ({exc}) : tapez les réponses au clavier.",
            file=notice if notice is not None else sys.stderr,
        )
        return KeyboardEar(keyboard)


def _import_sounddevice() -> Any:
    try:
        import sounddevice
    except OSError:  # the wheel does not bundle PortAudio on Linux
        raise NoMicrophone("la bibliothèque PortAudio est absente (paquet libportaudio2)") from None
    return sounddevice
