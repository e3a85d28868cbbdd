"""The start-up every game shares, whatever its family: the voice, the ear, the journal, the guard.

A family (narrator/app/family.py) turns what was asked into a `TableGame`; `start` gives it a
voice, an ear and a speaker, writes its journal's header, and plays it under `guarded`, which
turns any problem on the way into one French sentence with the journal kept.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypedDict

import yaml

from narrator.app.phones import DEFAULT_PORT, Seats, TablePhones, check_port, open_phones, seats_in
from narrator.app.speakers import FALLBACK_WAV, Tee, table_speaker
from narrator.listen.ear import Ear, ListenError
from narrator.listen.simple_ears import KeyboardEar, ScriptedEar
from narrator.listen.vosk_ear import VoskEar, open_ear
from narrator.phones.hub import Hub
from narrator.resources import NOT_REGULAR, data_dir, french_reason, is_pipe
from narrator.script.prompts import Prompts, load_prompts
from narrator.table.clock import Clock, FakeClock, RealClock
from narrator.table.events import Event, Setting
from narrator.table.host import Stopped, Understands
from narrator.table.journal import Journal, JournalError, fingerprint
from narrator.table.settings import Tuner, load_settings
from narrator.table.setup import SetupError
from narrator.table.voice import Voice, load_earcons
from narrator.voice import (
    ConsoleSpeaker,
    Profile,
    Renderer,
    Speaker,
    VoiceError,
    WavSpeaker,
    find_profile,
    load_profile,
)
from narrator.voice.ambience import make_bed
from narrator.voice.bed import Bed
from narrator.voice.loudness import volume_db
from narrator.voice.pack import PROFILE_FILE


@dataclass
class Options:
    """How the table is heard and spoken to."""

    voice: str = "fr"  # a profile of voices/, or a YAML file
    voice_chosen: bool = False  # `resume --voice X`: X wins over the journal's voice
    ear: str = "vosk"  # vosk, keyboard, script:FILE
    model: str | None = None
    wav: str | None = None
    no_wait: bool = False
    append_wav: bool = False  # a resumed game goes on in the narration WAV already written
    phones: bool = False  # the players play on their phones (narrator/app/phones.py)
    bind: str = "lan"  # where the phones' server listens: the table's network, or an address (127.0.0.1)
    port: int = DEFAULT_PORT  # 0: any free port (tests)
    music: bool = True  # the night's music under the narration (`--sans-musique`: none)


@dataclass(frozen=True)
class TableRequest:
    """A table as the command line asks for it; each family reads what it needs and checks it."""

    players: list[str] | None = None  # None: set up by voice, where the family can
    roles: list[str] | None = None  # role ids: the cards in play (one-night), each seat's card (classic)
    scenario: str | None = None
    minutes: int | None = None
    first_game: bool = False
    legend: bool = True
    captain: bool = False
    extra: list[str] | None = None  # the undealt cards (classic)
    groups: dict[str, int] | None = None  # the sectaire's groups (classic)
    seed: int | None = None  # what the program deals the cards with, when it does (the phones)


class TableGame(Protocol):
    """One game of a family at a table, checked and ready: what its journal keeps, and its session."""

    @property
    def family(self) -> str:
        """Its family's name, as the journal's header says it."""
        ...

    @property
    def game(self) -> str: ...

    @property
    def players(self) -> list[str]:
        """In seat order."""
        ...

    def header(self) -> dict[str, object]:
        """The journal header's fields of this family, after its players: what `resume` rebuilds it from."""
        ...

    def voice(self, options: Options) -> Renderer:
        """The narrator's voice made ready; `SetupError` for a voice that cannot speak."""
        ...

    def play(self, options: Options, journal: Journal, events: list[Event] | None, io: Io, voice: Renderer) -> int:
        """The session at the table, from the start or from the journal's `events`, under `guarded`."""
        ...


def check_options(options: Options, journal_path: str | None = None, voice: bool = True) -> None:
    """Every option that is cheap to check, checked before anything costly is built (a table, a grammar,
    a voice, a recognizer): `SetupError`, the same sentence the later step would say.

    voice: the voice profile too (a resumed game may take its voice from its journal).
    """
    if options.ear not in ("vosk", "keyboard") and not options.ear.startswith("script:"):
        raise SetupError(f"--ear : attendu : vosk, keyboard ou script:FICHIER ; trouvé : {options.ear}")
    if options.ear.startswith("script:"):
        _readable(options.ear[len("script:") :], "script de réponses illisible")
    if options.wav is not None:
        check_writable(options.wav)
    if journal_path is not None and os.path.lexists(journal_path):
        from narrator.table.journal import _held  # what Journal.create would say of it

        path = Path(journal_path)
        raise SetupError(f"{path} : ce fichier existe déjà ; une nouvelle partie ne l'écrase pas {_held(path)}")
    if options.phones:
        check_address(options.bind, options.port)
    if voice:
        profile_of(options.voice)


def check_request(asked: TableRequest) -> None:
    """What a table request says that needs no script: the debate's length."""
    from narrator.table.bounds import refusal

    why = None if asked.minutes is None else refusal("minutes", asked.minutes)
    if why:
        raise SetupError(f"--minutes : {why}")


def check_address(bind: str, port: int) -> None:
    """--bind and --port as the phones' server will take them (narrator/app/phones.py)."""
    from narrator.phones.address import AddressError, bind_address

    check_port(port)
    try:
        bind_address(bind)
    except AddressError as exc:
        raise SetupError(str(exc)) from None


def _readable(path: str, what: str) -> None:
    try:
        if Path(path).is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        os.stat(path)
    except OSError as exc:
        raise SetupError(f"{path} : {what} ({french_reason(exc)})") from None


def check_writable(path: str) -> None:
    """A file the program will write: not a folder nor a named pipe (never read, it would be waited on), in
    a folder that exists."""
    target = Path(path)
    reason = None
    if target.is_dir():
        reason = OSError(errno.EISDIR, os.strerror(errno.EISDIR))
    elif is_pipe(target):
        reason = OSError(errno.EINVAL, NOT_REGULAR)
    elif not target.parent.is_dir():
        reason = OSError(errno.ENOENT if not target.parent.exists() else errno.ENOTDIR, "")
    if reason is not None:
        raise SetupError(f"{path} : écriture impossible ({french_reason(reason)})")


def profile_of(voice: str) -> Profile:
    try:
        return load_profile(voice) if voice.endswith((".yaml", ".yml")) else find_profile(voice)
    except VoiceError as exc:
        raise SetupError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise SetupError(f"{voice} : ce n'est pas du texte UTF-8 (octet 0x{exc.object[exc.start]:02x})") from None
    except OSError as exc:
        raise SetupError(f"{voice} : lecture impossible ({french_reason(exc)})") from None


def journaled_voice(voice: str) -> str:
    """The voice as the journal keeps it: a shipped name as it is, a profile file or a pack folder by its
    absolute path (a game resumed from another folder finds it)."""
    shipped = data_dir("voices")
    if "/" not in voice and not voice.endswith((".yaml", ".yml")):
        if (shipped / f"{voice}.yaml").is_file() or (shipped / voice / PROFILE_FILE).is_file():
            return voice
    path = Path(voice)
    return str(path.resolve()) if path.exists() else voice


def renderer(voice: str) -> Renderer:
    """The voice profile asked for, with the table's saved settings (« plus lentement »…)."""
    try:
        return Renderer(load_settings().apply(profile_of(voice)))
    except VoiceError as exc:
        raise SetupError(str(exc)) from None


def warn_other_game(voice: Renderer, game: str) -> None:
    """One French line when the voice is a pack recorded for another game: only the lines the two games
    share word for word are played from it, the TTS says the others."""
    pack = voice.pack
    if pack is not None and pack.game is not None and pack.game != game:
        print(
            f"Attention : {pack.folder} est la voix de {pack.game}, pas de {game} : "
            "la synthèse vocale dit les répliques qui n'y sont pas",
            file=sys.stderr,
        )


def tuner(voice: str, spoken: Voice, events: Sequence[Event] = ()) -> Tuner:
    """What « plus lentement », « coupe la musique »… do: change the setting, keep it, speak with it from now
    on. A resumed game's music is as its journal left it (« coupe la musique » said, then the game cut)."""
    tune = Tuner(profile_of(voice), spoken)
    said = [e.command for e in events if isinstance(e, Setting) and e.command in ("music_off", "music_on")]
    if said and spoken.bed is not None:
        spoken.bed.mute(said[-1] == "music_off")
    return tune


def make_night_music(options: Options) -> Bed | None:
    """The night's music of the voice asked for, at the table's saved level and on/off; None when the
    profile has none or the command line said `--sans-musique`. Made once: the speaker mixes it, the
    voice turns it on at night, the table changes it."""
    if not options.music:
        return None
    settings = load_settings()
    profile = settings.apply(profile_of(options.voice))
    try:
        bed = make_bed(profile.ambience)
    except ValueError as exc:  # an ambience the profile names but the program does not make
        raise SetupError(f"{options.voice} : {exc}") from None
    if bed is not None:
        bed.mute(settings.music is False)
        bed.follow_voice(volume_db(profile.volume))  # under the voice as heard (« moins fort »)
    return bed


def script_version(game: str, phones: bool = False) -> str:
    """A hash of the scripts a game is played with, kept in its journal (the phones' words with the phones)."""
    folder = data_dir("scripts")
    names = (f"{game}.yaml", "table.yaml", *(("phones.yaml",) if phones else ()))
    return fingerprint(*((folder / name).read_text(encoding="utf-8") for name in names))


@dataclass
class Io:
    """The table's ears and mouth, opened once for the setup and the game."""

    ear: Ear
    speaker: Speaker
    clock: Clock
    phones: TablePhones | None = None  # the players' phones: `phones.hub` holds their screens
    bed: Bed | None = None  # the night's music, the same for the speaker and the voice

    def open_phones(self, options: Options, players: list[str], seats: Seats | None = None) -> None:
        """The phones' server started for these players, when the game is played with them (a resumed
        game: the tokens and taken seats its journal gives); the rest closed if it cannot start."""
        if options.phones and self.phones is None:
            try:
                self.phones = open_phones(players, options.bind, options.port, seats)
            except BaseException:
                self.close()
                raise

    def close(self, over: bool = False) -> None:
        """`over`: the game reached its end (the phones are told so), not « stop » nor a problem."""
        try:
            if self.phones is not None:
                self.phones.close(over)
        finally:
            self.speaker.close()
            self.ear.close()


def open_io(options: Options, players: list[str] | None = None, seats: Seats | None = None) -> Io:
    """The ear asked for, the speaker (sound card, else console and WAV; or --no-wait), and the phones'
    server when asked and the players are known (`seats`: a resumed game's)."""
    bed = make_night_music(options)
    ear = make_ear(options, players)
    speaker: Speaker
    try:
        if options.no_wait:
            speaker = Tee(WavSpeaker(options.wav or FALLBACK_WAV, append=options.append_wav, bed=bed), ConsoleSpeaker())
        else:
            speaker = table_speaker(options.wav, append=options.append_wav, bed=bed)
    except OSError as exc:
        ear.close()
        raise SetupError(f"{exc.filename or options.wav} : écriture impossible ({french_reason(exc)})") from None
    io = Io(ear, speaker, FakeClock() if options.no_wait else RealClock(), bed=bed)
    if players:
        io.open_phones(options, players, seats)
    return io


def make_ear(options: Options, players: list[str] | None = None) -> Ear:
    """The ear asked for: the microphone with vosk (the keyboard when there is no model), a keyboard, a script."""
    if options.ear == "keyboard":
        return KeyboardEar()
    if options.ear.startswith("script:"):
        try:
            return ScriptedEar.from_file(options.ear[len("script:") :])
        except ListenError as exc:
            raise SetupError(str(exc)) from None
    if options.ear != "vosk":
        raise SetupError(f"--ear : attendu : vosk, keyboard ou script:FICHIER ; trouvé : {options.ear}")
    ear = open_ear(options.model)
    if isinstance(ear, VoskEar) and players:
        problems = ear.check_names(players)
        if problems:
            ear.close()
            raise SetupError(" ".join(p.message for p in problems))
    return ear


def start(table: TableGame, options: Options, journal_path: str | None = None, io: Io | None = None) -> int:
    """A new game: the voice, the ear and the speaker made ready, then its journal, then the session (a
    table that cannot start leaves no journal to resume)."""
    voice = table.voice(options)
    warn_other_game(voice, table.game)
    io = io or open_io(options, table.players)
    io.open_phones(options, table.players)  # a table set up by voice: its players are known now
    header: dict[str, object] = {
        "family": table.family,
        "game": table.game,
        "script": script_version(table.game, io.phones is not None),
        "players": list(table.players),
        "seed": None,  # nothing drawn by the program, unless the family's header says with what (the phones' deal)
        **table.header(),
        "voice": journaled_voice(options.voice),
    }
    if io.phones is not None:  # before the game: a crash from here on serves the same port and tokens again
        header["phones"] = io.phones.header()
    try:
        journal = Journal.create(header, Path(journal_path) if journal_path else None)
    except JournalError as exc:
        io.close()
        raise SetupError(str(exc)) from None
    print(f"Journal de la partie : {journal.path}", file=sys.stderr)
    return table.play(options, journal, None, io, voice)


def go_on(table: TableGame, header: dict, options: Options, journal: Journal, events: list[Event]) -> int:
    """A journaled game, its table rebuilt from `header`, played on from its `events`."""
    try:
        if header.get("script") != script_version(table.game, bool(header.get("phones"))):
            print("Attention : les scripts du jeu ont changé depuis le début de cette partie.", file=sys.stderr)
        if not options.voice_chosen:
            options.voice = header.get("voice", options.voice)
        print(f"Reprise de la partie : {journal.path}", file=sys.stderr)
        try:
            spoken = table.voice(options)  # before the sound card is opened
            warn_other_game(spoken, table.game)
        except SetupError as exc:
            if options.voice_chosen:
                raise
            raise SetupError(
                f"{exc} ; la voix de cette partie est introuvable : donnez-la avec « narrator resume --voice VOIX »"
            ) from None
        seats = None
        if header.get("phones"):  # the same port, the same tokens: the phones come back by themselves
            phones = header["phones"]
            options.phones, options.bind, options.port = True, phones["bind"], phones["port"]
            seats = seats_in(phones, events)
        return table.play(options, journal, events, open_io(options, table.players, seats), spoken)
    finally:
        journal.close_quietly()  # a failure before the session began: the lock released


class HostArguments(TypedDict):
    """What every session takes from the table it plays at (narrator/table/host.py's `Host`)."""

    prompts: Prompts
    voice: Voice
    ear: Ear
    clock: Clock
    parser: Understands
    phrases: Callable[[str], list[str]]
    journal: Journal
    keyboard: KeyboardEar | None
    tune: Tuner
    phones: Hub | None


def host_arguments(
    options: Options,
    io: Io,
    voice: Renderer,
    parser: Understands,
    phrases: Callable[[str], list[str]],
    journal: Journal,
    events: Sequence[Event] | None = None,
) -> HostArguments:
    """The session's voice (with the earcons and the night's music), ear, clock and journal; a keyboard
    offered beside the microphone after three misunderstandings; « plus lentement »… applied and kept."""
    spoken = Voice(voice.render, io.speaker, load_earcons(), io.bed)
    return {
        "prompts": load_prompts(),
        "voice": spoken,
        "ear": io.ear,
        "clock": io.clock,
        "parser": parser,
        "phrases": phrases,
        "journal": journal,
        "keyboard": KeyboardEar() if isinstance(io.ear, VoskEar) else None,
        "tune": tuner(options.voice, spoken, events or ()),
        "phones": io.phones.hub if io.phones is not None else None,
    }


def write_record(journal: Journal, record: Mapping[str, object]) -> None:
    """A game that ended, as a record beside its journal (`….record.yaml`) that `narrator resolve` plays."""
    out = journal.path.with_suffix(".record.yaml")
    part = out.with_name(out.name + ".partiel")  # written whole, then renamed: never half a record
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the deal in clear: the owner's only
        os.fchmod(fd, 0o600)  # a record written before, with another mode, is narrowed too
        with open(fd, "w", encoding="utf-8") as file:
            file.write(yaml.safe_dump(dict(record), allow_unicode=True, sort_keys=False))
        os.replace(part, out)
    except OSError as exc:
        with contextlib.suppress(OSError):
            part.unlink()
        # the game is over (its journal says so: a resume would answer « déjà terminée »), not kept to resume
        raise SetupError(
            f"{out} : écriture impossible ({french_reason(exc)}) ; la partie est finie, son journal "
            f"{journal.path} la garde entière, mais son enregistrement n'est pas écrit"
        ) from None
    print(f"La partie, en enregistrement pour « narrator resolve » : {out}", file=sys.stderr)


def guarded(game: Callable[[], object], journal: Journal, io: Io) -> int:
    """Play `game` to its end or to « stop »; a problem on the way (the ear, the voice, the journal, the
    disk) is one French sentence, the journal kept; the ear, the speaker and the journal are closed."""
    over = False
    try:
        try:
            game()
            over = True
        finally:
            try:
                io.close(over)
            finally:
                journal.close()
    except Stopped:
        print(f"Partie arrêtée ; « narrator resume {journal.path} » la reprendra.", file=sys.stderr)
        return 0
    except EOFError:
        raise SetupError(
            f"les réponses se sont arrêtées avant la fin de la partie ; « narrator resume {journal.path} » la reprendra"
        ) from None
    except (VoiceError, ListenError, JournalError) as exc:
        raise SetupError(str(exc)) from None
    except OSError as exc:
        where = f"{exc.filename} : " if exc.filename else ""
        raise SetupError(
            f"{where}écriture impossible ({french_reason(exc)}) ; "
            f"la partie est gardée : « narrator resume {journal.path} »"
        ) from None
    return 0
