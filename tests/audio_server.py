"""Test rig for real audio: a private PulseAudio server with a null sink, and speech finding."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import numpy as np

SINK = "table"
PACKAGES = "pulseaudio pulseaudio-utils libasound2-plugins libportaudio2"


class AudioServer:
    """A user-level PulseAudio whose default sink is a null sink `table` (source: its monitor)."""

    def __init__(self, runtime_dir: Path) -> None:
        self.runtime_dir = Path(runtime_dir)
        self.socket = self.runtime_dir / "pulse" / "native"
        self.log = self.runtime_dir / "pulseaudio.log"
        self.env = {"XDG_RUNTIME_DIR": str(self.runtime_dir), "PULSE_SERVER": f"unix:{self.socket}"}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout_s: float = 10.0) -> None:
        """Start the server and make `table` the default sink and `table.monitor` the default source."""
        missing = [tool for tool in ("pulseaudio", "pactl") if shutil.which(tool) is None]
        if missing:
            raise RuntimeError(f"{', '.join(missing)} not installed: apt-get install {PACKAGES}")
        self.runtime_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        env = {**os.environ, **self.env}
        # Not --daemonize=yes: as our own child the server is stopped by its pid
        # and reaped (a daemon's intermediate processes linger as zombies).
        command = [
            "pulseaudio",
            "--daemonize=no",
            "--exit-idle-time=-1",
            "-n",
            "--load=module-native-protocol-unix",
            f"--load=module-null-sink sink_name={SINK}",
            "--load=module-always-sink",
        ]
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                command, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True
            )
        deadline = time.monotonic() + timeout_s
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"pulseaudio exited with {self.process.returncode}:\n{self.log.read_text()}")
            ready = subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0
            if ready:
                break
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"pulseaudio not ready after {timeout_s} s:\n{self.log.read_text()}")
            time.sleep(0.05)
        for setting in (["set-default-sink", SINK], ["set-default-source", f"{SINK}.monitor"]):
            subprocess.run(["pactl", *setting], env=env, check=True, capture_output=True)

    def stop(self) -> None:
        """Stop the server we started, by its pid."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process = None


def speech_spans(
    pcm: np.ndarray, rate: int, frame_s: float = 0.02, merge_gap_s: float = 0.45, min_s: float = 0.04
) -> list[tuple[float, float]]:
    """(start, end) seconds of speech, by the energy of `frame_s` frames; shorter gaps are merged."""
    frame = round(frame_s * rate)
    count = len(pcm) // frame
    if count == 0:
        return []
    frames = pcm[: count * frame].astype(np.float64).reshape(count, frame)
    energy = np.sqrt(np.mean(frames**2, axis=1))
    loud = energy > max(30.0, 0.01 * energy.max())
    spans: list[list[float]] = []
    for index in np.flatnonzero(loud):
        start, end = index * frame_s, (index + 1) * frame_s
        if spans and start - spans[-1][1] < merge_gap_s:
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return [(a, b) for a, b in spans if b - a >= min_s]
