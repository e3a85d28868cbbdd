"""Voice out: scripts of lines and pauses → rendered PCM and timeline → speaker (card, WAV, console)."""

from .console import ConsoleSpeaker
from .errors import NoSoundCard, VoiceError
from .pcm import MARGIN_S, SAMPLE_RATE
from .playback import SoundDeviceSpeaker, open_speaker
from .ports import QueueingSpeaker, Speaker
from .profile import Profile, find_profile, load_profile, parse_profile
from .render import Renderer, render
from .timeline import Item, Pause, Rendered, Say, Segment, Timeline, assemble, plan
from .tts import Tts
from .wavfile import WavSpeaker, read_wav, write_wav

__all__ = [
    "MARGIN_S",
    "SAMPLE_RATE",
    "ConsoleSpeaker",
    "Item",
    "NoSoundCard",
    "Pause",
    "Profile",
    "QueueingSpeaker",
    "Rendered",
    "Renderer",
    "Say",
    "Segment",
    "SoundDeviceSpeaker",
    "Speaker",
    "Timeline",
    "Tts",
    "VoiceError",
    "WavSpeaker",
    "assemble",
    "find_profile",
    "load_profile",
    "open_speaker",
    "parse_profile",
    "plan",
    "read_wav",
    "render",
    "write_wav",
]
