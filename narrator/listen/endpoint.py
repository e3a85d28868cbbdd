"""When an utterance is over: vosk's own end-point, or sooner when what was heard is already a command.

Vosk ends an utterance after a trailing silence long enough for a pause between two words (its
endpoint rules in the model's conf, see narrator/listen/model.py): the text came 0.69 s after the
end of speech (p50, Korean model). Most answers at a table are short and complete (« oui »,
« Ana vote contre Ben »), so the ear also ends an utterance after a short trailing silence when
vosk's partial result is a complete command. « Complete » is the parser's word: a callable
`text -> bool` given to the ear. An utterance that is not complete yet (« Ana et Ben contre »,
« non pardon ») keeps vosk's longer end-point, and so does one that ends on a word after which
people go on (« … contre Max et », « non »: see `go_on` in scripts/listen.fr.yaml).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from narrator.listen.ear_words import ear_words

__all__ = ["QUIET_S", "Complete", "EndPoint", "command_is_complete"]

Complete = Callable[[str], bool]  # the parser's answer: is this text a whole command already?

QUIET_S = 0.1  # trailing silence that ends a complete command (a stop consonant is under 0.1 s)
FLOOR_RMS = 120.0  # below this a block is silence whatever the room (int16 RMS; speech is in the thousands)
NOISE_TIMES = 4.0  # a block is speech when it is this many times louder than the room's quietest block


@dataclass
class EndPoint:
    """Follows one listening turn block by block; `over()` once a complete command is followed by silence.

    Speech is told by energy against the room's own noise (the quietest block of the turn so far,
    judged again at each question, so speech from the first block on is told apart too); the end of
    a command by the recognizer's partial text.
    """

    complete: Complete
    rate: float
    quiet_s: float = QUIET_S
    _blocks: list[tuple[float, float]] = field(default_factory=list)  # (level, seconds of audio fed at its end)
    _judged: dict[str, bool] = field(default_factory=dict)

    def feed(self, block: bytes) -> None:
        pcm = np.frombuffer(block, "<i2").astype(np.float64)
        heard_s = (self._blocks[-1][1] if self._blocks else 0.0) + len(pcm) / self.rate
        self._blocks.append((float(np.sqrt(np.mean(pcm**2))) if len(pcm) else 0.0, heard_s))

    def quiet_for(self) -> float | None:
        """Seconds of silence since the last block of speech; None before any speech."""
        # the room: the quietest block so far (a turn may be mostly speech, and starts with it)
        loud = max(FLOOR_RMS, NOISE_TIMES * min((level for level, _ in self._blocks), default=0.0))
        for level, at in reversed(self._blocks):
            if level > loud:
                return self._blocks[-1][1] - at
        return None

    def over(self, partial: str) -> bool:
        """Speech was heard, has been silent `quiet_s`, and `partial` is a complete command."""
        if not partial.strip():
            return False
        quiet = self.quiet_for()
        if quiet is None or quiet < self.quiet_s - 1e-9:
            return False
        if partial not in self._judged:  # the same partial comes back block after block
            self._judged[partial] = self.complete(partial)
        return self._judged[partial]


def command_is_complete(parse: Callable[[str], Sequence[object]], go_on: frozenset[str] | None = None) -> Complete:
    """A judge from a parser (`text -> commands`): complete when it reads commands and the last word lets it end."""
    after = ear_words().go_on if go_on is None else go_on

    def complete(text: str) -> bool:
        said = text.lower().replace("'", " ").replace("’", " ").split()
        return bool(said) and said[-1] not in after and bool(parse(text))

    return complete
