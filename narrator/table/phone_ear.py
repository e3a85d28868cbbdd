"""The table's ear with the phones beside it: words a phone sends (a ballot cast on the screen) are heard
as if their seat had said them, so that they are read back aloud and confirmed like spoken ones.

A phone's words never wait for a turn to end: the microphone gives its turn up as soon as they come
while nobody is speaking (cutting no one), a keyboard is read in short turns with the phones looked
at between them. A script of answers is not listened to in time (it answers at once): a phone's
words already there are taken first, without using up a line of the script.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence

from narrator.listen.commands import Command
from narrator.listen.ear import Ear, EndsOnCommand, GivesUp, Heard
from narrator.listen.simple_ears import ScriptedEar
from narrator.phones.hub import Hub

SLICE_S = 1.0  # a keyboard's turn is cut in turns this long; the phones are looked at between them


def waits(ear: Ear) -> bool:
    """Whether listening takes the table's time (a microphone, a keyboard); a script answers at once."""
    inner = ear.ear if isinstance(ear, PhoneEar) else ear
    return not isinstance(inner, ScriptedEar)


class PhoneEar:
    """`ear`, and the lines the phones send through `hub`. `noticed` is called at every turn, from the
    game's thread: the table journals there the seats the phones took meanwhile."""

    def __init__(self, ear: Ear, hub: Hub, noticed: Callable[[], None] = lambda: None) -> None:
        self.ear = ear
        self.hub = hub
        self.noticed = noticed
        self._typed: deque[tuple[str, str]] = deque()  # (seat, line) from the phones not yet heard, oldest first
        self.seat: str | None = None  # the seat whose phone sent what was heard last; None: the table spoke

    def expect(self, hint: str) -> None:
        """What to type now, for a keyboard within (narrator/table/conversation.py's `ShowsWhatToType`)."""
        expect = getattr(self.ear, "expect", None)
        if expect is not None:
            expect(hint)

    def listen(self, phrases: Sequence[str], timeout_s: float) -> Heard | None:
        return self.listen_for(phrases, timeout_s, None)

    def listen_for(
        self, phrases: Sequence[str], timeout_s: float, complete: Callable[[str], bool] | None
    ) -> Heard | None:
        """A phone's line if one came, else what the ear hears; a phone's line coming meanwhile ends the
        turn as soon as nobody is speaking (the microphone), or at the end of a short turn (a keyboard)."""
        self.noticed()
        self.seat = None
        typed = self._phone_line()
        if typed is not None:
            return typed
        if isinstance(self.ear, GivesUp):  # the microphone: one turn, given up between utterances
            heard = self.ear.listen_until(phrases, timeout_s, complete, self._lines_came)
            self.noticed()
            return heard or self._phone_line()
        if not waits(self.ear):  # a script answers at once
            return self._hear(phrases, timeout_s, complete)
        deadline = time.monotonic() + timeout_s
        while True:  # a keyboard: short turns, the typed lines wait in its queue meanwhile
            heard = self._hear(phrases, min(SLICE_S, max(0.0, deadline - time.monotonic())), complete)
            self.noticed()
            if heard is not None:
                return heard
            typed = self._phone_line()
            if typed is not None or time.monotonic() >= deadline:
                return typed

    def _hear(self, phrases: Sequence[str], timeout_s: float, complete: Callable[[str], bool] | None) -> Heard | None:
        if isinstance(self.ear, EndsOnCommand) and complete is not None:
            return self.ear.listen_for(phrases, timeout_s, complete)
        return self.ear.listen(phrases, timeout_s)

    def _lines_came(self) -> bool:
        """Whether a phone's words wait (taken from the hub into this ear's own queue)."""
        self._take_lines()
        return bool(self._typed)

    def _phone_line(self) -> Heard | None:
        self._take_lines()
        if not self._typed:
            return None
        self.seat, line = self._typed.popleft()
        return Heard(line)

    def drop(self) -> list[str]:
        """The phones' lines taken but not heard when the vote closes: dropped; the seats that sent them."""
        seats = list(dict.fromkeys(seat for seat, _ in self._typed))
        self._typed.clear()
        return seats

    def _take_lines(self) -> None:
        if not self.hub.voting():
            self._typed.clear()  # taken while the vote was open, not heard before it closed: dropped
        for seat, words in self.hub.lines():
            said = words.split()
            own = seat.split()
            if [w.casefold() for w in said[: len(own)]] == [w.casefold() for w in own]:
                said = said[len(own) :]
            # always said as its seat's: « vote contre Ben » from Ana's phone is « Ana vote contre Ben »,
            # and no phone speaks for another seat
            self._typed.append((seat, " ".join([seat, *said])))

    def close(self) -> None:
        self.ear.close()


def own_commands(seat: str, commands: list[Command]) -> list[Command]:
    """What a seat's phone may say: its own ballot and its own card, nothing for another seat, and none of
    the table's controls (« annule », « stop », « oui » are the table's, aloud)."""
    mine = [
        c for c in commands if (c.command == "vote" and c.voter == seat) or (c.command == "reveal" and c.player == seat)
    ]
    return mine if len(mine) == len(commands) else []
