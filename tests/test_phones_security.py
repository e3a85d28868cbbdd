"""The phones' server against the players at the table: a seat's token opens that seat alone, every
state-changing request comes from the server's own pages, bodies and rates are bounded, and whatever
is sent, no response to a seat ever holds another seat's card, secret or token, nor a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import string
import subprocess
import sys
from collections.abc import Iterator

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from phones_client import Phone

from narrator.phones.hub import Hub
from narrator.phones.limits import Buckets, Rate
from narrator.phones.screens import Card, Choice, Form, Question
from narrator.phones.server import COOKIE, MAX_BODY, SEAT_FREED, SECURITY_HEADERS, PhoneServer

PLAYERS = ("Ana", "Ben", "Cleo")
CARDS = {
    "Ana": Card("voyante", "Voyante", "Ana-carte : chaque nuit, voit une carte.", "un œil"),
    "Ben": Card("loup", "Loup-Garou", "Ben-carte : dévore la nuit.", "une griffe"),
    "Cleo": Card("sorciere", "Sorcière", "Cleo-carte : deux potions.", "un chaudron"),
}
TOLD = {seat: f"{seat}-secret : rien que pour {seat}." for seat in PLAYERS}
WHO = Question(Form.ONE, "Qui regardez-vous ?", tuple(Choice(p, p) for p in PLAYERS))


class Table:
    """A dealt table with Ana's and Ben's seats taken; Cleo's free (her token never handed out); a vote open."""

    def __init__(self, rate: Rate | None = None) -> None:
        self.hub = Hub(PLAYERS)
        self.hub.deal(CARDS)
        for seat, text in TOLD.items():
            self.hub.tell(seat, text)
        self.asked = self.hub.ask({p: WHO for p in PLAYERS})["Ana"]  # each seat numbers its own: 1 for all
        self.hub.ballots(True)  # the day's vote is being collected: a ballot is refused only for what it is
        self.server = PhoneServer(self.hub, rate=rate)
        self.server.start()
        self.ana, self.ben = Phone(self.server.port), Phone(self.server.port)
        assert self.ana.claim("Ana").status == 200 and self.ben.claim("Ben").status == 200

    def leaks(self, seat: str | None, text: str) -> list[str]:
        """What of the other seats' secrets (cards, secrets, tokens) a response to `seat` holds."""
        found = []
        for other in PLAYERS:
            if other == seat:
                continue
            found += [w for w in (CARDS[other].text, CARDS[other].name, TOLD[other]) if w in text]
        found += [f"token of {s}" for s, token in self.hub.tokens.items() if token in text]
        return found


@pytest.fixture
def table() -> Iterator[Table]:
    table = Table(rate=Rate(burst=10_000, per_second=10_000))  # the fuzz reaches the handlers, not the limit
    yield table
    table.server.stop()


def test_a_seats_token_reads_its_own_screen_alone(table: Table) -> None:
    for phone, seat in ((table.ana, "Ana"), (table.ben, "Ben")):
        screen = phone.call("GET", "/api/screen").json()["screen"]
        assert screen["seat"] == seat and screen["card"]["text"] == CARDS[seat].text
        assert screen["secrets"] == [TOLD[seat]]
        assert table.leaks(seat, phone.call("GET", "/api/screen").text) == []
    for shared in ("/", "/api/seats", "/pages/seat.js", "/pages/join.js"):
        assert table.leaks(None, Phone(table.server.port).call("GET", shared).text) == []


def test_a_seat_cannot_act_for_another(table: Table) -> None:
    reply = table.ana.call("POST", "/api/answer", {"asked": table.asked, "value": "Ben", "seat": "Ben"})
    assert reply.status == 200
    assert [a.seat for a in table.hub.wait(1)] == ["Ana"]
    table.ana.call("POST", "/api/ballot", {"target": "Cleo", "seat": "Ben"})
    assert table.hub.lines() == [("Ana", "Ana vote contre Cleo")]
    assert table.hub.screen("Ben").answered is False


@pytest.mark.parametrize(
    "cookie",
    [
        "",
        "x",
        pytest.param(secrets.token_urlsafe(24), id="guessed"),  # named: each xdist worker draws its own
        "A" * 5000,
        "é\u202e\x00",
        '"quoted"',
        "; narrateur_place=",
    ],
)
def test_guessed_or_malformed_cookies_open_nothing(table: Table, cookie: str) -> None:
    intruder = Phone(table.server.port)
    for path in ("/api/screen", "/seat", "/api/answer", "/api/ballot"):
        method = "POST" if path in ("/api/answer", "/api/ballot") else "GET"
        raw = f"{COOKIE}={cookie}".encode("utf-8", "replace")
        reply = intruder.call(
            method, path, {"asked": table.asked, "value": "Ana"}, headers={"Cookie": raw.decode("latin-1")}
        )
        assert reply.status in {303, 400, 401}, (path, reply.status, reply.text)
        assert table.leaks(None, reply.text) == [] and "Traceback" not in reply.text
    assert table.hub.wait(0) == [] and table.hub.lines() == []


def test_the_unhanded_token_of_a_free_seat_opens_nothing(table: Table) -> None:
    cleo = Phone(table.server.port, token=table.hub.tokens["Cleo"])
    assert cleo.call("GET", "/api/screen").status == 401


def test_an_old_token_is_refused_once_the_table_freed_its_seat(table: Table) -> None:
    old = table.ben.token
    table.hub.free("Ben")
    replay = Phone(table.server.port, token=old)
    assert replay.call("GET", "/api/screen").status == 401
    assert replay.call("POST", "/api/ballot", {"target": "Ana"}).status == 401
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        asyncio.run(_open(replay))
    assert refused.value.status == 401


async def _open(phone: Phone) -> None:
    async with phone.socket() as ws:
        await ws.next()


def test_state_changing_requests_need_the_servers_own_origin(table: Table) -> None:
    stranger = Phone(table.server.port)
    for origin in (None, "http://evil.example", "null", f"http://127.0.0.1:{table.server.port + 1}"):
        headers = {} if origin is None else {"Origin": origin}
        reply = stranger.call("POST", "/api/claim", {"seat": "Cleo"}, origin=False, headers=headers)
        assert (reply.status, reply.json()) == (403, {"error": "origine refusée"})
        answer = table.ana.call(
            "POST", "/api/answer", {"asked": table.asked, "value": "Ben"}, origin=False, headers=headers
        )
        assert answer.status == 403
    assert table.hub.claimed() == ["Ana", "Ben"] and table.hub.wait(0) == []


def test_the_websocket_needs_the_servers_own_origin(table: Table) -> None:
    async def from_elsewhere() -> None:
        headers = {"Origin": "http://evil.example", "Cookie": f"{COOKIE}={table.ana.token}"}
        async with aiohttp.ClientSession() as session:
            await session.ws_connect(f"{table.ana.origin}/ws", headers=headers)

    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        asyncio.run(from_elsewhere())
    assert refused.value.status == 403


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1:1", "narrateur.local.evil.example", "a b", ""])
def test_a_request_must_name_this_server(table: Table, host: str) -> None:
    reply = table.ana.call("GET", "/api/screen", headers={"Host": host.replace("PORT", str(table.server.port))})
    assert reply.status == 400 and reply.json()["error"] in {
        "ce serveur ne répond pas à cette adresse",
        "adresse du serveur incomprise",
    }
    assert table.leaks(None, reply.text) == []


def test_the_names_a_phone_may_use(table: Table) -> None:
    port = table.server.port
    for host in (f"narrateur.local:{port}", f"localhost:{port}", f"[::1]:{port}", f"192.168.1.20:{port}"):
        origin = f"http://{host}"
        assert table.ana.call("GET", "/api/screen", headers={"Host": host}).status == 200
        assert (
            table.ana.call("POST", "/api/ballot", {"target": None}, headers={"Host": host, "Origin": origin}).status
            == 200
        )


def test_every_response_carries_the_security_headers(table: Table) -> None:
    stranger = Phone(table.server.port)
    replies = [
        stranger.call("GET", "/"),
        stranger.call("GET", "/seat"),
        stranger.call("GET", "/nowhere"),
        stranger.call("GET", "/pages/seat.js"),
        table.ana.call("GET", "/"),
        table.ana.call("GET", "/seat"),
        table.ana.call("GET", "/api/screen"),
        table.ana.call("DELETE", "/api/screen"),
        stranger.call("POST", "/api/claim", raw=b"{"),
    ]
    for reply in replies:
        for name, value in SECURITY_HEADERS.items():
            assert reply.headers[name] == value, (reply.status, name)
    csp = SECURITY_HEADERS["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp


def test_bad_requests_get_a_french_json_error_and_their_status(table: Table) -> None:
    ana = table.ana
    cases = [
        (ana.call("POST", "/api/answer", raw=b"x" * (MAX_BODY + 1)), 413, "requête trop grande"),
        (ana.call("POST", "/api/answer", raw=b'{"asked": 1}', content_type="text/plain"), 415, "attendu : du JSON"),
        (ana.call("POST", "/api/answer", raw=b'{"asked": '), 400, "JSON incompris"),
        (ana.call("POST", "/api/answer", raw=b"\xff\xfe"), 400, "JSON incompris"),
        (ana.call("POST", "/api/answer", [1, 2]), 400, "attendu : un objet JSON"),
        (ana.call("POST", "/api/answer", raw=b"[" * 4000), 400, "JSON incompris"),  # deeper than the parser goes
        (ana.call("GET", "/api/answer"), 405, "méthode non permise ici"),
        (ana.call("GET", "/wp-admin"), 404, "page inconnue"),
        (Phone(table.server.port).call("GET", "/api/screen"), 401, "aucune place : prenez d'abord une place"),
        (ana.call("POST", "/api/ballot", {"target": ["Ben"]}), 409, "ce joueur n'est pas à la table"),
    ]
    for reply, status, error in cases:
        assert (reply.status, reply.json()["error"]) == (status, error)


def test_a_client_that_hammers_is_slowed_with_a_french_error() -> None:
    table = Table(rate=Rate(burst=5, per_second=0.01))
    try:
        stranger = Phone(table.server.port)
        statuses = [stranger.call("GET", "/api/seats").status for _ in range(8)]
        assert statuses.count(200) <= 5 and statuses[-1] == 429
        assert stranger.call("GET", "/api/seats").json() == {"error": "trop de requêtes : attendez un peu"}
    finally:
        table.server.stop()


def test_rate_buckets_refill_and_forget_the_oldest_clients() -> None:
    now = [0.0]
    buckets = Buckets(Rate(burst=2, per_second=1), most=3, clock=lambda: now[0])
    assert [buckets.allow("a") for _ in range(3)] == [True, True, False]
    now[0] = 1.0
    assert buckets.allow("a") and not buckets.allow("a")
    for n in range(100):
        buckets.allow(f"client {n}")
    assert len(buckets) == 3


async def _socket_abuse(table: Table) -> None:
    async with table.ana.socket() as ws:
        await ws.next()
        await ws.ws.send_bytes(b"\x00\x01")  # not text: ignored
        await ws.ws.send_str("not json")
        assert (await ws.next("reply"))["error"] == "message incompris : attendu un objet JSON"
        await ws.ws.send_str("[" * 4000)
        assert (await ws.next("reply"))["error"] == "message incompris : attendu un objet JSON"
        await ws.send({"type": "hack", "seat": "Ben"})
        assert (await ws.next("reply"))["error"] == "message inconnu : attendu une réponse ou un vote"
        await ws.ws.send_str(json.dumps({"type": "answer", "pad": "x" * 10_000}))
        closed = await asyncio.wait_for(ws.ws.receive(), 5)
        assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


def test_websocket_messages_are_small_and_understood_or_refused(table: Table) -> None:
    asyncio.run(_socket_abuse(table))
    assert table.hub.wait(0) == []


async def _many_sockets(table: Table) -> None:
    async with aiohttp.ClientSession() as session:
        headers = {"Origin": table.ana.origin, "Cookie": f"{COOKIE}={table.ana.token}"}
        sockets = [await session.ws_connect(f"{table.ana.origin}/ws", headers=headers) for _ in range(5)]
        for oldest in sockets[:2]:
            while (message := await asyncio.wait_for(oldest.receive(), 5)).type is aiohttp.WSMsgType.TEXT:
                pass
            assert message.type is aiohttp.WSMsgType.CLOSE and message.data == aiohttp.WSCloseCode.POLICY_VIOLATION
        for ws in sockets:
            await ws.close()


def test_a_seat_keeps_a_few_connections_at_most(table: Table) -> None:
    asyncio.run(_many_sockets(table))


async def _freed_socket(table: Table) -> None:
    async with table.ben.socket() as ws:
        await ws.next()
        await asyncio.to_thread(table.hub.free, "Ben")
        while (message := await asyncio.wait_for(ws.ws.receive(), 5)).type is aiohttp.WSMsgType.TEXT:
            assert table.leaks("Ben", message.data) == []
        assert message.data == SEAT_FREED


def test_a_freed_seats_open_socket_is_closed_before_anything_else_is_sent(table: Table) -> None:
    asyncio.run(_freed_socket(table))


# -- fuzz: any request, any payload --------------------------------------------------------------

PATH_CHARACTERS = string.ascii_letters + string.digits + "-._~%/!$&'()*+,;=:@"
ENDPOINTS = [
    "/",
    "/seat",
    "/api/seats",
    "/api/claim",
    "/api/screen",
    "/api/answer",
    "/api/ballot",
    "/ws",
    "/pages/seat.js",
]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
    | st.sampled_from(PLAYERS),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
payloads = st.dictionaries(
    st.sampled_from(["seat", "asked", "value", "target", "type", "id", "x"]), json_values, max_size=5
) | json_values.map(lambda v: v)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
    path=st.sampled_from(ENDPOINTS) | st.text(PATH_CHARACTERS, max_size=20).map(lambda p: "/" + p),
    body=payloads,
    who=st.sampled_from(["Ana", "Ben", None]),
    content_type=st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"]),
    raw=st.none() | st.binary(max_size=300) | st.sampled_from([b"[" * 3000, b'{"a":' * 900, b'"\\ud800"']),
)
def test_fuzzed_requests_never_fail_the_server_nor_leak_a_secret(
    table: Table,
    caplog: pytest.LogCaptureFixture,
    method: str,
    path: str,
    body: object,
    who: str | None,
    content_type: str,
    raw: bytes | None,
) -> None:
    phone = {"Ana": table.ana, "Ben": table.ben, None: Phone(table.server.port)}[who]
    with caplog.at_level(logging.ERROR):
        reply = phone.call(method, path, body, raw=raw, content_type=content_type)
    assert reply.status < 500, reply.text
    assert table.leaks(who, reply.text) == []
    if reply.status >= 400:
        assert isinstance(reply.json()["error"], str)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages=st.lists(payloads, min_size=1, max_size=12))
def test_fuzzed_socket_messages_get_replies_and_never_another_seats_secret(
    table: Table, messages: list[object]
) -> None:
    async def talk() -> None:
        async with table.ana.socket() as ws:
            await ws.next()
            for message in messages:
                await ws.ws.send_str(json.dumps(message))
                reply = await ws.next("reply")
                assert set(reply) <= {"type", "ok", "id", "error", "said"}
            await asyncio.sleep(0.05)
            while not ws.ws.closed:
                try:
                    got = await asyncio.wait_for(ws.ws.receive(), 0.05)
                except asyncio.TimeoutError:
                    break
                if got.type is aiohttp.WSMsgType.TEXT:
                    assert table.leaks("Ana", got.data) == []

    asyncio.run(talk())
    for seat, words in table.hub.lines():
        assert seat == "Ana" and words.startswith("Ana vote ")
    assert {a.seat for a in table.hub.wait(0)} <= {"Ana"}


NETWORK_NOISE = """
import logging, socket, sys
logging.basicConfig()  # as a library's logging.warning() does: the root logger prints on stderr
from narrator.phones.hub import Hub
from narrator.phones.server import PhoneServer

server = PhoneServer(Hub(["Ana", "Ben"]))
server.start()
for request in [
    b"GET /" + b"a" * 20000 + b" HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n",
    b"GET / HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n" + b"".join(b"X-%d: %s\\r\\n" % (i, b"b" * 100) for i in range(500)) + b"\\r\\n",
    b"GET / HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nX: " + b"c" * 9000 + b"\\r\\n\\r\\n",
    b"\\x16\\x03\\x01 not http\\r\\n\\r\\n",
    b"GET / HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nContent-Length: 5\\r\\n\\r\\n",  # cut short: the phone left
]:
    with socket.create_connection(("127.0.0.1", server.port)) as phone:
        phone.sendall(request)
        phone.settimeout(5)
        print(phone.recv(100)[:12].decode("latin-1"))
server.stop()
"""


def test_nothing_the_network_sends_prints_on_the_tables_terminal() -> None:
    """A URL or headers too long, too many headers, TLS on the HTTP port: refused with a 400, and not one byte
    on the terminal where the table reads its game (even with the root logger printing)."""
    run = subprocess.run([sys.executable, "-c", NETWORK_NOISE], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert run.stdout.split("\n")[:4] == ["HTTP/1.0 400"] * 4
