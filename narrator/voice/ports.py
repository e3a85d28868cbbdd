"""The output port a session loop talks to: something that plays rendered narration."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .timeline import Rendered


@runtime_checkable
class Speaker(Protocol):
    """Plays a `Rendered` script (lines and pauses already laid out) and returns when done."""

    def play(self, rendered: Rendered) -> None:
        """Play the whole buffer; the caller may listen again when this returns."""

    def close(self) -> None:
        """Release the device or finish the file."""


@runtime_checkable
class QueueingSpeaker(Speaker, Protocol):
    """A speaker that can also start a sound and return at once (the next play() follows it)."""

    def start(self, rendered: Rendered) -> bool:
        """Queue the buffer; False when it was empty."""
