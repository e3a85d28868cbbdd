"""Seconds of narration rendered per second of wall time, full Poudlard night: pyttsx3 (our path) vs bare espeak-ng -w.

Run: python benchmarks/render.py   (cold cache: a fresh temporary folder, a fresh engine)
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.script.onenight.script import load_shipped  # noqa: E402
from narrator.table.onenight.announcer import plan  # noqa: E402
from narrator.voice import Say, Tts, find_profile, read_wav  # noqa: E402

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


if __name__ == "__main__":
    main()
