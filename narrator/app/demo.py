"""`narrator demo`: a whole Poudlard game at a table of five simulated players who speak.

The players (scripts/demo.yaml) are dealt a real game — cards, night choices and votes drawn with
a seed — and answer the narrator aloud, each with a voice of their own. Where a French vosk model
is installed, what they say goes through the real recognizer; otherwise the same sentences go to
the session as text. The narrator knows nothing of the cards: it learns them as a table of
physical cards would tell it.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, TypedDict, cast

from narrator.app.resolve import resolve_one_night
from narrator.app.speakers import Tee
from narrator.listen.compiled import table_parser
from narrator.listen.ear import Heard, ModelError
from narrator.listen.grammar import phrases
from narrator.listen.model import find_model, load_model
from narrator.listen.table_words import Parser
from narrator.listen.vosk_ear import decode, new_recognizer
from narrator.resources import data_dir, french_reason
from narrator.rules.onenight.deal import random_record
from narrator.script.games import ONE_NIGHT, games_of
from narrator.script.marks import YamlError, load_marked
from narrator.script.onenight.script import GameScript, load_shipped
from narrator.script.prompts import Prompts, load_prompts
from narrator.script.schema import schema_problems
from narrator.script.templates import fill, text_problems
from narrator.table.classic.setup import check_deal
from narrator.table.clock import Clock, FakeClock, RealClock
from narrator.table.onenight.announcer import plan
from narrator.table.onenight.session import Session
from narrator.table.setup import SetupError
from narrator.table.voice import Voice
from narrator.voice import (
    ConsoleSpeaker,
    NoSoundCard,
    Profile,
    Renderer,
    Say,
    SoundDeviceSpeaker,
    Speaker,
    VoiceError,
    WavSpeaker,
    find_profile,
)
from narrator.voice.ambience import make_bed
from narrator.voice.bed import Bed
from narrator.voice.profile import Ambience

_TEXT = {"type": "string", "minLength": 1}
_PLAYERS = {
    "type": "array",
    "minItems": 3,
    "items": {
        "type": "object",
        "properties": {"name": _TEXT, "voice": _TEXT, "pitch": {"type": "integer"}},
        "required": ["name", "voice", "pitch"],
        "additionalProperties": False,
    },
}
# what the simulated players say, and the placeholders each sentence may use
SAYS = {
    "start_vote": set(),
    "vote": {"voter", "target"},
    "vote_nobody": {"voter"},
    "card": {"role"},
    "yes": set(),
    "pointing": {"target"},
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "game": {"enum": list(games_of(ONE_NIGHT))},
        "scenario": _TEXT,
        "minutes": {"type": "integer", "minimum": 1},
        "wait_multiplier": {"type": "number", "exclusiveMinimum": 0},
        "players": _PLAYERS,
        "say": {
            "type": "object",
            "properties": {k: _TEXT for k in SAYS},
            "required": list(SAYS),
            "additionalProperties": False,
        },
        # the classic family's demo (narrator/app/classic_demo.py)
        "classic": {
            "type": "object",
            "properties": {
                "players": _PLAYERS,
                "roles": {"type": "array", "items": _TEXT},
                "captain": {"type": "boolean"},
                "minutes": {"type": "integer", "minimum": 1},
            },
            "required": ["players", "roles", "captain", "minutes"],
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
        return fill(str(self.config["say"][key]), **params)


def parse_demo(text: str, file: str) -> Demo:
    """The demo's table, checked: the schema, then a scenario the game has for that many players, distinct names."""
    doc = load_marked(text, file)
    problems = schema_problems(doc, SCHEMA)
    if not problems:
        data = cast(dict, doc.data)
        for key, allowed in SAYS.items():
            problems += text_problems(doc, ("say", key), data["say"][key], allowed)
        tables: dict[tuple[str, ...], list] = {("players",): data["players"]}
        if "classic" in data:
            tables[("classic", "players")] = data["classic"]["players"]
            problems += _classic_problems(doc, data["classic"])
        for where, seated in tables.items():
            names = [p["name"] for p in seated]
            for i, name in enumerate(names):
                if name in names[:i]:
                    problems.append(doc.problem((*where, i, "name"), f"nom en double « {name} »"))
        names = [p["name"] for p in data["players"]]
        scenarios = load_shipped(data["game"]).announce.scenarios
        if len(names) not in scenarios.get(data["scenario"], {}):
            known = ", ".join(scenarios) or "aucun"
            message = f"attendu : un scénario de {data['game']} pour {len(names)} joueurs ({known})"
            problems.append(doc.problem(("scenario",), f"{message} ; trouvé : « {data['scenario']} »"))
    if problems:
        raise YamlError(problems)
    return Demo(cast(dict, doc.data))


def _classic_problems(doc, classic: dict) -> list:
    """The classic table's cards, checked as a real table's would be (one per player, the box's limits)."""
    names = list(dict.fromkeys(p["name"] for p in classic["players"]))
    try:
        check_deal(names, list(classic["roles"]))
    except SetupError as exc:
        return [doc.problem(("classic", "roles"), str(exc).removeprefix("--roles : "))]
    return []


def deal(demo: Demo, script: GameScript, seed: int) -> dict:
    """A real game for the simulated table: the scenario's cards dealt, night choices and votes drawn."""
    deck = list(script.announce.scenarios[demo.config["scenario"]][len(demo.names)])
    rng = random.Random(seed)
    record = random_record(script.rules, rng, len(demo.names), "demo", names=demo.names, deck=deck)
    record["votes"] = {n: rng.choice([o for o in demo.names if o != n]) for n in demo.names}  # nobody votes himself
    return record


def answers(demo: Demo, script: GameScript, record: dict) -> list[tuple[str | None, str | None]]:
    """What the players say, in the order the narrator asks: (who, words); (None, None) is silence."""
    final = resolve_one_night(record)["final"]
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


class PlayerVoices:
    """The simulated players' mouths: each says his words aloud with his own voice, and the narrator's
    recognizer hears them when there is one."""

    def __init__(
        self, voices: dict[str, Renderer], out: Speaker, show: Callable[[str], None], model: Any = None
    ) -> None:
        self.voices = voices
        self.out = out
        self.show = show
        self.model = model

    def speak(self, who: str, words: str, phrases: Sequence[str], timeout_s: float) -> str | None:
        """Say `words` as `who`; what the recognizer heard ("" for nothing), or None when there is none."""
        self.show(f"{who} : {words}")
        audio = self.voices[who].render([Say(f"player:{who}", words)])
        self.out.play(audio)
        if self.model is None:
            return None
        return self._recognize(audio, phrases, timeout_s) or ""

    def _recognize(self, audio, phrases: Sequence[str], timeout_s: float) -> str | None:
        """The player's speech through the real recognizer (vosk, the session's grammar)."""
        pcm = audio.pcm.astype("<i2").tobytes()
        block = audio.rate // 10 * 2
        found = decode(
            new_recognizer(self.model, phrases, audio.rate),
            (pcm[i : i + block] for i in range(0, len(pcm), block)),
            audio.rate,
            timeout_s,
        )
        return None if found is None else found.text


class DemoEar:
    """Each listening turn, the next simulated player speaks aloud; the narrator hears it."""

    def __init__(self, said: Sequence[tuple[str | None, str | None]], players: PlayerVoices) -> None:
        self._said = iter(said)
        self.players = players

    def listen(self, phrases: Sequence[str], timeout_s: float) -> Heard | None:
        who, words = next(self._said, (None, ""))
        if words == "":
            raise EOFError("les joueurs simulés n'ont plus rien à dire")
        if who is None or words is None:
            return None
        heard = self.players.speak(who, words, phrases, timeout_s)
        return Heard(words if heard is None else heard)

    def close(self) -> None:
        """Nothing to release."""


def player_voices(players: list[dict], profile: Profile) -> dict[str, Renderer]:
    """One renderer per simulated player: the narrator's profile with the player's voice and pitch."""
    return {p["name"]: Renderer(replace(profile, voice=p["voice"], pitch=p["pitch"])) for p in players}


class DemoHost(TypedDict):
    """What a demo's session takes from its table (narrator/table/host.py's `Host`)."""

    prompts: Prompts
    voice: Voice
    clock: Clock
    parser: Parser
    phrases: Callable[[str], list[str]]
    listen_s: float


@dataclass
class DemoIo:
    """Where a demo is heard: the sound card if any (else a fake clock: nobody waits), the WAV, the console."""

    model: Any
    speaker: Speaker  # the narrator's voice: WAV, console transcript, sound card
    players_out: Speaker  # the players' voices: WAV, sound card
    clock: Clock
    bed: Bed | None = None  # the night's music: a new user hears the mix at once

    def close(self) -> None:
        self.speaker.close()

    def host(self, profile: Profile, game: str, names: list[str]) -> DemoHost:
        """What a demo's session takes from its table: the narrator's voice, the clock, the players' names
        understood, short listening turns."""
        parser = table_parser(game, names)
        return {
            "prompts": load_prompts(),
            "voice": Voice(Renderer(profile).render, self.speaker, bed=self.bed),
            "clock": self.clock,
            "parser": parser,
            "phrases": cache(lambda phase: phrases(parser, phase, compact=True)),
            "listen_s": 3.0,
        }

    @contextmanager
    def playing(self) -> Iterator[None]:
        """The game played to its end, a problem on the way one French sentence; the audio closed."""
        try:
            yield
        except VoiceError as exc:
            raise SetupError(str(exc)) from None
        except EOFError:
            raise SetupError("le narrateur n'a pas compris les joueurs simulés jusqu'au bout de la partie") from None
        finally:
            self.close()


def demo_io(out: str, model_path: str | None, ambience: Ambience | None = None) -> DemoIo:
    """The recognizer when a French model is found, the sound card when there is one, the WAV file, and
    the night's music of `ambience`."""
    bed = make_bed(ambience) if ambience is not None else None
    if bed is not None and ambience is not None:
        print(
            f"La nuit se joue sur sa musique d'ambiance ({ambience.sound}, {-ambience.level_lu:g} LU sous la voix) ;"
            " à une vraie table, « coupe la musique » la coupe.",
            flush=True,  # at the head of the transcript
        )
    try:
        model = load_model(find_model(model_path))
        print("Les joueurs simulés passent par la vraie reconnaissance vocale (vosk).", file=sys.stderr)
    except ModelError as exc:
        model = None
        print(f"Pas de reconnaissance vocale ({exc}) : les joueurs parlent au narrateur en texte.", file=sys.stderr)
    try:
        card: Speaker | None = SoundDeviceSpeaker(bed=bed)
        clock: FakeClock | RealClock = RealClock()
    except NoSoundCard:
        print(f"Pas de carte son : la partie est écrite dans {out}, et son texte ci-dessous.", file=sys.stderr)
        card, clock = None, FakeClock()  # nobody listens in real time: the game runs as fast as it renders
    try:
        wav = WavSpeaker(out, bed=bed)
    except OSError as exc:
        raise SetupError(f"{out} : écriture impossible ({french_reason(exc)})") from None
    live = [card] if card else []
    return DemoIo(model, Tee(wav, ConsoleSpeaker(), *live), Tee(wav, *live), clock, bed)  # the console: the transcript


def load_demo() -> Demo:
    path = data_dir("scripts") / "demo.yaml"
    try:
        return parse_demo(path.read_text(encoding="utf-8"), f"scripts/{path.name}")
    except YamlError as exc:
        raise SetupError(str(exc.problems[0])) from None


def show_player(line: str) -> None:
    print(f"          {line}", flush=True)


def run_demo(seed: int, out: str, model_path: str | None, music: bool = True) -> bool:
    """Play the demo; True when the narrator found what `narrator resolve` finds for the same game."""
    demo = load_demo()
    script = load_shipped(demo.config["game"])
    record = deal(demo, script, seed)
    expected = resolve_one_night(record)
    profile = replace(find_profile("fr"), wait_multiplier=demo.config["wait_multiplier"])
    io = demo_io(out, model_path, profile.ambience if music else None)
    in_play = list(script.announce.scenarios[demo.config["scenario"]][len(demo.names)])
    with io.playing():
        players = PlayerVoices(player_voices(demo.config["players"], profile), io.players_out, show_player, io.model)
        session = Session(
            script=script,
            players=tuple(demo.names),
            in_play=in_play,
            ear=DemoEar(answers(demo, script, record), players),
            **io.host(profile, script.rules.game, demo.names),
        )
        outcome = session.run(plan(script.announce, in_play, demo.config["minutes"]))
    return set(outcome.dead) == set(expected["dead"]) and set(outcome.winners) == set(expected["winners"])
