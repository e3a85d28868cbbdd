"""`narrator voice record` and `narrator voice check`: a person records their own narrator, line by line.

The recording walks through the game's fixed lines (narrator/script/fixed_lines.py) that the pack
lacks or holds with an older text: each is shown, recorded from the microphone on Entrée (it stops
after a short silence following speech, on Entrée, or at 30 s), trimmed, checked (nothing heard,
too loud), levelled to the narration's loudness, and kept, redone or skipped. Each kept line is
written at once with the manifest (narrator/voice/pack.py), so stopping anywhere loses at most the
line being recorded and running the command again goes on from there.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol, TextIO

import numpy as np
import yaml

from narrator.resources import french_reason
from narrator.script.fixed_lines import fixed_lines
from narrator.script.line import Line
from narrator.script.role_names import characters, role_ids, title_of
from narrator.voice.errors import NoSoundCard, VoiceError
from narrator.voice.loudness import Leveller, loudness, peak_gain_db, scale
from narrator.voice.pack import PROFILE_FILE, Pack, check, is_pack, load_pack, save_line, save_manifest
from narrator.voice.pcm import SAMPLE_RATE, trim
from narrator.voice.playback import portaudio_reason
from narrator.voice.profile import Profile, find_profile

BLOCK_S = 0.02  # the microphone's blocks: speech and silence are judged block by block
MAX_S = 30.0  # the longest take
SILENCE_S = 0.8  # the silence after speech that ends a take
SPEECH_FLOOR = 300  # a block's RMS is speech above this (about -40 dBFS)…
QUIET = 0.05  # …unless it is 26 dB under the loudest block of the take: the room between words
CLIPPED = 32000  # a sample this loud is taken as clipped; a few of them in a take: too loud
CLIPPED_MAX = 3

EXIT_INCOMPLETE = 1
EXIT_PROBLEM = 2


class PackProblem(Exception):
    """What stops the command: one French sentence."""


class Microphone(Protocol):
    """Records a take and plays one back: the sound card's edge (a stand-in in tests/test_voice_pack.py; the
    real one, on a PulseAudio null sink, in tests/test_voice_pack_audio.py)."""

    def record(self, stop: Callable[[], bool], silence_s: float, max_s: float) -> np.ndarray:
        """Int16 mono at 22050 Hz, from now until speech then `silence_s` of silence, `stop()`, or `max_s`."""
        ...

    def play(self, pcm: np.ndarray) -> None:
        """Play a take back, returning when it is heard."""
        ...

    def close(self) -> None:
        """Let the sound card go."""
        ...


class SoundDeviceMicrophone:
    """One input stream kept open for the whole session (a stream takes time to start on some systems)."""

    def __init__(self, device: int | None = None) -> None:
        try:
            import sounddevice as sd
        except OSError:  # the wheel does not bundle PortAudio on Linux
            raise NoSoundCard("la bibliothèque PortAudio est absente (paquet libportaudio2)") from None
        self._sd = sd
        self._blocks: queue.Queue[np.ndarray] = queue.Queue()
        self._listening = False
        try:
            sd.query_devices(device, kind="input")  # raises when there is no input at all
            self._stream = sd.InputStream(
                samplerate=SAMPLE_RATE,
                channels=1,
                dtype="int16",
                device=device,
                blocksize=round(BLOCK_S * SAMPLE_RATE),
                callback=self._heard,
            )
            self._stream.start()
        except (sd.PortAudioError, ValueError) as exc:
            raise NoSoundCard(f"pas de micro utilisable ({portaudio_reason(exc)})") from None

    def _heard(self, indata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
        if self._listening:
            self._blocks.put(indata[:, 0].copy())

    def record(self, stop: Callable[[], bool], silence_s: float, max_s: float) -> np.ndarray:
        while not self._blocks.empty():
            self._blocks.get_nowait()
        self._listening = True
        try:
            return _take(self._blocks, stop, silence_s, max_s)
        finally:
            self._listening = False

    def play(self, pcm: np.ndarray) -> None:
        self._sd.play(pcm, SAMPLE_RATE)
        self._sd.wait()

    def close(self) -> None:
        self._stream.close()


def _take(blocks: queue.Queue[np.ndarray], stop: Callable[[], bool], silence_s: float, max_s: float) -> np.ndarray:
    """Collect blocks until speech followed by `silence_s` of quiet, `stop()`, or `max_s` seconds."""
    got: list[np.ndarray] = []
    loudest = 0.0
    spoke = False
    quiet_s = 0.0
    started = time.monotonic()
    while time.monotonic() - started < max_s and not stop():
        try:
            block = blocks.get(timeout=0.1)
        except queue.Empty:
            continue
        got.append(block)
        level = float(np.sqrt(np.mean(np.square(block, dtype=np.float64))))
        loudest = max(loudest, level)
        if level > SPEECH_FLOOR and level > QUIET * loudest:
            spoke, quiet_s = True, 0.0
        elif spoke:
            quiet_s += len(block) / SAMPLE_RATE
            if quiet_s >= silence_s:
                break
    return np.concatenate(got) if got else np.zeros(0, np.int16)


class Keyboard:
    """The person's answers, one line at a time, read in the background so Entrée can end a take."""

    def __init__(self, stream: TextIO) -> None:
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: TextIO) -> None:
        for line in stream:
            self._lines.put(line.strip().lower())
        self._lines.put(None)  # end of input: as « q »

    def answer(self) -> str | None:
        """The next line typed (None when the input is closed, and at every call after)."""
        line = self._lines.get()
        if line is None:
            self._lines.put(None)  # the end stays: whoever asks next is told too
        return line

    def pressed(self) -> bool:
        """A line was typed (it is used up), or the input closed (Ctrl-D): Entrée during a take."""
        try:
            line = self._lines.get_nowait()
        except queue.Empty:
            return False
        if line is None:
            self._lines.put(None)  # the take ends, and the next answer says the input is closed
        return True


@dataclass(frozen=True)
class Take:
    """A take ready to keep: levelled, with its loudness measured before (None: too short) and its gain."""

    pcm: np.ndarray
    lufs: float | None
    gain_db: float


def prepare_take(raw: np.ndarray, pack_gains: list[float]) -> Take:
    """Trim, check and level a take; a take to do again raises ValueError saying why, in French."""
    try:
        body = trim(raw, SAMPLE_RATE)
    except ValueError:
        raise ValueError("je n'ai rien entendu : on recommence") from None
    if int(np.count_nonzero(np.abs(body.astype(np.int32)) >= CLIPPED)) >= CLIPPED_MAX:
        raise ValueError("trop fort : le son sature ; éloignez-vous du micro ou baissez son niveau, et on recommence")
    lufs = loudness(body, SAMPLE_RATE)
    leveller = Leveller(SAMPLE_RATE, measured=list(pack_gains))  # a short take: the pack's usual gain
    gain = min(leveller.gain_db(body), peak_gain_db(body))
    return Take(scale(body, gain), lufs, gain)


def to_record(pack: Pack, lines: Sequence[Line], redo: Sequence[str], everything: bool) -> list[Line]:
    """The lines to record: `--redo` ids, `--all` of them, else those missing or stale."""
    if redo:
        known = {line.id: line for line in lines}
        unknown = [i for i in redo if i not in known]
        if unknown:
            raise PackProblem(f"--redo : réplique inconnue de ce jeu : {', '.join(unknown)}")
        return [known[i] for i in redo]
    if everything:
        return list(lines)
    found = check(pack, lines)
    todo = {line.id for line in found.missing} | {line.id for line, _ in [*found.stale, *found.bad]}
    return [line for line in lines if line.id in todo]


def create_pack(folder: Path, profile: Profile, game: str) -> Pack:
    """The pack folder with its profile.yaml (the TTS settings of the lines not recorded) when new."""
    if folder.is_dir() and not is_pack(folder) and any(folder.iterdir()):
        raise PackProblem(f"{folder} : ce dossier n'est pas vide et n'est pas une voix : choisissez un dossier neuf")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not (folder / PROFILE_FILE).is_file():
            (folder / PROFILE_FILE).write_text(profile_text(profile), encoding="utf-8")
        pack = load_pack(folder)
        if pack.game is None:
            pack.game = game
            save_manifest(pack)  # the game noted at once: `narrator voice check` knows it
        probe = folder / ".narrator-probe"
        probe.write_bytes(b"")  # an unwritable folder said now, not after the first take
        probe.unlink()
    except OSError as exc:
        raise PackProblem(f"{folder} : écriture impossible ({french_reason(exc)})") from None
    except VoiceError as exc:
        raise PackProblem(str(exc)) from None
    if pack.game != game:
        raise PackProblem(f"{folder} : ce dossier est la voix de {pack.game} ; choisissez un autre dossier pour {game}")
    return pack


def profile_text(profile: Profile) -> str:
    """A pack's profile.yaml: the voice's TTS settings and ambience, commented in French."""
    fields = {
        "engine": profile.engine,
        "voice": profile.voice,
        "rate": profile.rate,
        "volume": profile.volume,
        "pitch": profile.pitch,
        "wait_multiplier": profile.wait_multiplier,
        "ambience": {
            "sound": profile.ambience.sound,
            "level": profile.ambience.level_lu,
            "duck": profile.ambience.duck_db,
        },
    }
    heading = (
        "# Profil d'une voix enregistrée (docs/voice-packs.md) : la synthèse vocale dit, avec ces réglages,\n"
        "# les répliques qui ne sont pas enregistrées dans lines/ (celles qui ont un nom ou un nombre).\n"
    )
    return heading + yaml.safe_dump(fields, allow_unicode=True, sort_keys=False)


def record(
    folder: Path,
    game: str,
    voice: str,
    roles: str | None,
    redo: Sequence[str],
    everything: bool,
    microphone: Callable[[], Microphone],
    keyboard: Keyboard,
    out: TextIO,
    silence_s: float = SILENCE_S,
) -> int:
    """Walk the person through the lines to record; 0 when the pack is complete for the game."""
    lines = fixed_lines(game, cards(game, roles))
    profile = _profile(voice)
    pack = create_pack(folder, profile, game)
    todo = to_record(pack, lines, redo, everything)
    say = _printer(out)
    if not todo:
        say(f"Rien à enregistrer : {title_of(game)} : tout est enregistré, {_lines(len(lines))}.")
        return 0
    say(f"{_lines(len(todo))} à enregistrer dans {folder} (sur {len(lines)}). Parlez après « J'écoute ».")
    try:
        mic = microphone()
    except NoSoundCard as exc:
        raise PackProblem(
            f"{exc} ; branchez un micro, ou choisissez-le avec --input-device N (« python -m sounddevice » les liste)"
        ) from None
    try:
        for number, line in enumerate(todo, 1):
            if not _record_line(pack, line, f"{number}/{len(todo)}", mic, keyboard, say, silence_s):
                say("Arrêté : ce qui est enregistré est gardé ; relancez la commande pour continuer.")
                return EXIT_INCOMPLETE
    finally:
        mic.close()
    complete = check(pack, lines).complete
    say("Terminé : la voix est complète." if complete else "Terminé : des répliques restent à enregistrer.")
    return 0 if complete else EXIT_INCOMPLETE


def _record_line(
    pack: Pack,
    line: Line,
    where: str,
    mic: Microphone,
    keyboard: Keyboard,
    say: Callable[[str], None],
    silence_s: float,
) -> bool:
    """One line until it is kept or skipped (True), or the person quits (False)."""
    say(f"\n[{where}] {line.id}")
    say(f"  « {line.text} »")
    old = pack.lines.get(line.id)
    if old is not None and old.text != line.text:
        say(f"  (le texte a changé ; enregistré : « {old.text} »)")
    while True:
        say("Entrée : enregistrer · p : passer · q : quitter")
        answer = keyboard.answer()
        if answer is None or answer == "q":
            return False
        if answer == "p":
            return True
        say("● J'écoute… (Entrée pour arrêter)")
        raw = mic.record(keyboard.pressed, silence_s, MAX_S)
        try:
            take = prepare_take(raw, pack.measured_gains())
        except ValueError as exc:
            say(str(exc).capitalize() + ".")
            continue
        outcome = _judge(take, mic, keyboard, say)
        if outcome == "q":
            return False
        if outcome == "p":
            return True
        if outcome == "garder":
            _save(pack, line, take)
            say(f"Gardé ({len(take.pcm) / SAMPLE_RATE:.1f} s).")
            return True


def _judge(take: Take, mic: Microphone, keyboard: Keyboard, say: Callable[[str], None]) -> str:
    """What the person does with a take: « garder », « r » (redo), « p », « q »; « é » plays it back."""
    while True:
        say("Entrée : garder · é : écouter · r : refaire · p : passer · q : quitter")
        answer = keyboard.answer()
        if answer is None:
            return "q"
        if answer == "":
            return "garder"
        if answer in ("é", "e"):
            mic.play(take.pcm)
        elif answer in ("r", "p", "q"):
            return answer


def _save(pack: Pack, line: Line, take: Take) -> None:
    when = datetime.now(timezone.utc).isoformat(timespec="seconds")
    try:
        save_line(pack, line, take.pcm, take.lufs, take.gain_db, when)
    except OSError as exc:
        raise PackProblem(
            f"{pack.folder} : écriture impossible ({french_reason(exc)}) ; les répliques déjà gardées restent"
        ) from None


def check_pack(folder: Path, game: str | None, roles: str | None, out: TextIO) -> int:
    """Say what the pack lacks for the game: missing lines, stale ones (old and new text), unused ones."""
    try:
        if not is_pack(folder):
            raise PackProblem(f"{folder} : ce n'est pas un dossier de voix (pas de {PROFILE_FILE} ni de lines.yaml)")
        pack = load_pack(folder)
    except VoiceError as exc:
        raise PackProblem(str(exc)) from None
    if game is not None and pack.game is not None and game != pack.game:
        raise PackProblem(f"{folder} : ce dossier est la voix de {pack.game}, pas de {game}")
    game = game or pack.game
    if game is None:
        raise PackProblem(f"{folder} : le jeu n'est pas noté dans lines.yaml ; précisez --game")
    lines = fixed_lines(game, cards(game, roles))
    found = check(pack, lines)
    say = _printer(out)
    usable = len(lines) - len(found.missing) - len(found.stale) - len(found.bad)
    say(f"{folder}, {title_of(game)} : {_lines(usable)} sur {len(lines)}.")
    if found.missing:
        say(f"Manquantes ({len(found.missing)}) :")
        for line in found.missing:
            say(f"  {line.id} : « {line.text} »")
    if found.stale:
        say(f"Périmées, le texte a changé depuis l'enregistrement ({len(found.stale)}) :")
        for line, old in found.stale:
            say(f"  {line.id} :\n    enregistré : « {old} »\n    maintenant  : « {line.text} »")
    if found.bad:
        say(f"Illisibles, à enregistrer de nouveau ({len(found.bad)}) :")
        for line, why in found.bad:
            say(f"  {line.id} : {why}")
    if found.unused:
        say(f"Enregistrées mais que le jeu ne dit plus ({len(found.unused)}) : {', '.join(found.unused)}")
    no_profile = not (folder / PROFILE_FILE).is_file()
    if no_profile:  # play refuses such a folder
        say(f"Il manque {PROFILE_FILE} (les réglages de la synthèse vocale) : « narrator voice record » le recrée.")
    if found.complete and not no_profile:
        say("La voix est complète.")
        return 0
    only = f" --roles {roles}" if roles else ""
    say(f"Pour les enregistrer : narrator voice record {folder} --game {game}{only}")
    return EXIT_INCOMPLETE


def cards(game: str, roles: str | None) -> list[str] | None:
    """`--roles` as role ids (a name, with or without accents, goes too); None: every character."""
    if roles is None:
        return None
    known = characters(game)
    given = role_ids(game, [card.strip() for card in roles.split(",") if card.strip()])
    unknown = [card for card in given if card not in known]
    if unknown:
        raise PackProblem(f"--roles : personnage inconnu de {game} : {', '.join(unknown)} (« narrator roles {game} »)")
    return given


def _profile(voice: str) -> Profile:
    try:
        return find_profile(voice)
    except VoiceError as exc:
        raise PackProblem(str(exc)) from None


def _lines(n: int) -> str:
    """« une réplique », « 2 répliques »: never « 1 répliques »."""
    return "une réplique" if n == 1 else f"{n} répliques"


def _printer(out: TextIO) -> Callable[[str], None]:
    def say(text: str) -> None:
        print(text, file=out, flush=True)

    return say


def main_record(args: Any) -> int:
    """`narrator voice record`, from the parsed command line."""
    return record(
        Path(args.pack),
        args.game,
        args.voice,
        args.roles,
        args.redo,
        args.all,
        lambda: SoundDeviceMicrophone(args.input_device),
        Keyboard(sys.stdin),
        sys.stdout,
        args.silence,
    )
