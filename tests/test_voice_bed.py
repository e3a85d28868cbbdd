"""The bed under the narration: ducked under each line with ramps, faded with the night, changed by the
table, never clicking from one block to the next; and through the real speaker, heard between plays."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from audio_server import speech_spans

from narrator.voice import (
    MARGIN_S,
    SAMPLE_RATE,
    Pause,
    Rendered,
    Renderer,
    Say,
    Segment,
    SoundDeviceSpeaker,
    find_profile,
)
from narrator.voice.bed import DUCK_ATTACK_S, DUCK_DB, DUCK_RELEASE_S, FADE_S, LEVEL_STEP_LU, Bed

RATE = SAMPLE_RATE
STEADY = 0.5  # a constant loop: what comes out is the bed's gain itself, sample by sample


def steady_bed(**settings: float) -> Bed:
    return Bed(np.full(RATE * 2, STEADY, np.float32), RATE, **settings)


def settled(bed: Bed) -> Bed:
    """The bed after its fade-in."""
    bed.night(True)
    bed.fill(round((FADE_S + 0.1) * RATE))
    return bed


def silence(seconds: float, *segments: Segment) -> Rendered:
    return Rendered(np.zeros(round(seconds * RATE), np.int16), RATE, segments)


def db(a: float, b: float) -> float:
    return 20 * np.log10(a / b)


def level(pcm: np.ndarray) -> float:
    return float(np.sqrt(np.mean(pcm.astype(np.float64) ** 2)))


def test_the_bed_gives_way_under_each_line_with_ramps() -> None:
    bed = settled(steady_bed())
    out = bed.mix(silence(8.0, Segment("a", "…", 2.0, 5.0))).pcm
    full = STEADY * 10 ** (-20 / 20) * 32767
    at = lambda seconds: int(out[round(seconds * RATE)])  # noqa: E731
    assert at(1.0) == pytest.approx(full, abs=1)
    assert db(at(1.0), at(3.5)) == pytest.approx(DUCK_DB, abs=0.2)  # under the line
    assert at(7.0) == pytest.approx(full, abs=1)  # back after it
    assert at(2.0 - DUCK_ATTACK_S / 2) == pytest.approx((full + at(3.5)) / 2, abs=2)  # halfway down the attack
    assert at(5.0 + DUCK_RELEASE_S / 2) == pytest.approx((full + at(3.5)) / 2, abs=2)  # halfway up the release
    assert np.abs(np.diff(out.astype(np.int32))).max() <= 1  # ramps, not steps: no click


def test_blocks_go_on_from_one_another_without_a_jump() -> None:
    """A line ending with its buffer keeps releasing in the silence after; a line at the very start of
    a buffer is ramped into from the silence before it."""
    bed = settled(steady_bed())
    blocks = [
        bed.fill(RATE // 2),
        bed.mix(silence(1.0, Segment("a", "…", 0.2, 1.0))).pcm,  # the line ends with the buffer
        bed.fill(RATE // 10),
        bed.fill(RATE // 2),
        bed.mix(silence(1.0, Segment("b", "…", 0.0, 0.8))).pcm,  # a line right at the start
        bed.fill(RATE),
    ]
    out = np.concatenate([b for b in blocks if b is not None]).astype(np.int32)
    assert len(out) == round(4.1 * RATE)
    assert np.abs(np.diff(out)).max() <= 1
    full, under = out[round(0.2 * RATE)], out[round(1.4 * RATE)]
    assert db(full, under) == pytest.approx(DUCK_DB, abs=0.2)
    assert out[round((1.5 + DUCK_RELEASE_S / 2) * RATE)] == pytest.approx(
        (full + under) / 2, abs=2
    )  # released in the fill
    assert out[round(2.0 * RATE)] == full


def test_the_night_fades_the_bed_in_and_out() -> None:
    bed = steady_bed()
    assert bed.fill(1000) is None and not bed.playing  # the day: nothing
    bed.night(True)
    assert bed.playing
    rise = bed.fill(round(FADE_S * RATE))
    assert rise is not None
    full = STEADY * 10 ** (-20 / 20) * 32767
    assert rise[round(FADE_S / 2 * RATE)] == pytest.approx(full / 2, abs=2)  # a linear fade, FADE_S long
    assert rise[-1] == pytest.approx(full, abs=1)
    assert np.abs(np.diff(rise.astype(np.int32))).max() <= 1
    bed.night(False)
    fall = bed.fill(round(FADE_S * RATE))
    assert fall is not None and fall[0] == pytest.approx(full, abs=1) and fall[-1] == 0
    assert not bed.playing
    assert bed.fill(1000) is None


def test_louder_softer_and_mute_change_the_level_heard() -> None:
    bed = settled(steady_bed())
    before = level(bed.fill(RATE))
    assert bed.louder()
    bed.fill(round(FADE_S * RATE))  # the change is eased in
    assert db(level(bed.fill(RATE)), before) == pytest.approx(LEVEL_STEP_LU, abs=0.1)
    assert bed.softer() and bed.softer()
    bed.fill(round(FADE_S * RATE))
    assert db(level(bed.fill(RATE)), before) == pytest.approx(-LEVEL_STEP_LU, abs=0.1)
    while bed.louder():
        pass
    assert bed.level_lu == -8 and not bed.louder()
    bed.mute(True)
    assert bed.muted
    bed.fill(round(FADE_S * RATE))
    assert bed.fill(RATE) is None and not bed.playing
    bed.mute(False)
    assert bed.playing


def test_the_speech_is_unchanged_and_each_speaker_runs_its_own_track() -> None:
    speech = (np.sin(np.arange(RATE) / 5) * 8000).astype(np.int16)
    rendered = Rendered(speech, RATE, (Segment("a", "…", 0.1, 0.9),))
    bed = Bed(np.random.default_rng(0).standard_normal(RATE * 2).astype(np.float32) * 0.1, RATE)
    bed.night(True)
    first, second = bed.track(), bed.track()
    a, b = first.mix(rendered), second.mix(rendered)
    assert a.segments is rendered.segments and np.array_equal(a.pcm, b.pcm)  # the same bed on each output
    assert np.array_equal(rendered.pcm, speech)  # the buffer played is not touched
    assert not np.array_equal(a.pcm, speech)
    assert np.abs(a.pcm.astype(np.int32) - speech).max() < 0.1 * 32767 * 10 ** (-20 / 20) * 5


SCRIPT = [Pause(0.3), Say("nuit", "Tout le monde ferme les yeux."), Pause(0.8), Say("jour", "Le village se réveille.")]
BED_RMS = 20.0  # the bed's level in the test, in int16 steps: clearly heard, under the speech finder's threshold


def recorded(chunks: list[bytes], seconds: float) -> None:
    """Wait until the recording holds `seconds` more of sound (int16 mono at RATE)."""
    wanted = sum(map(len, chunks)) + round(seconds * RATE) * 2
    deadline = time.monotonic() + 60 + seconds * 10
    while sum(map(len, chunks)) < wanted:
        assert time.monotonic() < deadline, "the sink stopped recording"
        time.sleep(0.02)


def test_through_the_speaker_the_bed_is_heard_between_plays_and_the_speech_keeps_its_time(audio_server, tmp_path: Path):
    import sounddevice as sd

    rendered = Renderer(find_profile("fr"), tmp_path).render(SCRIPT)
    # steady noise within 500–5000 Hz: the null sink's resampling leaves that band untouched
    spectrum = np.fft.rfft(np.random.default_rng(1).standard_normal(RATE * 3))
    spectrum[(np.fft.rfftfreq(RATE * 3, 1 / RATE) < 500) | (np.fft.rfftfreq(RATE * 3, 1 / RATE) > 5000)] = 0
    noise = np.fft.irfft(spectrum, RATE * 3)
    bed = Bed((noise / np.sqrt(np.mean(noise**2)) * BED_RMS / 32767 * 10).astype(np.float32), RATE)  # -20 LU: ×0.1
    chunks: list[bytes] = []

    def record(indata, frames, time_info, status):
        chunks.append(bytes(indata))

    with (
        SoundDeviceSpeaker(bed=bed) as speaker,
        sd.RawInputStream(samplerate=RATE, channels=1, dtype="int16", callback=record),
    ):
        bed.night(True)
        # waits counted in recorded samples (the sink's clock), not the wall clock a loaded machine stretches
        recorded(chunks, FADE_S + 1.2)  # the bed fades in with nothing to play: filled by the speaker alone
        speaker.play(rendered)
        recorded(chunks, 1.5)  # the table is listened to: the bed goes on
        speaker.play(rendered)
        recorded(chunks, 0.3)
        underflows = speaker.underflows
    heard = np.frombuffer(b"".join(chunks), dtype="<i2")

    spans = speech_spans(heard, RATE)
    assert len(spans) == 4, f"heard {spans}"
    # the bed alone: before the first line, after the fade-in; between the two plays
    before = heard[round((spans[0][0] - 1.0) * RATE) : round((spans[0][0] - 0.3) * RATE)]
    between = heard[round((spans[1][1] + 0.8) * RATE) : round((spans[2][0] - 0.5) * RATE)]
    print(f"bed alone: {level(before):.1f} before, {level(between):.1f} between plays (expected {BED_RMS})")
    assert level(before) == pytest.approx(BED_RMS, rel=0.1)
    assert level(between) == pytest.approx(BED_RMS, rel=0.1)
    # each play's lines where its timeline puts them (aligned on its first line), the bed under them
    timeline = [(s.start_s + MARGIN_S, s.end_s - MARGIN_S) for s in rendered.segments]
    for first, second in (spans[0:2], spans[2:4]):
        shift = first[0] - timeline[0][0]
        errors = [abs(h - shift - t) for h, t in zip([*first, *second], [*timeline[0], *timeline[1]])]
        assert max(errors) < 0.05, f"heard {first, second}, timeline {timeline} shifted by {shift:.3f} s"
    assert underflows == 0
