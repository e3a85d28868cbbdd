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
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Protocol

from narrator.app.classic import Classic
from narrator.app.onenight import OneNight
from narrator.app.spoken_setup import SetupStopped, SpokenSetup
from narrator.app.startup import Options, TableGame, TableRequest, go_on, open_io, renderer, start, tuner
from narrator.listen.compiled import setup_parser
from narrator.listen.ear import ListenError
from narrator.listen.grammar import setup_phrases
from narrator.listen.vosk_ear import VoskEar
from narrator.rules.errors import RecordError, missing
from narrator.script.games import CLASSIC, GAMES, ONE_NIGHT, family_of
from narrator.script.prompts import load_prompts
from narrator.table.events import Event
from narrator.table.journal import Journal, JournalError, finished, journal_dir, last_unfinished
from narrator.table.setup import SetupError
from narrator.table.setup_journal import FILE as SETUP_FILE
from narrator.table.setup_journal import SetupJournal, SetupJournalError, SetupState
from narrator.table.voice import Voice, load_earcons
from narrator.voice import Item, VoiceError


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


class Dealt(TableGame, Protocol):
    """A table whose cards the program may deal (with the phones): every family's."""

    def dealt(self, seed: int | None) -> TableGame: ...


FAMILIES: dict[str, Family] = {ONE_NIGHT: OneNight(), CLASSIC: Classic()}
EXPECTED = ", ".join(GAMES[:-1]) + " ou " + GAMES[-1]


def family(game: str) -> Family:
    """The family of `game`; `SetupError` for a game the program does not know."""
    name = family_of(game)
    if name is None:
        raise SetupError(f"jeu inconnu « {game} » ; attendu : {', '.join(GAMES)}")
    return FAMILIES[name]


def play(game: str, asked: TableRequest, options: Options, journal_path: str | None) -> int:
    """`narrator play GAME`: the table given on the command line, or without --players set up by voice."""
    played = family(game)
    if asked.players is None:
        return setup_and_play(options, game, journal_path, asked.seed)
    if asked.roles:  # the rulebooks' advice, said, never a refusal (narrator/app/compose.py)
        from narrator.app.compose import warn_against

        warn_against(game, asked.roles, asked.extra or ())
    return played.play(game, asked, options, journal_path)


def setup_and_play(
    options: Options, game: str | None = None, journal_path: str | None = None, seed: int | None = None
) -> int:
    """From the first word, the setup by voice (game, players, names, cards, a classic game's options), then
    the game, by its family: with the phones, the program deals the cards in play."""
    journal, left = _setup_left(game)
    io = open_io(options)
    voice = Voice(renderer(options.voice).render, io.speaker, load_earcons(), io.bed)
    ear = io.ear
    check = (lambda names: [p.message for p in ear.check_names(names)]) if isinstance(ear, VoskEar) else None
    setup = SpokenSetup(
        voice=voice,
        ear=ear,
        clock=io.clock,
        prompts=load_prompts(),
        words=setup_parser,
        phrases=cache(lambda game, phase: setup_phrases(game, phase)),
        check_names=check,
        tune=tuner(options.voice, voice),
        phones=options.phones,
        journal=journal,
    )
    try:
        if game is None and journal is not None and _game_left() and setup.offer_game():
            io.close()
            return resume(None, options)
        if left is not None:
            setup.offer(left)  # « Une mise en place n'est pas finie : … On la reprend ? »
        got = setup.run(game)
        asked = TableRequest(
            players=got.players, roles=got.roles, extra=got.extra, groups=got.groups, captain=got.captain, seed=seed
        )
        table: Dealt = family(got.game).table(got.game, asked)  # type: ignore[assignment]
    except SetupStopped:
        io.close()
        return 0
    except EOFError:
        io.close()
        raise SetupError("les réponses se sont arrêtées pendant la mise en place de la partie") from None
    except (VoiceError, ListenError, SetupError) as exc:
        io.close()
        raise SetupError(str(exc)) from None
    if journal is not None:
        journal.clear()  # the game's own journal takes over
    # « avec les téléphones »: the server opens once the players are known
    options = replace(options, phones=setup.phones)
    return start(table.dealt(seed) if options.phones else table, options, journal_path, io)


def _setup_left(game: str | None) -> tuple[SetupJournal | None, SetupState | None]:
    """The setup's journal, and the setup it holds if one was left unfinished (for this game, when one is
    named on the command line); a journal that cannot be read is said and started again."""
    try:
        journal = SetupJournal(journal_dir() / SETUP_FILE)
    except JournalError as exc:
        print(f"Attention : {exc} ; la mise en place ne sera pas gardée", file=sys.stderr)
        return None, None
    try:
        left = journal.read()
    except SetupJournalError as exc:
        print(f"Attention : {exc} ; la mise en place recommence", file=sys.stderr)
        return journal, None
    if left is not None and (not left.answers and not left.cards or game not in (None, left.value("game"))):
        left = None
    return journal, left


def _game_left() -> bool:
    try:
        return last_unfinished() is not None
    except JournalError:
        return False


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


# what the start-up's refusals name (an option) is a key of the header when a resume reads it
_HEADER_KEYS = {"--players": "players", "--minutes": "minutes", "--extra": "extra", "--groups": "groups"}


def header_words(problem: str, header: Mapping[str, object]) -> str:
    """A table's refusal said of the journal's header: « « in_play » : … », not « --roles : … », which the
    user resuming never typed."""
    option, sep, rest = problem.partition(" : ")
    if not sep or not option.startswith("--"):
        return problem
    cards = "in_play" if header.get("in_play") is not None else "deal"
    key = _HEADER_KEYS.get(option, cards if option in ("--roles", "--scenario") else None)
    return f"« {key} » : {rest}" if key else rest


def resume(journal_path: str | None, options: Options, before_line: int | None = None) -> int:
    """A game the journal says did not end, from where it stopped (a « stop » included)."""
    try:
        path = Path(journal_path) if journal_path else last_unfinished()
        if path is None and _setup_left(None)[1] is not None:
            return setup_and_play(options)  # no game to resume, but a setup cut short: it goes on
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
            raise SetupError(f"{path}:1: en-tête de journal refusé : {header_words(str(exc), header)}") from None
    except BaseException:
        journal.close_quietly()
        raise
    return go_on(table, header, options, journal, events)
