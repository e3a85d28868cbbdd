"""What a spoken day command means: a small value the table acts on."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["COMMANDS", "FIELDS", "Command"]

# command -> the fields it carries, in JSON order; commands not listed carry none
FIELDS: dict[str, tuple[str, ...]] = {
    "vote": ("voter", "target"),  # target None: "personne"
    "tally": ("target", "count"),
    "reveal": ("player", "role"),  # role "doppelganger:voyante" for a Doppelgänger
    "more_time": ("seconds",),
}
COMMANDS = (
    *("vote", "tally", "reveal"),  # the day's inputs
    *("repeat", "pause", "resume", "more_time", "start_vote", "undo", "yes", "no", "stop"),  # control
)


@dataclass(frozen=True, slots=True)
class Command:
    """One understood command; only the fields of its kind are set (see `FIELDS`)."""

    command: str
    voter: str | None = None
    target: str | None = None
    player: str | None = None
    role: str | None = None
    count: int | None = None
    seconds: int | None = None

    def __post_init__(self) -> None:
        if self.command not in COMMANDS:
            raise ValueError(f"commande inconnue « {self.command} » ; attendu : {', '.join(COMMANDS)}")
        wanted = FIELDS.get(self.command, ())
        for name in ("voter", "target", "player", "role", "count", "seconds"):
            given = getattr(self, name) is not None
            if given and name not in wanted:
                raise ValueError(f"{self.command} ne prend pas « {name} »")
            if not given and name in wanted and (self.command, name) != ("vote", "target"):
                raise ValueError(f"{self.command} sans « {name} »")

    def to_json(self) -> dict:
        """The command and its own fields, e.g. {"command": "tally", "target": "Bob", "count": 3}."""
        out: dict = {"command": self.command}
        for name in FIELDS.get(self.command, ()):
            out[name] = getattr(self, name)
        return out
