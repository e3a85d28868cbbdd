"""Render a script (Say/Pause items) with a voice profile: a recorded voice pack's line when its text is
the one recorded, else cached TTS with the profile's settings."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from .errors import VoiceError
from .loudness import Leveller, volume_db
from .pack import Pack, load_pack, read_recording
from .pcm import SAMPLE_RATE, trim
from .profile import Profile, find_profile
from .timeline import Item, Rendered, Say, assemble
from .tts import Tts

TTS_GAIN_DB = -1.0  # espeak-ng's French voice says about -22 LUFS: a line too short to measure takes this


class Renderer:
    """Turns scripts into `Rendered` audio; keeps every clip it made in memory for replays."""

    def __init__(self, profile: Profile | None = None, cache: str | Path | None = None) -> None:
        self.profile = profile if profile is not None else find_profile("fr")
        self.pack: Pack | None = None if self.profile.pack is None else load_pack(self.profile.pack)
        self.tts = Tts(self.profile, cache)
        # every line at one loudness, recorded or synthesized; then the profile's volume (« plus fort »)
        self.tts_level = Leveller(SAMPLE_RATE, fallback_db=TTS_GAIN_DB)
        # recordings were levelled when recorded (a short one with the pack's usual gain): about 0 dB here
        self.pack_level = Leveller(SAMPLE_RATE)
        self._clips: dict[Say, np.ndarray] = {}
        self._warned = False  # a recording that cannot be played was said once

    def prepare(self, items: Iterable[Item]) -> None:
        """Render every line ahead of time (before the night), so playing never waits for synthesis."""
        says = [item for item in items if isinstance(item, Say) and item not in self._clips]
        recorded = {say: pcm for say in says if (pcm := self._recorded(say)) is not None}
        synthesized = [say for say in says if say not in recorded]
        volume = volume_db(self.profile.volume)
        for say, pcm in zip(synthesized, self.tts.render_all(say.text for say in synthesized)):
            # never silent: Tts checked it before caching it
            clip = trim(pcm)
            self._clips[say] = self.tts_level.level(clip, volume, self.tts.loudness(clip))
        for say, pcm in recorded.items():
            kept = self.pack.lines[say.line_id] if self.pack is not None else None
            # measured when recorded, then levelled by its gain
            lufs = None if kept is None or kept.lufs is None else kept.lufs + kept.gain_db
            self._clips[say] = self.pack_level.level(pcm, volume, lufs)

    def render(self, items: Sequence[Item]) -> Rendered:
        """The items as one PCM buffer with the timeline of every line."""
        self.prepare(items)
        clips = [self._clips[item] for item in items if isinstance(item, Say)]
        return assemble(items, clips, SAMPLE_RATE, self.profile.wait_multiplier)

    def recording(self, say: Say) -> Path | None:
        """The voice pack's WAV for this line: only if the pack recorded this id with exactly this text."""
        return None if self.pack is None else self.pack.recording(say.line_id, say.text)

    def _recorded(self, say: Say) -> np.ndarray | None:
        """The recording of this line, None when there is none or it cannot be played: then the TTS says
        the line, and the first such file is said once (a game never stops on a pack's file)."""
        path = self.recording(say)
        if path is None:
            return None
        try:
            return read_recording(path)
        except VoiceError as exc:
            if not self._warned:
                self._warned = True
                print(
                    f"Attention : {exc} ; la synthèse vocale dit les répliques dont l'enregistrement est "
                    f"illisible (« narrator voice check {path.parent.parent} » les liste)",
                    file=sys.stderr,
                )
            return None


def render(items: Sequence[Item], profile: Profile | None = None, cache: str | Path | None = None) -> Rendered:
    """Render one script in one call (a fresh Renderer; the disk cache still applies)."""
    return Renderer(profile, cache).render(items)
