"""The phones' web server: each phone takes a seat, then sees that seat's screen and answers it.

It runs in its own thread with its own asyncio loop (aiohttp), beside the game's thread; the two
meet only in the `Hub`. A phone proves its seat with the seat's token, held in an HttpOnly cookie
(never in a URL or a page); a seat's page gets its screen over a WebSocket on every change, and
nothing a server sends to a seat is built from anything but that seat's own `Screen`.

The players at the table are the threat, on a LAN without TLS: every request's Host must name this
server (no DNS rebinding), every state-changing request and WebSocket comes from its own pages
(Origin), bodies and messages are small, each client has a rate, and every refusal is a French
JSON error with its status, never a traceback (aiohttp's own parser errors included: connection.py).
One player cannot slow the others down: a phone's queue of replies is bounded and a phone that does
not read them is dropped (it reconnects like any phone), a flooding socket is read no faster than its
rate and told so once per window, idle and half-sent requests time out, and the connections are
capped per client address and in all (connection.py). The game's thread never waits on a socket: it
only marks the seats whose screens changed.

    GET  /             the join page (the free seats); with a seat's cookie, 303 to /seat
    POST /api/claim    {"seat": name} -> the seat's cookie (HttpOnly, SameSite=Strict), or why not
    GET  /api/seats    {"free": [names], "seat": this phone's seat or null, "night": bool, "end": the end or null}
    GET  /seat         the seat's page (its script opens /ws)
    GET  /ws           the seat's screen on every change; takes {"type": "answer", "asked", "value"}
                       and {"type": "ballot", "target": name or null}, each replied {"type": "reply", "ok", …}
    GET  /api/screen   the seat's screen; POST /api/answer, /api/ballot: the same as over /ws
    At the game's end /ws sends {"type": "over"} and closes with GAME_OVER: the page stops reconnecting.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web
from yarl import URL

from narrator.phones import PhoneError
from narrator.phones.connection import (
    SECURITY_HEADERS,
    STATUS_MESSAGES,
    Gate,
    Runner,
    begun,
    error_body,
    reading,
    serving,
)
from narrator.phones.hub import Hub
from narrator.phones.limits import Buckets, Rate
from narrator.phones.screen_json import screen_json

__all__ = ["PhoneError", "PhoneServer", "COOKIE"]

COOKIE = "narrateur_place"
COOKIE_SECONDS = 24 * 3600  # a whole evening's games, even if the phone's browser is closed meanwhile
MAX_BODY = 4096  # bytes: a claim, an answer or a ballot is a few dozen
MAX_MESSAGE = 4096  # bytes of one WebSocket message
MAX_TOKEN = 200  # characters: a cookie longer than any token is not looked up
PHONES_PER_SEAT = 3  # open WebSockets per seat; a fourth closes the oldest (a phone that came back)
SEAT_FREED = 4001  # WebSocket close code: this phone's token no longer holds the seat
GAME_OVER = 4002  # WebSocket close code: the game is over, the page stops reconnecting
QUEUED = 32  # replies waiting for one socket: a phone that lets more pile up is not reading, it is dropped
SEND_S = 10.0  # a send to a phone that takes longer (its socket full: it does not read) drops it
REFUSAL_S = 1.0  # a socket over its rate is told so once in this window, however much it sends
REQUEST_S = 10.0  # a request (not a socket) whose body is not in, or not answered, by then gets a 408
PAGES = Path(__file__).resolve().parent / "pages"
NAMES = ("localhost", "narrateur.local")  # besides any IP address, the names a phone may use

COMMON = "common.js"  # served only at the head of the pages' scripts
SCRIPTED = frozenset({"join.js", "seat.js"})
CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}

log = logging.getLogger(__name__)
# Nothing a phone (or anyone on the network) sends may print on the table's terminal, even when something
# else configured the root logger: aiohttp's tracebacks of a malformed request stay in aiohttp's loggers.
_aiohttp_log = logging.getLogger("aiohttp")
_aiohttp_log.addHandler(logging.NullHandler())
_aiohttp_log.propagate = False


class _Refused(Exception):
    """A request answered with a French error and a status."""

    def __init__(self, status: int, message: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message or STATUS_MESSAGES.get(status, "requête refusée")


@dataclass(eq=False)
class _Phone:
    """One open WebSocket of a seat: what it still has to be sent."""

    ws: web.WebSocketResponse
    seat: str
    token: str
    transport: asyncio.BaseTransport | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    stale: bool = True  # the screen changed since it was last sent
    replies: deque[dict[str, Any]] = field(default_factory=deque)  # never more than QUEUED
    refused_at: float = -REFUSAL_S  # when it was last told it sends too much (time.monotonic)
    dropped: bool = False

    def queue(self, reply: dict[str, Any]) -> None:
        """A reply to send; a phone whose replies pile up does not read: it is dropped."""
        if len(self.replies) >= QUEUED:
            self.drop()
            return
        self.replies.append(reply)
        self.wake.set()

    def drop(self) -> None:
        """Cut the connection at once (no closing handshake to wait for): the page reconnects by itself."""
        self.dropped = True
        self.replies.clear()
        if isinstance(self.transport, asyncio.Transport):
            self.transport.abort()
        self.wake.set()


class PhoneServer:
    """Serves the hub's seats to the phones on `host:port` (port 0: any free port, then `.port`)."""

    def __init__(
        self,
        hub: Hub,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        names: Iterable[str] = (),
        rate: Rate | None = None,
    ) -> None:
        self.hub = hub
        self.host = host
        self.port = port
        self.names = {*NAMES, *(n.lower() for n in names)}  # host names a phone may use (mDNS, the LAN's)
        self._buckets = Buckets(rate or Rate())
        self.gate = Gate()  # the open connections, per client address and in all
        self._bugs_said: set[tuple[str, str]] = set()  # the errors of ours already logged, by kind and path
        self.dropped = 0  # phones cut for not reading what they were sent
        self.most_queued = 0  # the most replies that ever waited for one phone (never more than QUEUED)
        self._pages = {p.name: p for p in PAGES.iterdir() if p.suffix in CONTENT_TYPES}
        self._phones: dict[str, list[_Phone]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._over = False  # the game is over: the phones are told so as the server stops
        hub.watch(self._changed)

    # -- the server's life, from the game's thread ------------------------------------------

    def start(self) -> None:
        """Serves in a thread of its own; returns once listening. PhoneError (French) if it cannot."""
        if self._thread is not None:
            return
        ready = threading.Event()
        failed: list[BaseException] = []

        def serve() -> None:
            loop = asyncio.new_event_loop()
            loop.set_exception_handler(_quiet)  # a connection dropped mid-request is no news for the table
            try:
                loop.run_until_complete(self._open())
            except BaseException as error:  # reported to start(), in the game's thread
                failed.append(error)
                loop.run_until_complete(self._close())
                loop.close()
                ready.set()
                return
            self._loop = loop
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._close())
            loop.close()

        thread = threading.Thread(target=serve, name="phones", daemon=True)
        thread.start()
        ready.wait()
        if failed:
            thread.join()
            raise PhoneError(self._why(failed[0])) from failed[0]
        self._thread = thread

    def stop(self, over: bool = False) -> None:
        """Closes every phone's connection and stops listening (the port may be served again). `over`: the
        game is over, each page is told so and stops reconnecting (else it waits for a resumed game)."""
        thread, loop = self._thread, self._loop
        if thread is None or loop is None:
            return
        self._loop = None
        self._over = over
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        self._thread = None

    def queued(self) -> list[int]:
        """How many replies wait for each open socket now (read from any thread: a glance, for the tests)."""
        for _ in range(10):
            try:
                return [len(p.replies) for phones in list(self._phones.values()) for p in list(phones)]
            except RuntimeError:  # changed meanwhile by the server's thread: look again
                continue
        return []

    def _why(self, error: BaseException) -> str:
        where = f"{self.host}:{self.port}"
        if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
            return f"le port {self.port} est déjà pris (un autre narrateur ?) : choisissez-en un autre"
        if isinstance(error, OSError) and error.errno == errno.EADDRNOTAVAIL:
            return f"l'adresse {self.host} n'est pas une adresse de cette machine"
        if isinstance(error, OSError) and error.errno == errno.EACCES:
            return f"le port {self.port} est réservé à l'administrateur : choisissez un port au-dessus de 1024"
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return f"impossible de servir les téléphones sur {where} : {reason}"

    async def _open(self) -> None:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.on_response_prepare.append(_secure)
        app.add_routes(
            [
                web.get("/", self._join_page),
                web.get("/seat", self._seat_page),
                web.get("/pages/{name}", self._page),
                web.get("/api/seats", self._seats),
                web.post("/api/claim", self._claim),
                web.get("/api/screen", self._screen),
                web.post("/api/answer", self._answer),
                web.post("/api/ballot", self._ballot),
                web.get("/ws", self._socket),
                web.get("/favicon.ico", _no_icon),
            ]
        )
        self._runner = Runner(app, self.gate, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def _close(self) -> None:
        closing = [self._goodbye(p) for ps in self._phones.values() for p in ps]
        await asyncio.gather(*closing, return_exceptions=True)  # all at once: a silent phone waits 1 s, not 20
        self._phones.clear()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _goodbye(self, phone: _Phone) -> None:
        if self._over:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await phone.ws.send_str(_dumps({"type": "over", "end": self.hub.screen(phone.seat).end}))
            await phone.ws.close(code=GAME_OVER, message=b"partie finie")
        else:
            await phone.ws.close(code=WSCloseCode.GOING_AWAY, message=b"serveur arrete")

    # -- what every request goes through ----------------------------------------------------

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        try:
            begun(request)
            self._check_host(request)
            if not self._buckets.allow(self._client(request)):
                raise _Refused(429)
            socket = request.headers.get("Upgrade", "").lower() == "websocket"
            changes = request.method != "GET" or socket
            if changes and request.headers.get("Origin") != f"http://{request.host}":
                raise _Refused(403)
            if (request.content_length or 0) > MAX_BODY:
                raise _Refused(413)
            with serving(request):
                if socket:
                    return await handler(request)
                try:  # a body sent a byte at a time holds nothing for long
                    return await asyncio.wait_for(handler(request), REQUEST_S)
                except asyncio.TimeoutError:
                    raise _Refused(408) from None
        except _Refused as refused:
            response = _error(refused.status, refused.message)
            if refused.status in (408, 429):  # a client over its rate (or too slow) opens a new connection to
                response.force_close()  # go on: its pipelined requests are not all answered one by one
            return response
        except web.HTTPException as http:
            return _error(http.status, STATUS_MESSAGES.get(http.status, "requête refusée"))
        except Exception as exc:  # a bug of ours: the phone gets a sentence, the log one short line at most
            # (once per kind and path: a phone repeating the request that finds it must not flood the
            # table's terminal), the details at debug level
            log.debug("phones: %s %s", request.method, request.path, exc_info=exc)
            if (key := (type(exc).__name__, request.path[:80])) not in self._bugs_said and len(self._bugs_said) < 64:
                self._bugs_said.add(key)
                log.error("phones: erreur du narrateur (%s) sur %s %s", key[0], request.method, key[1])
            return _error(500, "erreur du narrateur : réessayez")

    def _check_host(self, request: web.Request) -> None:
        """A request must name this server: an IP address or a known name, and this port."""
        try:
            url = URL(f"http://{request.host}")
            name, port = (url.raw_host or "").strip("[]").lower(), url.port
        except ValueError:
            raise _Refused(400, "adresse du serveur incomprise") from None
        if port != self.port or not (name in self.names or _is_address(name)):
            raise _Refused(400, "ce serveur ne répond pas à cette adresse")

    def _client(self, request: web.Request) -> str:
        """Whom a request's rate is counted for: its seat when it has one, else its address."""
        seat = self._seat(request)
        return f"seat:{seat}" if seat else f"ip:{request.remote}"

    def _seat(self, request: web.Request) -> str | None:
        token = request.cookies.get(COOKIE, "")
        return self.hub.seat_of(token) if 0 < len(token) <= MAX_TOKEN else None

    def _own_seat(self, request: web.Request) -> str:
        seat = self._seat(request)
        if seat is None:
            raise _Refused(401)
        return seat

    # -- pages ------------------------------------------------------------------------------

    async def _join_page(self, request: web.Request) -> web.StreamResponse:
        if self._seat(request) is not None:
            return _see("/seat")
        return self._file("join.html")

    async def _seat_page(self, request: web.Request) -> web.StreamResponse:
        if self._seat(request) is None:
            return _see("/")
        return self._file("seat.html")

    async def _page(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in self._pages or name.endswith(".html") or name == COMMON:
            raise _Refused(404)
        return self._file(name)

    def _file(self, name: str) -> web.Response:
        path = self._pages[name]
        body = path.read_bytes()
        if name in SCRIPTED:  # what both pages share, in the page's one script (one request, one connection)
            body = self._pages[COMMON].read_bytes() + b"\n" + body
        return web.Response(body=body, content_type=CONTENT_TYPES[path.suffix], charset="utf-8")

    # -- the API ----------------------------------------------------------------------------

    async def _seats(self, request: web.Request) -> web.Response:
        """The free seats (names only: who sits where is no secret), this phone's own seat, whether it is
        night (every phone shows it: the join page takes the night's look too), and the end once the game is
        over (public: a phone that comes late, or lost its seat, shows who won and every card)."""
        shared = self.hub.screen(self.hub.seats[0])  # what every seat shares: the night, the end
        free = [] if shared.end is not None else self.hub.free_seats()  # over: no seat to take
        return _json({"free": free, "seat": self._seat(request), "night": shared.night, "end": shared.end})

    async def _claim(self, request: web.Request) -> web.Response:
        body = await _json_object(request)
        held = self._seat(request)
        if held is not None:
            raise _Refused(409, f"ce téléphone a déjà une place : {held}")
        seat = body.get("seat")
        if not isinstance(seat, str) or seat not in self.hub.seats:
            raise _Refused(404, "cette place n'existe pas à cette table")
        token = self.hub.claim(seat)
        if token is None:
            raise _Refused(409, f"cette place est déjà prise : {seat}")
        response = _json({"seat": seat})
        response.set_cookie(COOKIE, token, max_age=COOKIE_SECONDS, path="/", httponly=True, samesite="Strict")
        return response

    async def _screen(self, request: web.Request) -> web.Response:
        return _json(self._screen_json(self._own_seat(request)))

    async def _answer(self, request: web.Request) -> web.Response:
        seat = self._own_seat(request)
        reply = self._act(seat, {"type": "answer", **await _json_object(request)})
        return _json(reply, status=200 if reply["ok"] else 409)

    async def _ballot(self, request: web.Request) -> web.Response:
        seat = self._own_seat(request)
        reply = self._act(seat, {"type": "ballot", **await _json_object(request)})
        return _json(reply, status=200 if reply["ok"] else 409)

    def _act(self, seat: str, message: dict[str, Any]) -> dict[str, Any]:
        """An answer or a ballot from a seat's phone: the reply it gets (accepted, or why not)."""
        kind = message.get("type")
        if kind == "answer":
            if "asked" not in message or "value" not in message:
                return _reply(message, "attendu : « asked » et « value »")
            return _reply(message, self.hub.answer(seat, message["asked"], message["value"]))
        if kind == "ballot":
            target, living = message.get("target"), self.hub.screen(seat).living or self.hub.seats
            if target is not None and (not isinstance(target, str) or target not in self.hub.seats):
                return _reply(message, "ce joueur n'est pas à la table")
            if seat not in living or (target is not None and target not in living):  # the dead neither vote
                return _reply(message, "un joueur éliminé ne vote plus et ne reçoit plus de voix")
            words = f"{seat} vote blanc" if target is None else f"{seat} vote contre {target}"
            problem = self.hub.type_line(seat, words)
            return _reply(message, problem) if problem else {**_reply(message, None), "said": words}
        return _reply(message, "message inconnu : attendu une réponse ou un vote")

    def _screen_json(self, seat: str) -> dict[str, Any]:
        return {"type": "screen", "screen": screen_json(self.hub.screen(seat), self.hub.seats)}

    # -- the seat's WebSocket ---------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        seat = self._own_seat(request)
        token = request.cookies[COOKIE]
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=20.0, timeout=1.0, compress=False)
        await ws.prepare(request)
        phone = _Phone(ws, seat, token, request.transport)
        others = self._phones.setdefault(seat, [])
        others.append(phone)
        while len(others) > PHONES_PER_SEAT:
            oldest = others.pop(0)
            with contextlib.suppress(asyncio.TimeoutError):  # a phone that does not read is cut instead
                await asyncio.wait_for(
                    oldest.ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"trop de connexions"), SEND_S
                )
            oldest.drop() if not oldest.ws.closed else None
        self.hub.connect(seat, True)
        phone.wake.set()
        writer = asyncio.ensure_future(self._write(phone))
        try:
            await self._read(phone, request)
        finally:
            writer.cancel()
            self.dropped += phone.dropped
            if phone in others:
                others.remove(phone)
            if self.hub.seat_of(token) == seat:  # a freed seat's count was already reset by the hub
                self.hub.connect(seat, False)
        return ws

    async def _read(self, phone: _Phone, request: web.Request) -> None:
        async for msg in phone.ws:
            if self.hub.seat_of(phone.token) != phone.seat or phone.dropped:
                break
            if msg.type is not WSMsgType.TEXT:
                continue
            if not self._buckets.allow(f"seat:{phone.seat}"):
                now = time.monotonic()
                if now - phone.refused_at >= REFUSAL_S:  # told once a window, not once a message
                    phone.refused_at = now
                    phone.queue(_reply({}, STATUS_MESSAGES[429]))
                # read no faster than the rate: what it sends meanwhile waits in its own socket's buffers
                # (aiohttp stops reading a full one), not in this server's memory or time
                await asyncio.sleep(1 / self._buckets.rate.per_second)
                continue
            try:
                message = _loads(msg.data)
            except ValueError:
                message = None
            if isinstance(message, dict):
                phone.queue(self._act(phone.seat, message))
            else:
                phone.queue(_reply({}, "message incompris : attendu un objet JSON"))
            self.most_queued = max(self.most_queued, len(phone.replies))

    async def _write(self, phone: _Phone) -> None:
        """Sends a phone its replies and, whenever it changed, its seat's whole screen."""
        with contextlib.suppress(ConnectionError, RuntimeError, asyncio.CancelledError):
            while not phone.ws.closed:
                await phone.wake.wait()
                phone.wake.clear()
                if self.hub.seat_of(phone.token) != phone.seat:
                    await phone.ws.close(code=SEAT_FREED, message=b"place liberee")
                    return
                if phone.dropped:
                    return
                while phone.replies:
                    await self._send(phone, phone.replies.popleft())
                if phone.stale:
                    phone.stale = False
                    await self._send(phone, self._screen_json(phone.seat))

    async def _send(self, phone: _Phone, data: dict[str, Any]) -> None:
        """One message; a phone that has not taken it within SEND_S (its socket full) is dropped."""
        try:
            await asyncio.wait_for(phone.ws.send_str(_dumps(data)), SEND_S)
        except asyncio.TimeoutError:
            phone.drop()
            raise ConnectionError("phone not reading") from None

    def _changed(self, seats: frozenset[str]) -> None:
        """The hub's watcher (any thread): these seats' phones are sent their screens again."""
        loop = self._loop
        if loop is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody to tell
            loop.call_soon_threadsafe(self._mark, seats)

    def _mark(self, seats: frozenset[str]) -> None:
        for seat in seats:
            for phone in self._phones.get(seat, ()):
                phone.stale = True
                phone.wake.set()


def _quiet(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    log.debug("phones: %s", context.get("message"), exc_info=context.get("exception"))


async def _no_icon(request: web.Request) -> web.Response:
    return web.Response(status=204)  # the browsers ask for one; a refusal would be an error in their console


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers[name] = value


async def _json_object(request: web.Request) -> dict[str, Any]:
    if request.content_type != "application/json":
        raise _Refused(415)
    if request.headers.get("Content-Encoding", "identity").lower() != "identity":
        # the pages never compress what they send, and a deflate body aiohttp cannot inflate waits for its
        # end until the request's time is up: refused before a byte is read
        raise _Refused(415, "attendu : du JSON non compressé")
    try:
        with reading(request):
            data = await request.read()
    except web.RequestPayloadError:  # a body aiohttp could not read: cut, badly chunked, not the gzip it said
        raise _Refused(400, "corps de la requête illisible") from None
    try:
        body = _loads(data)
    except ValueError:
        raise _Refused(400, "JSON incompris") from None
    if not isinstance(body, dict):
        raise _Refused(400, "attendu : un objet JSON")
    return body


def _loads(data: str | bytes) -> object:
    """JSON from a phone; ValueError for anything else, even nested too deep for the parser."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("JSON trop imbriqué") from None


def _reply(message: dict[str, Any], problem: str | None) -> dict[str, Any]:
    reply: dict[str, Any] = {"type": "reply", "ok": problem is None}
    if isinstance(message.get("id"), int):
        reply["id"] = message["id"]  # the page's own number for the message it sent
    if problem is not None:
        reply["error"] = problem
    return reply


def _error(status: int, message: str) -> web.Response:
    return web.Response(status=status, body=error_body(message), content_type="application/json", charset="utf-8")


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


def _json(data: object, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=_dumps)


def _see(where: str) -> web.Response:
    return web.Response(status=303, headers={"Location": where})


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
