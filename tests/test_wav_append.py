"""`narrator resume` goes on in the narration WAV: the audio before the stop is kept, the new follows it."""

from __future__ import annotations

import os
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest
from crash_rig import answers, command, kill_at

from narrator.table.journal import read_journal
from narrator.voice import Rendered, WavSpeaker, read_wav
from narrator.voice.timeline import Segment

RATE = 22050


def rendered(value: int, frames: int, line: str) -> Rendered:
    return Rendered(np.full(frames, value, np.int16), RATE, (Segment(line, line, 0.0, frames / RATE),))


def test_an_appending_speaker_keeps_what_the_file_held(tmp_path: Path) -> None:
    path = tmp_path / "n.wav"
    with WavSpeaker(path, RATE) as first:
        first.play(rendered(100, 2205, "a"))
    with WavSpeaker(path, RATE, append=True) as second:
        second.play(rendered(200, 1000, "b"))
        assert second.segments[0].start_s == pytest.approx(0.1)  # counted from the file's start
    pcm, rate = read_wav(path)
    assert rate == RATE and list(pcm[:2205]) == [100] * 2205 and list(pcm[2205:]) == [200] * 1000
    with WavSpeaker(path, RATE) as fresh:  # a new game's file starts anew
        fresh.play(rendered(7, 10, "c"))
    assert list(read_wav(path)[0]) == [7] * 10


def test_a_file_cut_by_a_kill_is_continued_after_its_last_sample(tmp_path: Path) -> None:
    path = tmp_path / "n.wav"
    speaker = WavSpeaker(path, RATE)
    speaker.play(rendered(100, 500, "a"))  # no close: the process dies here
    raw = path.read_bytes()
    path.write_bytes(raw[:40] + struct.pack("<I", 0) + raw[44:])  # a header not patched yet
    with WavSpeaker(path, RATE, append=True) as second:
        second.play(rendered(200, 100, "b"))
    assert list(read_wav(path)[0]) == [100] * 500 + [200] * 100


def test_a_file_of_another_kind_is_refused_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "n.wav"
    path.write_text("des notes de la partie", encoding="utf-8")
    with pytest.raises(OSError) as refused:
        WavSpeaker(path, RATE, append=True)
    assert "ce n'est pas un fichier WAV" in str(refused.value)
    assert path.read_text(encoding="utf-8") == "des notes de la partie"
    with WavSpeaker(tmp_path / "r.wav", 16000) as other:
        other.play(Rendered(np.zeros(10, np.int16), 16000, ()))
    with pytest.raises(OSError, match="PCM 16 bits mono à 22050 Hz"):
        WavSpeaker(tmp_path / "r.wav", RATE, append=True)


def test_resume_appends_to_the_narration_wav(tmp_path: Path) -> None:
    env = {**os.environ, "PULSE_SERVER": "unix:/nonexistent"}
    journal = tmp_path / "game.jsonl"
    kill_at(command(tmp_path, journal, answers(), False), env, journal, 3)
    before, _ = read_wav(tmp_path / "out.wav")
    assert len(before) > RATE  # the night was said
    _, events, _ = read_journal(journal)
    run = subprocess.run(
        command(tmp_path, journal, answers({"events": events}), True), env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    after, _ = read_wav(tmp_path / "out.wav")
    assert len(after) > len(before) and np.array_equal(after[: len(before)], before)
