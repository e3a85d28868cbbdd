"""The one-night family (`onuw`, `poudlard`): one night, the day by voice.

With physical cards the narrator never sees them: it reads the night, times the debate, and learns
the cards from the table in the morning. With the players' phones it deals them (seeded, the deal
in the journal's header), the night's choices are made on the phones, and the game ends written as
a record beside its journal. A table may be given on the command line or set up by voice (narrator/app/family.py).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache

from narrator.app.demo import run_demo
from narrator.app.phones import join
from narrator.app.resolve import resolve_one_night
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
from narrator.listen.ear import Ear
from narrator.listen.grammar import phrases
from narrator.listen.heard import unheard_in_play, with_respellings
from narrator.listen.vosk_ear import VoskEar
from narrator.rules.onenight.deal import shuffled
from narrator.script.games import ONE_NIGHT
from narrator.script.line import Line
from narrator.script.onenight.script import load_game, load_script
from narrator.script.onenight.story import story, told_of_record
from narrator.table.events import Event
from narrator.table.journal import Journal
from narrator.table.onenight.phones import missing_line
from narrator.table.onenight.session import Session
from narrator.table.onenight.setup import Table, build_table
from narrator.table.onenight.told import told_of_journal
from narrator.table.setup import SetupError
from narrator.table.voice import to_items
from narrator.voice import Item, Renderer, VoiceError


@dataclass
class OneNightTable:
    """A one-night table ready to play: its script, players, cards in play and what the narrator says."""

    table: Table
    deal: list[str] | None = None  # with the phones: the program's deal, each player's card then A, B, C
    seed: int | None = None  # what the deal was drawn with
    family: str = ONE_NIGHT

    @property
    def game(self) -> str:
        return self.table.script.rules.game

    @property
    def players(self) -> list[str]:
        return self.table.players

    def dealt(self, seed: int | None = None) -> OneNightTable:
        """The table played with the phones: the program deals the cards in play (a fresh seed if none)."""
        seed = seed if seed is not None else secrets.randbelow(2**31)
        return replace(self, deal=shuffled(self.table.roles, random.Random(seed)), seed=seed)

    def header(self) -> dict[str, object]:
        dealt = {"deal": self.deal, "seed": self.seed} if self.deal is not None else {}
        return {
            "in_play": self.table.roles,
            "minutes": self.table.narration.debate.minutes,
            "legend": self.table.legend,
            **dealt,
        }

    def voice(self, options: Options) -> Renderer:
        """The voice with every line of the game synthesized: nothing waits on synthesis later."""
        narration = self.table.narration
        voice = renderer(options.voice)
        words = self.table.script.phones
        late = to_items([missing_line(words)]) if self.deal is not None and words is not None else []
        try:
            voice.prepare(
                narration.opening
                + [i for _, items in narration.debate.reminders for i in items]
                + narration.vote
                + late
            )
        except VoiceError as exc:
            raise SetupError(str(exc)) from None
        return voice

    def play(self, options: Options, journal: Journal, events: list[Event] | None, io: Io, voice: Renderer) -> int:
        table = self.table
        parser = table_parser(self.game, table.players)
        # vosk turns a grammar into word pairs: the compact list keeps every pair, a tenth the size
        said = cache(lambda phase: heard_phrases(io.ear, table, phrases(parser, phase, compact=True)))
        host = host_arguments(options, io, voice, parser, said, journal, events)
        session = Session(
            script=table.script, players=tuple(table.players), in_play=table.roles, deal=self.deal, **host
        )
        warnings = unheard_lines(io.ear, table)

        def game() -> object:
            if io.phones is not None:  # every seat's phone there before the game begins
                join(session, io.phones)
            if warnings:  # before the legend: what to say for a character the model cannot hear
                host["voice"].tell(*warnings)
            ending = session.run(table.narration, events)
            if self.deal is not None:
                write_record(journal, session.record(ending))
            if io.phones is not None:
                io.phones.hub.status(" ".join(ending.why))
            return ending

        return guarded(game, journal, io)


class OneNight:
    """The one-night family, as the program's registry holds it (narrator/app/family.py)."""

    name = ONE_NIGHT

    def check_script(self, text: str, file: str) -> str:
        script = load_script(text, file)
        return f"{script.rules.game}, {len(script.rules.roles)} personnages"

    def resolve(self, raw: Mapping[str, object]) -> dict:
        return resolve_one_night(raw)

    def table(self, game: str, asked: TableRequest) -> OneNightTable:
        if asked.players is None:
            raise SetupError("--players : les noms des joueurs, dans l'ordre autour de la table")
        if asked.roles is None and asked.scenario is None:
            raise SetupError("--roles ou --scenario : les cartes en jeu (joueurs + 3)")
        table = build_table(
            game, asked.players, asked.roles, asked.scenario, asked.minutes, asked.first_game, asked.legend
        )
        return OneNightTable(table)

    def play(self, game: str, asked: TableRequest, options: Options, journal_path: str | None) -> int:
        table = self.table(game, asked)
        return start(table.dealt(asked.seed) if options.phones else table, options, journal_path)

    def night(self, game: str, asked: TableRequest) -> tuple[list[Item], int, int]:
        narration = self.table(game, asked).table.narration  # the legend, the night, the day's opening
        return narration.opening, narration.night, narration.sections[-1]

    def from_header(self, header: dict) -> OneNightTable:
        table = build_table(
            header["game"],
            list(header["players"]),
            list(header["in_play"]),
            None,
            header["minutes"],
            legend=header["legend"],
        )
        deal = header.get("deal")
        return OneNightTable(table, list(deal) if deal is not None else None, header.get("seed"))

    def story(self, raw: Mapping[str, object]) -> list[str]:
        rules = load_game(str(raw["ruleset"]))
        return story(rules, told_of_record(rules, raw))

    def story_of_journal(self, header: dict, events: list[Event]) -> list[str]:
        table = self.from_header(header)
        rules = table.table.script.rules
        return story(rules, told_of_journal(rules, table.players, table.table.roles, table.deal, events))

    def demo(self, seed: int, out: str, model: str | None, music: bool = True) -> bool:
        return run_demo(seed, out, model, music)


def heard_phrases(ear: Ear, table: Table, said: list[str]) -> list[str]:
    """A phase grammar, with the respellings the speech model hears of the characters it cannot hear."""
    return with_respellings(ear.model, table.script.rules.game, said) if isinstance(ear, VoskEar) else said


def unheard_lines(ear: Ear, table: Table) -> list[Line]:
    """For each character in play the speech model cannot hear, what to say instead (none without vosk)."""
    if not isinstance(ear, VoskEar):
        return []
    said = unheard_in_play(ear.model, table.script, table.roles, table.legend)
    return [Line(f"unheard_{n}", text) for n, text in enumerate(said)]
