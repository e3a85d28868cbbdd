"""Ears without a microphone: recorded WAV files, the keyboard, a scripted list of answers."""

from __future__ import annotations

import queue
import sys
import threading
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from narrator.resources import french_reason, read_bounded

from .ear import Heard, ListenError
from .vosk_ear import BLOCK_S, decode, new_recognizer


class WavEar:
    """Decodes one WAV file per `listen` with vosk, as the microphone ear would (tests, demos)."""

    def __init__(self, model: Any, paths: Iterable[str | Path]) -> None:
        self.model = model
        self._paths = iter(paths)

    def listen(self, phrases: Sequence[str], timeout_s: float) -> Heard | None:
        """Decode the next file; EOFError when there is none left."""
        path = next(self._paths, None)
        if path is None:
            raise EOFError("plus de fichier WAV à écouter")
        pcm, rate = read_pcm(path)
        block = round(rate * BLOCK_S) * 2
        blocks = (pcm[i : i + block] for i in range(0, len(pcm), block))
        found = decode(new_recognizer(self.model, phrases, rate), blocks, rate, timeout_s)
        return None if found is None else Heard(found.text)  # file time is not table time

    def close(self) -> None:
        """Nothing to release."""


def read_pcm(path: str | Path) -> tuple[bytes, int]:
    """Little-endian int16 mono samples (channels averaged) and the rate of a 16-bit WAV file."""
    from narrator.voice.errors import VoiceError
    from narrator.voice.wavfile import read_wav

    try:
        pcm, rate = read_wav(path)
    except VoiceError as exc:
        raise ListenError(str(exc)) from None
    return pcm.astype("<i2").tobytes(), rate


class KeyboardEar:
    """Reads one answer a line from a text stream (stdin by default); an empty line is silence.

    Its prompt is short, for a person and a screen reader: what to type for this question (given
    by `expect`), never the recognizer's whole vocabulary.
    """

    def __init__(self, stream: TextIO | None = None, out: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.out = out if out is not None else sys.stderr
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()  # None: end of input
        self._reader: threading.Thread | None = None
        self._hint = ""
        self._prompted: str | None = None

    def expect(self, hint: str) -> None:
        """What the next answer is, in a few words (« Le nombre de joueurs, de 3 à 13 »)."""
        self._hint = hint

    def listen(self, phrases: Sequence[str], timeout_s: float) -> Heard | None:
        """The next line typed within `timeout_s`; EOFError at the end of input."""
        self._start()
        prompt = f"{self._hint} > " if self._hint else "> "
        if prompt != self._prompted:  # not again after a mere timeout on the same question
            print(prompt, end="", file=self.out, flush=True)
            self._prompted = prompt
        try:
            line = self._lines.get(timeout=timeout_s)
        except queue.Empty:
            return None
        self._prompted = None
        if line is None:
            self._lines.put(None)  # every later turn ends too
            raise EOFError("fin de la saisie au clavier")
        text = unicodedata.normalize("NFC", line).strip()
        return Heard(text) if text else None

    def read_line(self) -> str:
        """The next line, whenever it is typed, with no prompt of its own (the classic game's operator
        types on the same keyboard and is prompted by his screen); EOFError at the end of input."""
        self._start()
        line = self._lines.get()
        if line is None:
            self._lines.put(None)
            raise EOFError("fin de la saisie au clavier")
        return unicodedata.normalize("NFC", line).strip()

    def _start(self) -> None:
        if self._reader is None:
            # A thread, so that a turn can time out (the day timer keeps running) on any stream.
            self._reader = threading.Thread(target=self._read, name="narrator-keyboard", daemon=True)
            self._reader.start()

    def close(self) -> None:
        """Nothing to release (the reader thread ends with the program)."""

    def _read(self) -> None:
        for line in self.stream:
            self._lines.put(line)
        self._lines.put(None)


class ScriptedEar:
    """Answers from a list, one per `listen` (None or "" for silence); records what it was asked."""

    def __init__(self, answers: Iterable[str | None]) -> None:
        self._answers: Iterator[str | None] = iter(answers)
        self.asked: list[tuple[tuple[str, ...], float]] = []  # (phrases, timeout_s) of every turn

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedEar:
        """One answer a line; a blank line is silence; lines starting with # are comments."""
        try:
            lines = read_bounded(path).decode("utf-8").splitlines()
        except OSError as exc:
            raise ListenError(f"{path} : script de réponses illisible ({french_reason(exc)})") from None
        except UnicodeDecodeError as exc:
            raise ListenError(f"{path} : réponses illisibles (pas du UTF-8, octet {exc.start + 1})") from None
        return cls(line.strip() for line in lines if not line.lstrip().startswith("#"))

    def listen(self, phrases: Sequence[str], timeout_s: float) -> Heard | None:
        """The next answer; EOFError when the script is over."""
        self.asked.append((tuple(phrases), timeout_s))
        try:
            answer = next(self._answers)
        except StopIteration:
            raise EOFError("plus de réponse dans le script") from None
        return Heard(answer) if answer else None

    def close(self) -> None:
        """Nothing to release."""
