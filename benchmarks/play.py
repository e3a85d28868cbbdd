"""Live playback through a real audio server (a private PulseAudio null sink, recorded from its monitor).

Prints, in one run:
- the time from launching `narrator play` to its first spoken sample, with a cold and a warm TTS
  cache (goal ≤ 1 s);
- the worst pause error over a played Poudlard night: every silence between two stretches of
  speech in the recording against the timeline (goal ≤ 20 ms).

Run: python benchmarks/play.py   (needs pulseaudio, pulseaudio-utils, libasound2-plugins, libportaudio2)
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from audio_server import AudioServer, speech_spans  # noqa: E402

RATE = 22050
PLAYERS = "Ana,Ben,Cleo,Dan,Eva"
LOUD = 200.0


class Recorder:
    """Records the sink's monitor; keeps (arrival time, block) pairs."""

    def __init__(self) -> None:
        import sounddevice as sd

        self.blocks: queue.Queue = queue.Queue()
        self.stream = sd.InputStream(samplerate=RATE, channels=1, dtype="int16", callback=self._callback)

    def _callback(self, indata, frames, time_info, status) -> None:
        self.blocks.put((time.monotonic(), indata[:, 0].copy()))

    def __enter__(self) -> Recorder:
        self.stream.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stream.close()

    def first_sound(self, deadline: float) -> float | None:
        """Wall-clock time of the first loud sample, or None by `deadline`."""
        while time.monotonic() < deadline:
            try:
                arrived, block = self.blocks.get(timeout=0.1)
            except queue.Empty:
                continue
            loud = np.flatnonzero(np.abs(block.astype(np.int32)) > LOUD)
            if len(loud):
                return arrived - (len(block) - loud[0]) / RATE
        return None

    def everything(self) -> np.ndarray:
        parts = []
        while not self.blocks.empty():
            parts.append(self.blocks.get()[1])
        return np.concatenate(parts) if parts else np.zeros(0, np.int16)


def time_to_first_sample(env: dict) -> float:
    with Recorder() as recorder:
        started = time.monotonic()
        command = [sys.executable, "-m", "narrator", "play", "poudlard", "--players", PLAYERS]
        command += ["--scenario", "premiere_annee", "--no-legend", "--minutes", "1"]
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            first = recorder.first_sound(started + 30)
        finally:
            process.kill()
            process.wait()
    if first is None:
        raise SystemExit("aucun son entendu : " + process.stderr.read().decode())
    return first - started


def worst_pause_error() -> tuple[float, int, float]:
    from narrator.script.onenight.script import load_shipped
    from narrator.table.onenight.announcer import plan
    from narrator.voice import MARGIN_S, Renderer, SoundDeviceSpeaker

    script = load_shipped("poudlard")
    narration = plan(script.announce, list(script.rules.roles), legend=False)
    rendered = Renderer().render(narration.opening)
    with SoundDeviceSpeaker() as speaker, Recorder() as recorder:
        speaker.play(rendered)
        time.sleep(0.5)
        audio = recorder.everything()
    found = speech_spans(audio, RATE, frame_s=0.005)
    expected: list[list[float]] = []
    for seg in rendered.segments:
        a, b = seg.start_s + MARGIN_S, seg.end_s - MARGIN_S
        if expected and a - expected[-1][1] < 0.45:
            expected[-1][1] = b
        else:
            expected.append([a, b])
    if len(found) != len(expected):
        raise SystemExit(f"{len(found)} passages de parole enregistrés pour {len(expected)} attendus")
    gaps_found = [found[i + 1][0] - found[i][1] for i in range(len(found) - 1)]
    gaps_expected = [expected[i + 1][0] - expected[i][1] for i in range(len(expected) - 1)]
    errors = [abs(f - e) for f, e in zip(gaps_found, gaps_expected)]
    return max(errors), len(errors), rendered.duration_s


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = AudioServer(Path(folder) / "pulse")
        server.start()
        try:
            os.environ.update(server.env)
            import sounddevice as sd

            sd._terminate()
            sd._initialize()
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            # alternate cold and warm caches, so that neither profits from the audio server's state
            runs: dict[str, list[float]] = {"cold": [], "warm": []}
            for i in range(3):
                env["NARRATOR_CACHE_DIR"] = str(Path(folder) / f"cache{i}")
                runs["cold"].append(time_to_first_sample(env))
                runs["warm"].append(time_to_first_sample(env))
            first = runs["cold"][0]  # the first stream ever on a fresh server: PulseAudio's null sink is slow to start
            cold, warm = sorted(runs["cold"])[1], sorted(runs["warm"])[1]
            worst, pauses, length = worst_pause_error()
        finally:
            server.stop()
    print(f"narrator play → premier échantillon (médiane de 3) : cache vide {cold:.2f} s, cache chaud {warm:.2f} s")
    print(f"  (objectif ≤ 1 s ; tout premier lancement sur un serveur son neuf : {first:.2f} s)")
    print(f"nuit de Poudlard jouée ({length:.0f} s, {pauses} silences) : pire erreur de pause {worst * 1000:.1f} ms")
    print("  (objectif ≤ 20 ms ; silences mesurés par l'énergie, trames de 5 ms)")


if __name__ == "__main__":
    main()
