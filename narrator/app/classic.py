"""The classic family (`thiercelieux`): night after night, an operator types the night's choices.

The operator, who does not play, types each call's choice on a private screen; the table hears
every public line and plays the day by voice. With the players' phones (`--phones`) there is no
operator: the program deals the cards (`--roles` are the cards in play, shuffled with `--seed`),
each phone shows its holder's card, and the night's choices are made on the phones
(narrator/table/classic/phones.py). The game ends written as a record beside its journal, which
`narrator resolve` plays to the same end.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cache

from narrator.app.classic_demo import run_classic_demo
from narrator.app.phones import join
from narrator.app.resolve import resolve_classic
from narrator.app.startup import (
    Io,
    Options,
    TableRequest,
    guarded,
    host_arguments,
    renderer,
    start,
    write_record,
)
from narrator.listen.compiled import table_parser
from narrator.listen.grammar import phrases
from narrator.listen.simple_ears import KeyboardEar
from narrator.phones.screens import Card
from narrator.rules.classic import Record
from narrator.script.classic.narration import load_narration, load_narration_script
from narrator.script.classic.script import GAME, load_classic, load_classic_script
from narrator.script.classic.story import story
from narrator.script.games import CLASSIC
from narrator.script.prompts import load_phone_prompts
from narrator.table.bounds import refusal
from narrator.table.classic.operator import KeyboardOperator, Operator
from narrator.table.classic.phones import PhoneOperator
from narrator.table.classic.session import ClassicSession
from narrator.table.classic.setup import check_deal
from narrator.table.classic.told import record_of
from narrator.table.events import Event
from narrator.table.journal import Journal
from narrator.table.setup import SetupError
from narrator.table.voice import to_items
from narrator.voice import Item, Renderer

HEARD_S = 4.0  # after « J'attends encore une réponse », how long the table is heard
_NEEDS_DEAL = f"{GAME} : --players et --roles (le personnage de chaque joueur, dans le même ordre)"


@dataclass
class ClassicTable:
    """A classic table ready to play: the deal checked as a record, and the debate's length."""

    record: Record
    minutes: int | None = None  # None: the script's
    seed: int | None = None  # the program's deal was drawn with it (the phones); None: the table's cards
    family: str = CLASSIC
    game: str = GAME

    @property
    def players(self) -> list[str]:
        return list(self.record.players)

    def header(self) -> dict[str, object]:
        record = self.record
        return {
            "deal": list(record.roles),
            "options": asdict(record.options),
            "extra": list(record.extra),
            "groups": dict(zip(record.players, record.groups)),
            "minutes": self.minutes,
            "seed": self.seed,
        }

    def dealt(self, seed: int | None) -> ClassicTable:
        """The same cards dealt by the program, shuffled with `seed` (a fresh one by default), in seat order."""
        seed = secrets.randbelow(2**31) if seed is None else seed
        record = self.record
        cards = list(record.roles)
        random.Random(seed).shuffle(cards)
        groups = dict(zip(record.players, record.groups)) or None
        options = asdict(record.options)
        dealt = check_deal(list(record.players), cards, options, list(record.extra) or None, groups)
        return ClassicTable(dealt, self.minutes, seed)

    def voice(self, options: Options) -> Renderer:
        return renderer(options.voice)

    def play(self, options: Options, journal: Journal, events: list[Event] | None, io: Io, voice: Renderer) -> int:
        record = self.record
        parser = table_parser(GAME, record.players)
        host = host_arguments(
            options, io, voice, parser, cache(lambda phase: phrases(parser, phase, compact=True)), journal, events
        )
        hub = host["phones"]  # the players' phones, when the table plays with them
        operator: Operator
        if hub is not None:
            prompts, spoken = load_phone_prompts(), host["voice"]

            def remind() -> None:
                """A phone is slow: the table hears it, then is heard (« stop », « libère la place de Ana »)."""
                spoken.tell(prompts.line("waiting_answer"))
                session.hear_controls(HEARD_S)

            operator = PhoneOperator(hub, load_narration().phones, prompts, remind)
        else:
            # one keyboard for the table's typed answers and the operator's: the lines are read in turn
            ear = io.ear
            read_line = ear.read_line if isinstance(ear, KeyboardEar) else None
            operator = KeyboardOperator(read_line, seats=record.players)  # a player's number: his seat
        session = ClassicSession(
            rules=load_classic(),
            narration=load_narration(),
            players=record.players,
            deal=record.roles,
            options=record.options,
            extra=record.extra,
            groups=record.groups,
            operator=operator,
            minutes=self.minutes,
            **host,
        )

        def game() -> None:
            if io.phones is not None:  # every seat's phone there before the cards are dealt to them
                join(session, io.phones)
                io.phones.hub.deal({p: _card(r) for p, r in zip(record.players, record.roles)})
            ending = session.run(events)
            write_record(journal, ending.record)

        return guarded(game, journal, io)


class Classic:
    """The classic family, as the program's registry holds it (narrator/app/family.py)."""

    name = CLASSIC

    def check_script(self, text: str, file: str) -> str:
        rules = load_classic_script(text, file)
        calls = len(load_narration_script(text, file).calls)
        return f"{GAME}, {len(rules.roles)} personnages, {calls} appels de nuit"

    def resolve(self, raw: Mapping[str, object]) -> dict:
        return resolve_classic(raw)

    def table(self, game: str, asked: TableRequest) -> ClassicTable:
        if asked.players is None or asked.roles is None:
            raise SetupError(_NEEDS_DEAL)
        if asked.scenario is not None:
            raise SetupError(f"--scenario : {GAME} n'a pas de scénario tout prêt ; donnez --roles")
        options = {"captain": True} if asked.captain else None
        record = check_deal(asked.players, asked.roles, options, asked.extra, asked.groups)
        if asked.minutes is not None and (problem := refusal("minutes", asked.minutes)):
            raise SetupError(f"--minutes : {problem}")
        return ClassicTable(record, asked.minutes)

    def play(self, game: str, asked: TableRequest, options: Options, journal_path: str | None) -> int:
        table = self.table(game, asked)
        if options.phones:
            table = table.dealt(asked.seed)  # the program deals: --roles are the cards in play
        return start(table, options, journal_path)

    def night(self, game: str, asked: TableRequest) -> tuple[list[Item], int, int]:
        """The first night of the table, every call with its usual wait: all of it night."""
        record = self.table(game, asked).record  # checked as a table that would play it
        items = to_items(load_narration().night_steps(set(record.roles), 1))
        return items, 0, len(items)

    def from_header(self, header: dict) -> ClassicTable:
        deal = list(header["deal"])
        record = check_deal(list(header["players"]), deal, dict(header["options"]), header["extra"], header["groups"])
        return ClassicTable(record, header["minutes"], header.get("seed"))

    def story(self, raw: Mapping[str, object]) -> list[str]:
        return story(load_classic(), raw)

    def story_of_journal(self, header: dict, events: list[Event]) -> list[str]:
        record = self.from_header(header).record
        options = asdict(record.options)
        return story(
            load_classic(), record_of(GAME, record.players, record.roles, options, record.extra, record.groups, events)
        )

    def demo(self, seed: int, out: str, model: str | None, music: bool = True) -> bool:
        return run_classic_demo(seed, out, model, music)


def _card(role_id: str) -> Card:
    role = load_classic().roles[role_id]
    camp = load_phone_prompts().text(f"camp_{role.camp.value}")
    return Card(role.id, role.name[:1].upper() + role.name[1:], role.card, camp=camp)
