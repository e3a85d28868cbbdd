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

And the server process's resident memory (RSS) with no phone, and with 20 phones connected after
the rounds. Loopback only, bounded rounds.

Run: python benchmarks/phones.py [--phones 20] [--rounds 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import threading
import time
from pathlib import Path

import aiohttp
from yarl import URL

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python benchmarks/phones.py` from the checkout

from narrator.phones.hub import Hub  # noqa: E402
from narrator.phones.limits import Rate  # noqa: E402
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


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def say(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


# -- the server's process --------------------------------------------------------------------------


def serve(phones: int, rounds: int) -> None:
    seats = [f"Joueur{n}" for n in range(phones)]
    hub = Hub(seats)
    server = PhoneServer(hub, rate=Rate(burst=1000, per_second=1000))  # 20 phones on one address
    server.start()
    say(port=server.port, rss_idle=rss_kib())
    question = Question(Form.ONE, "Qui désignez-vous ?", tuple(Choice(s, s) for s in seats))
    speaker = FirstSample()
    voice = Voice(Renderer(find_profile("fr")).render, speaker)
    sleep = to_items(next(c for c in load_narration().calls if c.sleep).sleep)  # a call's « se rendort »

    def game() -> None:
        deadline = time.monotonic() + 60
        while len(hub.connected()) < phones and time.monotonic() < deadline:
            hub.wait_for_arrival(0.5)
        for _ in range(rounds):
            asked = hub.ask(dict.fromkeys(seats, question))
            got: set[str] = set()
            while len(got) < phones:
                answers = hub.wait(10)
                if not answers:
                    say(error="no answer in 10 s")
                    return
                got |= {a.seat for a in answers if a.asked == asked}
            waited = time.monotonic()
            voice.play(sleep)  # the call ends: its last line, as the session says it
            hub.status(f"Tour {asked}")
            say(asked=asked, waited=waited, sample=speaker.at)
        say(rss_phones=rss_kib())

    thread = threading.Thread(target=game)
    thread.start()
    thread.join()
    sys.stdin.read()  # until the phones' side is done
    server.stop()


# -- the phones' process ---------------------------------------------------------------------------


async def phone(port: int, seat: str, sent: dict[int, float], shown: dict[str, float], ready: asyncio.Event) -> None:
    origin = f"http://127.0.0.1:{port}"
    jar = aiohttp.CookieJar(unsafe=True)  # cookies for an IP address
    async with aiohttp.ClientSession(cookie_jar=jar, headers={"Origin": origin}) as session:
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


async def table(phones: int, rounds: int) -> None:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--serve",
        "--phones",
        str(phones),
        "--rounds",
        str(rounds),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None and child.stdin is not None
    start = json.loads(await child.stdout.readline())
    sent: dict[int, float] = {}
    shown: dict[str, float] = {}
    readies = [asyncio.Event() for _ in range(phones)]
    tasks = [asyncio.ensure_future(phone(start["port"], f"Joueur{n}", sent, shown, readies[n])) for n in range(phones)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 30)
    to_game, to_sample, to_screen, rss_phones = [], [], [], 0
    while line := await asyncio.wait_for(child.stdout.readline(), 30):
        event = json.loads(line)
        if "error" in event:
            raise SystemExit(event["error"])
        if "rss_phones" in event:
            rss_phones = event["rss_phones"]
            break
        asked = event["asked"]
        to_game.append(event["waited"] - sent[asked])
        to_sample.append(event["sample"] - sent[asked])
        for _ in range(200):  # the next screen reaches the phones after the game moved on
            if f"Tour {asked}" in shown:
                break
            await asyncio.sleep(0.005)
        to_screen.append(shown[f"Tour {asked}"] - sent[asked])
    child.stdin.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await child.wait()
    report(phones, to_game, to_sample, to_screen, start["rss_idle"], rss_phones)


def report(
    phones: int, to_game: list[float], to_sample: list[float], to_screen: list[float], idle: int, busy: int
) -> None:
    def ms(values: list[float], q: int) -> float:
        return 1000 * statistics.quantiles(values, n=100, method="inclusive")[q - 1]

    print(f"{phones} phones on 127.0.0.1, {len(to_game)} rounds (every phone answers each question)")
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
        f"(+{(busy - idle) / phones:.0f} KiB a phone, x{busy / idle:.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.phones, args.rounds)
    else:
        asyncio.run(table(args.phones, args.rounds))


if __name__ == "__main__":
    main()
