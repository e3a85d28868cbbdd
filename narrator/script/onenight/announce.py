"""What the narrator says: a game script's setup legend, night calls and day, as lines and waits.

Pure functions over the validated script: given the characters in play (dealt or in the center),
they give the ordered `Line`s and `Wait`s to speak. A `call` block is read when any of its
characters is in the set (001: "Si un des personnages n'est pas en jeu, sauter simplement le
paragraphe"), with the same waits whether the card was dealt or lies in the center.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from narrator.script.line import Line, Reminder, Step, Wait
from narrator.script.templates import fill


@dataclass(frozen=True, slots=True)
class Only:
    """A line of a call said only when one of `roles` is in play (the Doppelgänger's « réveille-toi aussi »)."""

    roles: tuple[str, ...]
    line: Line


@dataclass(frozen=True, slots=True)
class Call:
    """The lines of one night call, read only when one of `roles` is in play."""

    roles: tuple[str, ...]
    steps: tuple[Step | Only, ...]

    def steps_for(self, present: set[str]) -> list[Step]:
        """The call's lines, without those about characters not in play."""
        out: list[Step] = []
        for step in self.steps:
            if isinstance(step, Only):
                if present.intersection(step.roles):
                    out.append(step.line)
            else:
                out.append(step)
        return out


@dataclass(frozen=True, slots=True)
class LegendEntry:
    name: str
    team: str
    stars: str
    symbol: str


@dataclass(frozen=True, slots=True)
class Announcements:
    """Everything a game's script makes the narrator say, before the words are filled in."""

    setup: tuple[Step | str, ...]  # a str is the legend template, repeated per character in play
    legend: Mapping[str, LegendEntry]  # role id -> what its legend line says, in script order
    night: tuple[Step | Call, ...]
    minutes: int
    first_game_minutes: int
    opening: tuple[Step, ...]
    opening_one: Mapping[str, str]  # line id -> its words for a debate of one minute (`say_one`), if any
    reminders: tuple[Reminder, ...]
    vote: tuple[Step, ...]
    scenarios: Mapping[str, Mapping[int, tuple[str, ...]]]  # name -> players -> cards in play
    scenario_titles: Mapping[str, str]  # name -> what it is called aloud
    title: str  # the game's name, said aloud

    def setup_steps(self, in_play: Iterable[str]) -> list[Step]:
        """The legend of the characters in play: name, team, difficulty, tactile symbol (001 "Adaptation")."""
        present = set(in_play)
        out: list[Step] = []
        for step in self.setup:
            if isinstance(step, str):
                for rid, entry in self.legend.items():
                    if rid in present:
                        text = fill(step, name=entry.name, team=entry.team, stars=entry.stars, symbol=entry.symbol)
                        out.append(Line(f"legend_{rid}", text[:1].upper() + text[1:]))
            else:
                out.append(step)
        return out

    def night_steps(self, in_play: Iterable[str]) -> list[Step]:
        """The night, skipping the calls of characters not in play."""
        return [step for section in self.night_sections(in_play) for step in section]

    def night_sections(self, in_play: Iterable[str]) -> list[list[Step]]:
        """The night in the pieces a resumed game restarts from: each call, each plain line."""
        present = set(in_play)
        out: list[list[Step]] = []
        for step in self.night:
            if isinstance(step, Call):
                if present.intersection(step.roles):
                    out.append(step.steps_for(present))
            else:
                out.append([step])
        return out

    def night_callers(self, in_play: Iterable[str]) -> list[tuple[str, ...]]:
        """For each of `night_sections`, the characters its call wakes (none for a plain line)."""
        present = set(in_play)
        return [
            step.roles if isinstance(step, Call) else ()
            for step in self.night
            if not isinstance(step, Call) or present.intersection(step.roles)
        ]

    def opening_steps(self, minutes: int) -> list[Step]:
        """The day's first lines, with the debate's length said (a filled line's id ends in "*")."""
        out: list[Step] = []
        for step in self.opening:
            if isinstance(step, Line) and "{minutes}" in step.text:
                text = self.opening_one.get(step.id, step.text) if minutes == 1 else step.text
                step = Line(step.id + "*", fill(text, minutes=minutes))
            out.append(step)
        return out


def parse_announcements(data: Mapping) -> Announcements:
    """Build `Announcements` from a script that passed the schema and cross-checks."""
    legend = data["legend"]
    entries = {}
    for rid, role in data["roles"].items():
        entries[rid] = LegendEntry(
            name=role["name"],
            # a card without a camp (the Doppelgänger takes the copied card's): `no_team` says so
            team=legend["teams"].get(role.get("team", ""), legend.get("no_team", "")),
            stars=legend["stars"].get(role.get("stars"), ""),
            # `symbol` words the card's tactile symbol (« symbole Cœur »), `no_symbol` its absence (« sans symbole »)
            symbol=fill(legend.get("symbol", "{symbol}"), symbol=role["symbol"])
            if "symbol" in role
            else legend["no_symbol"],
        )
    day = data["day"]
    return Announcements(
        setup=tuple(item["legend"] if "legend" in item else _step(item) for item in data["setup"]),
        legend=entries,
        night=tuple(
            Call(tuple(item["call"]), tuple(_call_step(s) for s in item["lines"])) if "call" in item else _step(item)
            for item in data["night"]
        ),
        minutes=day["discussion"]["minutes"],
        first_game_minutes=day["discussion"]["first_game_minutes"],
        opening=tuple(_step(s) for s in day["opening"]),
        opening_one={s["id"]: s["say_one"] for s in day["opening"] if "say_one" in s},
        reminders=tuple(Reminder(r["left"], Line(r["id"], r["say"])) for r in day["reminders"]),
        vote=tuple(_step(s) for s in day["vote"]),
        scenarios={
            name: {count: tuple(cards) for count, cards in scenario["players"].items()}
            for name, scenario in data.get("scenarios", {}).items()
        },
        scenario_titles={name: scenario["title"] for name, scenario in data.get("scenarios", {}).items()},
        title=data["title"],
    )


def _call_step(item: Mapping) -> Step | Only:
    step = _step(item)
    return Only(tuple(item["only"]), step) if "only" in item and isinstance(step, Line) else step


def _step(item: Mapping) -> Step:
    return Wait(float(item["wait"])) if "wait" in item else Line(item["id"], item["say"])
