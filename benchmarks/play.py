"""Live playback through a real audio server (a private PulseAudio null sink, recorded from its monitor).

Prints, as it goes:
- the time from launching `narrator play` to its first spoken sample, with a cold cache (a fresh
  NARRATOR_CACHE_DIR: every line synthesized, every table compiled) and a warm one (goal ≤ 1 s warm),
  the machine idle, then under load;
- the worst pause error over a played Poudlard night: every silence between two stretches of
  speech in the recording against the timeline (goal ≤ 20 ms), idle and while `--busy` processes
  (default 2, one per core here) spin on the CPU, and how many times the sound card ran dry;
- how late `play()` returns after its audio's duration (the tests check only that it never returns
  before: a loaded machine delays the return, which a test cannot tell from a fault).

The night is recorded by `parec` (its own process, PulseAudio's buffers), not by a Python callback in
this process: a recorder starved by the load would lose samples and show errors the speaker never made.

Run: python benchmarks/play.py [--runs 5] [--busy 2] [--tree DIR]
  (needs pulseaudio, pulseaudio-utils, libasound2-plugins, libportaudio2; --tree: the source tree of
  narrator to measure, default this one: to measure another branch on the same machine in the same run)
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from audio_server import SINK, AudioServer, speech_spans  # noqa: E402

RATE = 22050
PLAYERS = "Ana,Ben,Cleo,Dan,Eva"
LOUD = 200.0
BUSY = "while True: pass"


class Recorder:
    """Records the sink's monitor in this process; keeps (arrival time, block) pairs: when sound came."""

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


@contextmanager
def busy(count: int) -> Iterator[None]:
    """`count` processes spinning on the CPU, stopped (by their ids) on the way out."""
    spinners = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(count)]
    try:
        time.sleep(0.5)  # let the scheduler see them
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def time_to_first_sample(env: dict) -> float:
    with Recorder() as recorder:
        started = time.monotonic()
        command = [sys.executable, "-m", "narrator", "play", "poudlard", "--players", PLAYERS]
        command += ["--scenario", "premiere_annee", "--no-legend", "--minutes", "1"]
        process = subprocess.Popen(  # `-m` puts the working folder first on the path: the tree's own
            command,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=env["PYTHONPATH"],
        )
        try:
            first = recorder.first_sound(started + 60)
        finally:
            process.kill()
            process.wait()
    if first is None:
        raise SystemExit("aucun son entendu : " + process.stderr.read().decode())
    return first - started


def first_samples(env: dict, folder: Path, runs: int, label: str) -> None:
    """`runs` cold and warm starts, alternated so that neither profits from the audio server's state."""
    if runs == 0:
        return
    times: dict[str, list[float]] = {"cold": [], "warm": []}
    for i in range(runs):
        env["NARRATOR_CACHE_DIR"] = str(folder / f"cache-{label}-{i}")
        times["cold"].append(time_to_first_sample(env))
        times["warm"].append(time_to_first_sample(env))
    cold, warm = statistics.median(times["cold"]), statistics.median(times["warm"])
    print(
        f"narrator play → premier échantillon, {label} (médiane de {runs}) : cache vide {cold:.2f} s,"
        f" cache chaud {warm:.2f} s (objectif ≤ 1 s ; chaud : {', '.join(f'{t:.2f}' for t in times['warm'])})",
        flush=True,
    )


def worst_pause_error(env: dict) -> tuple[float, float, int, int, float, int, float]:
    """Over a played night: the worst pause error, the worst shift from the timeline, the silences compared,
    the passages split by a gap, the seconds played, the speaker's underflows and how late play() returned."""
    from narrator.script.onenight.script import load_shipped
    from narrator.table.onenight.announcer import plan
    from narrator.voice import Renderer, SoundDeviceSpeaker

    script = load_shipped("poudlard")
    narration = plan(script.announce, list(script.rules.roles), legend=False)
    rendered = Renderer().render(narration.opening)
    with tempfile.NamedTemporaryFile(suffix=".raw") as raw:
        command = ["parec", f"--device={SINK}.monitor", "--format=s16le", f"--rate={RATE}", "--channels=1"]
        recorder = subprocess.Popen([*command, "--raw", raw.name], env=env)
        try:
            time.sleep(0.3)
            with SoundDeviceSpeaker() as speaker:
                started = time.monotonic()
                speaker.play(rendered)
                late = time.monotonic() - started - rendered.duration_s
                underflows = speaker.underflows
            time.sleep(0.5)
        finally:
            recorder.terminate()
            recorder.wait()
        audio = np.frombuffer(Path(raw.name).read_bytes(), np.int16)
    found = speech_spans(audio, RATE, frame_s=0.005)
    # What was asked, measured by the same detector on the rendered audio itself: the pauses the speaker
    # played against the pauses it was given (the clips' own leading and trailing silences cancel out).
    expected = [list(span) for span in speech_spans(rendered.pcm, RATE, frame_s=0.005)]
    if not found:
        raise SystemExit("aucune parole enregistrée")
    # Each passage of the timeline matched with the recorded one that begins nearest, the recording's
    # start aligned on the first: a gap the card made inside a passage splits it without hiding the shift.
    starts = np.array([a for a, _ in found])
    shifts = []
    for a, _ in expected:
        nearest = starts[np.argmin(np.abs(starts - starts[0] - (a - expected[0][0])))]
        shifts.append(nearest - starts[0] - (a - expected[0][0]))
    errors = [abs(shifts[i + 1] - shifts[i]) for i in range(len(shifts) - 1)]
    return (
        max(errors),
        max(abs(s) for s in shifts),
        len(errors),
        len(found) - len(expected),
        rendered.duration_s,
        underflows,
        late,
    )


def pauses(env: dict, label: str) -> None:
    worst, shift, count, split, length, underflows, late = worst_pause_error(env)
    print(
        f"nuit de Poudlard jouée, {label} ({length:.0f} s, {count} silences) : pire erreur de pause"
        f" {worst * 1000:.1f} ms (objectif ≤ 20 ms), pire décalage sur la ligne de temps {shift * 1000:.0f} ms ;"
        f" la carte son à sec {underflows} fois, {split} passages coupés (silences mesurés par l'énergie,"
        f" trames de 5 ms) ; play() rendu {late * 1000:.0f} ms après la durée de son audio",
        flush=True,
    )


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=5, help="lancements (médiane ; 0 : les pauses seules)")
    options.add_argument("--busy", type=int, default=2, help="processus qui chargent la machine")
    options.add_argument("--tree", type=Path, default=ROOT, help="l'arbre de sources de narrator à mesurer")
    args = options.parse_args()
    tree = args.tree.resolve()
    sys.path.insert(0, str(tree))
    print(f"arbre mesuré : {tree} ; charge moyenne avant : {os.getloadavg()[0]:.2f} sur {os.cpu_count()} cœurs")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        server = AudioServer(folder / "pulse")
        server.start()
        try:
            os.environ.update(server.env)
            os.environ["NARRATOR_CACHE_DIR"] = str(folder / "cache-pauses")
            os.environ["NARRATOR_STATE_DIR"] = str(folder / "state")
            import sounddevice as sd

            sd._terminate()
            sd._initialize()
            env = {**os.environ, "PYTHONPATH": str(tree)}
            time_to_first_sample(env)  # the first stream ever on a fresh server: the null sink is slow to start
            first_samples(env, folder, args.runs, "machine au repos")
            pauses(env, "machine au repos")
            with busy(args.busy):
                first_samples(env, folder, args.runs, f"{args.busy} processus occupés")
                pauses(env, f"{args.busy} processus occupés")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
