"""The table's spoken settings (« plus lentement », « plus fort », « coupe la musique »), kept between games."""

from __future__ import annotations

import os
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

import numpy as np
import yaml

from narrator.resources import french_reason, read_bounded, user_folder
from narrator.table.bounds import refusal
from narrator.voice import Profile, Renderer
from narrator.voice.bed import LEVEL_RANGE_LU, LEVEL_STEP_LU
from narrator.voice.loudness import volume_db

if TYPE_CHECKING:
    from narrator.table.voice import Voice

# command -> (profile field, step, limit): one « plus lentement » is 20 words a minute slower
STEPS = {
    "slower": ("rate", -20, 100),
    "faster": ("rate", 20, 300),
    "louder": ("volume", 0.2, 1.0),
    "quieter": ("volume", -0.2, 0.2),
    "longer_waits": ("wait_multiplier", 0.5, 3.0),
}
# the night's music: one « musique plus forte » is the bed's own step, within its own range
MUSIC_STEPS = {"music_louder": LEVEL_STEP_LU, "music_softer": -LEVEL_STEP_LU}


def settings_path() -> Path:
    """$NARRATOR_CONFIG_DIR/settings.yaml, else $XDG_CONFIG_HOME/narrator/settings.yaml."""
    base = os.environ.get("NARRATOR_CONFIG_DIR")
    if base:
        return Path(base) / "settings.yaml"
    return user_folder("XDG_CONFIG_HOME", ".config") / "narrator" / "settings.yaml"


@dataclass
class Settings:
    """What the table changed of the voice and of the night's music; None keeps the profile's own value."""

    rate: int | None = None
    volume: float | None = None
    wait_multiplier: float | None = None
    music: bool | None = None  # False: « coupe la musique »
    music_level: float | None = None  # the bed's level under the narration, in LU

    def apply(self, profile: Profile) -> Profile:
        """The profile with the table's settings (the music's level is its ambience's)."""
        changes = {k: v for k, v in asdict(self).items() if v is not None and k in STEPS_FIELDS}
        if self.music_level is not None:
            changes["ambience"] = replace(profile.ambience, level_lu=self.music_level)
        return replace(profile, **changes)

    def change(self, command: str, profile: Profile) -> bool:
        """Take one step of a setting command; False when the limit is already reached."""
        if command in ("music_off", "music_on"):
            self.music = command == "music_on"
            return True
        if command in MUSIC_STEPS:
            current = self.apply(profile).ambience.level_lu
            level = float(np.clip(current + MUSIC_STEPS[command], *LEVEL_RANGE_LU))
            if level == current:
                return False
            self.music_level = level
            return True
        name, step, limit = STEPS[command]
        current = getattr(self.apply(profile), name)
        wanted = round(current + step, 2)
        wanted = min(wanted, limit) if step > 0 else max(wanted, limit)
        if wanted == current:
            return False
        setattr(self, name, int(wanted) if name == "rate" else wanted)
        return True


STEPS_FIELDS = frozenset(step[0] for step in STEPS.values())


@dataclass
class Tuner:
    """What a setting said at the table does: the voice speaks with it from now on, the night's music
    (`voice.bed`) follows it, and it is kept for the next game. The table journals a setting between
    `refusal` (may it be done?) and `apply` (do it)."""

    base: Profile  # the voice's profile as its file gives it
    voice: Voice
    settings: Settings = field(default_factory=lambda: load_settings())
    keep: bool = True  # written to settings.yaml (not by a demo)

    def refusal(self, command: str) -> str | None:
        """Why the setting cannot be done, as a prompt of scripts/table.yaml; None: it can."""
        if command.startswith("music_") and self.voice.bed is None:
            return "no_music"
        if not replace(self.settings).change(command, self.base):
            return f"{command}_limit" if command in MUSIC_STEPS else "setting_limit"
        return None

    def reply(self, command: str) -> str:
        """What the table hears once the setting is done, as a prompt of scripts/table.yaml: the music put
        back in the day plays from the night on."""
        bed = self.voice.bed
        if command == "music_on" and bed is not None and not bed.at_night:
            return "music_on_later"
        return command

    def apply(self, command: str) -> None:
        self.settings.change(command, self.base)
        if self.keep:
            save_settings(self.settings)
        bed = self.voice.bed
        if bed is not None and command in ("music_off", "music_on"):
            bed.mute(command == "music_off")
        elif bed is not None and command in MUSIC_STEPS:
            bed.louder() if MUSIC_STEPS[command] > 0 else bed.softer()
        elif command in STEPS:
            profile = self.settings.apply(self.base)
            self.voice.render = Renderer(profile).render
            if bed is not None:  # the music stays as far under the voice as heard
                bed.follow_voice(volume_db(profile.volume))


# what settings.yaml may hold, in the table's one set of ranges (bounds.py): a value out of them (edited by
# hand, NaN…) is left out, and said
SETTINGS = ("rate", "volume", "wait_multiplier", "music_level")


_WARNED: set[tuple[Path, str]] = set()


def load_settings(path: Path | None = None, notice: TextIO | None = None) -> Settings:
    """The saved settings; none saved (or unreadable) gives the defaults, and a value out of its range
    is left out with one French line on `notice` (stderr): a table never fails on them."""
    path = path or settings_path()
    out = notice if notice is not None else sys.stderr
    try:
        data = yaml.safe_load(read_bounded(path).decode("utf-8")) or {}
    except FileNotFoundError:
        return Settings()
    except (OSError, yaml.YAMLError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        # unreadable, not UTF-8, not YAML, a number too long for Python (ValueError) or nested deeper than
        # Python's stack (RecursionError): the defaults
        if (path, "") not in _WARNED:
            _WARNED.add((path, ""))
            print(f"{path} : réglages ignorés ({_unreadable(exc)}) ; les réglages par défaut s'appliquent", file=out)
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    data = cast(dict[str, Any], data)
    known: dict = {}
    for name in SETTINGS:
        if name not in data:
            continue
        value = data[name]
        problem = refusal(name, value)
        if problem is None:
            known[name] = int(value) if name == "rate" else float(value)
        elif (path, name) not in _WARNED:  # said once, though the start-up reads the file more than once
            _WARNED.add((path, name))
            print(f"{path} : réglage ignoré : {name} : {problem}", file=out)
    if isinstance(data.get("music"), bool):
        known["music"] = data["music"]
    return Settings(**known)


def _unreadable(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return french_reason(exc)
    if isinstance(exc, UnicodeDecodeError):
        return f"pas du texte UTF-8, octet {exc.start + 1}"
    if isinstance(exc, yaml.YAMLError):
        mark = getattr(exc, "problem_mark", None)
        return f"YAML incorrect ligne {mark.line + 1}" if mark is not None else "YAML incorrect"
    if isinstance(exc, RecursionError):
        return "imbrication trop profonde"
    return "un nombre trop long"


def save_settings(settings: Settings, path: Path | None = None) -> bool:
    """Keep the settings for the next game; False (and the game goes on) if they cannot be written."""
    path = path or settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        values = {k: v for k, v in asdict(settings).items() if v is not None}
        path.write_text(yaml.safe_dump(values, allow_unicode=True), encoding="utf-8")
        return True
    except OSError:
        return False
