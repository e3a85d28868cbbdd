"""One player against the phones' server (loopback only, bounded in count and time): a socket that floods
and never reads, idle and half-sent requests, many connections, malformed HTTP. What holds is asserted as
counts (queue lengths, connections dropped or refused, answers received), never as durations: the speed
under attack is shown by `benchmarks/phones.py --attack`."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator

import aiohttp
import pytest
from phones_client import Phone

from narrator.phones import connection
from narrator.phones import server as server_module
from narrator.phones.hub import Hub
from narrator.phones.limits import Rate
from narrator.phones.screens import Choice, Form, Question
from narrator.phones.server import COOKIE, QUEUED, REFUSAL_S, PhoneServer

PLAYERS = ("Ana", "Ben", "Cleo")
WHO = Question(Form.ONE, "Qui regardez-vous ?", tuple(Choice(p, p) for p in PLAYERS))


@pytest.fixture
def hub() -> Hub:
    return Hub(PLAYERS)


def serving(hub: Hub, rate: Rate | None = None) -> PhoneServer:
    server = PhoneServer(hub, rate=rate)
    server.start()
    return server


@pytest.fixture
def server(hub: Hub) -> Iterator[PhoneServer]:
    server = serving(hub)
    yield server
    server.stop()


def raw(port: int, source: str = "127.0.0.1", receive_buffer: int | None = None) -> socket.socket:
    """A plain TCP connection to the server from `source` (any 127.x.y.z: another client on loopback)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:  # set before connecting: the window the server may fill
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind((source, 0))
    sock.settimeout(15)
    sock.connect(("127.0.0.1", port))
    return sock


def answer_of(sock: socket.socket) -> tuple[int, dict, bytes]:
    """The status, headers and body of the one response on `sock` (the server closes after it)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def closed_without_answer(sock: socket.socket) -> bool:
    try:
        return sock.recv(65536) == b""
    except ConnectionResetError:
        return True


def upgrade(port: int, token: str, receive_buffer: int | None = None) -> socket.socket:
    """A seat's WebSocket opened by hand, so that the test decides when (and whether) it reads."""
    sock = raw(port, receive_buffer=receive_buffer)
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
            f"Cookie: {COOKIE}={token}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101")
    return sock


def frame(text: str) -> bytes:
    """One masked text frame, as a client sends it."""
    payload, mask = text.encode(), os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    size = len(payload)
    length = struct.pack("!B", 0x80 | size) if size < 126 else struct.pack("!BH", 0x80 | 126, size)
    return b"\x81" + length + mask + masked


def flood(sock: socket.socket, message: str, times: int) -> int:
    """Sends `message` up to `times` times without reading; how many went before the server cut it."""
    data = frame(message)
    for sent in range(times):
        try:
            sock.sendall(data)
        except OSError:  # reset by the server: dropped
            return sent
    return times


def wait_for(condition, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


# -- a phone that does not read ------------------------------------------------------------------


def test_a_phone_that_never_reads_is_dropped_its_queue_bounded_and_it_comes_back_like_any_phone(hub: Hub) -> None:
    server = serving(hub, Rate(burst=1e9, per_second=1e9))  # every message answered: the replies pile up
    try:
        ana = Phone(server.port)
        ana.claim("Ana")
        assert ana.token is not None
        sock = upgrade(server.port, ana.token, receive_buffer=4096)
        most = 0
        stop = threading.Event()

        def watch() -> None:  # the server's own queues, sampled all along
            nonlocal most
            while not stop.is_set():
                most = max([most, *server.queued()])
                time.sleep(0.001)

        watcher = threading.Thread(target=watch)
        watcher.start()
        sent = flood(sock, '{"type":"ballot","target":"Ben"}', 200_000)
        assert wait_for(lambda: server.dropped == 1)
        stop.set()
        watcher.join()
        sock.close()
        assert sent < 200_000  # cut while it was still sending
        assert most <= QUEUED and server.queued() == []
        assert wait_for(lambda: hub.connected() == [])
        # the same phone reconnects with its token, as its page does by itself, and is served
        asyncio.run(_screen_again(ana))
        assert server.most_queued <= QUEUED
    finally:
        server.stop()


async def _screen_again(phone: Phone) -> None:
    async with phone.socket() as ws:
        assert (await ws.next())["seat"] == "Ana"


def test_the_game_never_waits_on_a_phone_that_does_not_read(hub: Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "SEND_S", 0.5)
    server = serving(hub)
    try:
        ben = Phone(server.port)
        ben.claim("Ben")
        assert ben.token is not None
        sock = upgrade(server.port, ben.token, receive_buffer=4096)
        for n in range(40):  # a screen of about 120 kB: a few fill every buffer between them
            hub.tell("Ben", f"{n} {'x' * 3000}")
        asked = 0
        # the game's thread changes Ben's screen again and again while nothing is read: every call returns
        # at once (it only marks the seat), and the server drops Ben rather than wait on his socket
        while server.dropped == 0 and asked < 100_000:
            hub.ask({"Ben": WHO})
            asked += 1
            time.sleep(0.001)
        assert server.dropped == 1 and asked < 100_000
        assert wait_for(lambda: hub.connected() == [])
        sock.close()
    finally:
        server.stop()


# -- a phone that floods -------------------------------------------------------------------------


async def _flood_while_reading(port: int, token: str, messages: int) -> tuple[list[dict], float]:
    """Sends `messages` at once, then one last message now and then until it is answered (a message read
    over the rate gets no reply of its own); every reply received and how long it all took."""
    headers = {"Origin": f"http://127.0.0.1:{port}", "Cookie": f"{COOKIE}={token}"}
    replies: list[dict] = []
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"http://127.0.0.1:{port}/ws", headers=headers) as ws:
            began = time.monotonic()
            for n in range(messages):
                await ws.send_str(json.dumps({"type": "ballot", "target": "Ben", "id": n}))
            for _ in range(100):
                await ws.send_str(json.dumps({"type": "nonsense", "id": -1}))
                try:
                    while True:
                        message = json.loads((await asyncio.wait_for(ws.receive(), 0.5)).data)
                        if message["type"] == "reply":
                            replies.append(message)
                            if message.get("id") == -1:
                                return replies, time.monotonic() - began
                except asyncio.TimeoutError:
                    continue
    raise AssertionError("the last message was never answered")


def test_a_flood_is_refused_once_a_window_and_read_no_faster_than_its_rate(hub: Hub) -> None:
    server = serving(hub, Rate(burst=10, per_second=100))
    try:
        ana = Phone(server.port)
        ana.claim("Ana")
        assert ana.token is not None
        replies, lasted = asyncio.run(_flood_while_reading(server.port, ana.token, 300))
        answered = [r for r in replies if "id" in r]
        refused = [r for r in replies if r.get("error") == connection.STATUS_MESSAGES[429]]
        # every message read within the rate is answered; the others are refused with one reply a window,
        # not one each (a reply a message is what filled the server's memory)
        assert len(answered) + len(refused) == len(replies)
        assert 1 <= len(refused) <= 1 + lasted / REFUSAL_S
        flood = [r for r in answered if r["id"] >= 0]
        assert len(flood) + len(refused) < 300  # most refused messages got no reply at all
        assert server.most_queued <= QUEUED
    finally:
        server.stop()


# -- idle, slow and many connections -------------------------------------------------------------


def test_idle_and_half_sent_requests_are_closed(hub: Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "HEADERS_S", 0.3)
    monkeypatch.setattr(server_module, "REQUEST_S", 0.3)
    server = serving(hub)
    try:
        idle = raw(server.port)
        assert closed_without_answer(idle)  # connected, never sent a byte
        slow = raw(server.port)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:")  # a header a byte at a time, never ended
        assert closed_without_answer(slow)
        body = raw(server.port)
        head = (
            f"POST /api/claim HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nOrigin: http://127.0.0.1:{server.port}"
            "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        body.sendall(head.encode())  # its body never comes whole
        status, headers, data = answer_of(body)
        assert status == 408 and headers["content-type"].startswith("application/json")
        assert json.loads(data) == {"error": "requête trop lente"}
        for sock in (idle, slow, body):
            sock.close()
        assert wait_for(lambda: len(server.gate) == 0)
        assert Phone(server.port).call("GET", "/api/seats").status == 200
    finally:
        server.stop()


def test_connections_are_capped_per_client_address_and_in_all(hub: Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    for timeout in ("HEADERS_S", "KEEPALIVE_S"):  # the held connections stay for the whole test
        monkeypatch.setattr(connection, timeout, 600.0)
    server = serving(hub)
    held: list[socket.socket] = []
    try:
        # one client opens far more than any phone would: beyond its cap each is refused at once, in French
        for _ in range(connection.PER_CLIENT):
            held.append(raw(server.port, "127.0.0.2"))
        assert wait_for(lambda: server.gate.open.get("127.0.0.2") == connection.PER_CLIENT)
        for _ in range(3 * connection.PER_CLIENT):
            extra = raw(server.port, "127.0.0.2")
            status, headers, body = answer_of(extra)
            extra.close()
            assert status == 503 and json.loads(body) == {"error": connection.STATUS_MESSAGES[503]}
        assert server.gate.refused == 3 * connection.PER_CLIENT
        # meanwhile every honest client is answered: a phone at another address
        honest = Phone(server.port)
        reply = honest.call("GET", "/api/seats")
        assert reply.status == 200 and reply.json()["free"] == list(PLAYERS)
        # in all: many clients, each under its own cap, fill the server's; a newcomer from an address
        # holding as many as any other is refused there, in French
        sources = [f"127.0.1.{n}" for n in range(1, 200)]
        for source in sources:
            if len(held) >= connection.TOTAL:
                break
            for _ in range(connection.PER_CLIENT - 1):
                held.append(raw(server.port, source))
                if len(held) >= connection.TOTAL:
                    break
        assert wait_for(lambda: len(server.gate) == connection.TOTAL)
        late = raw(server.port, "127.0.1.1")
        assert answer_of(late)[0] == 503
        late.close()
        assert server.gate.evicted == 0
        # a newcomer from an address holding fewer takes the place of the oldest waiting connection of the
        # address holding the most: the total stays the server's
        newcomer = raw(server.port, "127.0.2.1")
        assert wait_for(lambda: server.gate.evicted == 1)
        assert closed_without_answer(held[0])  # 127.0.0.2 holds the most (its cap): its first, never sent a byte
        assert len(server.gate) == connection.TOTAL and server.gate.open["127.0.2.1"] == 1
        assert server.gate.open["127.0.0.2"] == connection.PER_CLIENT - 1
        held.append(newcomer)
        for sock in held:
            sock.close()
        held.clear()
        assert wait_for(lambda: len(server.gate) == 0)
        assert Phone(server.port).call("GET", "/api/seats").status == 200  # served again once they left
    finally:
        for sock in held:
            sock.close()
        server.stop()


def test_many_addresses_holding_half_sent_requests_leave_honest_phones_a_way_in(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attack of one player with a dozen addresses (IP aliases), each at its own cap of half-sent
    requests: more than the server's total. Honest phones are still served, an open seat's socket is not cut."""
    for timeout in ("HEADERS_S", "KEEPALIVE_S"):  # the half-sent requests stay for the whole test
        monkeypatch.setattr(connection, timeout, 600.0)
    server = serving(hub)
    held: list[socket.socket] = []
    try:
        ana = Phone(server.port)
        assert ana.claim("Ana").status == 200 and ana.token is not None
        seat = upgrade(server.port, ana.token)
        addresses = [f"127.0.1.{n}" for n in range(1, 13)]
        assert len(addresses) * connection.PER_CLIENT > connection.TOTAL
        for source in addresses:
            for _ in range(connection.PER_CLIENT):
                sock = raw(server.port, source)
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:")  # never ended
                held.append(sock)
        assert wait_for(lambda: len(server.gate) == connection.TOTAL)
        for _ in range(5):  # honest newcomers, each in: each takes a half-sent request's place
            reply = Phone(server.port).call("GET", "/api/seats")
            assert reply.status == 200 and reply.json()["free"] == ["Ben", "Cleo"]
        # the attack's surplus past the total was refused, or took the places of its own first connections
        surplus = len(addresses) * connection.PER_CLIENT + 2 - connection.TOTAL  # and Ana's claim and socket
        assert server.gate.evicted >= 1 and server.gate.evicted + server.gate.refused >= surplus
        # Ana's socket, being served, was never the one to go: it still answers her ballot
        seat.sendall(frame('{"type": "ballot", "target": "Ben"}'))
        data = b""
        while b'"reply"' not in data:
            chunk = seat.recv(65536)
            assert chunk, "the seat's socket was closed"
            data += chunk
        seat.close()
    finally:
        for sock in held:
            sock.close()
        server.stop()


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "br"])
def test_a_body_that_cannot_be_read_is_a_french_400_and_nothing_on_the_table(
    server: PhoneServer, caplog: pytest.LogCaptureFixture, encoding: str
) -> None:
    caplog.set_level(logging.DEBUG, logger="narrator")
    for _ in range(3):
        reply = Phone(server.port).call("POST", "/api/claim", raw=b"abc", headers={"Content-Encoding": encoding})
        assert reply.status in (400, 415) and reply.headers["Content-Type"].startswith("application/json")
        said = {"corps de la requête illisible", "attendu : du JSON non compressé", connection.STATUS_MESSAGES[400]}
        assert reply.json()["error"] in said  # the server's own, or aiohttp's parser's (connection.py)
    assert [r for r in caplog.records if r.levelno >= logging.INFO] == []
    assert Phone(server.port).claim("Ana").status == 200  # and the server serves on


def test_a_bug_of_ours_is_one_short_line_once_and_a_french_500(
    server: PhoneServer, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(data: object) -> object:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(server_module, "_loads", broken)
    caplog.set_level(logging.INFO, logger="narrator")
    for _ in range(3):
        reply = Phone(server.port).call("POST", "/api/claim", {"seat": "Ana"})
        assert reply.status == 500 and reply.json() == {"error": "erreur du narrateur : réessayez"}
    said = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert len(said) == 1 and said[0].exc_info is None
    assert said[0].getMessage() == "phones: erreur du narrateur (ZeroDivisionError) sur POST /api/claim"


# -- malformed HTTP, before any of the server's code runs ----------------------------------------


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"HELLO / HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\n\r\n",  # no Host: refused by the server's own check, not the parser
        b"GET /" + b"A" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Bad: " + b"B" * 9000 + b"\r\n\r\n",
        b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # a TLS hello on the plain port
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nBad Header Name: y\r\n\r\n",
    ],
    ids=["method", "no-host", "long-path", "long-header", "version", "tls", "length", "header-name"],
)
def test_malformed_http_gets_a_french_json_error_that_echoes_nothing(server: PhoneServer, request_bytes: bytes) -> None:
    sock = raw(server.port)
    sock.sendall(request_bytes)
    status, headers, body = answer_of(sock)
    sock.close()
    assert 400 <= status < 500
    assert headers["content-type"].startswith("application/json")
    assert headers["x-content-type-options"] == "nosniff"
    error = json.loads(body)["error"]
    assert error in connection.STATUS_MESSAGES.values() or error == "ce serveur ne répond pas à cette adresse"
    for echoed in (b"HELLO", b"AAAA", b"BBBB", b"9.9", b"-5", b"Bad Header", b"\x16\x03"):
        assert echoed not in body


def test_a_seats_question_numbers_are_its_own() -> None:
    """A phone's question number never moves when another seat alone is asked (a shared counter jumped
    from 1 to 3 on every phone when only the Doppelgänger got a second question)."""
    hub = Hub(PLAYERS)
    first = hub.ask(dict.fromkeys(PLAYERS, WHO))
    second = hub.ask({"Ben": WHO})  # Ben alone: a character that acts at once
    third = hub.ask(dict.fromkeys(PLAYERS, WHO))
    assert first == {"Ana": 1, "Ben": 1, "Cleo": 1} and second == {"Ben": 2}
    assert third == {"Ana": 2, "Ben": 3, "Cleo": 2}
    assert hub.answer("Ana", 2, "Ben") is None and hub.answer("Ben", 3, "Ana") is None


def test_news_of_the_phones_wakes_the_joining_once() -> None:
    """The joining waits for news of the phones: one arrival wakes it once, not at every wait after it
    (it never reads `arrivals`; a wait that returned while they were unread spun a core at 100 %)."""
    hub = Hub(PLAYERS)
    assert hub.wait_for_arrival(0.01) is False
    hub.claim("Ana")
    hub.connect("Ana", True)
    assert hub.wait_for_arrival(5) is True
    assert [hub.wait_for_arrival(0.01) for _ in range(3)] == [False, False, False]
    hub.connect("Ben", True)
    assert hub.wait_for_arrival(5) is True and hub.wait_for_arrival(0.01) is False
