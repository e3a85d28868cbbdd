"""The night's ambience: each generated sound covers 1–4 kHz, loops without a click, sits at the narration's
loudness; the profile chooses it; mixed through a WAV file it is 20 LU under the narration."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from narrator.voice import (
    SAMPLE_RATE,
    Pause,
    Renderer,
    Say,
    VoiceError,
    WavSpeaker,
    find_profile,
    parse_profile,
    read_wav,
)
from narrator.voice.ambience import BAND_HZ, SOUNDS, make_bed, make_loop
from narrator.voice.bed import DUCK_ATTACK_S, DUCK_RELEASE_S, FADE_S
from narrator.voice.loudness import TARGET_LUFS, loudness
from narrator.voice.profile import Ambience

THIRD_OCTAVES_HZ = [1000, 1250, 1600, 2000, 2500, 3150, 4000]  # ISO 266 centres covering 1–4 kHz


def band_levels_db(samples: np.ndarray, rate: int = SAMPLE_RATE) -> np.ndarray:
    power = np.abs(np.fft.rfft(samples.astype(np.float64))) ** 2
    freqs = np.fft.rfftfreq(len(samples), 1 / rate)
    return np.array(
        [
            10 * np.log10(power[(freqs >= fc * 2 ** -(1 / 6)) & (freqs < fc * 2 ** (1 / 6))].sum())
            for fc in THIRD_OCTAVES_HZ
        ]
    )


def share_in_band(samples: np.ndarray, rate: int = SAMPLE_RATE) -> float:
    power = np.abs(np.fft.rfft(samples.astype(np.float64))) ** 2
    freqs = np.fft.rfftfreq(len(samples), 1 / rate)
    low, high = BAND_HZ[0] * 2 ** -(1 / 6), BAND_HZ[1] * 2 ** (1 / 6)  # the edges of the outer bands
    return float(power[(freqs >= low) & (freqs < high)].sum() / power.sum())


@pytest.mark.parametrize("sound", SOUNDS)
def test_each_sound_covers_the_band_of_a_card_slid_on_a_table(sound: str) -> None:
    loop = make_loop(sound)
    levels = band_levels_db(loop)
    print(
        f"{sound}: third-octave bands 1–4 kHz vs their mean {np.round(levels - levels.mean(), 1)} dB, share {share_in_band(loop):.2f}"
    )
    assert np.abs(levels - levels.mean()).max() < 3.0  # no band left bare, none standing out
    assert share_in_band(loop) > 0.7  # most of the bed's energy where it masks


@pytest.mark.parametrize("sound", SOUNDS)
def test_each_loop_wraps_without_a_click(sound: str) -> None:
    loop = make_loop(sound).astype(np.float64)
    steps = np.abs(np.diff(loop))
    wrap = abs(loop[0] - loop[-1])
    assert wrap <= np.percentile(steps, 99.9), f"wrap step {wrap:.4f}, ordinary steps {np.percentile(steps, 99.9):.4f}"
    # nor a dip or a bump in level: the 50 ms across the wrap are as loud as the loop's ordinary 50 ms
    window = round(0.05 * SAMPLE_RATE)
    across = np.concatenate([loop[-window // 2 :], loop[: window // 2]])
    ordinary = [np.sqrt(np.mean(loop[i : i + window] ** 2)) for i in range(0, len(loop) - window, window)]
    assert min(ordinary) <= np.sqrt(np.mean(across**2)) <= max(ordinary)


@pytest.mark.parametrize("sound", SOUNDS)
def test_each_loop_is_at_the_narration_loudness_and_the_same_every_time(sound: str) -> None:
    loop = make_loop(sound)
    assert len(loop) == 20 * SAMPLE_RATE
    assert loudness(np.rint(loop * 32767).astype(np.int16), SAMPLE_RATE) == pytest.approx(TARGET_LUFS, abs=0.2)
    assert np.array_equal(make_loop.__wrapped__(sound), loop)  # generated again, not from the cache: same samples
    assert not np.array_equal(make_loop.__wrapped__(sound, seed=1), loop)


def test_the_profile_chooses_the_sound_and_says_what_is_wrong_where() -> None:
    profile = parse_profile("ambience:\n  sound: pluie\n  level: -25\n", "p.yaml")
    assert profile.ambience == Ambience("pluie", -25.0, 12.0)
    assert find_profile("fr").ambience == Ambience("vent", -20.0, 12.0)
    with pytest.raises(VoiceError) as caught:
        parse_profile("ambience:\n  sound: orage\n  level: 0\n  duck: -1\n  bruit: oui\n", "p.yaml")
    assert str(caught.value).splitlines() == [
        'p.yaml:2:10: ambience.sound: attendu : une de vent, grillons, pluie, aucune ; trouvé : "orage"',
        "p.yaml:3:10: ambience.level: attendu : un nombre ≤ -8 ; trouvé : 0",
        "p.yaml:4:9: ambience.duck: attendu : un nombre ≥ 0 ; trouvé : -1",
        "p.yaml:5:3: ambience.bruit: clé inconnue « bruit » ; attendu : une de duck, level, sound",
    ]


def test_make_bed_follows_the_profile() -> None:
    assert make_bed(Ambience("aucune")) is None
    bed = make_bed(Ambience("grillons", -26.0, 9.0))
    assert bed is not None
    assert (bed.level_lu, bed.duck_db, bed.muted, bed.playing) == (-26.0, 9.0, False, False)
    assert np.array_equal(bed.loop, make_loop("grillons"))


NIGHT = [
    Say("nuit", "Tout le monde ferme les yeux."),
    Pause(5.0),
    Say("loups", "Loups-garous, réveillez-vous et reconnaissez-vous."),
    Pause(6.0),
    Say("dodo", "Loups-garous, rendormez-vous."),
    Pause(5.0),
    Say("voyante", "Voyante, réveille-toi, et regarde une carte."),
    Pause(6.0),
    Say("jour", "Le village se réveille."),
    Pause(2.0),
]


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory):
    return Renderer(find_profile("fr"), tmp_path_factory.mktemp("tts")).render(NIGHT)


def between_lines(length: int, segments, rate: int, after_s: float) -> np.ndarray:
    """Sample indexes after `after_s` that no line or its ducking ramps touch."""
    free = np.ones(length, bool)
    free[: round(after_s * rate)] = False
    for s in segments:
        free[max(0, round((s.start_s - DUCK_ATTACK_S) * rate)) : round((s.end_s + DUCK_RELEASE_S) * rate)] = False
    return np.flatnonzero(free)


@pytest.mark.parametrize("sound", SOUNDS)
def test_the_bed_is_20_lu_under_the_narration_in_a_night_written_to_a_wav(sound: str, night, tmp_path: Path) -> None:
    bed = make_bed(Ambience(sound))
    assert bed is not None
    bed.night(True)
    path = tmp_path / "nuit.wav"
    with WavSpeaker(path, bed=bed) as speaker:
        speaker.play(night)
        speaker.play(night)
        segments = speaker.segments
    mixed, rate = read_wav(path)
    speech = np.concatenate([night.pcm, night.pcm])
    assert [s.line_id for s in segments] == [s.line_id for s in night.segments] * 2  # the timeline unchanged
    ambience = mixed.astype(np.int32) - speech  # what the mix added: the bed alone
    narration_lufs = loudness(speech, rate)
    free = between_lines(len(mixed), segments, rate, after_s=FADE_S)
    bed_lufs = loudness(ambience[free].astype(np.int16), rate)
    assert narration_lufs is not None and bed_lufs is not None
    print(f"{sound}: narration {narration_lufs:.1f} LUFS, bed between lines {bed_lufs:.1f} LUFS")
    assert bed_lufs - narration_lufs == pytest.approx(-20.0, abs=1.0)
