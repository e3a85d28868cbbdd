"""The table's spoken settings (« plus lentement », « plus fort », « attends plus longtemps »), kept between games."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import yaml

from narrator.resources import user_folder
from narrator.voice import Profile

# command -> (profile field, step, limit): one « plus lentement » is 20 words a minute slower
STEPS = {
    "slower": ("rate", -20, 100),
    "faster": ("rate", 20, 300),
    "louder": ("volume", 0.2, 1.0),
    "quieter": ("volume", -0.2, 0.2),
    "longer_waits": ("wait_multiplier", 0.5, 3.0),
}


def settings_path() -> Path:
    """$NARRATOR_CONFIG_DIR/settings.yaml, else $XDG_CONFIG_HOME/narrator/settings.yaml."""
    base = os.environ.get("NARRATOR_CONFIG_DIR")
    if base:
        return Path(base) / "settings.yaml"
    return user_folder("XDG_CONFIG_HOME", ".config") / "narrator" / "settings.yaml"


@dataclass
class Settings:
    """What the table changed of the voice; None keeps the profile's own value."""

    rate: int | None = None
    volume: float | None = None
    wait_multiplier: float | None = None

    def apply(self, profile: Profile) -> Profile:
        """The profile with the table's settings."""
        changes = {k: v for k, v in asdict(self).items() if v is not None}
        return replace(profile, **changes)

    def change(self, command: str, profile: Profile) -> bool:
        """Take one step of a setting command; False when the limit is already reached."""
        field, step, limit = STEPS[command]
        current = getattr(self.apply(profile), field)
        wanted = round(current + step, 2)
        wanted = min(wanted, limit) if step > 0 else max(wanted, limit)
        if wanted == current:
            return False
        setattr(self, field, int(wanted) if field == "rate" else wanted)
        return True


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings; none saved (or unreadable) gives the defaults: a table never fails on them."""
    path = path or settings_path()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        known = {k: data[k] for k in ("rate", "volume", "wait_multiplier") if isinstance(data.get(k), (int, float))}
        return Settings(**known)
    except (OSError, yaml.YAMLError, AttributeError, TypeError):
        return Settings()


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
