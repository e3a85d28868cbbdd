"""The phones' server's connections before any page or API sees them: how many, how long, and the
French answer to a request aiohttp's own parser refuses.

A player at the table may open sockets and never send, or send a header a byte at a time: each
connection must have begun a request within HEADERS_S and is closed after KEEPALIVE_S idle, and a
client address (and the server in all) holds a bounded number of them. A table of 20 phones, each
browser opening up to six connections and a WebSocket, stays far under both caps.

A player with many addresses (IP aliases, IPv6) could fill the server's cap alone: a newcomer then takes
the place of a connection that is doing nothing (its request not yet sent whole, its body still coming,
or idle between two requests) held by the address that holds the most, if that is more than the
newcomer's address would. An honest phone, holding a few, always finds its way in; a connection being
served (a WebSocket, a request being answered) is never cut; the flooder only takes its own places.

aiohttp answers a request its parser cannot read (a bad method, a header too long, no Host) before
any middleware runs, with an English text/plain body that echoes the request's bytes. It has no
documented option for that answer (its server options are timeouts and sizes), but its
`RequestHandler.handle_error` builds it: the handler here is a subclass whose answer is a French JSON
error with the status and nothing of the request, made by a `Runner` whose server creates it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Iterator
from typing import Any, Protocol

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

PER_CLIENT = 24  # open connections from one address: a phone's browser opens up to six, and its socket
TOTAL = 256  # open connections in all: 20 phones with margin, far under Debian's 1,024 open files
HEADERS_S = 10.0  # a connection that has not sent a whole request's head by then is closed
KEEPALIVE_S = 15.0  # an idle connection between two requests is closed after this long
LINGER_S = 1.0  # how long the rest of a refused request's body is read before the connection closes

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cache-Control": "no-store",  # a seat's page must not outlive its holder on a shared phone
    "Server": "narrateur",
}
STATUS_MESSAGES = {
    400: "requête incomprise",
    401: "aucune place : prenez d'abord une place",
    403: "origine refusée",
    404: "page inconnue",
    405: "méthode non permise ici",
    408: "requête trop lente",
    413: "requête trop grande",
    415: "attendu : du JSON",
    429: "trop de requêtes : attendez un peu",
    431: "en-têtes trop grands",
    500: "erreur du narrateur : réessayez",
    503: "trop de connexions : réessayez dans un instant",
    504: "le narrateur a mis trop de temps : réessayez",
}

log = logging.getLogger(__name__)


def error_body(message: str) -> bytes:
    return json.dumps({"error": message}, ensure_ascii=False).encode()


class Held(Protocol):
    """A connection as the gate sees it."""

    @property
    def waiting(self) -> bool:
        """Doing nothing the server must finish: no whole request yet, a body still coming, or idle."""
        ...

    def evict(self) -> None:
        """Closed to make room for another client's connection."""
        ...


class Gate:
    """The open connections per client address, and in all (read and changed in the server's loop only)."""

    def __init__(self, per_client: int = PER_CLIENT, total: int = TOTAL) -> None:
        self.per_client = per_client
        self.total = total
        self.held: dict[str, list[Held]] = {}  # oldest first
        self.refused = 0  # connections closed at once for being over a cap (the tests read it)
        self.evicted = 0  # waiting connections closed to make room for another address's

    @property
    def open(self) -> dict[str, int]:
        return {client: len(held) for client, held in self.held.items()}

    def enter(self, client: str, connection: Held) -> bool:
        mine = len(self.held.get(client, ()))
        if mine >= self.per_client or (len(self) >= self.total and not self._make_room(mine + 1)):
            self.refused += 1
            return False
        self.held.setdefault(client, []).append(connection)
        return True

    def _make_room(self, newcomer: int) -> bool:
        """Evict the oldest waiting connection of the address holding the most, if it holds more than
        `newcomer` (what the newcomer's address would hold)."""
        for client in sorted(self.held, key=lambda c: len(self.held[c]), reverse=True):
            held = self.held[client]
            if len(held) <= newcomer:
                return False
            victim = next((c for c in held if c.waiting), None)
            if victim is not None:
                self.leave(client, victim)
                self.evicted += 1
                victim.evict()
                return True
        return False

    def leave(self, client: str, connection: Held) -> None:
        held = self.held.get(client, [])
        if connection in held:
            held.remove(connection)
        if not held:
            self.held.pop(client, None)

    def __len__(self) -> int:
        return sum(len(held) for held in self.held.values())


_FULL = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
    b"Connection: close\r\nContent-Length: %d\r\n\r\n%s"
)


class Handler(RequestHandler):
    """aiohttp's connection, counted at the gate, timed until its request begins, and refused in French."""

    def __init__(self, manager: Any, *, gate: Gate, **options: Any) -> None:
        super().__init__(manager, **options)
        self.gate = gate
        self.client: str | None = None  # counted at the gate under this address
        self.begun = False  # a whole request's head came
        self.serving = False  # a request (or a WebSocket) is being served
        self.reading = False  # its body is being read
        self.head_timer: asyncio.TimerHandle | None = None

    @property
    def waiting(self) -> bool:
        return not self.begun or not self.serving or self.reading

    def evict(self) -> None:
        self.client = None  # already out of the gate
        if self.transport is not None:
            self.transport.close()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        client = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self.gate.enter(client, self):
            assert isinstance(transport, asyncio.Transport)
            body = error_body(STATUS_MESSAGES[503])
            transport.write(_FULL % (len(body), body))
            transport.close()
            return
        self.client = client
        super().connection_made(transport)
        self.head_timer = asyncio.get_running_loop().call_later(HEADERS_S, self._head_late)

    def _head_late(self) -> None:
        if not self.begun and self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: BaseException | None) -> None:
        if self.head_timer is None:  # refused at the gate: aiohttp never knew of it
            return
        if self.client is not None:  # not evicted: still counted
            self.gate.leave(self.client, self)
            self.client = None
        self.head_timer.cancel()
        super().connection_lost(exc)

    def log_exception(self, *args: Any, **kw: Any) -> None:
        """aiohttp's own log of a connection's failure (a body it could not read while draining it, after
        the French answer): what a client sent, kept at debug level, never a traceback on the terminal."""
        log.debug(*args, **kw)

    def handle_error(
        self, request: Any, status: int = 500, exc: BaseException | None = None, message: str | None = None
    ) -> web.StreamResponse:
        """What aiohttp answers a request it could not read or serve: French, JSON, nothing echoed."""
        self.begun = True
        log.debug("phones: request refused by aiohttp (%s)", status, exc_info=exc)
        if request.writer.output_size > 0:  # as aiohttp's own: an answer already begun cannot change
            raise ConnectionError("response already begun")
        response = web.Response(
            status=status,
            body=error_body(STATUS_MESSAGES.get(status, "requête refusée")),
            content_type="application/json",
            charset="utf-8",
            headers=SECURITY_HEADERS,
        )
        response.force_close()
        return response


def begun(request: web.Request) -> None:
    """A request's head came whole: its connection is no longer timed for it."""
    if isinstance(request.protocol, Handler):
        request.protocol.begun = True


@contextlib.contextmanager
def serving(request: web.Request) -> Iterator[None]:
    """While a request is served its connection is not evicted (its body's reading aside: `reading`)."""
    handler = request.protocol if isinstance(request.protocol, Handler) else None
    if handler is not None:
        handler.serving = True
    try:
        yield
    finally:
        if handler is not None:
            handler.serving = False


@contextlib.contextmanager
def reading(request: web.Request) -> Iterator[None]:
    """While a request's body comes its connection may be evicted: a body a byte at a time holds nothing."""
    handler = request.protocol if isinstance(request.protocol, Handler) else None
    if handler is not None:
        handler.reading = True
    try:
        yield
    finally:
        if handler is not None:
            handler.reading = False


class _Server(web.Server):
    def __init__(self, handler: Any, *, gate: Gate, options: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(handler, **kwargs, **options)
        self.gate = gate
        self.options = options

    def __call__(self) -> RequestHandler:
        return Handler(self, loop=asyncio.get_running_loop(), gate=self.gate, **self.options)


class Runner(web.AppRunner):
    """aiohttp's runner of an application, whose connections are `Handler`s counted at `gate`."""

    def __init__(self, app: web.Application, gate: Gate, **kwargs: Any) -> None:
        self.options: dict[str, Any] = {
            "keepalive_timeout": KEEPALIVE_S,
            "lingering_time": LINGER_S,
            "access_log": kwargs.pop("access_log", None),
        }
        super().__init__(app, **kwargs, **self.options)
        self.gate = gate

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()  # the application started, its handler and request factory
        return _Server(
            server.request_handler,
            request_factory=server.request_factory,
            handler_cancellation=server.handler_cancellation,
            gate=self.gate,
            options=self.options,
        )
