"""A whole Poudlard game played by five phones in a real browser (Debian's chromium, headless): each
player takes a seat on the pages, the night's choices are touched on them, the day is the scripted
voice; the game ends as `narrator resolve` of the record it writes."""

from __future__ import annotations

import threading
import time

from phones_browser import Browser
from test_onenight_phones import POUDLARD, chooser, day, game, narration, secrets_of

from narrator.app.family import resolve_record
from narrator.phones.server import PhoneServer


def test_a_whole_poudlard_game_on_browser_phones_ends_as_narrator_resolve_says(browser: Browser) -> None:
    session, _, hub, _ = game(POUDLARD, day(POUDLARD))
    server = PhoneServer(hub)
    server.start()
    try:
        phones = {}
        for seat in POUDLARD["players"]:
            phones[seat] = browser.phone(f"http://127.0.0.1:{server.port}/")
            phones[seat].join(seat)
        choose = chooser(POUDLARD)
        ended: list[object] = []
        play = threading.Thread(target=lambda: ended.append(_run(session)), daemon=True)
        play.start()
        tried: dict[str, tuple[int, float]] = {}
        deadline = time.monotonic() + 120
        while play.is_alive() and time.monotonic() < deadline:
            for seat, phone in phones.items():  # one thread drives every page (Playwright's rule)
                screen = hub.screen(seat)
                if screen.question is None or screen.answered:
                    continue
                asked, at = tried.get(seat, (0, 0.0))
                if asked == screen.asked and time.monotonic() - at < 1:
                    continue  # answered on the page a moment ago: its answer is on its way
                tried[seat] = (screen.asked, time.monotonic())
                phone.wait_text("#question-text", screen.question.text)
                phone.answer(choose(seat, screen.question))
            time.sleep(0.01)
        play.join(1)
        assert ended and not isinstance(ended[0], BaseException), ended
        secrets = {seat: phone.secrets() for seat, phone in phones.items()}
    finally:
        server.stop()
    expected = resolve_record(POUDLARD)
    ending = ended[0]
    assert set(ending.dead) == set(expected["dead"]) and set(ending.winners) == set(expected["winners"])  # type: ignore[attr-defined]
    assert resolve_record(session.record(ending))["final"] == expected["final"]  # type: ignore[arg-type]
    told = secrets_of(POUDLARD)
    for seat, shown in secrets.items():  # what each player learned, on his own page and no other
        assert sorted(shown) == sorted(told.get(seat, []))


def _run(session) -> object:
    try:
        return session.run(narration(POUDLARD))
    except BaseException as exc:  # noqa: BLE001 (handed to the test's thread)
        return exc
