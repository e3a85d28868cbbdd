"""The phones' server at a table of 20: how fast the last needed answer reaches the game, and its memory.

A child process runs what the narrator runs: the hub, the web server (its own thread and loop) and a
game thread that asks every seat a question, waits for all 20 answers (`Hub.wait`) and then puts the
next screen on every phone (`Hub.status`). This process is the 20 phones: aiohttp WebSocket clients
on 127.0.0.1 that answer each question as soon as it arrives. Both read the same clock (Linux's
CLOCK_MONOTONIC is one for the machine), so for each round:

1. answer -> game: from the send of the last needed answer to the return of the game thread's
   `Hub.wait` that handed it over;
2. answer -> next sample: from that send to the narrator's next line handed to the speaker, as a
   night call whose wait is over ends (its « se rendort » line: the real voice profile, rendered
   by espeak-ng through the table's `Voice`; the speaker notes when the first sample reaches it);
3. answer -> next screen: from that send to the moment the last phone has the next screen.

And the server process's resident memory (RSS) with no phone, with 20 phones connected after the
rounds, and at its peak. Each phone connects from its own loopback address (127.0.0.10, .11, …), as
phones on a Wi-Fi do, under the server's ordinary limits. Loopback only, bounded rounds.

`--attack` plays the same rounds twice, quiet then attacked, and prints the two side by side: while the
20 honest phones play, a 21st seat floods its WebSocket without reading (reconnecting whenever it is
dropped) and another process, from other loopback addresses, holds idle connections, sends headers a
byte a second, opens and closes connections in a loop and floods the HTTP API (bounded: a few hundred
sockets, for the length of the rounds). Goals: answer -> next sample p95 attacked within 2x quiet, peak
memory within +50 MB of quiet, every honest answer taken.

Run: python benchmarks/phones.py [--phones 20] [--rounds 200] [--attack]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import struct
import sys
import threading
import time
from pathlib import Path

import aiohttp
from yarl import URL

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python benchmarks/phones.py` from the checkout

from narrator.phones.hub import Hub  # noqa: E402
from narrator.phones.screens import Choice, Form, Question  # noqa: E402
from narrator.phones.server import COOKIE, PhoneServer  # noqa: E402
from narrator.script.classic.narration import load_narration  # noqa: E402
from narrator.table.voice import Voice, to_items  # noqa: E402
from narrator.voice import Rendered, Renderer, find_profile  # noqa: E402


class FirstSample:
    """The machine's edge: the speaker notes when the narrator's next samples reach it."""

    def __init__(self) -> None:
        self.at = 0.0

    def play(self, rendered: Rendered) -> None:
        self.at = time.monotonic()

    def close(self) -> None:
        pass


def rss_kib(field: str = "VmRSS") -> int:
    """The process's resident memory now (VmRSS) or at its peak (VmHWM), in KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return 0


PACE_S = 0.1  # between two rounds: a table asks far less often, and a phone's rate (20 a second) is a table's
INTRUDER = "Intrus"  # the attacked run's 21st seat: a player whose phone floods


def phone_address(n: int) -> str:
    return f"127.0.0.{10 + n}"


def say(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


# -- the server's process --------------------------------------------------------------------------


def serve(phones: int, rounds: int, attack: bool) -> None:
    honest = [f"Joueur{n}" for n in range(phones)]
    seats = [*honest, INTRUDER] if attack else honest
    hub = Hub(seats)
    server = PhoneServer(hub)  # the server's own limits, as at a table
    server.start()
    say(port=server.port, rss_idle=rss_kib())
    question = Question(Form.ONE, "Qui désignez-vous ?", tuple(Choice(s, s) for s in seats))
    speaker = FirstSample()
    voice = Voice(Renderer(find_profile("fr")).render, speaker)
    sleep = to_items(next(c for c in load_narration().calls if c.sleep).sleep)  # a call's « se rendort »

    def game() -> None:
        sys.stdin.readline()  # « go »: every phone is there (and the attack under way)
        for _ in range(rounds):
            time.sleep(PACE_S)
            asked = hub.ask(dict.fromkeys(seats, question))  # the intruder too: his seat is at the table
            got: set[str] = set()
            while len(got) < phones:
                answers = hub.wait(10)
                if not answers:
                    missing = sorted(set(honest) - got)
                    say(
                        error=f"no answer in 10 s from {missing}; connected: {len(hub.connected())}, "
                        f"dropped: {server.dropped}"
                    )
                    return
                got |= {a.seat for a in answers if a.asked == asked[a.seat] and a.seat != INTRUDER}
            waited = time.monotonic()
            voice.play(sleep)  # the call ends: its last line, as the session says it
            hub.status(f"Tour {asked[honest[0]]}")
            say(asked=asked[honest[0]], waited=waited, sample=speaker.at, answers=len(got))
        say(rss_phones=rss_kib(), rss_peak=rss_kib("VmHWM"), dropped=server.dropped, refused=server.gate.refused)

    thread = threading.Thread(target=game)
    thread.start()
    thread.join()
    sys.stdin.read()  # until the phones' side is done
    server.stop()


# -- the phones' process ---------------------------------------------------------------------------


async def phone(port: int, n: int, sent: dict[int, float], shown: dict[str, float], ready: asyncio.Event) -> None:
    origin, seat = f"http://127.0.0.1:{port}", f"Joueur{n}"
    jar = aiohttp.CookieJar(unsafe=True)  # cookies for an IP address
    connector = aiohttp.TCPConnector(local_addr=(phone_address(n), 0))  # each phone its own address
    async with aiohttp.ClientSession(cookie_jar=jar, headers={"Origin": origin}, connector=connector) as session:
        async with session.post(f"{origin}/api/claim", json={"seat": seat}) as reply:
            assert reply.status == 200, await reply.text()
        token = jar.filter_cookies(URL(origin))[COOKIE].value
        async with session.ws_connect(f"{origin}/ws", headers={"Cookie": f"{COOKIE}={token}"}) as ws:
            ready.set()
            answered: set[int] = set()
            async for message in ws:
                data = json.loads(message.data)
                if data["type"] != "screen":
                    continue
                screen = data["screen"]
                if screen["status"]:
                    shown[screen["status"]] = max(shown.get(screen["status"], 0.0), time.monotonic())
                question = screen["question"]
                if question and not question["answered"] and question["asked"] not in answered:
                    answered.add(question["asked"])
                    await ws.send_json({"type": "answer", "asked": question["asked"], "value": screen["seat"]})
                    sent[question["asked"]] = max(sent.get(question["asked"], 0.0), time.monotonic())


async def table(phones: int, rounds: int, attack: bool) -> dict:
    """One run: its figures (the delays of every round, the server's memory, what the attack did)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--serve",
        "--phones",
        str(phones),
        "--rounds",
        str(rounds),
        *(["--attack"] if attack else []),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None and child.stdin is not None
    start = json.loads(await child.stdout.readline())
    sent: dict[int, float] = {}
    shown: dict[str, float] = {}
    readies = [asyncio.Event() for _ in range(phones)]
    tasks = [asyncio.ensure_future(phone(start["port"], n, sent, shown, readies[n])) for n in range(phones)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 30)
    attacker = None
    if attack:
        token = await claim(start["port"], INTRUDER)
        attacker = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--attacker",
            str(start["port"]),
            token,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        await asyncio.sleep(3)  # the attack under way before the first round
    child.stdin.write(b"go\n")
    await child.stdin.drain()
    to_game, to_sample, to_screen, answers, end = [], [], [], 0, {}
    while line := await asyncio.wait_for(child.stdout.readline(), 60):
        event = json.loads(line)
        if "error" in event:
            raise SystemExit(event["error"])
        if "rss_phones" in event:
            end = event
            break
        asked = event["asked"]
        answers += event["answers"]
        to_game.append(event["waited"] - sent[asked])
        to_sample.append(event["sample"] - sent[asked])
        for _ in range(200):  # the next screen reaches the phones after the game moved on
            if f"Tour {asked}" in shown:
                break
            await asyncio.sleep(0.005)
        to_screen.append(shown[f"Tour {asked}"] - sent[asked])
    attacked = {}
    if attacker is not None:
        assert attacker.stdin is not None and attacker.stdout is not None
        attacker.stdin.close()
        said = await asyncio.wait_for(attacker.stdout.readline(), 30)
        attacked = json.loads(said) if said else {"error": "the attacker's process ended without a word"}
        await attacker.wait()
    child.stdin.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await child.wait()
    return {
        "to_game": to_game,
        "to_sample": to_sample,
        "to_screen": to_screen,
        "idle": start["rss_idle"],
        "busy": end["rss_phones"],
        "peak": end["rss_peak"],
        "answers": answers,
        "dropped": end["dropped"],
        "refused": end["refused"],
        "attack": attacked,
    }


async def claim(port: int, seat: str) -> str:
    origin = f"http://127.0.0.1:{port}"
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar, headers={"Origin": origin}) as session:
        async with session.post(f"{origin}/api/claim", json={"seat": seat}) as reply:
            assert reply.status == 200, await reply.text()
        return jar.filter_cookies(URL(origin))[COOKIE].value


# -- the attacker's process ------------------------------------------------------------------------

IDLE = 300  # idle connections held from one address (the server keeps PER_CLIENT of them)
SLOW = 60  # connections sending their header a byte a second
ATTACKER = "127.0.0.2"


def connect(port: int, source: str) -> socket.socket | None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((source, 0))
        sock.settimeout(5)
        sock.connect(("127.0.0.1", port))
        return sock
    except OSError:
        sock.close()
        return None


def attacker(port: int, token: str) -> None:
    """Every attack at once until stdin closes (or two minutes); prints what it did as one JSON line."""
    done = threading.Event()
    errors: dict[str, str] = {}
    counts = {
        "flood_messages": 0,
        "flood_drops": 0,
        "idle_opened": 0,
        "slow_bytes": 0,
        "churn": 0,
        "http": 0,
    }
    host = f"127.0.0.1:{port}"

    def flood() -> None:  # the intruder's own seat: messages without end, never a reply read
        payload = b'{"type":"ballot","target":"Joueur0"}'
        mask = os.urandom(4)
        data = b"\x81" + struct.pack("!B", 0x80 | len(payload)) + mask
        data += bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        while not done.is_set():
            sock = connect(port, "127.0.0.3")
            if sock is None:
                time.sleep(0.1)
                continue
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(
                (
                    f"GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nCookie: {COOKIE}={token}\r\n"
                    "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n"
                ).encode()
            )
            try:
                while not done.is_set():
                    sock.sendall(data * 64)
                    counts["flood_messages"] += 64
            except OSError:
                counts["flood_drops"] += 1
            sock.close()

    def idle() -> None:  # connections that never send a byte, opened again whenever closed
        held: list[socket.socket] = []
        while not done.is_set():
            while len(held) < IDLE and not done.is_set():
                sock = connect(port, ATTACKER)
                if sock is None:
                    break
                held.append(sock)
                counts["idle_opened"] += 1
            done.wait(1.0)
            alive = []
            for sock in held:
                sock.setblocking(False)
                try:
                    gone = sock.recv(4096) == b""
                except BlockingIOError:
                    gone = False
                except OSError:
                    gone = True
                if gone:
                    sock.close()
                else:
                    alive.append(sock)
            held = alive
        for sock in held:
            sock.close()

    def slow() -> None:  # headers a byte a second
        head = f"GET /api/seats HTTP/1.1\r\nHost: {host}\r\nX-Lent: {'a' * 200}\r\n".encode()
        socks: list[tuple[socket.socket, int]] = []
        while not done.is_set():
            while len(socks) < SLOW:
                sock = connect(port, "127.0.0.4")
                if sock is None:
                    break
                socks.append((sock, 0))
            kept = []
            for sock, at in socks:
                try:
                    sock.send(head[at % len(head) : at % len(head) + 1])
                    counts["slow_bytes"] += 1
                    kept.append((sock, at + 1))
                except OSError:
                    sock.close()
            socks = kept
            done.wait(1.0)
        for sock, _ in socks:
            sock.close()

    def churn() -> None:  # many connections opened and closed at once
        while not done.is_set():
            sock = connect(port, "127.0.0.5")
            if sock is not None:
                sock.close()
                counts["churn"] += 1
            time.sleep(0.005)  # up to 200 connections a second

    def http() -> None:  # the API, as fast as one connection goes (refused 429 past its rate)
        request = f"GET /api/seats HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
        while not done.is_set():
            sock = connect(port, "127.0.0.6")
            if sock is None:
                time.sleep(0.1)
                continue
            try:
                while not done.is_set():
                    sock.sendall(request)
                    if not sock.recv(65536):
                        break
                    counts["http"] += 1
                    time.sleep(0.001)
            except OSError:
                pass
            sock.close()

    def guarded(attack):  # an attack that fails is counted, and the others go on
        def run() -> None:
            try:
                attack()
            except Exception as error:
                errors[attack.__name__] = repr(error)

        return run

    # on this one machine the attacker's own CPU would be taken from the server's; at a table it is the
    # attacking phone's: it runs at a lower priority than the server and the honest phones
    os.nice(10)
    threads = [threading.Thread(target=guarded(t), daemon=True) for t in (flood, idle, slow, churn, http)]
    for thread in threads:
        thread.start()
    watchdog = threading.Timer(120, done.set)  # bounded in time even if nobody closes stdin
    watchdog.start()
    sys.stdin.read()
    done.set()
    watchdog.cancel()
    for thread in threads:
        thread.join(10)
    say(**counts, **({"errors": errors} if errors else {}))


def ms(values: list[float], q: int) -> float:
    return 1000 * statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def report(phones: int, run: dict) -> None:
    to_game, to_sample, to_screen = run["to_game"], run["to_sample"], run["to_screen"]
    idle, busy = run["idle"], run["busy"]
    print(f"{phones} phones on 127.0.0.x, {len(to_game)} rounds (every phone answers each question)")
    print(
        f"last needed answer -> game thread's Hub.wait returns: p50 {ms(to_game, 50):.1f} ms, "
        f"p95 {ms(to_game, 95):.1f} ms"
    )
    print(
        f"last needed answer -> narrator's next sample:         p50 {ms(to_sample, 50):.1f} ms, "
        f"p95 {ms(to_sample, 95):.1f} ms (goal: p95 <= 100 ms; the first round synthesizes the line: "
        f"{1000 * to_sample[0]:.0f} ms)"
    )
    print(
        f"last needed answer -> next screen on every phone:     p50 {ms(to_screen, 50):.1f} ms, "
        f"p95 {ms(to_screen, 95):.1f} ms"
    )
    print(
        f"server process RSS: {idle / 1024:.1f} MiB with no phone, {busy / 1024:.1f} MiB with {phones} "
        f"(+{(busy - idle) / phones:.0f} KiB a phone, x{busy / idle:.2f}); peak {run['peak'] / 1024:.1f} MiB"
    )


def side_by_side(phones: int, rounds: int, quiet: dict, attacked: dict) -> None:
    """The quiet and the attacked runs' figures, and the goals."""
    rows = [
        ("answer -> Hub.wait p50 (ms)", ms(quiet["to_game"], 50), ms(attacked["to_game"], 50)),
        ("answer -> Hub.wait p95 (ms)", ms(quiet["to_game"], 95), ms(attacked["to_game"], 95)),
        ("answer -> next sample p50 (ms)", ms(quiet["to_sample"], 50), ms(attacked["to_sample"], 50)),
        ("answer -> next sample p95 (ms)", ms(quiet["to_sample"], 95), ms(attacked["to_sample"], 95)),
        ("answer -> next screen p95 (ms)", ms(quiet["to_screen"], 95), ms(attacked["to_screen"], 95)),
        ("server RSS after the rounds (MiB)", quiet["busy"] / 1024, attacked["busy"] / 1024),
        ("server RSS peak (MiB)", quiet["peak"] / 1024, attacked["peak"] / 1024),
    ]
    print(f"{phones} honest phones, {rounds} rounds, quiet then attacked (127.0.0.x loopback)")
    print(f"{'':36} {'quiet':>10} {'attacked':>10}")
    for name, a, b in rows:
        print(f"{name:36} {a:10.1f} {b:10.1f}")
    expected = phones * rounds
    print(f"{'honest answers taken':36} {quiet['answers']:>10} {attacked['answers']:>10}   (of {expected} each)")
    print(f"attack: {json.dumps(attacked['attack'])}")
    print(
        f"server: {attacked['dropped']} flooding sockets dropped, {attacked['refused']} connections refused at the cap"
    )
    p95q, p95a = ms(quiet["to_sample"], 95), ms(attacked["to_sample"], 95)
    extra = (attacked["peak"] - quiet["peak"]) / 1024
    print(
        f"goals: next sample p95 x{p95a / p95q:.2f} of quiet (<= 2: {'yes' if p95a <= 2 * p95q else 'NO'}); "
        f"peak memory {extra:+.1f} MiB (<= +50: {'yes' if extra <= 50 else 'NO'}); every honest answer taken: "
        f"{'yes' if attacked['answers'] == expected == quiet['answers'] else 'NO'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--attack", action="store_true", help="a quiet run, then the same attacked, side by side")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--attacker", nargs=2, metavar=("PORT", "TOKEN"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.phones, args.rounds, args.attack)
    elif args.attacker:
        attacker(int(args.attacker[0]), args.attacker[1])
    elif args.attack:
        quiet = asyncio.run(table(args.phones, args.rounds, attack=False))
        attacked = asyncio.run(table(args.phones, args.rounds, attack=True))
        side_by_side(args.phones, args.rounds, quiet, attacked)
    else:
        report(args.phones, asyncio.run(table(args.phones, args.rounds, attack=False)))


if __name__ == "__main__":
    main()
