"""The input port a session loop talks to: something that hears one answer among given phrases."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class Heard:
    """What an ear heard: the raw text, and when the speech ended (`time.monotonic()`) if known."""

    text: str
    ended_at: float | None = None


@runtime_checkable
class Ear(Protocol):
    """Listens for one utterance; the caller re-parses the text (a grammar is a hint, not a filter)."""

    def listen(self, phrases: Sequence[str], timeout_s: float) -> Heard | None:
        """Hear one utterance among `phrases`; None when none began within `timeout_s` (said a little later).

        EOFError when the input is over (end of a file, a script, the keyboard's stdin).
        """

    def close(self) -> None:
        """Release the microphone, the file or the stream."""


@runtime_checkable
class EndsOnCommand(Protocol):
    """An ear that can end an utterance as soon as it is a complete command, not only after a long silence."""

    def listen_for(self, phrases: Sequence[str], timeout_s: float, complete: Callable[[str], bool]) -> Heard | None:
        """`Ear.listen`; `complete(text)` says whether the words heard so far are a whole command."""


@runtime_checkable
class GivesUp(Protocol):
    """An ear whose turn can end early, between utterances, when another input came (a phone's words)."""

    def listen_until(
        self,
        phrases: Sequence[str],
        timeout_s: float,
        complete: Callable[[str], bool] | None,
        stop: Callable[[], bool] | None,
    ) -> Heard | None:
        """`EndsOnCommand.listen_for`; None as soon as `stop()` is true while nothing is being said."""


class ListenError(Exception):
    """The voice-in layer cannot work as asked; the message is French, for the table."""


class ModelError(ListenError):
    """No usable speech model (missing, unreadable, not downloadable, no grammar support)."""


class NoMicrophone(ListenError):
    """No audio input can be opened, or it stopped sending sound."""
