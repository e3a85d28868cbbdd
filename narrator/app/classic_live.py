"""A classic Thiercelieux game at a real table: the deal checked, the journal, the operator, the session."""

from __future__ import annotations

import sys
from dataclasses import asdict
from functools import cache
from pathlib import Path

import yaml

from narrator.app.live import Io, Options, guarded, open_io, renderer, script_version, tuner
from narrator.rules.classic import Record, parse_record
from narrator.rules.errors import RecordError
from narrator.script.classic.narration import load_narration
from narrator.script.classic.script import GAME, load_classic
from narrator.table.events import Event
from narrator.table.journal import Journal, JournalError
from narrator.table.onenight.setup import SetupError, check_spoken_names


def check_deal(
    players: list[str],
    roles: list[str],
    options: dict[str, bool] | None = None,
    extra: list[str] | None = None,
    groups: dict[str, int] | None = None,
) -> Record:
    """The table as a record checks it (names, one card a seat, the box's limits, the undealt cards, the
    sectaire's groups); `SetupError` if wrong."""
    deal: dict[str, object] = dict(zip(players, roles))
    if extra:
        deal["extra"] = extra
    if groups:
        deal["groups"] = groups
    raw: dict[str, object] = {"players": players, "deal": deal, "phases": []}
    if options:
        raw["options"] = options
    if len(roles) != len(players):
        raise SetupError(
            f"--roles : attendu : un personnage par joueur, dans l'ordre des joueurs ({len(players)}) ; "
            f"trouvé : {len(roles)}"
        )
    try:
        record = parse_record(load_classic(), raw)
    except RecordError as exc:
        where = {"players": "--players", "extra": "--extra", "groups": "--groups"}
        key = exc.path[1] if exc.path[:1] == ("deal",) and len(exc.path) > 1 else exc.path[0] if exc.path else ""
        raise SetupError(f"{where.get(str(key), '--roles')} : {exc.describe()}") from None
    check_spoken_names(GAME, list(record.players))
    return record


def start_classic(
    players: list[str],
    roles: list[str],
    options: Options,
    minutes: int | None = None,
    captain: bool = False,
    journal_path: str | None = None,
    extra: list[str] | None = None,
    groups: dict[str, int] | None = None,
) -> int:
    """A new classic game: the deal checked, its journal first, then the session."""
    record = check_deal(players, roles, {"captain": True} if captain else None, extra, groups)
    if minutes is not None and not 1 <= minutes <= 60:
        raise SetupError(f"--minutes : attendu : de 1 à 60 ; trouvé : {minutes}")
    header = {
        "family": "classic",
        "game": GAME,
        "script": script_version(GAME),
        "players": list(record.players),
        "deal": list(record.roles),
        "options": asdict(record.options),
        "extra": list(record.extra),
        "groups": dict(zip(record.players, record.groups)),
        "minutes": minutes,
        "voice": options.voice,
        "seed": None,
    }
    renderer(options.voice)  # a voice, an ear and a speaker that cannot start leave no journal to resume
    io = open_io(options, list(record.players))
    try:
        journal = Journal.create(header, Path(journal_path) if journal_path else None)
    except JournalError as exc:
        io.close()
        raise SetupError(str(exc)) from None
    print(f"Journal de la partie : {journal.path}", file=sys.stderr)
    return run_classic(record, minutes, options, journal, io=io)


def resume_classic(journal: Journal, header: dict, events: list[Event], options: Options) -> int:
    """A classic game the journal says did not end: its answers replayed, then on from there."""
    try:
        record = check_deal(
            list(header["players"]), list(header["deal"]), dict(header["options"]), header["extra"], header["groups"]
        )
    except SetupError as exc:
        raise SetupError(f"{journal.path} : en-tête de journal refusé : {exc}") from None
    if header.get("script") != script_version(GAME):
        print("Attention : les scripts du jeu ont changé depuis le début de cette partie.", file=sys.stderr)
    options.voice = header.get("voice", options.voice)
    print(f"Reprise de la partie : {journal.path}", file=sys.stderr)
    try:
        return run_classic(record, header["minutes"], options, journal, events)
    finally:
        journal.close_quietly()  # a failure before the session began: the lock released


def run_classic(
    record: Record,
    minutes: int | None,
    options: Options,
    journal: Journal,
    events: list[Event] | None = None,
    io: Io | None = None,
) -> int:
    from narrator.listen.french import Parser
    from narrator.listen.grammar import phrases
    from narrator.listen.simple_ears import KeyboardEar
    from narrator.listen.vosk_ear import VoskEar
    from narrator.script.prompts import load_prompts
    from narrator.table.classic.operator import KeyboardOperator
    from narrator.table.classic.session import ClassicSession
    from narrator.table.voice import Voice, load_earcons

    io = io or open_io(options, list(record.players))
    parser = Parser(GAME, record.players)
    spoken = Voice(renderer(options.voice).render, io.speaker, load_earcons())  # type: ignore[arg-type]
    ear = io.ear
    # one keyboard for the table's typed answers and the operator's: the lines are read in turn
    read_line = ear.read_line if isinstance(ear, KeyboardEar) else None
    session = ClassicSession(
        prompts=load_prompts(),
        voice=spoken,
        ear=ear,
        clock=io.clock,  # type: ignore[arg-type]
        parser=parser,
        phrases=cache(lambda phase: phrases(parser, phase, compact=True)),
        journal=journal,
        keyboard=KeyboardEar() if isinstance(ear, VoskEar) else None,
        tune=tuner(options.voice, spoken),
        rules=load_classic(),
        narration=load_narration(),
        players=record.players,
        deal=record.roles,
        options=record.options,
        extra=record.extra,
        groups=record.groups,
        operator=KeyboardOperator(read_line, seats=record.players),  # a player's number: his seat
        minutes=minutes,
    )

    def play() -> None:
        ending = session.run(events)
        out = journal.path.with_suffix(".record.yaml")
        out.write_text(yaml.safe_dump(ending.record, allow_unicode=True, sort_keys=False), encoding="utf-8")
        print(f"La partie, en enregistrement pour « narrator resolve » : {out}", file=sys.stderr)

    return guarded(play, journal, io)
