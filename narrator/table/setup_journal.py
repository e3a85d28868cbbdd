"""The spoken setup's journal: the answers given so far, kept on disk before the setup acts on them.

A Ctrl-C, a crash or a « stop » in the middle of the setup loses no answer: the next `narrator`
offers to go on from where the setup was. The file is small and whole: one JSON object, written to a
side file, fsynced and renamed over the old one, so a crash leaves the old answers or the new ones,
never half of either. It is removed once the game's own journal takes over. The format is described
in docs/journal.md (« The spoken setup's answers »).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from narrator.resources import french_reason

FILE = "setup.json"
VERSION = 1
# each answer's key and the JSON type of its value: the cards are a list of answers, each a list of cards
_KEYS = {"game": str, "count": int, "captain": bool}
_NUMBERED = re.compile(r"(name|group)([1-9][0-9]?)")


class SetupJournalError(ValueError):
    """A setup journal that cannot be read or written; the message is French."""


@dataclass(frozen=True)
class SetupState:
    """Where the spoken setup stands: its answers in the order given, the cards given so far at the
    question of cards being asked (one list per answer), and whether the phones were chosen."""

    answers: tuple[tuple[str, object], ...] = ()
    cards: tuple[tuple[str, ...], ...] = ()
    phones: bool = False

    def value(self, key: str) -> object | None:
        return next((v for k, v in self.answers if k == key), None)


@dataclass
class SetupJournal:
    path: Path
    problems: list[str] = field(default_factory=list)

    def write(self, state: SetupState) -> None:
        """The state on disk, whole, before the setup acts on it."""
        text = json.dumps(to_json(state), ensure_ascii=False) + "\n"
        side = self.path.with_name(self.path.name + ".new")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(side, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(side, self.path)
            folder = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
        except OSError as exc:
            raise SetupJournalError(f"{self.path} : écriture impossible ({french_reason(exc)})") from None

    def read(self) -> SetupState | None:
        """The setup left unfinished, None if there is none; `SetupJournalError` for a file refused."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            reason = french_reason(exc) if isinstance(exc, OSError) else "pas de l'UTF-8"
            raise SetupJournalError(f"{self.path} : lecture impossible ({reason})") from None
        try:
            return from_json(json.loads(text))
        except (ValueError, TypeError) as exc:
            raise SetupJournalError(f"{self.path}:1: mise en place illisible : {exc}") from None

    def clear(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def to_json(state: SetupState) -> dict:
    return {
        "version": VERSION,
        "phones": state.phones,
        "answers": [[k, v] for k, v in state.answers],
        "cards": [list(c) for c in state.cards],
    }


def from_json(raw: object) -> SetupState:
    """The state a line holds, checked: each answer's key known and its value of its type."""
    if not isinstance(raw, dict) or raw.get("version") != VERSION:
        raise ValueError(f"attendu un objet de version {VERSION}")
    phones, answers, cards = raw.get("phones"), raw.get("answers"), raw.get("cards")
    if not isinstance(phones, bool) or not isinstance(answers, list) or not _card_lists(cards):
        raise ValueError("attendu « phones » (oui/non), « answers » et « cards » (des listes)")
    kept: list[tuple[str, object]] = []
    for item in answers:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            raise ValueError(f"réponse {item!r} : attendu [clé, valeur]")
        key, value = item
        numbered = _NUMBERED.fullmatch(key)
        expected: type = _KEYS.get(key) or (str if numbered and numbered[1] == "name" else int if numbered else list)
        if key in ("roles", "extra"):
            ok = _card_lists(value) and bool(value)
        elif numbered or key in _KEYS:
            ok = isinstance(value, expected) and (expected is not int or not isinstance(value, bool))
        else:
            raise ValueError(f"réponse inconnue « {key} »")
        if not ok:
            raise ValueError(f"réponse « {key} » : valeur {value!r} refusée")
        value = tuple(tuple(c) for c in value) if key in ("roles", "extra") else value
        kept.append((key, value))
    return SetupState(tuple(kept), tuple(tuple(c) for c in cards), phones)  # type: ignore[union-attr]


def _card_lists(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(c, list) and c and all(isinstance(r, str) for r in c) for c in value
    )
