"""Real espeak-ng through pyttsx3: timings found in the audio, cache, errors (voice packs: test_voice_pack.py)."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from audio_server import speech_spans

from narrator.voice import MARGIN_S, SAMPLE_RATE, Pause, Renderer, Say, VoiceError, find_profile

NIGHT = [
    Pause(0.2),
    Say("nuit.debut", "Tout le monde ferme les yeux."),
    Pause(1.0),
    Say("loups.reveil", "Loups-garous, réveillez-vous et regardez-vous."),
    Pause(1.5),
    Say("loups.dodo", "Loups-garous, rendormez-vous."),
    Pause(0.8),
    Say("jour", "Le village se réveille."),
    Pause(0.3),
]
TOLERANCE_S = 0.05


def speech_of(segments):
    """Where the speech of each line should be: its clip minus the fixed margins."""
    return [(s.start_s + MARGIN_S, s.end_s - MARGIN_S) for s in segments]


def timing_errors(found, expected):
    assert len(found) == len(expected), f"found {found}, expected {expected}"
    return [max(abs(a - c), abs(b - d)) for (a, b), (c, d) in zip(found, expected)]


@pytest.fixture
def profile():
    return find_profile("fr")


def test_speech_in_the_audio_matches_the_timeline(profile, tmp_path: Path):
    rendered = Renderer(profile, tmp_path).render(NIGHT)
    assert [s.line_id for s in rendered.segments] == ["nuit.debut", "loups.reveil", "loups.dodo", "jour"]
    errors = timing_errors(speech_spans(rendered.pcm, rendered.rate), speech_of(rendered.segments))
    print(f"segment timing errors (s): {[round(e, 3) for e in errors]}")
    assert max(errors) < TOLERANCE_S
    # the pauses are exact silent stretches between clips
    first, second = rendered.segments[:2]
    assert second.start_s - first.end_s == pytest.approx(1.0, abs=1 / SAMPLE_RATE)
    assert not rendered.pcm[round(first.end_s * SAMPLE_RATE) : round(second.start_s * SAMPLE_RATE)].any()


def test_wait_multiplier_scales_pauses_only(profile, tmp_path: Path):
    plain = Renderer(profile, tmp_path).render(NIGHT)
    slow = Renderer(replace(profile, wait_multiplier=2.0), tmp_path).render(NIGHT)
    pauses = sum(item.seconds for item in NIGHT if isinstance(item, Pause))
    assert slow.duration_s - plain.duration_s == pytest.approx(pauses, abs=1e-3)
    lengths = [s.end_s - s.start_s for s in plain.segments]
    assert [s.end_s - s.start_s for s in slow.segments] == pytest.approx(lengths, abs=1e-9)


def test_second_render_comes_from_the_cache(profile, tmp_path: Path):
    cold = Renderer(profile, tmp_path)
    started = time.perf_counter()
    first = cold.render(NIGHT)
    cold_s = time.perf_counter() - started
    assert cold.tts.synthesized == 4

    warm = Renderer(profile, tmp_path)  # a new session: only the disk cache is shared
    started = time.perf_counter()
    second = warm.render(NIGHT)
    warm_s = time.perf_counter() - started
    print(f"cold render {cold_s * 1000:.1f} ms, cached render {warm_s * 1000:.1f} ms")
    assert warm.tts.synthesized == 0
    assert np.array_equal(first.pcm, second.pcm)
    assert first.segments == second.segments

    changed = Renderer(replace(profile, rate=200), tmp_path)  # another voice setting, another key
    changed.render(NIGHT[:2])
    assert changed.tts.synthesized == 1


def test_pitch_is_honoured(profile, tmp_path: Path):
    say = [Say("a", "Bonjour à tous.")]
    low = Renderer(replace(profile, pitch=10), tmp_path).render(say).pcm
    high = Renderer(replace(profile, pitch=90), tmp_path).render(say).pcm
    assert not np.array_equal(low, high)


@pytest.mark.parametrize("voice", ["roa/xx", "mb-fr1"])
def test_missing_voice_is_an_error_not_a_silent_or_english_wav(profile, tmp_path: Path, voice):
    bad = replace(profile, voice=voice, source="voices/bad.yaml")
    with pytest.raises(VoiceError, match=rf"^voices/bad.yaml: la voix '{voice}' .*roa/fr"):
        Renderer(bad, tmp_path).render([Say("a", "Bonjour à tous.")])
    assert not list(tmp_path.glob("*.wav")), "no unchecked file may enter the cache"
    # the shared engine is not left in a broken state
    good = Renderer(profile, tmp_path).render([Say("a", "Bonjour à tous.")])
    assert good.duration_s > 0.5


LONG = " ".join(["Les loups-garous se réveillent, choisissent une victime, puis se rendorment."] * 12)


def test_long_line_is_complete_and_stdout_stays_clean(profile, tmp_path: Path, capfd):
    # pyttsx3's runAndWait() returns while espeak's thread is still writing a long line, and
    # that thread prints "Audio saved to …": both must be waited for and kept off stdout.
    renderer = Renderer(profile, tmp_path)
    rendered = renderer.render([Say("long", LONG)])
    assert rendered.duration_s > 40
    again = renderer.tts.render(LONG)  # from the cache: the whole file had been written
    assert len(again) > 40 * SAMPLE_RATE
    out, _ = capfd.readouterr()
    assert out == ""
