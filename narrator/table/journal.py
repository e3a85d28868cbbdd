"""The game journal: every input that changes a game, appended as a JSON line and fsynced before use.

A crash, a dead battery or a sleeping laptop loses nothing: `narrator resume` reads the journal
back and the game goes on where it stopped. What holds, whatever the moment of the crash:

- each event is one `write` of one whole line, then fsynced (and the folder, when the file is made);
- one game writes a journal at a time: the file is locked (`flock`) for the whole game;
- a new game never writes over an existing file;
- on resume, a last line cut by a crash is taken out of the file (its bytes kept in a side file
  the warning names) and a whole last line missing only its newline is kept; a line damaged in the
  middle is refused with its number, and `--avant-ligne N` resumes from the lines before it;
- every line is checked against its event's definition (events.py), the header included, and
  carries its own line number, so a line copied, moved or dropped is refused where it stands;
- a journal of an older version is migrated on read, and rewritten in the new version on resume
  (a new file renamed over the old one), so the events a resumed game adds are never mixed with
  another version's.

The format is described in docs/journal.md.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import math
import os
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from narrator.resources import NOT_REGULAR, french_reason, open_regular, user_folder
from narrator.table.events import (
    VERSION,
    Event,
    EventError,
    Outcome,
    Story,
    StoryOffered,
    Tick,
    check,
    migrate,
    to_json,
)

__all__ = [
    *("NAMED", "VERSION", "Heartbeat", "Journal", "JournalError"),
    *("begun_at", "finished", "last_unfinished", "read_journal"),
]

NAMED = "partie-%Y%m%d-%H%M%S"  # a new journal's name in the journals' folder: when its game began


def begun_at(path: Path) -> float | None:
    """When a journal's game began, as its name says (« partie-20261205-213000[-2].jsonl »); None otherwise."""
    try:
        return time.mktime(time.strptime(path.name[: len(time.strftime(NAMED))], NAMED))
    except (ValueError, OverflowError):
        return None


class JournalError(ValueError):
    """A journal that cannot be read or written; the message is French."""


def journal_dir() -> Path:
    """Where games are journaled: $NARRATOR_STATE_DIR, else $XDG_STATE_HOME/narrator/games, else
    ~/.local/state/narrator/games."""
    if os.environ.get("NARRATOR_STATE_DIR"):
        return Path(os.environ["NARRATOR_STATE_DIR"])
    try:
        return user_folder("XDG_STATE_HOME", ".local/state") / "narrator" / "games"
    except OSError as exc:
        raise JournalError(f"{exc.filename} : {french_reason(exc)}, ou --journal FICHIER") from None


def fingerprint(*texts: str) -> str:
    """The scripts' version: a hash of their text."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8"))
    return digest.hexdigest()[:16]


def _failed(path: Path, what: str, exc: OSError) -> JournalError:
    return JournalError(f"{path} : {what} ({french_reason(exc)})")


def _fsync_folder(folder: Path) -> None:
    """A file just made (or renamed) survives a crash once its folder is synced too."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _lock(fd: int, path: Path) -> None:
    """This game's hold on its journal, until the file is closed; a second writer is refused."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise JournalError(
            f"{path} : ce journal est déjà utilisé par une autre partie en cours ; une seule à la fois"
        ) from None
    except OSError as exc:
        os.close(fd)
        raise _failed(path, "journal impossible à verrouiller", exc) from None


class Journal:
    """Appends events to a locked journal; each line is written whole and fsynced before `append` returns.

    Make one with `Journal.create` (a new game) or `Journal.resume` (a game that goes on)."""

    def __init__(self, path: Path, fd: int, next_line: int) -> None:
        self.path = path
        self._fd: int | None = fd
        self._next_line = next_line
        self._lock = threading.Lock()  # the heartbeat writes from its own thread

    @classmethod
    def create(cls, header: dict, path: Path | None = None) -> Journal:
        """A new journal for a new game, beginning with its header; an existing file is never touched."""
        header = {"type": "game", "version": VERSION, **header}
        try:
            check(header)
        except EventError as exc:
            raise JournalError(f"en-tête de journal refusé : {exc}") from None
        if path is None:
            folder = journal_dir()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise _failed(folder, "dossier des parties impossible à créer", exc) from None
            path = folder / time.strftime(f"{NAMED}.jsonl")
            for n in range(2, 100):  # two games begun in the same second
                if not path.exists():
                    break
                path = folder / time.strftime(f"{NAMED}-{n}.jsonl")
        path = Path(path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        except FileExistsError:
            raise JournalError(
                f"{path} : ce fichier existe déjà ; une nouvelle partie ne l'écrase pas {_held(path)}"
            ) from None
        except OSError as exc:
            raise _failed(path, "journal impossible à créer", exc) from None
        _lock(fd, path)
        journal = cls(path, fd, 1)
        try:
            _fsync_folder(path.parent)
            journal._write(header, numbered=False)
        except (OSError, JournalError) as exc:
            journal.close_quietly()
            path.unlink(missing_ok=True)  # a game that never began leaves no journal to resume
            if isinstance(exc, OSError):
                raise _failed(path, "journal impossible à créer", exc) from None
            raise
        return journal

    @classmethod
    def resume(cls, path: Path, before_line: int | None = None) -> tuple[Journal, Reading]:
        """The journal of a game that goes on, locked, and what it holds. A cut last line (and, with
        `before_line`, every line from that one on) is taken out of the file first, its bytes kept
        in a side file; an older version is rewritten in this one."""
        path = Path(path)
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_NONBLOCK)  # a FIFO opens at once: refused below
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                raise OSError(errno.EINVAL, NOT_REGULAR, str(path))
            os.set_blocking(fd, True)
        except OSError as exc:
            raise _failed(path, "journal impossible à rouvrir", exc) from None
        _lock(fd, path)
        try:
            data = _read_all(fd)
            reading = _parse(path, data, before_line)
            if reading.rewrite is not None:
                fd = _replace(path, fd, reading)
            if reading.dropped:
                side = _side_file(path, reading.dropped_from)
                reading.warnings[-1] += f" Les octets écartés sont gardés dans {side}."
        except OSError as exc:
            os.close(fd)
            raise _failed(path, "journal impossible à réparer", exc) from None
        except JournalError:
            os.close(fd)
            raise
        return cls(path, fd, len(reading.events) + 2), reading

    def append(self, event: Event) -> None:
        """Write `event` as one line, fsynced, once its line is checked against its definition."""
        line = to_json(event)
        try:
            check(line)
        except EventError as exc:  # a bug of the program, not of the table: said, never written
            raise JournalError(f"{self.path} : événement refusé : {exc}") from None
        self._write(line, numbered=True)

    def _write(self, event: dict, numbered: bool) -> None:
        with self._lock:
            if self._fd is None:
                raise JournalError(f"{self.path} : journal déjà fermé")
            line = {**event, "line": self._next_line} if numbered else dict(event)
            line["at_time"] = round(time.time(), 3)
            try:
                data = (json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
            except (ValueError, TypeError) as exc:  # a lone surrogate, NaN: a bug upstream, said in French
                raise JournalError(f"{self.path} : événement impossible à écrire en JSON ({exc})") from None
            end = None
            try:
                end = os.lseek(self._fd, 0, os.SEEK_END)
                written = os.write(self._fd, data)
                if written != len(data):  # a full disk mid-line
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                os.fsync(self._fd)
            except OSError as exc:
                if end is not None:  # not known to be on disk: not written (the game stops before using it)
                    with contextlib.suppress(OSError):
                        os.ftruncate(self._fd, end)
                raise _failed(self.path, "écriture du journal impossible", exc) from None
            self._next_line += 1

    def close(self) -> None:
        """Release the journal (and its lock)."""
        with self._lock:
            fd, self._fd = self._fd, None
            if fd is not None:
                try:
                    os.close(fd)
                except OSError as exc:
                    raise _failed(self.path, "fermeture du journal impossible", exc) from None

    def close_quietly(self) -> None:
        """Close on the way out of a failure that is already being reported."""
        try:
            self.close()
        except JournalError:
            pass


@dataclass
class Reading:
    """A journal as read: its header and events (checked, migrated), the warnings to show, and the file's
    content as it should be if it must be rewritten."""

    header: dict
    events: list[Event]
    warnings: list[str]
    rewrite: bytes | None = None  # the whole file as it must become (None: it is right as it is)
    dropped: bytes = b""  # what the rewrite takes out, kept in a side file
    dropped_from: int = 0  # the first line it takes out


def read_journal(path: Path, before_line: int | None = None) -> tuple[dict, list[Event], list[str]]:
    """(header, events, warnings), the file left as it is; a cut last line is left out with a warning."""
    path = Path(path)
    try:
        with open_regular(path) as stream:  # a named pipe or a device is refused, not waited on
            data = stream.read()
    except OSError as exc:
        raise _failed(path, "journal illisible", exc) from None
    reading = _parse(path, data, before_line)
    return reading.header, reading.events, reading.warnings


def _read_all(fd: int) -> bytes:
    chunks = []
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} n'est pas un nombre JSON")


def _no_duplicate(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise ValueError("clé en double")
    return out


def _int(digits: str) -> int:
    """A JSON integer; past Python's limit on an integer's digits, a French ValueError (its own is English)."""
    try:
        return int(digits)
    except ValueError:
        raise ValueError(f"un nombre de {len(digits.lstrip('-'))} chiffres : trop long") from None


def _json(raw: bytes) -> object:
    """One line's JSON value; ValueError (French) if it is not one."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("octets qui ne sont pas de l'UTF-8") from None
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_no_duplicate, parse_int=_int)
    except RecursionError:
        raise ValueError("imbrication trop profonde") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"JSON invalide ({exc.msg})") from None


def _parse(path: Path, data: bytes, before_line: int | None) -> Reading:
    """Check every line; decide what a resume must take out of the file or rewrite."""
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with its newline
    whole = len(lines) + (1 if tail else 0)
    warnings: list[str] = []
    keep = whole
    if before_line is not None:
        if not 2 <= before_line <= whole:
            raise JournalError(f"{path} : --avant-ligne {before_line} : attendu : de 2 à {whole}")
        keep = before_line - 1
        warnings.append(
            f"{path}:{before_line}: la partie reprend de la ligne 1 à la ligne {keep} ; les suivantes sont écartées."
        )

    def unreadable(number: int, exc: Exception) -> None:
        """Line `number` cannot be read: refused, or, the last one cut by a crash, left out."""
        nonlocal keep
        if number == 1 and (whole > 1 or not tail):
            raise JournalError(f"{path}:1: en-tête illisible : {exc}") from None
        if number < whole or not tail:  # a damaged line in the middle: the table decides
            raise JournalError(
                f"{path}:{number}: ligne illisible : {exc} ; « narrator resume --avant-ligne {number} {path} » "
                f"reprend la partie des lignes qui la précèdent"
            ) from None
        keep = number - 1  # the last line, cut by a crash
        warnings.append(
            f"{path}:{number}: ligne coupée (arrêt brutal pendant l'écriture) : "
            f"le journal est lu jusqu'à la ligne {keep}."
        )

    header: dict | None = None
    values: list[dict] = []
    for number, raw in enumerate((lines + [tail])[:keep], 1):
        try:
            if number == 1:
                header = _header(raw)
            else:
                values.append(_event(raw, number, header is not None and header["version"] >= 2))
        except (ValueError, EventError) as exc:
            unreadable(number, exc)
    old = header["version"] if header is not None else VERSION
    if header is not None:
        header, values = migrate(header, values)
        try:
            check(header)
        except EventError as exc:
            if keep > 1 or not tail:  # a whole header refused: nothing before it to resume from
                problem = str(exc).removeprefix("« game » : ")  # line 1 is the header: said once
                raise JournalError(f"{path}:1: en-tête refusé : {problem}") from None
            unreadable(1, exc)
            header = None  # a lone header line, cut
    if header is None:
        raise JournalError(f"{path} : ce n'est pas un journal de partie de narrator (pas d'en-tête lisible)")
    events: list[Event] = []
    kept: list[dict] = []
    for value in values:
        try:
            events.append(check(value))
            kept.append(value)
        except EventError as exc:
            unreadable(value["line"], exc)  # only the last line, cut, gets past this
    if keep == whole and tail:
        warnings.append(f"{path}:{whole}: dernière ligne entière mais sans fin de ligne : gardée.")
    reading = Reading(header, events, warnings)
    if keep < whole or tail or old != VERSION:
        if old == VERSION:
            body = (lines + [tail])[:keep]
        else:  # an older version: rewritten in this one, its lines numbered anew
            fresh = [header] + [{**v, "line": n} for n, v in enumerate(kept, 2)]
            body = [json.dumps(v, ensure_ascii=False, allow_nan=False).encode("utf-8") for v in fresh]
        reading.rewrite = b"".join(b + b"\n" for b in body)
        reading.dropped = data[sum(len(b) + 1 for b in lines[:keep]) :] if keep < whole else b""
        reading.dropped_from = keep + 1
    return reading


def _header(raw: bytes) -> dict:
    value = _json(raw)
    if not isinstance(value, dict) or value.get("type") != "game":
        raise EventError("attendu : l'en-tête d'une partie (« type »: « game »)")
    if not isinstance(value.get("version"), int) or isinstance(value.get("version"), bool):
        raise EventError("« version » : attendu : un entier")
    return value


def _event(raw: bytes, number: int, numbered: bool) -> dict:
    """Line `number`, an event: its envelope checked (it stands at its number), its fields checked once
    migrated (`_parse`)."""
    value = _json(raw)
    if not isinstance(value, dict):
        raise EventError("attendu : un objet JSON")
    if value.get("type") == "game":
        raise EventError("un second en-tête : une ligne d'un autre journal")
    at = value.get("at_time")
    if not isinstance(at, (int, float)) or isinstance(at, bool) or not math.isfinite(at):
        raise EventError("« at_time » : attendu : un nombre")
    if (numbered or "line" in value) and value.get("line") != number:
        raise EventError(
            f"numéro de ligne {value.get('line')!r} ; attendu : {number} "
            "(ligne copiée, déplacée ou venue d'un autre journal)"
        )
    value["line"] = number
    return value


def _side_file(path: Path, line: int) -> Path:
    """Where the bytes a resume takes out of a journal are kept (not a `.jsonl`: never resumed itself)."""
    return path.with_name(f"{path.name}.ligne-{line}.ecartee")


def _replace(path: Path, fd: int, reading: Reading) -> int:
    """Rewrite the journal as `reading` says, atomically (a new file renamed over it, locked before);
    the bytes taken out go to a side file first. Returns the new file's descriptor."""
    assert reading.rewrite is not None
    if reading.dropped:
        side = _side_file(path, reading.dropped_from)
        with open(os.open(side, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as out:
            out.write(reading.dropped)
            out.flush()
            os.fsync(out.fileno())
    fresh = path.with_name(f".{path.name}.reprise")
    new = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    try:
        os.fchmod(new, 0o600)  # the players' tokens and the deal: readable by the owner only, as a new journal
        _lock(new, fresh)
        view = memoryview(reading.rewrite)
        while view:
            view = view[os.write(new, view) :]
        os.fsync(new)
        os.replace(fresh, path)
        _fsync_folder(path.parent)
    except BaseException:
        os.close(new)
        fresh.unlink(missing_ok=True)
        raise
    os.close(fd)
    return new


def _held(path: Path) -> str:
    """What to do with a file a new game would have overwritten: resume its game, or choose another file."""
    try:
        _, events, _ = read_journal(path)
    except JournalError:
        return "(ce n'est pas un journal lisible : choisissez un autre fichier)"
    if finished(events):
        return "(la partie qu'il contient est terminée : choisissez un autre fichier)"
    return f"(« narrator resume {path} » reprend la partie qu'il contient)"


def finished(events: list[Event]) -> bool:
    """Whether the game ended (an outcome, and the offer of its story answered if it was made). A « stop »
    is a pause: a stopped game can be resumed, at the offer too."""
    if not any(isinstance(e, Outcome) for e in events):
        return False
    return not any(isinstance(e, StoryOffered) for e in events) or any(isinstance(e, Story) for e in events)


def last_unfinished(folder: Path | None = None) -> Path | None:
    """The most recent journal of a game that did not end."""
    folder = folder or journal_dir()
    if not folder.is_dir():
        return None
    try:
        paths = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return None
    for path in paths:
        try:
            _, events, _ = read_journal(path)
        except JournalError:
            continue
        if not finished(events):
            return path
    return None


class Heartbeat:
    """While a long stretch plays, notes every second where the game is, so a resume knows it."""

    def __init__(
        self, journal: Journal | None, phase: str, where: Callable[[], dict[str, float]], every_s: float = 1.0
    ) -> None:
        self.journal = journal
        self.phase = phase
        self.where = where  # () -> dict, e.g. {"at": 12.5} seconds into the night, {"left": 200}
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Heartbeat:
        if self.journal is not None:
            self._thread = threading.Thread(target=self._beat, name="narrator-heartbeat", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _beat(self) -> None:
        journal = self.journal
        assert journal is not None  # (the thread only runs with a journal)
        while not self._stop.wait(self.every_s):
            try:
                journal.append(Tick(self.phase, **self.where()))
            except (JournalError, ValueError):
                return  # the main thread reports journal problems; a heartbeat never crashes the table
