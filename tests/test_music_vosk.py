"""The real recognizer hears the table while the night's music plays from the speaker.

The worst case: the microphone hears the speaker's music at the same gain as the players (the tests'
null sink sums both). Korean words said by espeak-ng (tests/test_listen_vosk.py's rig) are brought to
the narration's loudness, and the generated ambience plays under them at the profile's default level
for the whole turn. `benchmarks/listen_music.py` measures the other levels.
"""

from __future__ import annotations

import os
import subprocess
import time
import wave
from pathlib import Path

import numpy as np
from vosk_rig import WORDS, FedAudio

from narrator.listen.simple_ears import read_pcm
from narrator.listen.vosk_ear import VoskEar
from narrator.voice.ambience import make_loop
from narrator.voice.bed import LEVEL_LU
from narrator.voice.loudness import TARGET_LUFS, loudness

LEAD_S = 0.6  # silence before the word: paplay starts and the ear's guard passes


def write(path: Path, pcm: np.ndarray, rate: int) -> Path:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(np.clip(np.rint(pcm), -32768, 32767).astype("<i2").tobytes())
    return path


def word_clip(folder: Path, word: str) -> tuple[Path, float, int]:
    """The word after LEAD_S of silence, at the narration's loudness: (file, its end in seconds, rate)."""
    bare = folder / f"bare-{word}.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(bare), word], check=True, capture_output=True)
    pcm, rate = read_pcm(bare)
    samples = np.frombuffer(pcm, np.int16)
    gain = 10 ** ((TARGET_LUFS - (loudness(samples, rate) or TARGET_LUFS)) / 20)
    padded = np.concatenate([np.zeros(round(rate * LEAD_S)), samples.astype(np.float64) * gain])
    return write(folder / f"{word}.wav", padded, rate), len(padded) / rate, rate


def music_clip(folder: Path, level_lu: float, rate: int, seconds: float) -> Path:
    """The generated ambience at `level_lu` under the narration, as the speaker plays it between lines."""
    loop = make_loop("vent", rate)
    pcm = np.tile(loop, int(np.ceil(seconds * rate / len(loop))))[: round(seconds * rate)]
    return write(folder / f"music{level_lu:g}.wav", pcm * 10 ** (level_lu / 20) * 32767, rate)


def test_every_word_is_heard_with_the_music_at_its_default_level(
    audio_server, model, tmp_path: Path, monkeypatch
) -> None:
    clips = {word: word_clip(tmp_path, word) for word in WORDS}
    rate = next(iter(clips.values()))[2]
    music = subprocess.Popen(["paplay", str(music_clip(tmp_path, LEVEL_LU, rate, 120.0))], env=os.environ.copy())
    try:
        time.sleep(0.5)
        with VoskEar(model) as ear:
            fed = FedAudio(ear, monkeypatch)
            for word, (clip, _, _) in clips.items():
                player = subprocess.Popen(["paplay", str(clip)], env=os.environ.copy())
                heard = ear.listen(WORDS, timeout_s=6.0)
                player.wait()
                assert heard is not None and heard.text == word
                # the music is no silence, yet the end of the word is found as soon as without it
                # (tests/test_listen_vosk.py's bound, in seconds of audio: the same on a loaded machine)
                assert fed.after_s < 1.2, f"{word}: decided {fed.after_s:.2f} s of audio after it"
    finally:
        music.terminate()
        music.wait()
