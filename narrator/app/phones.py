"""The players' phones at a table: the server opened on the table's network, its address said aloud and
shown with a QR code, and every seat's phone waited for before the deal.

A game with the phones keeps in its journal's header the server's port, the seats' tokens and where
it listens (`phones`), and journals each seat a phone takes (`seat_taken`) or the table frees
(`seat_freed`): a resumed game serves the same address with the same tokens, and every phone
comes back by itself.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from narrator.phones.address import (
    HOST_NAME,
    LAN,
    AddressError,
    Advert,
    advertise,
    bind_address,
    qr_code,
    spoken_address,
    url,
)
from narrator.phones.hub import Hub
from narrator.script.prompts import load_phone_prompts
from narrator.table import events as ev
from narrator.table.host import Host
from narrator.table.phone_ear import waits
from narrator.table.setup import SetupError

DEFAULT_PORT = 8080
REMIND_S = 45.0  # while phones are missing, the address is said again after this long without news
SLICE_S = 2.0  # the joining listens to the table in turns this long, and looks at the phones between them
END_KEPT_S = 600.0  # at the end, a terminal attached: the phones are served the end this long (Ctrl+C: sooner)


@dataclass
class Seats:
    """Each seat's token, and the seats a phone holds: the header's, then what the journal's events changed."""

    tokens: dict[str, str]
    taken: list[str] = field(default_factory=list)


def seats_in(phones: Mapping[str, object], events: Sequence[ev.Event]) -> Seats:
    """The seats as the journal leaves them: `phones` is the header's, `events` the game's."""
    tokens = dict(phones["tokens"])  # type: ignore[call-overload]
    taken: list[str] = []
    for event in events:
        if isinstance(event, ev.SeatTaken) and event.seat not in taken:
            taken.append(event.seat)
        elif isinstance(event, ev.SeatFreed):
            tokens[event.seat] = event.token
            taken = [s for s in taken if s != event.seat]
    return Seats(tokens, taken)


@dataclass
class TablePhones:
    """The seats' screens (the hub), the web server showing them, and where the phones find it."""

    hub: Hub
    server: object  # narrator/phones/server.py's PhoneServer
    address: str  # the IPv4 address the server listens on
    bind: str  # as asked: lan, or an address
    advert: Advert | None = None
    held: tuple[str, ...] = ()  # the seats a phone held when the server started (a resumed game)

    @property
    def port(self) -> int:
        return int(self.server.port)  # type: ignore[attr-defined]

    @property
    def url(self) -> str:
        return url(self.address, self.port)

    def header(self) -> dict[str, object]:
        """The journal header's `phones`: what a resumed game serves again."""
        return {"port": self.port, "tokens": self.hub.tokens, "bind": self.bind}

    def show(self) -> None:
        """The address and its QR code on the terminal (nothing secret: the page asks for a seat)."""
        print(f"\nTéléphones : ouvrez {self.url}", file=sys.stderr)
        if self.advert is not None:
            print(f"  (ou http://narrateur.local:{self.port} si votre réseau le permet)", file=sys.stderr)
        print(qr_code(self.url), file=sys.stderr, flush=True)

    def close(self, over: bool = False, kept_s: float | None = None) -> None:
        """`over`: the game is over, the phones are told so (else they wait for the game to be resumed). At
        the end, with a terminal attached (someone is there to end it sooner), the server keeps serving
        the end up to `kept_s` seconds (END_KEPT_S by default): a page that comes back (a phone woken, a
        page reloaded) shows the winners and the cards, not a dead address."""
        if kept_s is None:
            kept_s = END_KEPT_S if sys.stdin.isatty() and sys.stderr.isatty() else 0.0
        try:
            if over and kept_s > 0:
                self.keep_end(kept_s)
        except KeyboardInterrupt:
            pass  # Ctrl+C: the end is closed now, as asked
        try:
            if self.advert is not None:
                self.advert.close()
        finally:
            self.server.stop(over)  # type: ignore[attr-defined]

    def keep_end(self, seconds: float) -> None:
        """The end kept served `seconds` (the game is over: nothing more is asked of anyone)."""
        minutes = max(1, round(seconds / 60))
        print(
            f"\nLa partie est finie. Les téléphones montrent la fin encore {minutes} minute"
            f"{'s' if minutes > 1 else ''} ({self.url}) ; Ctrl+C pour fermer maintenant.",
            file=sys.stderr,
            flush=True,
        )
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            time.sleep(min(1.0, left))


def check_port(port: int) -> None:
    """`SetupError` for a port the server cannot take: below 1024 only the administrator may listen."""
    if port != 0 and not 1024 <= port <= 65535:
        raise SetupError(
            f"--port : attendu : un port de 1024 à 65535 (0 : n'importe quel port libre) ; trouvé : {port}"
        )


def open_phones(players: Sequence[str], bind: str, port: int, seats: Seats | None = None) -> TablePhones:
    """The server started on the table's network (or the address given) with the seats' screens;
    `seats`: a resumed game's tokens and taken seats. `SetupError` (one French sentence) when it cannot."""
    from narrator.phones.server import PhoneError, PhoneServer

    check_port(port)
    try:
        address = bind_address(bind)
    except AddressError as exc:
        raise SetupError(str(exc)) from None
    hub = Hub(players, seats.tokens if seats else None, seats.taken if seats else ())
    server = PhoneServer(hub, host=address, port=port, names=[f"{HOST_NAME}.local"])
    try:
        server.start()
    except PhoneError as exc:
        raise SetupError(str(exc)) from None
    # the name is advertised on the table's network only: an address given (tests: loopback) is not
    advert = advertise([address], server.port) if bind == LAN else None
    return TablePhones(hub, server, address, bind, advert, tuple(seats.taken) if seats else ())


def join(host: Host, phones: TablePhones, remind_s: float = REMIND_S) -> None:
    """Before the deal: the address said aloud and shown with its QR code, then every seat's phone waited
    for, the table told who has joined and who is still missing (a resumed game: whose phone is back).
    The table may speak meanwhile (« répète », « stop », « libère la place de Ana »)."""
    hub, prompts, voice, names = phones.hub, load_phone_prompts(), host.voice, host.prompts.join
    spoken = spoken_address(phones.address, phones.port)
    phones.show()
    host.note_seats()
    announced: set[str] = set()
    begun = len(host.events)
    question = voice.last  # the game's own « répète » is given back once every phone is here
    # asked, not told: « répète » says the address again
    voice.ask(prompts.line("phones_resumed" if phones.held else "phones_address", address=spoken))
    news = time.monotonic()
    live = waits(host.ear)  # a script answers at once: only the phones are waited for
    while True:
        # the hub is read before the claims are journaled: a seat counted here has its claim journaled,
        # even when its phone takes it between the two (else the last seat's claim is said later, as
        # a seat taken again)
        claimed, connected = set(hub.claimed()), set(hub.connected())
        host.note_seats()  # the joining says itself who came (not `joined` yet)
        # a seat is there once taken (its token given: its card can be read), said aloud even if no page
        # connects; a seat a phone held before a resume, once that phone is back. A seat freed meanwhile
        # comes with a new phone: it joins, it is not back
        freed = {e.seat for e in host.events[begun:] if isinstance(e, ev.SeatFreed)}
        held = set(phones.held) - freed
        here = claimed - (held - connected)
        announced &= here  # a seat freed meanwhile is announced again when a phone takes it
        arrived = [s for s in hub.seats if s in here and s not in announced]
        announced |= set(arrived)
        missing = [s for s in hub.seats if s not in here]
        if arrived or not missing:
            lines = []
            if arrived:
                back = [s for s in arrived if s in phones.held and s not in freed]
                new = [s for s in arrived if s not in back]
                if back:
                    lines.append(prompts.line("phones_back", names=names(back), count=len(back)))
                if new:
                    lines.append(prompts.line("phones_joined", names=names(new), count=len(new)))
            lines.append(
                prompts.line("phones_missing", names=names(missing)) if missing else prompts.line("phones_all")
            )
            voice.tell(*lines)
            news = time.monotonic()
        if not missing:
            voice.last = question
            host.joined = True  # from now on a seat taken (after « libère la place de … ») is told by the game
            return
        if time.monotonic() - news >= remind_s:
            voice.ask(
                prompts.line("phones_address_again", address=spoken),
                prompts.line("phones_missing", names=names(missing)),
            )
            news = time.monotonic()
        if live:
            host.hear_controls(SLICE_S)
        else:
            hub.wait_for_arrival(SLICE_S)
