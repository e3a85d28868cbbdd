"""The game journal: every input that changes a game, appended as a JSON line and fsynced before use.

A crash, a dead battery or a sleeping laptop loses nothing: `narrator resume` reads the journal
back and the game goes on where it stopped. A last line cut by a crash is dropped with a warning.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from pathlib import Path

VERSION = 1


class JournalError(ValueError):
    """A journal that cannot be read or written; the message is French."""


def journal_dir() -> Path:
    """Where games are journaled: $NARRATOR_STATE_DIR, else $XDG_STATE_HOME/narrator/games."""
    if os.environ.get("NARRATOR_STATE_DIR"):
        return Path(os.environ["NARRATOR_STATE_DIR"])
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "narrator" / "games"


def fingerprint(*texts: str) -> str:
    """The scripts' version: a hash of their text."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8"))
    return digest.hexdigest()[:16]


class Journal:
    """Appends events; each line is flushed and fsynced before `append` returns."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()  # the heartbeat writes from its own thread
        try:
            self._file = open(path, "a", encoding="utf-8")
        except OSError as exc:
            raise JournalError(f"{path} : journal impossible à écrire ({exc.strerror})") from None

    @classmethod
    def create(cls, header: dict, path: Path | None = None) -> Journal:
        """A new journal for a new game, beginning with its header."""
        if path is None:
            folder = journal_dir()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"{folder} : dossier des parties impossible à créer ({exc.strerror})") from None
            path = folder / time.strftime("partie-%Y%m%d-%H%M%S.jsonl")
        journal = cls(Path(path))
        journal.append({"type": "game", "version": VERSION, **header})
        return journal

    def append(self, event: dict) -> None:
        line = json.dumps({**event, "at_time": round(time.time(), 3)}, ensure_ascii=False)
        with self._lock:
            try:
                self._file.write(line + "\n")
                self._file.flush()
                os.fsync(self._file.fileno())
            except OSError as exc:
                raise JournalError(f"{self.path} : écriture du journal impossible ({exc.strerror})") from None

    def close(self) -> None:
        with self._lock:
            self._file.close()


def read_journal(path: Path) -> tuple[dict, list[dict], list[str]]:
    """(header, events, warnings): whole lines only; a cut or unreadable line ends the reading with a warning."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise JournalError(f"{path} : journal illisible ({exc.strerror})") from None
    events: list[dict] = []
    warnings: list[str] = []
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
            if not isinstance(event, dict) or "type" not in event:
                raise ValueError
        except ValueError:
            cut = number == len(lines) or all(not rest.strip() for rest in lines[number:])
            what = "coupée (arrêt brutal pendant l'écriture)" if cut else "illisible"
            warnings.append(f"{path}:{number}: ligne {what} : le journal est lu jusqu'à la ligne {number - 1}.")
            break
        events.append(event)
    if not events or events[0].get("type") != "game":
        raise JournalError(f"{path} : ce n'est pas un journal de partie de narrator")
    header = events.pop(0)
    if header.get("version") != VERSION:
        raise JournalError(f"{path} : journal de version {header.get('version')} ; attendu : {VERSION}")
    return header, events, warnings


def finished(events: list[dict]) -> bool:
    return any(e["type"] == "outcome" for e in events)  # a stopped game can always be resumed


def last_unfinished(folder: Path | None = None) -> Path | None:
    """The most recent journal of a game that did not end."""
    folder = folder or journal_dir()
    if not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            _, events, _ = read_journal(path)
        except JournalError:
            continue
        if not finished(events):
            return path
    return None


class Heartbeat:
    """While a long stretch plays, notes every second where the game is, so a resume knows it."""

    def __init__(self, journal: Journal | None, phase: str, where, every_s: float = 1.0) -> None:
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
        while not self._stop.wait(self.every_s):
            try:
                self.journal.append({"type": "tick", "phase": self.phase, **self.where()})  # type: ignore[union-attr]
            except (JournalError, ValueError):
                return  # the main thread reports journal problems; a heartbeat never crashes the table
