"""Errors of the voice-out layer; their messages are French, for the table."""

from __future__ import annotations


class VoiceError(Exception):
    """A voice profile, a recording or a rendered line is unusable."""


class NoSoundCard(VoiceError):
    """No audio output device can be opened on this machine."""
