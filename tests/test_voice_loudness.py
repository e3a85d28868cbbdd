"""Every line at one programme loudness (ITU-R BS.1770 through pyloudnorm), recorded or synthesized."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from narrator.voice import SAMPLE_RATE, Renderer, Say, find_profile
from narrator.voice.loudness import TARGET_LUFS, Leveller, loudness, volume_db

LINES = [
    Say("a", "Loups-garous, réveillez-vous et reconnaissez-vous."),
    Say("b", "Tout le monde ferme les yeux."),
    Say("c", "Il reste une minute."),
]


def tone(seconds: float, amplitude: float, hz: float = 440.0) -> np.ndarray:
    t = np.arange(round(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    return (amplitude * 32767 * np.sin(2 * np.pi * hz * t)).astype(np.int16)


def test_synthesized_lines_are_brought_to_the_target_loudness(tmp_path: Path) -> None:
    renderer = Renderer(find_profile("fr"), tmp_path)
    rendered = renderer.render(LINES)
    for segment in rendered.segments:
        clip = rendered.pcm[round(segment.start_s * SAMPLE_RATE) : round(segment.end_s * SAMPLE_RATE)]
        assert loudness(clip, SAMPLE_RATE) == pytest.approx(TARGET_LUFS, abs=0.5)


def test_a_line_too_short_to_measure_takes_its_sources_usual_gain() -> None:
    leveller = Leveller(SAMPLE_RATE)
    quiet = tone(1.0, 0.05)
    gain = leveller.gain_db(quiet)
    assert loudness(leveller.level(quiet), SAMPLE_RATE) == pytest.approx(TARGET_LUFS, abs=0.2)
    short = tone(0.2, 0.05)
    assert loudness(short, SAMPLE_RATE) is None
    assert leveller.gain_db(short) == pytest.approx(gain, abs=0.01)


def test_a_line_that_would_clip_is_lowered_instead() -> None:
    spiky = tone(1.0, 0.002)
    spiky[1000] = 30000  # one click far louder than the rest
    out = Leveller(SAMPLE_RATE).level(spiky)
    assert np.abs(out.astype(np.int32)).max() <= 0.944 * 32767 + 1


def test_the_profiles_volume_moves_the_level_in_decibels(tmp_path: Path) -> None:
    leveller = Leveller(SAMPLE_RATE)
    line = tone(1.0, 0.05)
    assert loudness(leveller.level(line, volume_db(0.5)), SAMPLE_RATE) == pytest.approx(TARGET_LUFS - 6.02, abs=0.2)


def test_a_warm_cache_never_loads_the_meter(tmp_path: Path) -> None:
    """The meter's scipy costs a second or two of start-up: a game whose lines and night music were all
    measured before (the loudness kept in the cache) does not load it."""
    program = (
        "import sys\n"
        "from narrator.voice import Renderer, Say, find_profile\n"
        "from narrator.voice.ambience import make_bed\n"
        "profile = find_profile('fr')\n"
        "Renderer(profile).render([Say('a', 'Tout le monde ferme les yeux.'), Say('b', 'Oui.')])\n"
        "make_bed(profile.ambience)\n"
        "print('pyloudnorm' in sys.modules)\n"
    )
    env = dict(os.environ, NARRATOR_CACHE_DIR=str(tmp_path), PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    runs = [
        subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True)
        for _ in "12"
    ]
    assert [run.stdout.strip() for run in runs] == ["True", "False"]
