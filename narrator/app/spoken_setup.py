"""Setting a table up by voice, from the first word: the game, how many players, their names in
seat order, the cards in play; all read back and confirmed. « non » asks again,
« annule » takes back the last answer, « recommence » starts over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from narrator.listen.commands import MUSIC, Command
from narrator.listen.ear import Ear
from narrator.rules.errors import RecordError
from narrator.rules.onenight.record import check_setup
from narrator.script.games import ONE_NIGHT, family_of
from narrator.script.line import Line
from narrator.script.onenight.explain import card_name
from narrator.script.onenight.script import load_shipped
from narrator.script.prompts import Prompts, load_phone_prompts
from narrator.table.clock import Clock
from narrator.table.conversation import Conversation
from narrator.table.host import Understands
from narrator.table.onenight.setup import Table, build_table
from narrator.table.settings import Tuner
from narrator.table.voice import Voice

MIN_PLAYERS = 3
CONTROLS: tuple[str, ...] = ("repeat", "stop", "undo", "restart", "help", "slower", "faster", "louder", "quieter")
CONTROLS += ("longer_waits", *MUSIC, "phones", "no_phones")  # « avec les téléphones », at any question


class _Undo(Exception):
    pass


class _Restart(Exception):
    pass


class SetupStopped(Exception):
    """The table said « stop » during the setup."""


@dataclass
class SpokenSetup:
    voice: Voice
    ear: Ear
    clock: Clock
    prompts: Prompts
    words: Callable[[str | None], Understands]  # game -> the parser of the setup's phases
    phrases: Callable[[str | None, str], list[str]]  # (game, phase) -> what the recognizer may hear
    check_names: Callable[[list[str]], list[str]] | None = None  # names the recognizer cannot hear -> messages
    tune: Tuner | None = None
    listen_s: float = 8.0
    phones: bool = False  # played with the players' phones (`--phones`, or « avec les téléphones »)
    answers: dict[str, object] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # the answers' keys, latest last (« annule »)

    def run(self, game: str | None = None) -> Table:
        """Ask until the whole setup is confirmed; the table to play."""
        if game is not None:
            self._keep("game", game)
        while True:
            try:
                table = self._next()
            except _Undo:
                if not self.order:
                    self.voice.tell(self.prompts.line("nothing_to_undo"))
                    continue
                key = self.order.pop()
                self._undone(self._said(key, self.answers.pop(key)))
                continue
            except _Restart:
                self.answers.clear()
                self.order.clear()
                self.voice.tell(self.prompts.line("setup_again"))
                continue
            if table is not None:
                return table

    # -- the questions, in order --------------------------------------------------------

    def _next(self) -> Table | None:
        a = self.answers
        if "game" not in a:
            self._keep("game", self._ask_game())
            return None
        game = str(a["game"])
        script = load_shipped(game)
        if "count" not in a:
            self._keep("count", self._ask_count(script))
            return None
        count = int(a["count"])  # type: ignore[call-overload]
        names = [str(a[f"name{i}"]) for i in range(1, count + 1) if f"name{i}" in a]
        if len(names) < count:
            self._keep(f"name{len(names) + 1}", self._ask_name(game, len(names) + 1, names))
            return None
        if "roles" not in a:
            self._keep("roles", self._ask_cards(game, script, count))
            return None
        roles = list(a["roles"])  # type: ignore[call-overload]
        characters = self.prompts.join([card_name(script.rules, r) for r in roles])
        question = (load_phone_prompts() if self.phones else self.prompts).line(
            "setup_read_back_phones" if self.phones else "setup_read_back",
            count=count,
            players=self.prompts.join(names),
            characters=characters,
        )
        if self._talk(game).confirm(question):
            return build_table(game, names, roles)
        raise _Restart()

    def _ask_game(self) -> str:
        self.voice.ask(self.prompts.line("welcome"))

        def accept(commands: list[Command]) -> str | None:
            for c in commands:
                if c.command == "choose_game" and c.game:
                    if family_of(c.game) != ONE_NIGHT:
                        self.voice.tell(self.prompts.line("game_unavailable"))
                        return None
                    self.voice.tell(self.prompts.line("game_chosen", title=load_shipped(c.game).announce.title))
                    return c.game
            return None

        return self._talk(None).ask("game", accept)

    def _ask_count(self, script) -> int:
        high = sum(r.copies for r in script.rules.roles.values()) - 3
        self.voice.ask(self.prompts.line("ask_count"))

        def accept(commands: list[Command]) -> int | None:
            for c in commands:
                if c.command == "number" and c.count is not None:
                    if MIN_PLAYERS <= c.count <= high:
                        return c.count
                    self.voice.tell(self.prompts.line("count_range", low=MIN_PLAYERS, high=high))
            return None

        hint = self.prompts.text("typed_count", low=MIN_PLAYERS, high=high)  # for a keyboard
        return self._talk(script.rules.game).ask("number", accept, hint=hint)

    def _ask_name(self, game: str, seat: int, taken: list[str]) -> str:
        talk = self._talk(game)
        while True:
            self.voice.ask(self.prompts.line("ask_name", seat=seat))
            name = talk.ask("name", lambda cs: next((c.player for c in cs if c.command == "name" and c.player), None))
            if name.casefold() in {t.casefold() for t in taken}:
                self.voice.tell(self.prompts.line("name_taken", name=name))
                continue
            problems = self.check_names([name]) if self.check_names else []
            if problems:
                self.voice.tell(*_lines(problems))
                continue
            try:
                if talk.confirm(self.prompts.line("name_check", name=name)):
                    return name
            except _Undo:  # « annule » at « Cleo, c'est bien ça ? » takes back Cleo
                self._undone(name)

    def _ask_cards(self, game: str, script, count: int) -> list[str]:
        total = count + 3
        scenarios = script.announce.scenarios
        example = next((script_title(script, s) for s in scenarios if count in scenarios[s]), "")
        talk = self._talk(game)
        while True:
            self.voice.ask(self.prompts.line("ask_cards_mode", example=example, total=total))
            cards: list[str] = []
            while True:
                try:
                    commands = talk.ask(
                        "character",
                        lambda cs: [c for c in cs if c.command in ("scenario", "character", "done")] or None,
                    )
                except _Undo:
                    if not cards:
                        raise  # no card yet: the answer before (the last name) is taken back
                    self._undone(card_name(script.rules, cards.pop()))  # the last card only
                    self.voice.tell(self.prompts.line("characters_so_far", count=len(cards), total=total))
                    continue
                scenario = next((c.scenario for c in commands if c.command == "scenario" and c.scenario), None)
                if scenario is not None:
                    if count in scenarios.get(scenario, {}):
                        return list(scenarios[scenario][count])
                    self.voice.tell(self.prompts.line("no_scenario", count=count))
                    continue
                for c in commands:
                    if c.command == "character" and c.role:
                        cards += [c.role] * (c.count or 1)
                if len(cards) >= total or any(c.command == "done" for c in commands):
                    break
                self.voice.tell(self.prompts.line("characters_so_far", count=len(cards), total=total))
            if len(cards) != total:
                self.voice.tell(self.prompts.line("characters_count", count=len(cards), total=total))
                continue
            try:
                check_setup(script.rules, [f"joueur {i}" for i in range(count)], cards)
            except RecordError as exc:
                self.voice.tell(*_lines([f"{exc.expected}."]))
                continue
            return cards

    # -- listening ------------------------------------------------------------------------

    def _talk(self, game: str | None) -> Conversation:
        words = self.words(game)
        return Conversation(
            voice=self.voice,
            ear=self.ear,
            clock=self.clock,
            prompts=self.prompts,
            parse=words.parse,
            phrases=lambda phase: self.phrases(game, phase),
            controls=CONTROLS,
            control=self._control,
            listen_s=self.listen_s,
        )

    def _control(self, command: Command) -> None:
        if command.command == "repeat":
            self.voice.repeat()
        elif command.command == "stop":
            # a misheard word must not throw the answers away: « stop » asks first
            question = self.voice.last
            game = self.answers.get("game")
            if self._talk(str(game) if game else None).confirm(self.prompts.line("setup_stop_check")):
                self.voice.tell(self.prompts.line("setup_stopped"))
                raise SetupStopped()
            self.voice.tell(self.prompts.line("stop_cancelled"))
            self.voice.last = question
            self.voice.repeat()
        elif command.command == "undo":
            raise _Undo()
        elif command.command == "restart":
            raise _Restart()
        elif command.command == "help":
            self.voice.tell(self.prompts.line("help"))
        elif command.command in ("phones", "no_phones"):
            self.phones = command.command == "phones"
            self.voice.tell(load_phone_prompts().line(f"setup_{command.command}"))
        else:  # a setting: nothing is journaled yet
            reply = self.tune.refusal(command.command) if self.tune is not None else "setting_limit"
            if reply is None and self.tune is not None:
                self.tune.apply(command.command)
                reply = self.tune.reply(command.command)
            self.voice.tell(self.prompts.line(reply or command.command))

    def _undone(self, what: str) -> None:
        self.voice.tell(self.prompts.line("undone_what", what=what))

    def _said(self, key: str, value: object) -> str:
        """An answer of the setup as the table said it: a game's title, « 5 joueurs », a name, the cards."""
        if key == "game":
            return load_shipped(str(value)).announce.title
        if key == "count":
            return self.prompts.text("players_count", count=value)
        if key == "roles":
            rules = load_shipped(str(self.answers["game"])).rules
            return self.prompts.join([card_name(rules, r) for r in value])  # type: ignore[attr-defined]
        return str(value)

    def _keep(self, key: str, value: object) -> None:
        self.answers[key] = value
        self.order.append(key)


def script_title(script, scenario: str) -> str:
    return script.announce.scenario_titles.get(scenario, scenario)


def _lines(texts: list[str]) -> list[Line]:
    return [Line("problem*", text) for text in texts]
