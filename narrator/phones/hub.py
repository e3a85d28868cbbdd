"""The phones' side of the table: each seat's screen, its secret token, and the answers coming back.

The game (its own thread) puts questions and secrets on the seats' screens and waits for answers;
the web server (server.py, another thread) shows each phone its seat's screen and hands its
answers in. Everything goes through this one object under one lock, so what a phone is shown is
always one seat's whole screen: a seat's secrets are kept in its own `Screen` and nowhere else.

Nothing a phone is sent depends on another seat: each seat numbers its own questions (one counter for
all would jump on a phone when another seat got a question of its own, and tell it so).

Tokens: one unguessable token per seat (`secrets`), new for each game, handed to the first phone
that claims the seat and to no one else until the table frees that seat.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from narrator.phones.screens import Answer, Card, Question, Screen

Watcher = Callable[[frozenset[str]], None]  # told which seats' screens changed (from any thread)


def new_token() -> str:
    """A fresh secret token for a seat."""
    return secrets.token_urlsafe(24)


def new_tokens(seats: Sequence[str]) -> dict[str, str]:
    """A fresh secret token for each seat."""
    return {seat: new_token() for seat in seats}


class Hub:
    def __init__(
        self,
        seats: Sequence[str],
        tokens: Mapping[str, str] | None = None,
        claimed: Sequence[str] = (),
    ) -> None:
        self.seats = tuple(seats)
        self._tokens = dict(tokens) if tokens is not None else new_tokens(self.seats)
        self._claimed = set(claimed)
        self._claims: list[str] = []  # seats claimed since `claims` was last read (the game journals them)
        self._screens = {seat: Screen(seat) for seat in self.seats}
        self._connected: dict[str, int] = {}  # seat -> open connections
        self._arrivals: list[str] = []  # seats that connected since `arrivals` was last read
        self._answers: list[Answer] = []
        self._lines: list[tuple[str, str]] = []  # (seat, words) typed on a phone for the table's ear
        self._voting = False  # whether the table is collecting a vote: a phone's ballot is taken only then
        self._asked = dict.fromkeys(self.seats, 0)  # each seat's own question numbers
        self._news = 0  # how many times a phone arrived, a seat was claimed or freed, or a phone sent words
        self._news_seen = 0  # `_news` when `wait_for_arrival` last returned
        self._lock = threading.Condition()
        self._watchers: list[Watcher] = []

    # -- seats and tokens -------------------------------------------------------------------

    @property
    def tokens(self) -> dict[str, str]:
        """Each seat's token, for the journal's header (a resumed game gives the phones the same ones)."""
        with self._lock:
            return dict(self._tokens)

    def free_seats(self) -> list[str]:
        with self._lock:
            return [s for s in self.seats if s not in self._claimed]

    def claim(self, seat: str) -> str | None:
        """The seat's token for the phone that takes it; None if the seat is taken or unknown."""
        with self._lock:
            if seat not in self._tokens or seat in self._claimed:
                return None
            self._claimed.add(seat)
            self._claims.append(seat)
            self._news += 1
            self._lock.notify_all()
            return self._tokens[seat]

    def claims(self) -> list[str]:
        """The seats claimed since the last call (in order): the game's thread journals them."""
        with self._lock:
            claimed, self._claims = self._claims, []
            return claimed

    def claimed(self) -> list[str]:
        with self._lock:
            return [s for s in self.seats if s in self._claimed]

    def free(self, seat: str, token: str | None = None) -> str:
        """The table frees a seat: its old token stops working and the next phone may take it with the
        new one (`token`, journaled before it is given here; a fresh one by default), returned."""
        token = token or new_token()
        with self._lock:
            self._tokens[seat] = token
            self._claimed.discard(seat)
            self._claims = [s for s in self._claims if s != seat]
            self._connected.pop(seat, None)
            self._news += 1
            self._lock.notify_all()
        self._changed({seat})
        return token

    def seat_of(self, token: object) -> str | None:
        """The seat a token belongs to (compared in constant time), or None."""
        if not isinstance(token, str) or not token:
            return None
        with self._lock:
            found = None
            for seat, known in self._tokens.items():
                if secrets.compare_digest(known.encode(), token.encode()) and seat in self._claimed:
                    found = seat
            return found

    def connect(self, seat: str, on: bool) -> None:
        """The server says a seat's phone connected (or left)."""
        with self._lock:
            count = self._connected.get(seat, 0) + (1 if on else -1)
            if on and count == 1:
                self._arrivals.append(seat)
                self._news += 1
            if count > 0:
                self._connected[seat] = count
            else:
                self._connected.pop(seat, None)
            self._lock.notify_all()

    def connected(self) -> list[str]:
        with self._lock:
            return [s for s in self.seats if s in self._connected]

    def arrivals(self) -> list[str]:
        """The seats whose phone connected since the last call (in order)."""
        with self._lock:
            arrived, self._arrivals = self._arrivals, []
            return arrived

    def wait_for_arrival(self, timeout: float) -> bool:
        """Up to `timeout` seconds, until a phone arrives, a seat is claimed or freed, or a phone sends
        words since this last returned: news wakes it once, whether or not anyone read it meanwhile (a
        wait that returned while unread news stayed would return at once, again and again). Whether news
        came."""
        with self._lock:
            news = self._lock.wait_for(lambda: self._news != self._news_seen, timeout)
            self._news_seen = self._news
            return news

    # -- what the game puts on the screens --------------------------------------------------

    def deal(self, cards: Mapping[str, Card]) -> None:
        with self._lock:
            for seat, card in cards.items():
                self._screens[seat] = replace(self._screens[seat], card=card)
        self._changed(set(cards))

    def ask(self, questions: Mapping[str, Question]) -> dict[str, int]:
        """Show each of these seats its question (the others keep theirs); each seat's number of it, which
        its answer carries (each seat counts its own questions)."""
        asked: dict[str, int] = {}
        with self._lock:
            for seat, question in questions.items():
                self._asked[seat] += 1
                asked[seat] = self._asked[seat]
                self._screens[seat] = replace(self._screens[seat], question=question, asked=asked[seat], answered=False)
            self._answers = [a for a in self._answers if a.seat not in questions]
        self._changed(set(questions))
        return asked

    def rest(self, seats: Sequence[str] | None = None) -> None:
        """Take the questions off these seats' screens (every seat's by default)."""
        chosen = self.seats if seats is None else tuple(seats)
        with self._lock:
            for seat in chosen:
                self._screens[seat] = replace(self._screens[seat], question=None, answered=False)
        self._changed(set(chosen))

    def tell(self, seat: str, text: str) -> None:
        """A secret for this seat's phone alone."""
        with self._lock:
            screen = self._screens[seat]
            self._screens[seat] = replace(screen, secrets=(*screen.secrets, text))
        self._changed({seat})

    def status(self, text: str) -> None:
        """A public line on every phone (nothing secret: it is the same for everyone)."""
        with self._lock:
            for seat in self.seats:
                self._screens[seat] = replace(self._screens[seat], status=text)
        self._changed(set(self.seats))

    def public(self, **fields: object) -> None:
        """What every phone shares (`Screen.night`, `living`, `end`), set on every seat's screen at once."""
        with self._lock:
            for seat in self.seats:
                self._screens[seat] = replace(self._screens[seat], **fields)  # type: ignore[arg-type]
        self._changed(set(self.seats))

    def vibrate(self, on: bool) -> None:
        """Every phone buzzes at its next question, or none does (a buzz is heard: the same for all)."""
        with self._lock:
            for seat in self.seats:
                self._screens[seat] = replace(self._screens[seat], vibrate=on)
        self._changed(set(self.seats))

    def wait(self, timeout: float) -> list[Answer]:
        """The answers that came since the last call; waits up to `timeout` seconds for the first one."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not self._answers and (left := deadline - time.monotonic()) > 0:
                self._lock.wait(left)
            got, self._answers = self._answers, []
            return got

    # -- what the phones send ---------------------------------------------------------------

    def screen(self, seat: str) -> Screen:
        with self._lock:
            return self._screens[seat]

    def answer(self, seat: str, asked: object, value: object) -> str | None:
        """A phone's answer to the question it shows; why it is refused (French), or None."""
        with self._lock:
            screen = self._screens[seat]
            if screen.question is None or asked != screen.asked:
                return "cette question n'est plus posée"
            if screen.answered:
                return "vous avez déjà répondu"
            problem = screen.question.check(value)
            if problem:
                return problem
            self._screens[seat] = replace(screen, answered=True)
            self._answers.append(Answer(seat, screen.asked, value, screen.question.decoy))
            self._lock.notify_all()
        self._changed({seat})
        return None

    def ballots(self, open: bool) -> list[str]:
        """The table opens (or closes) the collection of a vote; ballots not yet heard when it closes are
        dropped (at night or at the hunter's question, a phone's ballot would give the phone away): the
        seats whose ballot was, in order. A vote opening clears what each phone said of the last one."""
        with self._lock:
            self._voting = open
            dropped = [] if open else list(dict.fromkeys(seat for seat, _ in self._lines))
            if not open:
                self._lines.clear()
            else:
                self._new_vote("")
        if open:
            self._changed(set(self.seats))
        return dropped

    def ballots_again(self, text: str) -> None:
        """The table asks every ballot again (« non » at the read-back): every phone's ballot form is empty
        again and says `text` (the ballots it showed sent or counted count no longer)."""
        with self._lock:
            self._lines.clear()  # a ballot sent before the question came again belongs to the old round
            self._new_vote(text)
        self._changed(set(self.seats))

    def _new_vote(self, text: str) -> None:
        """Every ballot form emptied; `text` said on the phones of those who vote (the dead do not)."""
        for seat in self.seats:
            screen = self._screens[seat]
            votes = screen.living is None or seat in screen.living
            said = text if votes else ""
            count = screen.ballot_said + 1 if said else screen.ballot_said
            self._screens[seat] = replace(screen, ballot=said, ballot_said=count, vote=screen.vote + 1)

    def ballot(self, seat: str, text: str) -> None:
        """What became of this seat's ballot (counted, refused and why, dropped), on its phone alone."""
        with self._lock:
            screen = self._screens[seat]
            self._screens[seat] = replace(screen, ballot=text, ballot_said=screen.ballot_said + 1)
        self._changed({seat})

    def voting(self) -> bool:
        with self._lock:
            return self._voting

    def type_line(self, seat: str, words: str) -> str | None:
        """Words a phone sends for the table's ear (a ballot cast on the phone), said as its seat's; why
        they are refused (French), or None."""
        with self._lock:
            if not self._voting:
                return "aucun vote n'est ouvert pour l'instant"
            self._lines.append((seat, words))
            self._screens[seat] = replace(self._screens[seat], ballot="")  # heard, then counted or refused
            self._news += 1
            self._lock.notify_all()
        return None

    def lines(self) -> list[tuple[str, str]]:
        with self._lock:
            got, self._lines = self._lines, []
            return got

    # -- who is told of changes -------------------------------------------------------------

    def watch(self, watcher: Watcher) -> None:
        self._watchers.append(watcher)

    def _changed(self, seats: set[str]) -> None:
        for watcher in self._watchers:
            watcher(frozenset(seats))
