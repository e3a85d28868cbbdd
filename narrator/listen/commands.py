"""What a spoken command means: a small value the table or the setup acts on."""

from __future__ import annotations

from dataclasses import dataclass

from narrator.script.games import GAMES  # what choose_game's `game` may be; the setup says which it sets up

__all__ = ["COMMANDS", "FIELDS", "GAMES", "MUSIC", "SETTINGS", "SETUP_COMMANDS", "Command"]

# command -> the fields it carries, in JSON order; commands not listed carry none
FIELDS: dict[str, tuple[str, ...]] = {
    "vote": ("voter", "target"),  # target None: "personne"
    "tally": ("target", "count"),
    "reveal": ("player", "role"),  # role "doppelganger:voyante" for a Doppelgänger
    "choose": ("target",),  # a player named in answer to « qui ? » (the captain, the hunter's shot…); None: nobody
    "more_time": ("seconds",),
    "choose_game": ("game",),  # one of GAMES
    "number": ("count",),  # how many players
    "name": ("player",),  # a first name as the table will use it, each word capitalized
    "scenario": ("scenario",),  # a scenario id of the game's script
    "character": ("role", "count"),  # a card of the game, how many of it
    "free_seat": ("player",),  # the seat whose phone the table lets go (a game with the phones)
}
MUSIC = ("music_off", "music_on", "music_louder", "music_softer")
# the voice's settings, then the night's music (the bed of sound under the narration)
SETTINGS = ("slower", "faster", "louder", "quieter", "longer_waits", *MUSIC)
# what only the spoken setup understands (a game in progress hears none of these)
SETUP_COMMANDS = ("choose_game", "number", "name", "scenario", "character", "done", "restart", "phones", "no_phones")
COMMANDS = (
    *("vote", "tally", "reveal", "choose"),  # the day's inputs
    *("repeat", "pause", "resume", "more_time", "start_vote", "undo", "yes", "no", "stop"),  # control
    *SETUP_COMMANDS,
    *SETTINGS,
    *("legend", "help", "repeat_night"),
    "free_seat",
    "story",  # « raconte la partie »: the story of the game, once it is over
)
_FIELD_NAMES = ("voter", "target", "player", "role", "count", "seconds", "game", "scenario")


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
    game: str | None = None
    scenario: str | None = None

    def __post_init__(self) -> None:
        if self.command not in COMMANDS:
            raise ValueError(f"commande inconnue « {self.command} » ; attendu : {', '.join(COMMANDS)}")
        wanted = FIELDS.get(self.command, ())
        for name in _FIELD_NAMES:
            given = getattr(self, name) is not None
            if given and name not in wanted:
                raise ValueError(f"{self.command} ne prend pas « {name} »")
            if not given and name in wanted and name != "target":
                raise ValueError(f"{self.command} sans « {name} »")
        if self.game is not None and self.game not in GAMES:
            raise ValueError(f"jeu inconnu « {self.game} » ; attendu : {', '.join(GAMES)}")

    def to_json(self) -> dict:
        """The command and its own fields, e.g. {"command": "tally", "target": "Bob", "count": 3}."""
        out: dict = {"command": self.command}
        for name in FIELDS.get(self.command, ()):
            out[name] = getattr(self, name)
        return out
