"""Seconds of narration rendered per second of wall time, full Poudlard night: pyttsx3 (our path) vs bare espeak-ng -w;
then the whole night rendered (levelled, pauses laid out) and mixed with the night's ambience as a WAV file is, and
each ambience against the narration: its level in 1–4 kHz (where a card slid on a table is heard) and its loudness.

Run: python benchmarks/render.py   (cold cache: a fresh temporary folder, a fresh engine)
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.script.onenight.script import load_shipped  # noqa: E402
from narrator.table.onenight.announcer import plan  # noqa: E402
from narrator.voice import Renderer, Say, Tts, WavSpeaker, find_profile, read_wav  # noqa: E402
from narrator.voice.ambience import BAND_HZ, SOUNDS, make_bed, make_loop  # noqa: E402
from narrator.voice.bed import FADE_S  # noqa: E402
from narrator.voice.loudness import loudness  # noqa: E402
from narrator.voice.profile import Ambience  # noqa: E402

# The full Poudlard night as the script says it: the legend of all 13 characters, every call,
# the day's opening — every line a table of that game can hear.
_POUDLARD = load_shipped("poudlard")
_PLAN = plan(_POUDLARD.announce, list(_POUDLARD.rules.roles))
NIGHT = [item.text for item in _PLAN.opening if isinstance(item, Say)]


def seconds_of(pcm_and_rate: tuple) -> float:
    pcm, rate = pcm_and_rate
    return len(pcm) / rate


def main() -> None:
    profile = find_profile("fr")
    with tempfile.TemporaryDirectory() as folder:
        tts = Tts(profile, Path(folder) / "cache")
        started = time.perf_counter()
        clips = tts.render_all(NIGHT)  # includes the engine's start-up, as a session pays it
        ours_s = time.perf_counter() - started
        narration_s = sum(len(clip) for clip in clips) / 22050

        warm = Tts(profile, Path(folder) / "cache2")  # engine already up: synthesis only
        started = time.perf_counter()
        warm.render_all(NIGHT)
        warm_s = time.perf_counter() - started

        espeak = shutil.which("espeak-ng")
        if espeak is None:
            sys.exit("espeak-ng absent : apt-get install espeak-ng")
        volume = str(round(profile.volume * 100))
        started = time.perf_counter()
        bare_s_of_audio = 0.0
        for index, text in enumerate(NIGHT):
            out = Path(folder) / f"bare{index}.wav"
            command = [espeak, "-v", profile.voice, "-s", str(profile.rate), "-a", volume, "-p", str(profile.pitch)]
            subprocess.run([*command, "-w", str(out), text], check=True)
            bare_s_of_audio += seconds_of(read_wav(out))
        bare_s = time.perf_counter() - started

    print(f"{len(NIGHT)} lignes, {narration_s:.1f} s de narration (espeak-ng nu : {bare_s_of_audio:.1f} s)")
    print(f"pyttsx3, cache vide, moteur à démarrer : {ours_s:.3f} s → {narration_s / ours_s:.0f}× le temps réel")
    print(f"pyttsx3, cache vide, moteur démarré    : {warm_s:.3f} s → {narration_s / warm_s:.0f}× le temps réel")
    print(f"espeak-ng -w, un processus par ligne   : {bare_s:.3f} s → {bare_s_of_audio / bare_s:.0f}× le temps réel")
    print(f"rapport pyttsx3 / espeak-ng (temps)    : {ours_s / bare_s:.2f} (moteur démarré : {warm_s / bare_s:.2f})")
    ambience(profile)


def band_power(pcm: np.ndarray, rate: int) -> float:
    """Mean power per sample in 1–4 kHz (the outer third-octave bands' edges included)."""
    spectrum = np.abs(np.fft.rfft(pcm.astype(np.float64))) ** 2
    freqs = np.fft.rfftfreq(len(pcm), 1 / rate)
    inside = (freqs >= BAND_HZ[0] * 2 ** -(1 / 6)) & (freqs < BAND_HZ[1] * 2 ** (1 / 6))
    return float(spectrum[inside].sum() / len(pcm) ** 2)


def ambience(profile) -> None:
    """The whole night (every line, every pause) rendered and mixed with each bed, and each bed against it."""
    started = time.perf_counter()
    loudness(np.ones(22050, np.int16), 22050)  # pyloudnorm and scipy loaded: once a session, like the engine
    meter_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        night = Renderer(profile, Path(folder) / "cache").render(_PLAN.opening)  # cold cache, levelling included
        render_s = time.perf_counter() - started
        print(
            f"\nla nuit entière (pauses comprises) : {night.duration_s:.1f} s, rendue et nivelée (cache vide) en "
            f"{render_s:.3f} s ; mesureur de sonie chargé avant, une fois par session : {meter_s:.3f} s"
        )
        speech = np.concatenate(
            [night.pcm[round(s.start_s * night.rate) : round(s.end_s * night.rate)] for s in night.segments]
        )
        speech_band, speech_lufs = band_power(speech, night.rate), loudness(night.pcm, night.rate)
        for sound in SOUNDS:
            started = time.perf_counter()
            make_loop.__wrapped__(sound)  # not from the process's cache: what a start-up pays
            make_s = time.perf_counter() - started
            bed = make_bed(Ambience(sound))
            assert bed is not None
            bed.night(True)
            started = time.perf_counter()
            with WavSpeaker(Path(folder) / f"{sound}.wav", bed=bed) as wav:
                wav.play(night)
            mix_s = time.perf_counter() - started
            total = night.duration_s / (render_s + mix_s)
            heard = make_loop(sound) * 10 ** (bed.level_lu / 20) * 32767  # the bed between lines, at its level
            bed_lufs = loudness(np.rint(heard).astype(np.int16), night.rate)
            mixed, _ = read_wav(Path(folder) / f"{sound}.wav")
            added = (mixed.astype(np.int32) - night.pcm)[round(FADE_S * night.rate) :]  # the bed as mixed, ducked
            print(
                f"{sound:9}: boucle générée en {make_s * 1000:.0f} ms ; mixage {mix_s:.3f} s → rendu + mixage "
                f"{total:.0f}× le temps réel (mixage seul {night.duration_s / mix_s:.0f}×)"
            )
            block, track = np.zeros(1024, np.int16), bed.track()  # the sound card's thread: one block at a time
            track.mix_into(block, [(0.01, 0.03)])
            started = time.perf_counter()
            for _ in range(500):
                track.mix_into(block, [(0.01, 0.03)])
            block_us = (time.perf_counter() - started) / 500 * 1e6
            print(f"{'':9}  un bloc de 1024 échantillons ({1024 / night.rate * 1000:.0f} ms) mixé en {block_us:.0f} µs")
            band_db = 10 * np.log10(band_power(heard, night.rate) / speech_band)
            ducked_lufs = loudness(added.astype(np.int16), night.rate)
            print(
                f"{'':9}  1–4 kHz : {band_db:+.1f} dB par rapport aux répliques ; "
                f"sonie : {bed_lufs - speech_lufs:+.1f} LU (narration {speech_lufs:.1f} LUFS) ; "
                f"baissée sous la voix, sur toute la nuit : {ducked_lufs - speech_lufs:+.1f} LU"
            )


if __name__ == "__main__":
    main()
