"""A game at a real table: the voice, an ear, the journal and the session wired together."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from narrator.listen.ear import Ear, ListenError
from narrator.resources import data_dir, french_reason
from narrator.script.line import Line
from narrator.table.events import Event
from narrator.table.journal import Journal, JournalError, fingerprint, finished, journal_dir, last_unfinished
from narrator.table.onenight.setup import SetupError, Table, build_table
from narrator.table.settings import load_settings, save_settings
from narrator.table.voice import Voice, load_earcons
from narrator.voice import Profile, Renderer, VoiceError, find_profile, load_profile


@dataclass
class Options:
    """How the table is heard and spoken to."""

    voice: str = "fr"  # a profile of voices/, or a YAML file
    ear: str = "vosk"  # vosk, keyboard, script:FILE
    model: str | None = None
    wav: str | None = None
    no_wait: bool = False
    append_wav: bool = False  # a resumed game goes on in the narration WAV already written


def profile_of(voice: str) -> Profile:
    try:
        return load_profile(voice) if voice.endswith((".yaml", ".yml")) else find_profile(voice)
    except VoiceError as exc:
        raise SetupError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise SetupError(f"{voice} : ce n'est pas du texte UTF-8 (octet 0x{exc.object[exc.start]:02x})") from None
    except OSError as exc:
        raise SetupError(f"{voice} : lecture impossible ({french_reason(exc)})") from None


def renderer(voice: str) -> Renderer:
    """The voice profile asked for, with the table's saved settings (« plus lentement »…)."""
    try:
        return Renderer(load_settings().apply(profile_of(voice)))
    except VoiceError as exc:
        raise SetupError(str(exc)) from None


def tuner(voice: str, spoken: Voice) -> Callable[[str], bool]:
    """What « plus lentement », « plus fort »… do: change the setting, keep it, speak with it from now on."""
    base = profile_of(voice)
    settings = load_settings()

    def tune(command: str) -> bool:
        if not settings.change(command, base):
            return False
        save_settings(settings)
        spoken.render = Renderer(settings.apply(base)).render
        return True

    return tune


def start(table: Table, options: Options, journal_path: str | None = None, io: Io | None = None) -> int:
    """A new game: the voice, the ear and the speaker made ready, then its journal, then the session (a
    table that cannot start leaves no journal to resume)."""
    voice = prepared(table, options)
    io = io or open_io(options, table.players)
    header = {
        "family": "onenight",
        "game": table.script.rules.game,
        "script": script_version(table.script.rules.game),
        "players": table.players,
        "in_play": table.roles,
        "minutes": table.narration.debate.minutes,
        "legend": table.legend,
        "voice": options.voice,
        "seed": None,  # physical cards: nothing is drawn by the program
    }
    try:
        journal = Journal.create(header, Path(journal_path) if journal_path else None)
    except JournalError as exc:
        if io is not None:
            io.close()
        raise SetupError(str(exc)) from None
    print(f"Journal de la partie : {journal.path}", file=sys.stderr)
    return run(table, options, journal, io=io, voice=voice)


def resume(journal_path: str | None, options: Options, before_line: int | None = None) -> int:
    """A game the journal says did not end, from where it stopped (a « stop » included)."""
    try:
        path = Path(journal_path) if journal_path else last_unfinished()
        if path is None:
            raise SetupError(
                f"aucune partie inachevée à reprendre dans {journal_dir()} ; une partie journalée ailleurs"
                " (--journal FICHIER) se reprend avec « narrator resume FICHIER »"
            )
        journal, reading = Journal.resume(path, before_line)
    except JournalError as exc:
        raise SetupError(str(exc)) from None
    for warning in reading.warnings:
        print(f"Attention : {warning}", file=sys.stderr)
    header, events = reading.header, reading.events
    options.append_wav = True  # the narration WAV goes on after what the game already said
    try:
        if finished(events):
            raise SetupError(f"{path} : cette partie est déjà terminée")
        if header["family"] == "classic":
            from narrator.app.classic_live import resume_classic

            return resume_classic(journal, header, events, options)
        try:
            table = build_table(
                header["game"],
                list(header["players"]),
                list(header["in_play"]),
                None,
                header["minutes"],
                legend=header["legend"],
            )
        except SetupError as exc:
            raise SetupError(f"{path} : en-tête de journal refusé : {exc}") from None
    except BaseException:
        journal.close_quietly()
        raise
    if header.get("script") != script_version(table.script.rules.game):
        print("Attention : les scripts du jeu ont changé depuis le début de cette partie.", file=sys.stderr)
    options.voice = header.get("voice", options.voice)
    print(f"Reprise de la partie : {path}", file=sys.stderr)
    try:
        return run(table, options, journal, events)
    finally:
        journal.close_quietly()  # a failure before the session began: the lock released


def script_version(game: str) -> str:
    """A hash of the scripts a game is played with, kept in its journal."""
    folder = data_dir("scripts")
    return fingerprint(*((folder / name).read_text(encoding="utf-8") for name in (f"{game}.yaml", "table.yaml")))


@dataclass
class Io:
    """The table's ears and mouth, opened once for the setup and the game."""

    ear: Ear
    speaker: object
    clock: object

    def close(self) -> None:
        self.speaker.close()  # type: ignore[attr-defined]
        self.ear.close()


def open_io(options: Options, players: list[str] | None = None) -> Io:
    """The ear asked for and the speaker (sound card, else console and WAV; or --no-wait)."""
    from narrator.app.speakers import FALLBACK_WAV, Tee, table_speaker
    from narrator.table.clock import FakeClock, RealClock
    from narrator.voice import ConsoleSpeaker, WavSpeaker

    ear = make_ear(options, players)
    try:
        if options.no_wait:
            speaker = Tee(WavSpeaker(options.wav or FALLBACK_WAV, append=options.append_wav), ConsoleSpeaker())
        else:
            speaker = table_speaker(options.wav, append=options.append_wav)
    except OSError as exc:
        ear.close()
        raise SetupError(f"{exc.filename or options.wav} : écriture impossible ({french_reason(exc)})") from None
    return Io(ear, speaker, FakeClock() if options.no_wait else RealClock())


def setup_and_play(options: Options, game: str | None = None, journal_path: str | None = None) -> int:
    """Issue 8: from the first word, the setup by voice (game, players, names, cards), then the game."""
    from narrator.app.spoken_setup import SetupStopped, SpokenSetup
    from narrator.listen.french import SetupParser
    from narrator.listen.grammar import setup_phrases
    from narrator.listen.vosk_ear import VoskEar
    from narrator.script.prompts import load_prompts

    io = open_io(options)
    voice = Voice(renderer(options.voice).render, io.speaker, load_earcons())  # type: ignore[arg-type]
    ear = io.ear
    check = (lambda names: [p.message for p in ear.check_names(names)]) if isinstance(ear, VoskEar) else None
    setup = SpokenSetup(
        voice=voice,
        ear=ear,
        clock=io.clock,  # type: ignore[arg-type]
        prompts=load_prompts(),
        words=cache(SetupParser),
        phrases=cache(lambda game, phase: setup_phrases(game, phase)),
        check_names=check,
        tune=tuner(options.voice, voice),
    )
    try:
        table = setup.run(game)
    except SetupStopped:
        io.close()
        return 0
    except EOFError:
        io.close()
        raise SetupError("les réponses se sont arrêtées pendant la mise en place de la partie") from None
    except (VoiceError, ListenError) as exc:
        io.close()
        raise SetupError(str(exc)) from None
    return start(table, options, journal_path, io)


def prepared(table: Table, options: Options) -> Renderer:
    """The voice with every line of the game synthesized: nothing waits on synthesis later."""
    narration = table.narration
    voice = renderer(options.voice)
    try:
        voice.prepare(
            narration.opening + [i for _, items in narration.debate.reminders for i in items] + narration.vote
        )
    except VoiceError as exc:
        raise SetupError(str(exc)) from None
    return voice


def run(
    table: Table,
    options: Options,
    journal: Journal,
    events: list[Event] | None = None,
    io: Io | None = None,
    voice: Renderer | None = None,
) -> int:
    """The session at the table, from the start or from a journal's `events`."""
    from narrator.listen.french import Parser
    from narrator.listen.grammar import phrases
    from narrator.listen.simple_ears import KeyboardEar
    from narrator.listen.vosk_ear import VoskEar
    from narrator.script.prompts import load_prompts
    from narrator.table.onenight.session import Session

    narration = table.narration
    voice = voice or prepared(table, options)  # before the sound card is opened
    io = io or open_io(options, table.players)
    parser = Parser(table.script.rules.game, table.players)
    spoken = Voice(voice.render, io.speaker, load_earcons())  # type: ignore[arg-type]
    session = Session(
        script=table.script,
        prompts=load_prompts(),
        players=tuple(table.players),
        in_play=table.roles,
        voice=spoken,
        ear=io.ear,
        clock=io.clock,  # type: ignore[arg-type]
        parser=parser,
        # vosk turns a grammar into word pairs: the compact list keeps every pair, a tenth the size
        phrases=cache(lambda phase: heard_phrases(io.ear, table, phrases(parser, phase, compact=True))),
        journal=journal,
        keyboard=KeyboardEar() if isinstance(io.ear, VoskEar) else None,
        tune=tuner(options.voice, spoken),
    )
    warnings = unheard_lines(io.ear, table)

    def game() -> object:
        if warnings:  # before the legend: what to say for a character the model cannot hear
            spoken.tell(*warnings)
        return session.run(narration, events)

    return guarded(game, journal, io)


def heard_phrases(ear: object, table: Table, said: list[str]) -> list[str]:
    """A phase grammar, with the respellings the speech model hears of the characters it cannot hear."""
    from narrator.listen.heard import with_respellings
    from narrator.listen.vosk_ear import VoskEar

    return with_respellings(ear.model, table.script.rules.game, said) if isinstance(ear, VoskEar) else said


def unheard_lines(ear: object, table: Table) -> list[Line]:
    """For each character in play the speech model cannot hear, what to say instead (none without vosk)."""
    from narrator.listen.heard import unheard_in_play
    from narrator.listen.vosk_ear import VoskEar

    if not isinstance(ear, VoskEar):
        return []
    said = unheard_in_play(ear.model, table.script, table.roles, table.legend)
    return [Line(f"unheard_{n}", text) for n, text in enumerate(said)]


def guarded(game: Callable[[], object], journal: Journal, io: Io) -> int:
    """Play `game` to its end or to « stop »; a problem on the way (the ear, the voice, the journal, the
    disk) is one French sentence, the journal kept; the ear, the speaker and the journal are closed."""
    from narrator.table.host import Stopped

    try:
        try:
            game()
        finally:
            try:
                io.close()
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


def make_ear(options: Options, players: list[str] | None = None):
    """The ear asked for: the microphone with vosk (the keyboard when there is no model), a keyboard, a script."""
    from narrator.listen.simple_ears import KeyboardEar, ScriptedEar
    from narrator.listen.vosk_ear import VoskEar, open_ear

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
