"""`narrator demo`: a whole Poudlard game at a table of five simulated players who speak.

The players (scripts/demo.yaml) are dealt a real game — cards, night choices and votes drawn with
a seed — and answer the narrator aloud, each with a voice of their own. Where a French vosk model
is installed, what they say goes through the real recognizer; otherwise the same sentences go to
the session as text. The narrator knows nothing of the cards: it learns them as a table of
physical cards would tell it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from narrator.listen.ear import Heard
from narrator.resolve import resolve_record
from narrator.rules.deal import random_record
from narrator.script.game import GameScript
from narrator.script.marks import YamlError, load_marked
from narrator.script.schema import schema_problems
from narrator.voice import Profile, Renderer, Say, Speaker

_TEXT = {"type": "string", "minLength": 1}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "game": {"enum": ["poudlard", "onuw"]},
        "scenario": _TEXT,
        "minutes": {"type": "integer", "minimum": 1},
        "wait_multiplier": {"type": "number", "exclusiveMinimum": 0},
        "players": {
            "type": "array",
            "minItems": 3,
            "items": {
                "type": "object",
                "properties": {"name": _TEXT, "voice": _TEXT, "pitch": {"type": "integer"}},
                "required": ["name", "voice", "pitch"],
                "additionalProperties": False,
            },
        },
        "say": {
            "type": "object",
            "properties": {k: _TEXT for k in ("start_vote", "vote", "vote_nobody", "card", "yes", "pointing")},
            "required": ["start_vote", "vote", "vote_nobody", "card", "yes", "pointing"],
            "additionalProperties": False,
        },
    },
    "required": ["game", "scenario", "minutes", "wait_multiplier", "players", "say"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class Demo:
    """The simulated table: who sits, with which voice, and what they say."""

    config: dict[str, Any]

    @property
    def names(self) -> list[str]:
        return [p["name"] for p in self.config["players"]]

    def line(self, key: str, **params: str) -> str:
        return str(self.config["say"][key]).format(**params)


def parse_demo(text: str, file: str) -> Demo:
    doc = load_marked(text, file)
    problems = schema_problems(doc, SCHEMA)
    if problems:
        raise YamlError(problems)
    return Demo(cast(dict, doc.data))


def deal(demo: Demo, script: GameScript, seed: int) -> dict:
    """A real game for the simulated table: the scenario's cards dealt, night choices and votes drawn."""
    deck = list(script.announce.scenarios[demo.config["scenario"]][len(demo.names)])
    rng = random.Random(seed)
    record = random_record(script.rules, rng, len(demo.names), "demo", names=demo.names, deck=deck)
    record["votes"] = {n: rng.choice([o for o in demo.names if o != n]) for n in demo.names}  # nobody votes himself
    return record


def answers(demo: Demo, script: GameScript, record: dict) -> list[tuple[str | None, str | None]]:
    """What the players say, in the order the narrator asks: (who, words); (None, None) is silence."""
    final = resolve_record(record)["final"]
    names = demo.names
    said: list[tuple[str | None, str | None]] = [(None, None), (names[0], demo.line("start_vote"))]
    for voter in names:
        target = record["votes"][voter]
        key = "vote_nobody" if target is None else "vote"
        said.append((voter, demo.line(key, voter=voter.lower(), target=(target or "").lower())))
    said.append((names[0], demo.line("yes")))
    for player in names:
        said.append((player, demo.line("card", role=script.rules.roles[final[player]].name.lower())))
    said.append((names[0], demo.line("yes")))
    return said


class DemoEar:
    """Each listening turn, the next simulated player speaks aloud; the narrator hears it."""

    def __init__(
        self,
        said: Sequence[tuple[str | None, str | None]],
        voices: dict[str, Renderer],
        out: Speaker,
        show: Callable[[str], None],
        model: Any = None,
    ) -> None:
        self._said = iter(said)
        self.voices = voices
        self.out = out
        self.show = show
        self.model = model

    def listen(self, phrases: Sequence[str], timeout_s: float) -> Heard | None:
        who, words = next(self._said, (None, ""))
        if words == "":
            raise EOFError("les joueurs simulés n'ont plus rien à dire")
        if who is None or words is None:
            return None
        self.show(f"{who} : {words}")
        audio = self.voices[who].render([Say(f"player:{who}", words)])
        self.out.play(audio)
        if self.model is None:
            return Heard(words)
        return Heard(self._recognize(audio, phrases, timeout_s) or "")

    def _recognize(self, audio, phrases: Sequence[str], timeout_s: float) -> str | None:
        """The player's speech through the real recognizer (vosk, the session's grammar)."""
        from narrator.listen.vosk_ear import decode, new_recognizer

        pcm = audio.pcm.astype("<i2").tobytes()
        block = audio.rate // 10 * 2
        found = decode(
            new_recognizer(self.model, phrases, audio.rate),
            (pcm[i : i + block] for i in range(0, len(pcm), block)),
            audio.rate,
            timeout_s,
        )
        return None if found is None else found.text

    def close(self) -> None:
        """Nothing to release."""


def player_voices(demo: Demo, profile: Profile) -> dict[str, Renderer]:
    """One renderer per simulated player: the narrator's profile with the player's voice and pitch."""
    return {p["name"]: Renderer(replace(profile, voice=p["voice"], pitch=p["pitch"])) for p in demo.config["players"]}
