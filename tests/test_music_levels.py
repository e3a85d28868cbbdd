"""The night's music under the voice as it is heard, and settings.yaml's values checked (an outside
tester lowered the voice four times and the music ended up louder than it; a hand-edited NaN silenced a
whole game)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from test_music import narrator
from test_session import ClockSpeaker, fake_render

from narrator.app.startup import Options, make_night_music
from narrator.table.clock import FakeClock
from narrator.table.settings import Settings, Tuner, load_settings, save_settings, settings_path
from narrator.table.voice import Voice
from narrator.voice import Profile, read_wav
from narrator.voice.bed import FADE_S, Bed

RATE = 22050


@pytest.fixture(autouse=True)
def _private_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NARRATOR_CONFIG_DIR", str(tmp_path / "config"))


def level_db(bed: Bed) -> float:
    """The music's level once its fade is over, in dB of full scale (its loop is a constant 0.5)."""
    bed.night(True)
    bed.fill(round((FADE_S + 0.5) * RATE))  # the fade in, whole
    heard = bed.fill(RATE)
    assert heard is not None
    return 20 * np.log10(np.abs(heard.astype(np.float64)).mean() / 32767 / 0.5)


def test_quieter_voice_quieter_music_so_it_stays_under_the_voice() -> None:
    loud = Bed(np.full(2 * RATE, 0.5, np.float32), RATE, -20.0)
    before = level_db(loud)
    bed = Bed(np.full(2 * RATE, 0.5, np.float32), RATE, -20.0)
    voice = Voice(fake_render, ClockSpeaker(FakeClock()), bed=bed)
    tune = Tuner(Profile(), voice, Settings(), keep=False)
    for _ in range(2):  # « moins fort », twice: the voice at 0.6 of its volume
        assert tune.refusal("quieter") is None
        tune.apply("quieter")
    assert level_db(bed) == pytest.approx(before + 20 * np.log10(0.6), abs=0.05)


def test_the_start_up_sets_the_music_under_the_saved_voice_volume() -> None:
    full = make_night_music(Options())
    save_settings(Settings(volume=0.2, music_level=-8.0))
    quiet = make_night_music(Options())
    assert full is not None and quiet is not None
    # -8 LU under a voice 14 dB quieter: 12 dB louder than -20 LU under a full voice, minus those 14 dB
    full_db, quiet_db = level_db(full), level_db(quiet)
    assert quiet_db - full_db == pytest.approx(12.0 + 20 * np.log10(0.2), abs=0.1)


@pytest.mark.parametrize(
    "line",
    [
        "volume: -3",
        "volume: 0",
        "wait_multiplier: -1",
        "rate: 5000",
        "music_level: .nan",
        "music_level: 4",
        "rate: [1]",
    ],
)
def test_a_bad_value_in_settings_yaml_is_left_out_and_said_once(line: str) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(f"{line}\nmusic: false\n", encoding="utf-8")
    notice = io.StringIO()
    assert load_settings(notice=notice) == Settings(music=False)
    assert load_settings(notice=notice) == Settings(music=False)
    name = line.split(":")[0]
    assert notice.getvalue().count("\n") == 1 and f"réglage ignoré : {name}" in notice.getvalue()


def test_a_game_with_bad_settings_values_has_its_usual_music(tmp_path: Path) -> None:
    usual = make_night_music(Options())
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("music_level: .nan\nvolume: 0\n", encoding="utf-8")
    bed = make_night_music(Options())
    assert usual is not None and bed is not None
    assert bed.level_lu == usual.level_lu and level_db(bed) == pytest.approx(level_db(usual), abs=0.01)


def test_render_has_music_under_the_night_only_as_the_table_hears_it(tmp_path: Path) -> None:
    """`narrator render` writes the legend without music (as a game plays it), the music fading in with the
    night's first line and out once the day has begun."""
    game = ["render", "poudlard", "--players", "Ana,Ben,Cleo", "--scenario", "premiere_annee"]
    music = narrator(tmp_path, *game, "--out", str(tmp_path / "music.wav"))
    bare = narrator(tmp_path, *game, "--out", str(tmp_path / "bare.wav"), "--sans-musique")
    assert music.returncode == 0 and bare.returncode == 0, music.stderr + bare.stderr
    assert music.stdout == bare.stdout  # the same lines at the same times
    lines = [line.split("\t") for line in music.stdout.splitlines()]
    night = next(float(start) for _id, text, start, _end in lines if "Fermez tous les yeux" in text)
    day = next(float(start) for _id, text, start, _end in lines if "Réveillez-vous tous" in text)
    with_music, rate = read_wav(tmp_path / "music.wav")
    speech, _ = read_wav(tmp_path / "bare.wav")
    under = np.abs(with_music.astype(np.int32) - speech)
    assert not under[: round(night * rate) - round(0.1 * rate)].any()  # the legend: no music at all
    assert under[round((night + 3) * rate) : round((day - 1) * rate)].mean() > 50  # the night: music
    assert not under[round((day + FADE_S + 1) * rate) :].any()  # faded out once the day has begun
