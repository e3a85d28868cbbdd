"""The families of games, registered once: everything the program does with a game goes through its family.

As a board game box holds its rules and its pieces, a family holds what the program does with
each of its games: check its script, resolve a record of it, check a table of it, start it,
resume it from its journal, render its night, play its demo. Which game is which family is
written once, as data (narrator/script/games.py); the command line and the resumption of a
journal dispatch here, and nothing else tests a game's name.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from narrator.app.classic import Classic
from narrator.app.onenight import OneNight
from narrator.app.startup import Options, TableGame, TableRequest, go_on
from narrator.rules.errors import RecordError, missing
from narrator.script.games import CLASSIC, GAMES, ONE_NIGHT, family_of
from narrator.table.events import Event
from narrator.table.journal import Journal, JournalError, finished, journal_dir, last_unfinished
from narrator.table.setup import SetupError
from narrator.voice import Item


class Family(Protocol):
    """One way of playing, and what the program does with each of its games."""

    @property
    def name(self) -> str:
        """As journal headers name it (narrator/script/games.py)."""
        ...

    def check_script(self, text: str, file: str) -> str:
        """Validate a script of the family (raise `YamlError`, every problem at once); say what it holds."""
        ...

    def resolve(self, raw: Mapping[str, object]) -> dict:
        """The documented outcome of a game record; `RecordError` for bad input."""
        ...

    def table(self, game: str, asked: TableRequest) -> TableGame:
        """The table asked for, checked (`SetupError`, one French sentence) and ready to start."""
        ...

    def play(self, game: str, asked: TableRequest, options: Options, journal_path: str | None) -> int:
        """A new game at a real table, journaled; the exit status."""
        ...

    def night(self, game: str, asked: TableRequest) -> tuple[list[Item], int, int]:
        """What `narrator render` writes of the table, as the table hears it, and where in it the night
        begins and ends (its music plays from the one to the other)."""
        ...

    def from_header(self, header: dict) -> TableGame:
        """The table of a journaled game, rebuilt from its journal's header (`SetupError` if refused)."""
        ...

    def story(self, raw: Mapping[str, object]) -> list[str]:
        """The story of a finished game's record, one sentence a line; `RecordError` for bad input."""
        ...

    def story_of_journal(self, header: dict, events: list[Event]) -> list[str]:
        """The story of a finished game from its journal: what the table heard when it asked for it."""
        ...

    def demo(self, seed: int, out: str, model: str | None, music: bool = True) -> bool:
        """The family's demo played (`music`: with the night's music); True when the table ended as
        `narrator resolve` says it does."""
        ...


FAMILIES: dict[str, Family] = {ONE_NIGHT: OneNight(), CLASSIC: Classic()}
EXPECTED = ", ".join(GAMES[:-1]) + " ou " + GAMES[-1]


def family(game: str) -> Family:
    """The family of `game`; `SetupError` for a game the program does not know."""
    name = family_of(game)
    if name is None:
        raise SetupError(f"jeu inconnu « {game} » ; attendu : {', '.join(GAMES)}")
    return FAMILIES[name]


def resolve_record(raw: object) -> dict:
    """The documented output of one record, by its family; raise `RecordError` for bad input."""
    if not isinstance(raw, Mapping):
        raise RecordError((), "un enregistrement (un mapping)", raw)
    game = raw.get("ruleset")
    if game is None:
        raise missing(("ruleset",), EXPECTED)
    name = family_of(game)
    if name is None:
        raise RecordError(("ruleset",), EXPECTED, game)
    return FAMILIES[name].resolve(raw)


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
        try:
            table = FAMILIES[header["family"]].from_header(header)
        except SetupError as exc:
            raise SetupError(f"{path} : en-tête de journal refusé : {exc}") from None
    except BaseException:
        journal.close_quietly()
        raise
    return go_on(table, header, options, journal, events)
