"""Voice in: ears (microphone, files, keyboard, scripts) and French text -> commands."""

from .ear import Ear, Heard, ListenError, ModelError, NoMicrophone
from .model import NameProblem, check_names, download, find_model, known_words, load_model
from .simple_ears import KeyboardEar, ScriptedEar, WavEar
from .vosk_ear import VoskEar, open_ear

__all__ = [
    "Ear",
    "Heard",
    "KeyboardEar",
    "ListenError",
    "ModelError",
    "NameProblem",
    "NoMicrophone",
    "ScriptedEar",
    "VoskEar",
    "WavEar",
    "check_names",
    "download",
    "find_model",
    "known_words",
    "load_model",
    "open_ear",
]
