"""A table playing with the phones: `narrator play … --phones` as a user runs it, with phones that take
their seats over HTTP and hold them over the WebSocket (tests/phones_client.py), on 127.0.0.1 only.

What is checked: the journal's header and seats, the joining said aloud, a resumed game serving the
same port and tokens to the phones that come back, a seat freed by voice, a ballot cast on a phone
heard as its seat's own, and no token ever shown on the terminal."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import test_listen_vosk as vosk_rig
from aiohttp import WSCloseCode, WSMsgType
from phones_client import Phone
from test_session import ClockSpeaker, fake_render

from narrator import cli as narrator_cli
from narrator.app.phones import join, open_phones
from narrator.app.spoken_setup import SpokenSetup
from narrator.app.startup import Io, guarded
from narrator.listen.commands import Command
from narrator.listen.ear import Heard
from narrator.listen.grammar import setup_phrases
from narrator.listen.setup_words import SetupParser
from narrator.listen.simple_ears import KeyboardEar, ScriptedEar
from narrator.listen.table_words import Parser
from narrator.phones.hub import Hub
from narrator.phones.server import GAME_OVER
from narrator.script.prompts import load_prompts
from narrator.table import events as ev
from narrator.table.clock import FakeClock
from narrator.table.host import Host, Stopped
from narrator.table.phone_ear import SLICE_S, PhoneEar, own_commands, waits
from narrator.table.voice import Voice

ROOT = Path(__file__).resolve().parent.parent
# the real recognizer on a PulseAudio null sink, Korean words said by espeak-ng (tests/test_listen_vosk.py)
ear = vosk_rig.ear
PLAYERS = ["Ana", "Ben", "Cleo"]
TABLE = ["poudlard", "--players", ",".join(PLAYERS), "--scenario", "premiere_annee"]
PHONES = ["--phones", "--bind", "127.0.0.1", "--port", "0"]


def _first_choices(message: dict[str, Any]) -> dict[str, Any] | None:
    """A phone's answer to the question its screen shows: the first choices offered."""
    question = (message.get("screen") or {}).get("question") if message.get("type") == "screen" else None
    if not question or question["answered"]:
        return None
    values = [c["value"] for c in question["choices"]]
    value = None if question["form"] == "tap" else values[:2] if question["form"] == "pair" else values[0]
    return {"type": "answer", "asked": question["asked"], "value": value}


class Phones:
    """The players' phones, each an HTTP client and a WebSocket held open, on one loop of their own; with
    `touch`, each touches the first choices of the questions it is shown (a one-night game's night)."""

    def __init__(self, port: int, touch: bool = False) -> None:
        self.port = port
        self.touch = touch  # each phone touches the first choices of the questions it is shown
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.held: dict[str, Phone] = {}
        self.closed: dict[str, Any] = {}  # seat -> how its socket ended

    def sit(self, seat: str) -> str:
        """A phone takes the seat and connects; its token."""
        phone = Phone(self.port)
        reply = phone.claim(seat)
        assert reply.status == 200, reply.text
        assert phone.token is not None
        self.connect(seat, phone)
        return phone.token

    def come_back(self, seat: str, token: str) -> None:
        """A phone that held the seat before connects again with its token (as a page reloads)."""
        self.connect(seat, Phone(self.port, token))

    def connect(self, seat: str, phone: Phone) -> None:
        self.held[seat] = phone
        ready = threading.Event()

        async def hold() -> None:
            try:
                async with phone.socket() as socket:
                    ready.set()
                    while True:
                        message = await socket.ws.receive()
                        if message.type.name in ("CLOSE", "CLOSED", "CLOSING", "ERROR"):
                            self.closed[seat] = socket.ws.close_code
                            return
                        answer = _first_choices(message.json()) if self.touch and message.type.name == "TEXT" else None
                        if answer is not None:  # the night's question (or its decoy) on this phone
                            await socket.send(answer)
            finally:
                ready.set()

        asyncio.run_coroutine_threadsafe(hold(), self.loop)
        assert ready.wait(10)

    def ballot(self, seat: str, target: str) -> None:
        """Cast once the table collects the vote (refused until then)."""
        deadline = time.monotonic() + 20
        while (reply := self.held[seat].call("POST", "/api/ballot", {"target": target})).status == 409:
            assert time.monotonic() < deadline, reply.text
            time.sleep(0.1)
        assert reply.status == 200, reply.text

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class Table:
    """`python -m narrator ARGS` with stdin a pipe this test writes to; its terminal read as it goes."""

    def __init__(self, tmp_path: Path, args: list[str], journal: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), NARRATOR_STATE_DIR=str(tmp_path / "state"))
        self.journal = journal
        self.process = subprocess.Popen(
            [sys.executable, "-m", "narrator", *args],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=self._read, args=(stream, lines), daemon=True).start()
        found = self.wait_for(lambda: re.search(r"http://127\.0\.0\.1:(\d+)", "".join(self.err)))
        self.port = int(found.group(1))

    @staticmethod
    def _read(stream: Any, lines: list[str]) -> None:
        for line in stream:
            lines.append(line)

    def wait_for(self, found: Callable[[], Any], timeout: float = 60) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = found()
            if got:
                return got
            if self.process.poll() is not None and not found():
                raise AssertionError("le narrateur s'est arrêté :\n" + "".join(self.out + self.err))
            time.sleep(0.05)
        raise AssertionError("rien de tel :\n" + "".join(self.out + self.err))

    def events(self) -> list[dict]:
        if not self.journal.exists():
            return []
        return [json.loads(line) for line in self.journal.read_text(encoding="utf-8").splitlines() if line.strip()]

    def journaled(self, kind: str, **fields: object) -> bool:
        return any(e["type"] == kind and all(e.get(k) == v for k, v in fields.items()) for e in self.events())

    def heard(self) -> list[str]:
        """What the table heard (the console's timed lines)."""
        return [line.split("  ", 1)[1].strip() for line in self.out if re.match(r"\d\d:\d\d\.\d\d  ", line)]

    def say(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def end(self, timeout: float = 120) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(timeout)
        time.sleep(0.1)  # the reader threads take the last lines
        return code


def test_a_phone_game_journals_its_phones_and_a_resumed_one_serves_them_again(tmp_path: Path) -> None:
    journal = tmp_path / "partie.jsonl"
    answers = tmp_path / "avant.txt"
    answers.write_text("libère la place de Ben\noui\n", encoding="utf-8")  # then the answers stop: a crash
    first = Table(tmp_path, ["play", *TABLE, *PHONES, "--ear", f"script:{answers}", "--no-wait", "--journal", str(journal)], journal)  # fmt: skip
    phones = Phones(first.port, touch=True)  # a one-night game on the phones: the program deals
    try:
        first.wait_for(lambda: any(line.startswith("Chaque joueur a besoin d'un téléphone") for line in first.heard()))
        tokens = {}
        for seat in PLAYERS:
            tokens[seat] = phones.sit(seat)
            first.wait_for(lambda seat=seat: first.journaled("seat_taken", seat=seat))
        assert first.process.wait(120) == 2  # the script is over mid-game: kept for `resume`
    finally:
        phones.close()
    header, *events = first.events()
    assert header["phones"] == {"port": first.port, "tokens": tokens, "bind": "127.0.0.1"}
    assert [e["seat"] for e in events if e["type"] == "seat_taken"] == PLAYERS
    [freed] = [e for e in events if e["type"] == "seat_freed"]
    assert freed["seat"] == "Ben" and freed["token"] != tokens["Ben"]
    heard = first.heard()
    assert heard[0].startswith("Chaque joueur a besoin d'un téléphone")
    assert "Ouvrez l'adresse 127 point 0 point 0 point 1, deux-points" in heard[0]
    assert "Ana a rejoint la partie." in heard and "Il manque Ben et Cleo." in heard
    assert heard.index("Il manque Cleo.") < heard.index("Tout le monde est là.")
    assert any(line.startswith("Je libère la place de Ben") for line in heard)
    assert any(line.startswith("La place de Ben est libre") for line in heard)
    terminal = "".join(first.out + first.err)
    assert f"http://127.0.0.1:{first.port}" in terminal and "█" in terminal  # the address and its QR code
    assert not any(token in terminal for token in [*tokens.values(), freed["token"]])  # no secret shown

    # resumed: the same port and tokens; Ana's and Cleo's phones come back by themselves, Ben's old one
    # is refused and a new phone takes Ben's seat with the token the journal holds
    second = Table(tmp_path, ["resume", str(journal), "--ear", "keyboard", "--no-wait"], journal)
    assert second.port == first.port
    phones = Phones(second.port, touch=True)
    try:
        phones.come_back("Ana", tokens["Ana"])
        phones.come_back("Cleo", tokens["Cleo"])
        assert Phone(second.port, tokens["Ben"]).call("GET", "/api/screen").status == 401
        assert Phone(second.port).claim("Ana").status != 200  # a seat held is claimed once
        second.wait_for(lambda: "Il manque Ben." in second.heard())
        assert phones.sit("Ben") == freed["token"]
        second.wait_for(lambda: "Tout le monde est là." in second.heard())
        # the day: a ballot cast on Ana's phone is heard as Ana's, read back with the spoken ones
        second.say("on vote")
        second.wait_for(lambda: second.journaled("debate_over"))
        phones.ballot("Ana", "Ben")
        second.wait_for(lambda: second.journaled("vote_input", voter="Ana", target="Ben"))
        second.say("Ben vote contre Ana", "Cleo vote contre Ben")
        second.wait_for(lambda: any(line.startswith("J'ai compris : Ana vote contre Ben") for line in second.heard()))
    finally:
        assert second.end() == 2
        phones.close()
    heard = second.heard()
    assert heard[0].startswith("On reprend avec les téléphones.")
    back = [line for line in heard if "revenu" in line]
    assert {name for line in back for name in ("Ana", "Cleo") if name in line} == {"Ana", "Cleo"}
    assert "Ben a rejoint la partie." in heard
    assert [e["seat"] for e in second.events() if e["type"] == "seat_taken"] == [*PLAYERS, "Ben"]


class ArrivingSpeaker(ClockSpeaker):
    """Runs `then` once a line starting with `cue` has been played: the phones arrive right after the
    reminder, whatever the machine's speed (no timer racing the joining's real-time reminders)."""

    def __init__(self, clock: FakeClock, cue: str, then: Callable[[], None]) -> None:
        super().__init__(clock)
        self.cue, self.then = cue, then

    def play(self, rendered) -> None:
        super().play(rendered)
        if self.then and any(s.text.startswith(self.cue) for s in rendered.segments):
            then, self.then = self.then, None
            then()


def test_the_joining_says_the_address_again_while_phones_are_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    # the joining looks at the phones every SLICE_S of real time: short here, with a short reminder
    monkeypatch.setattr("narrator.app.phones.SLICE_S", 0.02)
    phones = open_phones(PLAYERS, "127.0.0.1", 0)
    try:

        def arrive() -> None:  # as the server does when a phone claims its seat and connects
            for seat in PLAYERS:
                phones.hub.claim(seat)
                phones.hub.connect(seat, True)

        clock = FakeClock()
        speaker = ArrivingSpeaker(clock, "Il manque", arrive)
        host = Host(
            prompts=load_prompts(),
            voice=Voice(fake_render, speaker),
            ear=ScriptedEar([]),  # a script: only the phones are waited for, nothing is listened to
            clock=clock,
            parser=Parser("poudlard", PLAYERS),
            phrases=lambda phase: [],
            phones=phones.hub,
        )
        join(host, phones, remind_s=0.1)
    finally:
        phones.close()
    heard = [text for _, _, text in speaker.heard]
    address = f"127 point 0 point 0 point 1, deux-points {' '.join(str(phones.port))}"
    assert heard[:3] == [heard[0], f"L'adresse : {address}.", "Il manque Ana, Ben et Cleo."]
    assert address in heard[0] and heard[-1] == "Tout le monde est là."
    assert [e for e in host.events if isinstance(e, ev.SeatTaken)] == [ev.SeatTaken(seat) for seat in PLAYERS]
    assert host.voice.last == []  # « répète » after the joining is the game's, not the address


def test_a_seat_taken_while_the_joining_journals_the_others_is_journaled_before_the_deal() -> None:
    """Each phone takes its seat just after the joining has journaled the seats taken so far (as the
    web server's thread may, at any moment): the game still journals the last one before it begins, and
    never says it later as a seat taken again."""
    phones = open_phones(PLAYERS, "127.0.0.1", 0)
    try:
        host = Host(
            prompts=load_prompts(),
            voice=Voice(fake_render, speaker := ClockSpeaker(FakeClock())),
            ear=ScriptedEar([]),
            clock=FakeClock(),
            parser=Parser("poudlard", PLAYERS),
            phrases=lambda phase: [],
            phones=phones.hub,
        )
        note_seats = host.note_seats

        def note_then_a_phone_claims() -> None:
            note_seats()
            free = phones.hub.free_seats()
            if free:
                phones.hub.claim(free[0])

        host.note_seats = note_then_a_phone_claims  # type: ignore[method-assign]
        join(host, phones, remind_s=60.0)
        host.note_seats = note_seats  # type: ignore[method-assign]
        host.note_seats()  # the game's next look at the seats: nothing is left to journal
    finally:
        phones.close()
    assert [e for e in host.events if isinstance(e, ev.SeatTaken)] == [ev.SeatTaken(seat) for seat in PLAYERS]
    assert not any("reprise" in text for _, _, text in speaker.heard)


def test_a_phone_line_is_heard_as_its_seat_and_never_for_another() -> None:
    hub = Hub(PLAYERS)
    hub.ballots(True)
    noticed: list[str] = []
    ear = PhoneEar(ScriptedEar(["répète"]), hub, lambda: noticed.extend(hub.claims()))
    hub.claim("Cleo")
    hub.type_line("Ana", "Ana vote contre Ben")
    hub.type_line("Ben", "vote blanc")
    # a script answers at once: the phones' lines come first, and the script's line is not used up
    assert ear.listen([], 8).text == "Ana vote contre Ben" and ear.seat == "Ana"  # type: ignore[union-attr]
    assert ear.listen([], 8).text == "Ben vote blanc" and ear.seat == "Ben"  # type: ignore[union-attr]
    assert ear.listen([], 8).text == "répète" and ear.seat is None  # type: ignore[union-attr]
    assert noticed == ["Cleo"]  # the claim seen at the first turn, from this (the game's) thread
    vote = Command("vote", voter="Ben", target="Cleo")
    assert own_commands("Ana", [vote]) == []  # Ana's phone does not vote for Ben
    assert own_commands("Ben", [vote]) == [vote]
    assert own_commands("Ben", [vote, Command("yes")]) == []  # nor says « oui » for the table
    assert not waits(ear) and waits(PhoneEar(KeyboardEar(), hub))


def test_a_phone_line_not_heard_when_the_vote_closes_is_dropped() -> None:
    hub = Hub(PLAYERS)
    ear = PhoneEar(ScriptedEar(["répète"]), hub)
    hub.ballots(True)
    hub.type_line("Ana", "Ana vote contre Ben")
    ear._lines_came()  # taken into the ear's queue while the vote is open, then the vote closes
    hub.ballots(False)
    assert hub.type_line("Ben", "Ben vote blanc") == "aucun vote n'est ouvert pour l'instant"
    assert ear.listen([], 8).text == "répète" and ear.seat is None  # type: ignore[union-attr]


def test_a_phone_line_ends_a_waiting_ears_turn(monkeypatch) -> None:
    """The keyboard waits in real time (as the microphone does): a ballot from a phone does not wait
    for its turn to end."""
    read, write = os.pipe()
    hub = Hub(PLAYERS)
    hub.ballots(True)
    with open(read, encoding="utf-8") as stream, open(write, "w", encoding="utf-8"):
        keyboard = KeyboardEar(stream, out=open(os.devnull, "w"))  # noqa: SIM115
        slices, listen = [], keyboard.listen

        def waited(phrases: list[str], timeout_s: float) -> Heard | None:
            slices.append(timeout_s)
            if len(slices) == 1:  # the ballot comes from a phone while the keyboard waits
                threading.Timer(0.3, hub.type_line, ("Cleo", "Cleo vote contre Ana")).start()
            return listen(phrases, timeout_s)

        monkeypatch.setattr(keyboard, "listen", waited)
        ear = PhoneEar(keyboard, hub)
        heard = ear.listen([], 60)
        assert heard is not None and heard.text == "Cleo vote contre Ana" and ear.seat == "Cleo"
        # not the whole turn: the keyboard waited one short slice (counted, not timed), not 60 s of them
        assert slices == [SLICE_S]


def test_the_microphone_gives_its_turn_up_to_a_phone_but_cuts_nobody(ear, clips, monkeypatch) -> None:
    """A ballot from a phone while nobody speaks ends the microphone's turn at once; one that comes while a
    player speaks waits for the end of what is said, which is heard whole."""
    hub = Hub(PLAYERS)
    hub.ballots(True)
    heard_by = PhoneEar(ear, hub)
    fed = vosk_rig.FedAudio(ear, monkeypatch)
    threading.Timer(0.5, hub.type_line, ("Ana", "Ana vote contre Ben")).start()
    heard = heard_by.listen(vosk_rig.WORDS, 20.0)
    assert heard is not None and heard.text == "Ana vote contre Ben" and heard_by.seat == "Ana"
    assert fed.fed_s < 10  # not the whole turn: the microphone gave it up after seconds of its 20 (of audio)
    word = "오른쪽"
    player = vosk_rig.say(clips[word])  # speech from LEAD_S on; the phone's words come while it is said
    threading.Timer(vosk_rig.LEAD_S + 0.35, hub.type_line, ("Ben", "vote contre Ana")).start()
    heard = heard_by.listen(vosk_rig.WORDS, 10.0)
    player.wait()
    assert heard is not None and heard.text == word and heard_by.seat is None
    heard = heard_by.listen(vosk_rig.WORDS, 10.0)
    assert heard is not None and heard.text == "Ben vote contre Ana" and heard_by.seat == "Ben"


@pytest.mark.parametrize("said", ["on joue avec les téléphones", "poudlard avec les téléphones"])
def test_the_spoken_setup_hears_avec_les_telephones(said: str) -> None:
    clock = FakeClock()
    speaker = ClockSpeaker(clock)
    answers = [said, "poudlard", "trois", "ana", "oui", "ben", "oui", "cleo", "oui", "première année", "oui"]
    setup = SpokenSetup(
        voice=Voice(fake_render, speaker),
        ear=ScriptedEar(answers if said.startswith("on") else answers[:1] + answers[2:]),
        clock=clock,
        prompts=load_prompts(),
        words=SetupParser,
        phrases=setup_phrases,
    )
    table = setup.run()
    heard = [text for _, _, text in speaker.heard]
    assert setup.phones and table.players == PLAYERS
    assert any(
        line.startswith("D'accord, avec les téléphones : chaque joueur aura besoin d'un téléphone") for line in heard
    )
    assert heard[-1].startswith("3 joueurs : Ana, Ben et Cleo.") and "Avec les téléphones." in heard[-1]


def test_phone_options_refused_in_one_french_sentence(tmp_path: Path, monkeypatch, capsys) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NARRATOR_STATE_DIR=str(tmp_path / "state"))
    args = ["play", *TABLE, "--phones", "--ear", "keyboard", "--no-wait"]

    def refused(*extra: str) -> str:
        """The options checked before anything is built: in-process, what stderr says."""
        with monkeypatch.context() as patch:
            patch.chdir(tmp_path)
            patch.setenv("NARRATOR_STATE_DIR", str(tmp_path / "state"))
            assert narrator_cli.main([*args, *extra]) == 2
        said = capsys.readouterr().err
        assert "Traceback" not in said
        return said

    assert refused("--bind", "narrateur").strip().splitlines()[-1] == (
        "narrator: --bind : attendu : lan ou une adresse IPv4 comme 192.168.1.20 ; trouvé : narrateur"
    )
    assert "--port : attendu : un port de 1024 à 65535" in refused("--bind", "127.0.0.1", "--port", "70000")
    # what the message says, not the server's later refusal
    low = refused("--bind", "127.0.0.1", "--port", "80")
    assert "--port : attendu : un port de 1024 à 65535 (0 : n'importe quel port libre) ; trouvé : 80" in low
    with socket_taken() as port:  # found when the server starts: the real command, in its own process
        command = [sys.executable, "-m", "narrator", *args, "--bind", "127.0.0.1", "--port", str(port)]
        taken = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)  # fmt: skip
    assert taken.returncode == 2 and f"le port {port} est déjà pris" in taken.stderr
    assert "Traceback" not in taken.stderr
    assert not list((tmp_path / "state").glob("**/*.jsonl"))  # a table that cannot start leaves no journal


class socket_taken:
    """A port on 127.0.0.1 held by another program while the block runs."""

    def __enter__(self) -> int:
        import socket

        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen()
        return int(self.socket.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        self.socket.close()


class _NoJournal:
    path = Path("partie.jsonl")

    def close(self) -> None:
        pass


@pytest.mark.parametrize("stopped", [False, True])
def test_the_phones_are_told_when_the_game_ends_not_when_it_is_stopped(stopped: bool) -> None:
    phones = open_phones(PLAYERS, "127.0.0.1", 0)
    clock = FakeClock()
    io = Io(ear=ScriptedEar([]), speaker=ClockSpeaker(clock), clock=clock, phones=phones)
    phone = Phone(phones.port)
    phone.claim("Ana")

    def game() -> None:
        if stopped:
            raise Stopped()

    async def played() -> object:
        async with phone.socket() as ws:
            await ws.next()
            assert await asyncio.to_thread(guarded, game, _NoJournal(), io) == 0  # type: ignore[arg-type]
            while (message := await asyncio.wait_for(ws.ws.receive(), 5)).type is WSMsgType.TEXT:
                pass
            return message.data

    assert asyncio.run(played()) == (WSCloseCode.GOING_AWAY if stopped else GAME_OVER)


def test_at_the_end_a_page_that_comes_back_is_served_the_end_while_the_end_is_kept() -> None:
    """Issue 26: « a page that reconnects after the end shows the end »: with a terminal attached the
    server keeps serving the end (up to END_KEPT_S); here a second, then it stops."""
    from narrator.app.phones import END_KEPT_S
    from narrator.phones.screens import end_screen

    assert END_KEPT_S == 600.0  # the README's « 10 minutes »
    phones = open_phones(PLAYERS, "127.0.0.1", 0)
    phone = Phone(phones.port)
    phone.claim("Ana")
    end = end_screen("Le village gagne.", [("Ana", "Voyante", "Voyante")])
    phones.hub.public(end=end)
    closing = threading.Thread(target=phones.close, kwargs={"over": True, "kept_s": 1.0})
    closing.start()
    time.sleep(0.2)
    reply = phone.call("GET", "/api/screen")  # the page came back after the end
    assert reply.status == 200 and reply.json()["screen"]["end"]["winners"] == "Le village gagne."
    closing.join(10)
    assert not closing.is_alive()
    with pytest.raises(OSError):
        phone.call("GET", "/api/screen")  # served no more
