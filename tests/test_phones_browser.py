"""The phones' pages in a real browser (Debian's chromium, headless): several contexts as several
phones, each taking a seat, seeing its card only when asked, answering each form of question;
axe-core finds nothing to fix on the pages."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from phones_browser import Browser, BrowserPhone

from narrator.phones.hub import Hub
from narrator.phones.screens import Card, Choice, Form, Question
from narrator.phones.server import PhoneServer

PLAYERS = ("Ana", "Ben", "Cleo", "Dan")
NAMES = tuple(Choice(p, p) for p in PLAYERS)
SEER = Card("hermione", "Hermione Granger", "La nuit, elle regarde la carte d'un joueur.", "Rond", "Équipe de Poudlard")
WOLF = Card("loup", "Loup-Garou", "Chaque nuit, les loups dévorent un villageois.", "une griffe")


@pytest.fixture
def table() -> Iterator[tuple[Hub, str, PhoneServer]]:
    hub = Hub(PLAYERS)
    server = PhoneServer(hub)
    server.start()
    yield hub, f"http://127.0.0.1:{server.port}/", server
    server.stop()


def _clean(phone: BrowserPhone) -> None:
    assert phone.axe() == []
    assert phone.errors == []  # no script error, nothing refused by the page's CSP


def test_two_phones_cannot_take_one_seat_and_the_card_shows_only_when_asked(browser: Browser, table) -> None:
    hub, url, _ = table
    hub.deal({"Ana": SEER, "Ben": WOLF})
    ana, thief = browser.phone(url, clock=True), browser.phone(url)
    assert ana.seats() == list(PLAYERS) and thief.seats() == list(PLAYERS)
    _clean(ana)
    ana.join("Ana")
    thief.page.get_by_role("button", name="Ana", exact=True).click()
    thief.page.locator("#message:not(:empty)").wait_for()
    assert thief.message() == "Refusé : cette place est déjà prise : Ana."
    assert thief.seats() == ["Ben", "Cleo", "Dan"]  # the list follows

    assert "Hermione" not in ana.page.content() and ana.card_in_page() == ""  # not even hidden in the page
    _clean(ana)
    shown = ana.show_card()
    assert "Hermione Granger" in shown and SEER.text in shown and "Équipe de Poudlard" in shown
    assert ana.page.get_by_role("img", name="Symbole : Rond").count() == 1  # 001's symbol, drawn
    assert ana.card_button().count() == 0 and ana.page.locator("#card-button").get_attribute("aria-expanded") == "true"
    ana.hide_card()
    assert ana.card_in_page() == ""
    ana.show_card()
    ana.page.clock.fast_forward(60_000)
    hub.status("Nuit 1")  # a new screen keeps the card up to date; no timer hides it while it is read
    ana.wait_text("#status", "Nuit 1")
    assert "Hermione" in ana.card_in_page()
    ana.hide_card()  # hidden by the player
    assert ana.card_in_page() == "" and "Hermione" not in ana.page.content()

    hub.ask({"Ana": Question(Form.TAP, "Touchez l'écran.")})  # her call: a secret comes with a question
    ana.wait_question("Touchez l'écran.")
    hub.tell("Ana", "Ben est Loup-Garou.")  # what was learned hides itself as the card does
    ana.wait_secrets(1)
    assert ana.secrets() == ["Ben est Loup-Garou."]
    ana.page.clock.fast_forward(60_000)
    assert "Loup-Garou" in ana.secrets_in_page()
    ana.page.get_by_role("button", name="Cacher ce que j'ai appris").click()
    assert ana.secrets_in_page() == "" and "Loup-Garou" not in ana.page.content()
    ana.secrets()
    ana.show_card()
    ana.page.evaluate(  # the phone is put away: the page is hidden, and so is every secret at once
        "Object.defineProperty(document, 'visibilityState', {value: 'hidden'});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    assert ana.secrets_in_page() == "" and ana.card_in_page() == ""


def test_at_every_moment_every_phone_looks_the_same_whatever_it_learned(browser: Browser, table) -> None:
    # issue 23, 1 and try-pages 1-2: « Nouveau : touchez pour voir » showed, during a call, on the acting phone
    # only, and in the day on the phones that learned something. Now nothing says a secret is new: the page
    # reads the same on both phones (their names put aside) during the call, after it, and in the day
    hub, url, _ = table
    ana, ben = browser.phone(url), browser.phone(url)
    ana.join("Ana")
    ben.join("Ben")

    def alike() -> None:
        read = [re.sub(r"\b(Ana|Ben)\b", "X", p.page.locator("body").aria_snapshot()) for p in (ana, ben)]
        assert read[0] == read[1], read
        assert "Nouveau" not in read[0]

    hub.status("Nuit 1")
    hub.ask({"Ana": Question(Form.TAP, "Touchez l'écran."), "Ben": Question(Form.TAP, "Touchez l'écran.")})
    ana.wait_question("Touchez l'écran.")
    ben.wait_question("Touchez l'écran.")
    hub.tell("Ana", "Ben est Loup-Garou.")  # in her call, on her phone alone
    ana.wait_secrets(1)
    alike()
    assert ana.live_spots("#secrets-button") == 0  # nothing about the secrets is said by itself
    hub.rest()
    hub.status("Jour 1 : le débat")
    for phone in (ana, ben):
        phone.wait_text("#status", "Jour 1")
    alike()
    hub.tell("Ben", "Vous devenez loup-garou.")  # learned in the day (the enfant sauvage)
    ben.wait_secrets(1)
    alike()
    assert ana.secrets() == ["Ben est Loup-Garou."] and ben.secrets() == ["Vous devenez loup-garou."]  # still there


def test_each_form_of_question_is_answered_and_a_refusal_is_said(browser: Browser, table) -> None:
    hub, url, _ = table
    ben = browser.phone(url)
    ben.join("Ben")
    _clean(ben)

    asked = hub.ask({"Ben": Question(Form.ONE, "Qui regardez-vous ?", NAMES)})["Ben"]
    ben.wait_question("Qui regardez-vous ?")
    _clean(ben)
    ben.press("Valider")  # nothing chosen: the page says so and sends nothing
    assert ben.refusal() == "Rien n'est coché : cochez votre choix, puis touchez « Valider »."
    ben.choose("Cleo")
    ben.wait_answered()
    assert ben.page.evaluate("document.activeElement.id") == "answered"  # focus not lost with the form
    assert [(a.asked, a.value) for a in hub.wait(5)] == [(asked, "Cleo")]

    hub.ask({"Ben": Question(Form.PAIR, "Les deux amoureux ?", NAMES)})
    ben.wait_question("Les deux amoureux ?")
    ben.choose("Dan")  # one of two: said before anything is sent, in words
    assert ben.refusal() == "Cochez deux choix, puis touchez « Valider »."
    assert hub.wait(0.3) == []
    ben.choose("Dan", "Ana")  # in the order ticked
    ben.wait_answered()
    assert [a.value for a in hub.wait(5)] == [["Dan", "Ana"]]

    middle = tuple(Choice(v, f"la carte {w}") for v, w in (("A", "de gauche"), ("B", "du milieu"), ("C", "de droite")))
    hub.ask({"Ben": Question(Form.SOME, "Quelles cartes du milieu regardez-vous ?", middle, count=2)})
    ben.wait_question("cartes du milieu")
    ben.answer(["C", "A"])  # the harness answers by the values the hub receives
    ben.wait_answered()
    assert [a.value for a in hub.wait(5)] == [["C", "A"]]

    hub.ask({"Ben": Question(Form.SOME, "Qui protégez-vous ?", NAMES, optional=True)})
    ben.wait_question("Qui protégez-vous ?")
    ben.press("Je passe")
    ben.wait_answered()
    assert [a.value for a in hub.wait(5)] == [None]

    for said, value in (("Oui", True), ("Non", False)):
        hub.ask({"Ben": Question(Form.YES_NO, "Utilisez-vous la potion de vie ?")})
        ben.wait_question("potion de vie")
        ben.press(said)
        ben.wait_answered()
        assert [a.value for a in hub.wait(5)] == [value]

    hub.ask({"Ben": Question(Form.TAP, "Touchez l'écran.")})
    ben.wait_question("Touchez l'écran.")
    ben.press("C'est fait")
    ben.wait_answered()
    assert [a.value for a in hub.wait(5)] == [None]

    hub.tell("Ben", "Ana est Voyante.")
    ben.wait_secrets(1)  # nothing says it is new: the player looks when the call is over
    assert "Voyante" not in ben.page.content() and ben.secrets_in_page() == ""
    assert ben.secrets() == ["Ana est Voyante."]
    assert ben.page.locator("#secrets-button").get_attribute("aria-expanded") == "true"
    hub.tell("Ben", "Cleo est Loup-Garou.")  # shown while the list is open
    ben.page.locator("#secrets li:nth-child(2)").wait_for()
    assert ben.secrets() == ["Cleo est Loup-Garou.", "Ana est Voyante."]
    _clean(ben)
    ben.page.get_by_role("button", name="Cacher ce que j'ai appris").click()
    assert ben.secrets_in_page() == "" and "Voyante" not in ben.page.content()
    _clean(ben)
    hub.ballots(True)
    assert ben.vote("Cleo").startswith("Vote transmis : « Ben vote contre Cleo ».")
    assert hub.lines() == [("Ben", "Ben vote contre Cleo")]
    ben.page.evaluate("document.querySelector('main').append(document.createElement('input'))")
    assert [v["id"] for v in ben.axe()] == ["label"]  # axe does look: an unlabelled field is found


def test_a_decoy_looks_exactly_like_the_real_question(browser: Browser, table) -> None:
    hub, url, _ = table
    cleo, dan = browser.phone(url), browser.phone(url)
    cleo.join("Cleo")
    dan.join("Dan")
    others = tuple(Choice(f"x{n}", f"Joueur {n}") for n in range(4))
    hub.ask(
        {
            "Cleo": Question(Form.ONE, "Qui dévorez-vous ?", NAMES),
            "Dan": Question(Form.ONE, "Touchez un nom, au hasard.", others, decoy=True),
        }
    )
    cleo.wait_question("Qui dévorez-vous ?")
    dan.wait_question("au hasard")
    assert cleo.shape("main") == dan.shape("main")
    dan.choose("Joueur 2")
    dan.wait_answered()
    assert [(a.seat, a.decoy) for a in hub.wait(5)] == [("Dan", True)]


def test_a_phone_stays_awake_and_buzzes_at_a_new_question_only_when_the_table_asks_for_it(
    browser: Browser, table
) -> None:
    hub, url, _ = table
    dan = browser.phone(url)
    dan.page.add_init_script(
        """navigator.vibrate = (ms) => { (window.buzzes ||= []).push(ms); return true; };
        Object.defineProperty(navigator, "wakeLock", { value: { request: async (kind) => {
            (window.locks ||= []).push(kind);
            return { addEventListener() {} };
        } } });"""
    )
    dan.join("Dan")
    assert dan.page.evaluate("window.locks") == ["screen"]  # the seat's page keeps the screen awake
    for on, text in ((False, "Première question ?"), (True, "Deuxième question ?")):
        hub.vibrate(on)
        hub.ask({"Dan": Question(Form.TAP, text)})
        dan.wait_question(text)
        dan.answer(None)
        dan.wait_answered()
        hub.wait(5)
    assert dan.page.evaluate("window.buzzes || []") == [200]  # off by default; once asked, once a question


def test_a_phone_reconnects_by_itself_when_the_server_comes_back(browser: Browser, table) -> None:
    hub, url, server = table
    ana = browser.phone(url)
    ana.join("Ana")
    server.stop()
    ana.wait_text("#connection", "Connexion perdue")
    server.start()
    ana.wait_text("#connection", "Connecté au narrateur.")
    hub.status("Nuit 2 : la voyante se réveille.")
    ana.wait_text("#status", "Nuit 2")
    assert hub.connected() == ["Ana"]


def test_at_the_games_end_the_page_says_so_and_stops_reconnecting(browser: Browser, table) -> None:
    hub, url, server = table
    ana = browser.phone(url, clock=True)
    ana.page.add_init_script(COUNT_ATTEMPTS)
    ana.join("Ana")
    ana.wait_text("#connection", "Connecté au narrateur.")
    server.stop(over=True)
    ana.wait_text("#connection", "La partie est finie.")
    server.start()  # a server on the same port again: the page, its game over, does not come back
    ana.page.clock.run_for(60_000)  # the page's minute, every wait before a reconnection included
    assert ana.page.evaluate("window.attempts") == {"sockets": 1, "asked": 0}  # the first connection only
    assert hub.connected() == [] and ana.page.locator("#connection").inner_text() == "La partie est finie."


# Counts the page's attempts to reach the narrator (a reconnection asks /api/screen, then opens a socket)
# as they are made: the page's own timers run on its fake clock, so nothing has to be waited for.
COUNT_ATTEMPTS = """
window.attempts = { sockets: 0, asked: 0 };
const PageSocket = window.WebSocket;
window.WebSocket = class extends PageSocket {
    constructor(...args) { super(...args); window.attempts.sockets += 1; }
};
const pageFetch = window.fetch;
window.fetch = (...args) => { window.attempts.asked += 1; return pageFetch(...args); };
"""


def test_valider_with_nothing_ticked_sends_nothing_and_says_why(browser, table) -> None:
    """« rien » is said by its own button only: a screen reader user who reaches « Valider » first must not
    skip their power by mistake."""
    hub, url, _ = table
    phone = browser.phone(url)
    phone.join("Ana")
    asked = hub.ask({"Ana": Question(Form.ONE, "Qui regardez-vous ?", (Choice("Ben", "Ben"),), optional=True)})["Ana"]
    phone.question()
    phone.press("Valider")
    assert "Rien n'est coché" in phone.refusal()
    assert hub.wait(0.3) == [] and not hub.screen("Ana").answered
    phone.answer(None)  # « Je passe », said on purpose
    [got] = hub.wait(5)
    assert (got.asked, got.value) == (asked, None)


def test_the_join_page_says_so_when_every_seat_is_taken(browser, table) -> None:
    hub, url, _ = table
    for seat in hub.seats:
        hub.claim(seat)
    phone = browser.phone(url)
    phone.page.locator("#no-seat:not([hidden])").wait_for()
