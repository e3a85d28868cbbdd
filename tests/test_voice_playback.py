"""Real playback into a PulseAudio null sink, recorded from its monitor; no-sound-card fallback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from audio_server import speech_spans

from narrator.voice import (
    MARGIN_S,
    ConsoleSpeaker,
    Pause,
    Renderer,
    Say,
    SoundDeviceSpeaker,
    find_profile,
    open_speaker,
)

SCRIPT = [
    Pause(0.3),
    Say("nuit", "Tout le monde ferme les yeux."),
    Pause(0.7),
    Say("voyante", "Voyante, réveille-toi."),
    Pause(0.5),
    Say("jour", "Le village se réveille."),
    Pause(0.3),
]
TOLERANCE_S = 0.05
ROOT = Path(__file__).resolve().parent.parent


def edges(spans):
    return [t for span in spans for t in span]


def onset(pcm: np.ndarray, threshold: int = 300) -> int:
    """Index of the first clearly audible sample."""
    return int(np.flatnonzero(np.abs(pcm.astype(np.int32)) > threshold)[0])


def sample_edges(pcm: np.ndarray, spans, rate: int, threshold: int = 300) -> list[float]:
    """First and last clearly audible sample (seconds) near each span."""
    found = []
    for start, end in spans:
        a, b = max(0, round((start - 0.03) * rate)), round((end + 0.03) * rate)
        loud = np.flatnonzero(np.abs(pcm[a:b].astype(np.int32)) > threshold)
        found += [(a + loud[0]) / rate, (a + loud[-1]) / rate]
    return found


def dropouts(rendered: np.ndarray, heard: np.ndarray, rate: int, frame_s: float = 0.01) -> list[float]:
    """Times of loud frames of the rendered audio that are silent at the same time in `heard`."""
    frame = round(frame_s * rate)
    count = min(len(rendered), len(heard)) // frame

    def energy(pcm):
        return np.sqrt(np.mean(pcm[: count * frame].astype(np.float64).reshape(count, frame) ** 2, axis=1))

    expected, got = energy(rendered), energy(heard)
    # allow one frame of timing slack either side
    got = np.maximum(got, np.maximum(np.roll(got, 1), np.roll(got, -1)))
    missing = (expected > 0.1 * expected.max()) & (got < 0.01 * got.max())
    return [round(i * frame_s, 3) for i in np.flatnonzero(missing)]


@pytest.fixture(scope="module")
def speaker(audio_server):
    with SoundDeviceSpeaker() as speaker:
        yield speaker


def test_playback_is_gapless_and_follows_the_timeline(speaker, tmp_path: Path):
    import sounddevice as sd

    rendered = Renderer(find_profile("fr"), tmp_path).render(SCRIPT)
    rate = rendered.rate
    chunks: list[bytes] = []

    def record(indata, frames, time_info, status):
        chunks.append(bytes(indata))  # one stream per direction: full duplex fails on this device

    with sd.RawInputStream(samplerate=rate, channels=1, dtype="int16", callback=record):
        started = time.monotonic()
        speaker.play(rendered)
        played_s = time.monotonic() - started
        time.sleep(0.2)
    recording = np.frombuffer(b"".join(chunks), dtype="<i2")

    # The recording starts at an unknown moment: align it on the first sound, then every
    # line (merged across commas, as in the timeline) must follow within 50 ms.
    shift = onset(recording) - onset(rendered.pcm)
    assert shift >= 0, "the recording missed the start of the script"
    aligned = recording[shift:]
    timeline = [(s.start_s + MARGIN_S, s.end_s - MARGIN_S) for s in rendered.segments]
    heard = speech_spans(aligned, rate)
    assert len(heard) == len(timeline) == 3, f"heard {heard}, timeline {timeline}"
    errors = [abs(h - t) for h, t in zip(edges(heard), edges(timeline))]
    # the same edges to the sample, for the record
    exact = [abs(h - r) for h, r in zip(sample_edges(aligned, heard, rate), sample_edges(rendered.pcm, heard, rate))]
    # No gap the script did not ask for: every loud 10 ms of the script is loud when heard
    # (an underrun would silence some and push the rest late).
    missing = dropouts(rendered.pcm, aligned, rate)
    print(
        f"playback: line edges vs timeline max {max(errors) * 1000:.1f} ms (20 ms frames), "
        f"vs rendered audio to the sample max {max(exact) * 1000:.2f} ms, dropouts {missing}, "
        f"play() took {played_s:.3f} s for {rendered.duration_s:.3f} s of audio, underflows {speaker.underflows}"
    )
    assert max(errors) < TOLERANCE_S
    assert missing == []
    assert speaker.underflows == 0
    # never before its audio was heard; how soon after is a figure of benchmarks/play.py (a loaded
    # machine delays the return, not the sound)
    assert played_s >= rendered.duration_s


def test_each_play_returns_once_its_audio_is_heard(speaker, tmp_path: Path):
    """Never before, and after all that was queued before it with start() (how soon after is a figure
    of benchmarks/play.py, not a test: a loaded machine delays the return, not the sound)."""
    rendered = Renderer(find_profile("fr"), tmp_path).render(SCRIPT[:2])
    for queued in (0, 1):
        for _ in range(queued):
            assert speaker.start(rendered)
        started = time.monotonic()
        speaker.play(rendered)
        assert time.monotonic() - started >= (1 + queued) * rendered.duration_s


def test_unknown_device_falls_back_to_the_console_with_a_french_sentence():
    notice = io.StringIO()
    speaker = open_speaker(device="haut-parleur-inexistant", notice=notice)
    assert isinstance(speaker, ConsoleSpeaker)
    assert notice.getvalue().startswith("Pas de carte son utilisable (")
    assert "le texte s'affichera à l'écran à la place de la voix." in notice.getvalue()


def test_no_audio_server_falls_back_without_traceback(tmp_path: Path):
    # A fresh process, so PortAudio initialises with no server in reach: like a machine
    # without a sound card.
    env = {**os.environ, "XDG_RUNTIME_DIR": str(tmp_path), "PULSE_SERVER": f"unix:{tmp_path}/absent"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    code = (
        "import sounddevice as sd\n"
        "if any(d['max_output_channels'] for d in sd.query_devices()): print('CARD')\n"
        "from narrator.voice import open_speaker\n"
        "print(type(open_speaker()).__name__)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    if result.stdout.startswith("CARD"):
        pytest.skip("this machine has a real sound card")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ConsoleSpeaker\n"
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("Pas de carte son utilisable (aucune sortie audio")
