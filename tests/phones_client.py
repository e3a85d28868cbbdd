"""A phone's requests without a browser: plain HTTP (every header under the test's control) and the
seat's WebSocket (aiohttp), for the server's and the security tests."""

from __future__ import annotations

import asyncio
import http.client
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp

from narrator.phones.server import COOKIE


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


class Phone:
    """One client of the server at 127.0.0.1:`port`, holding a seat's token once it has claimed one."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.token = token

    def call(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
        origin: bool = True,
        content_type: str = "application/json",
    ) -> Reply:
        sent = {"Host": f"127.0.0.1:{self.port}"}
        if origin:
            sent["Origin"] = self.origin
        if self.token is not None:
            sent["Cookie"] = f"{COOKIE}={self.token}"
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        if data is not None:
            sent["Content-Type"] = content_type
            sent["Content-Length"] = str(len(data))
        sent.update(headers or {})
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=60
        )  # a deadline for a hung server, generous for a loaded machine
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in sent.items():
                connection.putheader(name, value)
            connection.endheaders(data)
            response = connection.getresponse()
            return Reply(response.status, response.headers, response.read().decode("utf-8", "replace"))
        finally:
            connection.close()

    def claim(self, seat: str) -> Reply:
        reply = self.call("POST", "/api/claim", {"seat": seat})
        if reply.status == 200:
            cookie = reply.headers["Set-Cookie"]
            self.token = cookie.split(";")[0].split("=", 1)[1]
        return reply

    @asynccontextmanager
    async def socket(self) -> AsyncIterator[Socket]:
        headers = {"Origin": self.origin}
        if self.token is not None:
            headers["Cookie"] = f"{COOKIE}={self.token}"
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(f"{self.origin}/ws", headers=headers, autoping=True) as ws,
        ):
            yield Socket(ws)


class Socket:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    async def next(self, kind: str = "screen", timeout: float = 30.0) -> dict[str, Any]:
        """The next message of this kind (a screen's `screen`, or a whole reply)."""
        while True:
            message = await asyncio.wait_for(self.ws.receive_json(), timeout)
            if message["type"] == kind:
                return message["screen"] if kind == "screen" else message

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_json(message)
