"""The words the real-recognizer tests speak to vosk's small Korean model (conftest.py's `clips`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# Words this model hears reliably from espeak-ng (measured), three of them Korean first names.
WORDS = ["민수", "영희", "지수", "정지", "노래", "왼쪽", "오른쪽", "음악"]
LEAD_S = 0.6  # silence before the word: paplay starts and the ear's guard passes before speech


class FedAudio:
    """What a live VoskEar's last turn fed its recognizer, in seconds of audio: how much in all (`fed_s`)
    and where in it the heard utterance ended (`end_s`, vosk's last word). Audio seconds are the same on a
    loaded machine, where a wall-clock delay is not: « the text came soon after speech » is `after_s`."""

    def __init__(self, ear: Any, monkeypatch: Any) -> None:
        from narrator.listen import vosk_ear

        self.rate = ear.rate
        self.fed = 0
        self.end_s: float | None = None
        blocks, decode = ear._blocks, vosk_ear.decode

        def counted(*args: Any) -> Iterator[bytes]:
            self.fed, self.end_s = 0, None
            for data in blocks(*args):
                self.fed += len(data) // 2
                yield data

        def noted(*args: Any, **kwargs: Any) -> Any:
            found = decode(*args, **kwargs)
            self.end_s = None if found is None else found.end_s
            return found

        monkeypatch.setattr(ear, "_blocks", counted)
        monkeypatch.setattr(vosk_ear, "decode", noted)

    @property
    def fed_s(self) -> float:
        return self.fed / self.rate

    @property
    def after_s(self) -> float:
        """Audio fed past the utterance's last word before the ear returned it."""
        assert self.end_s is not None, "nothing was heard"
        return self.fed_s - self.end_s
