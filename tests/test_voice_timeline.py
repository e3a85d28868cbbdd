"""Timeline arithmetic without audio: order, waits, multiplier, trimming, console and WAV ports."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from narrator.voice import (
    MARGIN_S,
    ConsoleSpeaker,
    Pause,
    Say,
    Segment,
    SoundDeviceSpeaker,
    Speaker,
    WavSpeaker,
    assemble,
    plan,
    read_wav,
)
from narrator.voice.console import format_time
from narrator.voice.pcm import trim

RATE = 22050


def test_plan_lays_lines_and_scaled_pauses_end_to_end():
    items = [Pause(0.5), Say("a", "Un."), Pause(1.0), Say("b", "Deux."), Say("c", "Trois."), Pause(2.0)]
    timeline = plan(items, [2.0, 3.0, 1.0], wait_multiplier=1.5)
    assert timeline.segments == (
        Segment("a", "Un.", 0.75, 2.75),
        Segment("b", "Deux.", 4.25, 7.25),
        Segment("c", "Trois.", 7.25, 8.25),  # no gap that the script did not ask for
    )
    assert timeline.duration_s == pytest.approx(8.25 + 3.0)


def test_plan_needs_one_duration_per_line():
    with pytest.raises(ValueError, match="2 durées pour 1 répliques"):
        plan([Say("a", "Un.")], [1.0, 2.0])


def test_items_refuse_nonsense():
    with pytest.raises(ValueError, match="négative"):
        Pause(-1)
    with pytest.raises(ValueError, match="négative"):
        Pause(float("nan"))
    with pytest.raises(ValueError, match="texte vide"):
        Say("a", "  ")


durations = st.floats(min_value=0.01, max_value=30, allow_nan=False)
scripts = st.lists(st.one_of(durations.map(Pause), durations.map(lambda d: Say("x", f"{d}"))), max_size=20)


@given(scripts, st.floats(min_value=0.1, max_value=5))
def test_plan_invariants(items, multiplier):
    lengths = [float(item.text) for item in items if isinstance(item, Say)]
    timeline = plan(items, lengths, multiplier)
    pauses = sum(item.seconds for item in items if isinstance(item, Pause))
    assert timeline.duration_s == pytest.approx(sum(lengths) + multiplier * pauses)
    ends = [0.0] + [s.end_s for s in timeline.segments]
    for previous_end, segment, length in zip(ends, timeline.segments, lengths):
        assert segment.start_s >= previous_end - 1e-9
        assert segment.end_s - segment.start_s == pytest.approx(length)


def tone(seconds: float, lead: float = 0.0, tail: float = 0.0) -> np.ndarray:
    """A 440 Hz tone with leading and trailing digital silence."""
    t = np.arange(round(seconds * RATE)) / RATE
    body = (8000 * np.sin(2 * np.pi * 440 * t)).astype(np.int16)
    return np.concatenate([np.zeros(round(lead * RATE), np.int16), body, np.zeros(round(tail * RATE), np.int16)])


def test_assemble_writes_pauses_as_silent_samples_at_the_planned_times():
    clips = [tone(0.5), tone(0.25)]
    items = [Pause(0.1), Say("a", "A"), Pause(0.3), Say("b", "B")]
    rendered = assemble(items, clips, RATE, wait_multiplier=2.0)
    assert rendered.rate == RATE
    assert rendered.duration_s == pytest.approx(0.2 + 0.5 + 0.6 + 0.25, abs=1 / RATE)
    for segment, clip in zip(rendered.segments, clips):
        start = round(segment.start_s * RATE)
        assert np.array_equal(rendered.pcm[start : start + len(clip)], clip)
    assert not rendered.pcm[: round(0.2 * RATE)].any()
    assert rendered.segments == plan(items, [len(c) / RATE for c in clips], 2.0, RATE).segments


def test_trim_keeps_exactly_the_margin_on_both_sides():
    margin = round(MARGIN_S * RATE)
    for lead, tail in [(0.4, 0.35), (0.0, 0.0), (0.01, 1.0)]:
        clipped = trim(tone(0.5, lead, tail))
        loud = np.flatnonzero(np.abs(clipped.astype(int)) > 64)
        assert loud[0] in (margin, margin + 1)  # a sine starts at 0: its first loud sample is next
        assert len(clipped) - 1 - loud[-1] in range(margin - 2, margin + 1)
    with pytest.raises(ValueError):
        trim(np.zeros(1000, np.int16))


def test_console_prints_each_line_at_its_time_on_a_fake_clock():
    out, waits = io.StringIO(), []
    console = ConsoleSpeaker(out=out, realtime=True, sleep=waits.append)
    items = [Pause(1.0), Say("a", "Fermez les yeux."), Pause(2.0), Say("b", "Ouvrez les yeux.")]
    rendered = assemble(items, [tone(1.5), tone(1.0)], RATE)
    console.play(rendered)
    console.play(rendered)
    assert out.getvalue().splitlines() == [
        "00:01.00  Fermez les yeux.",
        "00:04.50  Ouvrez les yeux.",
        "00:06.50  Fermez les yeux.",
        "00:10.00  Ouvrez les yeux.",
    ]
    assert waits == pytest.approx([1.0, 3.5, 1.0] * 2)
    assert sum(waits) == pytest.approx(2 * rendered.duration_s)
    assert format_time(59.999) == "01:00.00"


def test_wav_speaker_appends_plays_and_shifts_their_timelines(tmp_path):
    rendered = assemble([Say("a", "A"), Pause(0.5)], [tone(0.25)], RATE)
    with WavSpeaker(tmp_path / "night.wav") as speaker:
        speaker.play(rendered)
        speaker.play(rendered)
    pcm, rate = read_wav(tmp_path / "night.wav")
    assert rate == RATE
    assert np.array_equal(pcm, np.concatenate([rendered.pcm, rendered.pcm]))
    assert [s.start_s for s in speaker.segments] == pytest.approx([0.0, 0.75], abs=1 / RATE)


def test_every_adapter_is_a_speaker(tmp_path):
    assert isinstance(ConsoleSpeaker(), Speaker)
    with WavSpeaker(tmp_path / "x.wav") as wav:
        assert isinstance(wav, Speaker)
    assert issubclass(SoundDeviceSpeaker, Speaker)
