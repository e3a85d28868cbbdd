"""Choosing where the narration goes: the sound card, else the console and a WAV file."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from narrator.voice import ConsoleSpeaker, QueueingSpeaker, Rendered, Speaker, WavSpeaker, open_speaker
from narrator.voice.bed import Bed

FALLBACK_WAV = "narrateur.wav"


class Tee:
    """Plays the same narration on several speakers, one after the other (only the last may be real time)."""

    def __init__(self, *speakers: Speaker) -> None:
        self.speakers = speakers

    def play(self, rendered: Rendered) -> None:
        for speaker in self.speakers:
            speaker.play(rendered)

    def start(self, rendered: Rendered) -> bool:
        """Play on all but the last, and start it on the last if it can (an earcon with the card last)."""
        *first, last = self.speakers
        for speaker in first:
            speaker.play(rendered)
        if isinstance(last, QueueingSpeaker):
            return last.start(rendered)
        last.play(rendered)
        return True

    def close(self) -> None:
        for speaker in self.speakers:
            speaker.close()


def table_speaker(
    wav: str | None, notice: TextIO = sys.stderr, append: bool = False, bed: Bed | None = None
) -> Speaker:
    """The sound card (plus `wav` if asked); without one, the console in real time and a WAV file; each
    with the night's music (`bed`) mixed under the narration, if any.

    `append`: a resumed game's narration goes on after what the WAV already holds.
    """
    speaker = open_speaker(notice=notice, bed=bed)
    if isinstance(speaker, ConsoleSpeaker) and wav is None:
        wav = FALLBACK_WAV
        print(f"La narration est aussi enregistrée dans {Path(wav).resolve()}.", file=notice)
    return (
        Tee(WavSpeaker(wav, append=append, bed=bed), speaker) if wav else speaker
    )  # the file first: it has each line as soon as it is said
