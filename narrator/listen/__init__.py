"""Voice in: ears (microphone, files, keyboard, scripts) and French text -> commands.

The names below are imported when first used: a command that only parses text (`narrator parse`)
or reads a journal does not load numpy and the microphone's code for them.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "Ear": "ear",
    "Heard": "ear",
    "ListenError": "ear",
    "ModelError": "ear",
    "NoMicrophone": "ear",
    "NameProblem": "model",
    "check_names": "model",
    "download": "model",
    "find_model": "model",
    "known_words": "model",
    "load_model": "model",
    "KeyboardEar": "simple_ears",
    "ScriptedEar": "simple_ears",
    "WavEar": "simple_ears",
    "VoskEar": "vosk_ear",
    "open_ear": "vosk_ear",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
