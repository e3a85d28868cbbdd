"""Writes the earcons in voices/earcons/: short tones the table hears before the narrator listens
and when it has understood. Run once; the WAV files are committed (nothing is synthesized at the table).

Run: python tools/make_earcons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.voice import SAMPLE_RATE, write_wav  # noqa: E402

# name -> notes (frequency Hz, seconds): rising = "à vous", falling = "compris"
EARCONS = {
    "listen": [(660.0, 0.07), (880.0, 0.09)],
    "understood": [(988.0, 0.06), (740.0, 0.08)],
}


def tone(frequency: float, seconds: float, rate: int = SAMPLE_RATE) -> np.ndarray:
    t = np.arange(round(seconds * rate)) / rate
    envelope = np.minimum(1.0, np.minimum(t, seconds - t) / 0.01)  # 10 ms fades: no click
    return 0.35 * np.sin(2 * np.pi * frequency * t) * envelope


def main() -> None:
    for name, notes in EARCONS.items():
        pcm = np.concatenate([tone(f, s) for f, s in notes])
        write_wav(ROOT / "voices" / "earcons" / f"{name}.wav", np.round(pcm * 32767).astype(np.int16), SAMPLE_RATE)
        print(f"voices/earcons/{name}.wav : {len(pcm) / SAMPLE_RATE * 1000:.0f} ms")


if __name__ == "__main__":
    main()
