"""`narrator story FICHIER`: the story of a finished game, from its journal or from a game record — the
same sentences the table heard when it asked for it (narrator/table/epilogue.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from narrator.app.family import EXPECTED, FAMILIES, family
from narrator.app.resolve import _located
from narrator.records import InputError, read_records
from narrator.resources import french_reason
from narrator.rules.errors import RecordError, missing
from narrator.table.events import Outcome
from narrator.table.journal import JournalError, read_journal
from narrator.table.setup import SetupError


def is_journal(path: Path) -> bool:
    """A journal's first line is its header, a JSON object of `type: game`."""
    try:
        with path.open("rb") as file:
            first = file.readline(1 << 20)
    except OSError:
        return False
    try:
        header = json.loads(first)
    except ValueError:
        return False
    return isinstance(header, dict) and header.get("type") == "game"


def story_of_file(name: str) -> list[list[str]]:
    """The story of each game the file holds: a journal's one game, or each record's; `SetupError` (one
    French line) for a file that is neither, a game not over, or a record the rules refuse."""
    path = Path(name)
    if not path.is_file():
        raise SetupError(f"{name} : fichier introuvable" if not path.exists() else f"{name} : ce n'est pas un fichier")
    if is_journal(path):
        return [_story_of_journal(path)]
    try:
        with path.open("rb") as stream:
            records = read_records(stream, name)
            return [_story_of_record(name, item) for item in records.items]
    except InputError as exc:
        raise SetupError(str(exc)) from None
    except OSError as exc:
        raise SetupError(f"{name} : lecture impossible ({french_reason(exc)})") from None


def _story_of_journal(path: Path) -> list[str]:
    try:
        header, events, _ = read_journal(path)
    except JournalError as exc:
        raise SetupError(str(exc)) from None
    if not any(isinstance(e, Outcome) for e in events):  # its story would tell the table its secrets
        raise SetupError(f"{path} : cette partie n'est pas terminée ; son histoire se raconte à la fin")
    try:
        return FAMILIES[header["family"]].story_of_journal(header, events)
    except SetupError as exc:
        raise SetupError(f"{path} : en-tête de journal refusé : {exc}") from None


def _story_of_record(name: str, item: object) -> list[str]:
    raw = getattr(item, "data", None)
    try:
        if not isinstance(raw, Mapping):
            raise RecordError((), "un enregistrement (un mapping)", raw)
        game = raw.get("ruleset")
        if game is None:
            raise missing(("ruleset",), EXPECTED)
        try:
            chosen = family(str(game))
        except SetupError:
            raise RecordError(("ruleset",), EXPECTED, game) from None
        return chosen.story(raw)
    except RecordError as exc:
        raise SetupError(_located(name, item, exc.path, str(exc))) from None  # type: ignore[arg-type]
