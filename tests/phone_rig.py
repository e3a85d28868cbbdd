"""A one-night game on scripted phones in its own process, to be killed with SIGKILL and resumed.

`python phone_rig.py play|resume JOURNAL`: the start-up's phones are a hub whose seats are scripted
threads touching the first choices offered (the same game whatever is killed and resumed); the table's
voice is a script of answers that skips what the journal shows was said. Used by tests/test_crash.py.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from crash_rig import vote_words

from narrator.app import startup
from narrator.app.family import resume
from narrator.app.onenight import OneNight
from narrator.app.phones import Seats
from narrator.app.startup import Io, Options, TableRequest
from narrator.phones.hub import Hub
from narrator.phones.screens import Form, Question
from narrator.script.onenight.script import load_shipped
from narrator.table.journal import read_journal
from narrator.table.onenight.progress import progress

PLAYERS = ["Ana", "Ben", "Chloé", "Dan"]
ROLES = ["doppelganger", "loup", "loup", "voyante", "voleur", "merdeux", "insomniaque"]
VOTES = {"Ana": "Ben", "Ben": "Chloé", "Chloé": "Ben", "Dan": "Ana"}
SEED = 5


def answers(journal: Path) -> list[str]:
    """What the table says, less what the journal shows it already said."""
    return vote_words(progress(read_journal(journal)[1]) if journal.exists() else None, VOTES)


def phones(hub: Hub) -> None:
    """Each seat's phone: the first choices offered, a little after the question shows."""

    def phone(seat: str) -> None:
        hub.claim(seat)  # the seat taken and its phone connected, as the server tells the hub
        hub.connect(seat, True)
        while True:
            screen = hub.screen(seat)
            question = screen.question
            if question is not None and not screen.answered:
                time.sleep(0.01)
                hub.answer(seat, screen.asked, first_choices(question))
            time.sleep(0.002)

    for seat in hub.seats:
        threading.Thread(target=phone, args=(seat,), daemon=True).start()


def first_choices(question: Question) -> object:
    """The first choices offered, a legal night whatever the deal: on the Doppelgänger's second step (a list
    ticked), nothing, which every copied card takes but the saoulon's; asked again, one middle card."""
    values = [c.value for c in question.choices]
    if question.form is Form.SOME:
        return values[-1:] if REFUSED in question.text else []
    return None if question.form is Form.TAP else values[:2] if question.form is Form.PAIR else values[0]


REFUSED = load_shipped("onuw").phones.copy_refused  # type: ignore[union-attr]


def with_phones(options: Options, players: list[str] | None = None, seats: Seats | None = None) -> Io:
    """The start-up's ear, speaker and phones' server, and the players' phones on it."""
    io = opened(options, players, seats)
    assert io.phones is not None
    phones(io.phones.hub)
    return io


opened = startup.open_io
startup.open_io = with_phones  # what `narrator resume` opens: the phones too

if __name__ == "__main__":
    mode, journal = sys.argv[1], Path(sys.argv[2])
    script = journal.with_suffix(f".{time.monotonic_ns()}.txt")
    script.write_text("\n".join(answers(journal)) + "\n", encoding="utf-8")
    options = Options(ear=f"script:{script}", no_wait=True, wav=str(journal.with_suffix(".wav")), phones=True)
    options.bind, options.port = "127.0.0.1", 0
    if mode == "play":
        asked = TableRequest(players=PLAYERS, roles=ROLES, seed=SEED, legend=False, minutes=2)
        sys.exit(OneNight().play("onuw", asked, options, str(journal)))
    sys.exit(resume(str(journal), options))
