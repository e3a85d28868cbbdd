"""Whole one-night games (000 and 001) on browser phones (Debian's chromium, headless), read as the table
sees them: during every call every page is dark, and the phones show the same words and the same kind of
list, in as many steps (Dumbledore's and the Doppelgänger's calls: two on every phone, the same two); the day is
light; at the end every page shows the winners and every card, the final one and who changed card."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from phones_browser import Browser, BrowserPhone, plain
from test_onenight_phones import ONUW, POUDLARD, chooser, day, game, narration

from narrator.app.family import resolve_record
from narrator.phones.screens import end_screen
from narrator.phones.server import PhoneServer


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with Browser() as browser:
        yield browser


@pytest.mark.parametrize("record", [ONUW, POUDLARD], ids=["onuw", "poudlard"])
def test_a_whole_one_night_game_looks_the_same_on_every_page_and_ends_with_every_card(
    browser: Browser, record: dict
) -> None:
    session, _, hub, _ = game(record, day(record))
    server = PhoneServer(hub)
    server.start()
    shown: dict[str, list[tuple[str, str, int, str, str, bool]]] = {seat: [] for seat in record["players"]}
    try:
        phones: dict[str, BrowserPhone] = {}
        for seat in record["players"]:
            phones[seat] = browser.phone(f"http://127.0.0.1:{server.port}/")
            phones[seat].join(seat)
        choose = chooser(record)
        ended: list[object] = []
        play = threading.Thread(target=lambda: ended.append(_run(session, record)), daemon=True)
        play.start()
        tried: dict[str, tuple[int, float]] = {}
        deadline = time.monotonic() + 150
        while play.is_alive() and time.monotonic() < deadline:
            for seat, phone in phones.items():  # one thread drives every page (Playwright's rule)
                screen = hub.screen(seat)
                if screen.question is None or screen.answered:
                    continue
                asked, at = tried.get(seat, (0, 0.0))
                if asked == screen.asked and time.monotonic() - at < 1:
                    continue
                tried[seat] = (screen.asked, time.monotonic())
                phone.wait_text("#question-text", screen.question.text)
                page = phone.page.evaluate(
                    """() => [document.body.className, document.getElementById('question-text').textContent,
                    document.querySelectorAll('#choices input').length,
                    document.querySelector('#choices input')?.type || 'none',
                    document.querySelector('[aria-labelledby=secrets-title]').outerHTML,
                    document.body.innerText.includes('Nouveau')]"""
                )
                shown[seat].append(tuple(page))
                phone.answer(choose(seat, screen.question))
            time.sleep(0.01)
        play.join(1)
        assert ended and not isinstance(ended[0], BaseException), ended
        ending = ended[0]
        # the end every phone shows is the session's own (narrator/table/onenight/session.py `_end`); without the
        # story: the answers ended at its offer (test_story.py: shown once asked for)
        assert hub.screen("Ana").end == end_screen(" ".join(ending.why), session.end_cards(ending))  # type: ignore[attr-defined]
        for phone in phones.values():
            phone.page.locator("#end:not([hidden])").wait_for()
        told = {seat: phone.page.locator("#end-story li").all_inner_texts() for seat, phone in phones.items()}
        said = {seat: phone.status() for seat, phone in phones.items()}
        ends = {seat: plain(phone.page.locator("#end").inner_text()) for seat, phone in phones.items()}
        rows = {
            seat: [" ".join(r.split()) for r in phone.page.locator("#end-card-rows tr").all_inner_texts()]
            for seat, phone in phones.items()
        }
        themes = {phone.page.evaluate("() => document.body.className") for phone in phones.values()}
        errors = [e for phone in phones.values() for e in phone.errors]
    finally:
        server.stop()
    steps = {len(s) for s in shown.values()}
    assert len(steps) == 1, {seat: len(s) for seat, s in shown.items()}  # as many steps on every page
    differ = []  # the steps whose words differ between pages
    for n in range(steps.pop()):
        at = {seat: s[n] for seat, s in shown.items()}
        assert {a[0] for a in at.values()} == {"night"}, at  # every page dark at every call
        if len({a[1] for a in at.values()}) > 1:
            differ.append({seat: a[1] for seat, a in at.items()})
        assert len({a[3] for a in at.values()}) == 1, at  # the same kind of list
        # what was learned: the same closed section on every page, nothing flagged new (try-pages 1)
        assert len({a[4] for a in at.values()}) == 1 and not any(a[5] for a in at.values()), at
    # the same words on every page at every step, the Doppelgänger's second one too: one neutral list on every
    # page, his included, whatever he copied (narrator/table/onenight/phones.py, `neutral_step`)
    assert differ == []
    assert themes == {"day"} and errors == []
    expected = resolve_record(record)
    final = expected["final"]
    assert len({*ends.values()}) == 1  # the same end on every page
    # no story asked for, none on any page; « La partie » says it is over
    assert all(t == [] for t in told.values()), told
    assert set(said.values()) == {"La partie est finie."}
    assert " ".join(ending.why) in next(iter(ends.values()))  # type: ignore[attr-defined]
    for seat in record["players"]:
        first, last = record["deal"][seat], final[seat].removeprefix("doppelganger:")  # his copy: his card
        last = "doppelganger" if final[seat] != last else last
        assert len(rows[seat]) == len(record["players"]) + 3  # then the middle's three cards
        row = next(r for r in rows[seat] if r.startswith(f"{seat} "))
        assert ("au début" in row) == (first != last), row  # who changed card, and only they


def _run(session, record: dict) -> object:
    try:
        return session.run(narration(record))
    except BaseException as exc:  # noqa: BLE001 (handed to the test's thread)
        return exc
