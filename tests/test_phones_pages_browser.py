"""The seat's page as a table plays it, in a real browser (Debian's chromium, headless): the card large,
with its camp and its symbol drawn, read aloud when shown and hidden only by the player; the night's
dark look and the day's, the same on every phone; a refusal said next to its question; a day ballot
with nothing chosen beforehand, for the living only; the end with the winners, the cards and the story,
shown to a page that comes back after it too; axe-core finds nothing on any screen, night or day; what
a screen reader reads through a night is the same on every phone but for what only one player learns.

Each screen kind is saved at a phone's size (390 × 844) in docs/screens/ (PNG), night and day.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from phones_browser import Browser, BrowserPhone, plain

from narrator.phones.hub import Hub
from narrator.phones.screens import Card, Choice, Form, Question, end_screen
from narrator.phones.server import PhoneServer
from narrator.script.onenight.script import load_shipped

PLAYERS = ("Ana", "Ben", "Cleo", "Dan")
NAMES = tuple(Choice(p, p) for p in PLAYERS)
HERMIONE = Card(
    "hermione",
    "Hermione Granger",
    "La nuit, vous pouvez regarder la carte d'un autre joueur, ou deux cartes du centre.",
    "Rond",
    "Équipe de Poudlard",
)
VOYANTE = Card(
    "voyante", "Voyante", "Chaque nuit, vous découvrez le personnage d'un joueur de votre choix.", "", "Camp du village"
)
PHONE = {"width": 390, "height": 844}  # a phone's screen, in CSS pixels
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screens"
END = end_screen(
    "Le village n'a plus d'ennemi en vie : le village gagne.",
    [("Ana", "Voyante", "Voyante"), ("Ben", "Loup-garou", "Voleur"), ("Cleo", "Villageois", "Villageois")],
    ["Ben a volé la carte de loup-garou.", "Le village a éliminé Ben au premier vote."],
)


@pytest.fixture
def table() -> Iterator[tuple[Hub, str, PhoneServer]]:
    hub = Hub(PLAYERS)
    server = PhoneServer(hub)
    server.start()
    yield hub, f"http://127.0.0.1:{server.port}/", server
    server.stop()


def seated(browser: Browser, url: str, seat: str, clock: bool = False) -> BrowserPhone:
    phone = browser.phone(url, clock=clock)
    phone.page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    phone.join(seat)
    return phone


def clean(phone: BrowserPhone) -> None:
    assert phone.axe() == [], phone.page.url
    assert phone.errors == []


def looks(phone: BrowserPhone) -> tuple[str, str, str]:
    """The page's theme, background and ink, as computed."""
    return tuple(
        phone.page.evaluate(
            """() => { const s = getComputedStyle(document.body);
            return [document.body.className, s.backgroundColor, s.color]; }"""
        )
    )


def px(phone: BrowserPhone, selector: str) -> float:
    return float(phone.page.locator(selector).evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def test_the_card_is_large_drawn_announced_and_hidden_only_by_the_player(browser: Browser, table) -> None:
    hub, url, _ = table
    hub.deal({"Ana": HERMIONE, "Ben": VOYANTE})
    ana = seated(browser, url, "Ana", clock=True)
    assert "Hermione" not in ana.page.content()  # not even hidden in the page before it is asked for
    ana.show_card()
    assert ana.page.locator("#card-name").inner_text() == "Hermione Granger"
    assert ana.page.locator("#card-camp").inner_text() == "Équipe de Poudlard"
    assert ana.page.locator("#card-text").inner_text() == HERMIONE.text
    # 001's symbol, drawn, and named for a screen reader
    symbol = ana.page.get_by_role("img", name="Symbole : Rond")
    assert symbol.count() == 1 and symbol.evaluate("e => e.tagName") == "svg"
    assert symbol.bounding_box()["width"] >= 150  # type: ignore[index]
    # read at arm's length: the name at twice the body's size, the text larger than it
    assert px(ana, "#card-name") >= 40 and px(ana, "#card-text") >= 26
    # shown inside a live region: a screen reader reads it as it appears
    assert ana.page.locator("#card").evaluate("e => e.closest('[aria-live]').getAttribute('aria-live')") == "polite"
    ana.page.get_by_role("button", name="Cacher ma carte").focus()
    ana.page.clock.fast_forward(120_000)  # two minutes: still there, the player may still be reading it
    hub.status("Nuit 1")
    ana.wait_text("#status", "Nuit 1")
    assert ana.page.locator("#card").is_visible() and "Hermione" in ana.card_in_page()
    ana.hide_card()  # hidden by the player
    assert ana.card_in_page() == "" and "Hermione" not in ana.page.content()
    ana.show_card()
    ana.page.evaluate(  # the phone is put away: hidden at once
        "Object.defineProperty(document, 'visibilityState', {value: 'hidden'});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    assert ana.card_in_page() == ""
    ben = seated(browser, url, "Ben")  # a card whose rulebook gives no symbol: its initial, a picture only
    ben.show_card()
    assert ben.page.locator("#card-symbol svg").get_attribute("aria-hidden") == "true"
    assert ben.page.locator("#card-symbol svg text").text_content() == "V"
    assert ben.page.locator("#card-camp").inner_text() == "Camp du village"
    clean(ana)
    clean(ben)


def test_the_night_is_dark_and_dim_and_the_same_on_every_phone(browser: Browser, table) -> None:
    hub, url, _ = table
    ana, ben = seated(browser, url, "Ana"), seated(browser, url, "Ben")
    assert looks(ana) == looks(ben) == ("day", "rgb(255, 255, 255)", "rgb(17, 17, 17)")
    hub.public(night=True)
    for phone in (ana, ben):
        phone.page.wait_for_function("() => document.body.className === 'night'")
    night = looks(ana)
    assert night == looks(ben) and night[1] == "rgb(0, 0, 0)"
    ink = [int(n) for n in re.findall(r"\d+", night[2])]
    assert max(ink) <= 120  # dim: a mid grey, the least axe's contrast level allows (`clean`)
    assert not ana.page.locator("#ballot-section").is_visible()  # the day's vote is not on a night page
    clean(ana)
    # a page loaded at night (a reload, a phone retaking its seat) is dark from its first paint: the join
    # page and the seat's page start in the night's look, before the narrator says which it is
    for path in ("", "seat"):
        raw = browser.phone(url)
        raw.page.route("**/api/**", lambda route: route.abort())  # the narrator not heard yet
        raw.page.route("**/ws", lambda route: route.abort())
        raw.page.goto(url + path)
        assert raw.page.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)", path
        raw.close()
    join = browser.phone(url)  # the join page takes the table's look: dark while the night is on
    join.seats()
    assert looks(join)[:2] == ("night", "rgb(0, 0, 0)")
    clean(join)
    hub.public(night=False)
    ana.page.wait_for_function("() => document.body.className === 'day'")
    assert ana.page.locator("#ballot-section").is_visible()


def test_a_refusal_is_said_next_to_its_question_and_never_among_the_secrets(browser: Browser, table) -> None:
    hub, url, _ = table
    ana = seated(browser, url, "Ana")
    others = tuple(c for c in NAMES if c.value != "Ana")
    refusal = "ce nom n'est pas permis : touchez-en un autre"
    asked = hub.ask(
        {"Ana": Question(Form.ONE, "La victime des loups-garous.", others, allowed=("Cleo", "Dan"), refusal=refusal)}
    )["Ana"]
    ana.wait_question("La victime")
    ana.choose("Ben")  # a name the hub refuses (the classic table no longer asks so: see test_classic_phones)
    assert ana.refusal() == "Ce nom n'est pas permis : touchez-en un autre."  # a sentence, no « Refusé : »
    assert ana.live_spots("#question-reply") == 1  # said once (an alert), not again by a region around it
    assert ana.live_spots("#question-text") == 1  # the question too: its words alone, not the whole form
    assert ana.live_spots("#choices") == 0
    # next to the question: in its form, right under its words
    assert ana.page.locator("#question-reply").evaluate("e => e.previousElementSibling === null")
    assert ana.page.locator("#question").is_visible() and hub.screen("Ana").secrets == ()
    ana.choose("Cleo")
    ana.wait_answered()
    assert [(a.asked, a.value) for a in hub.wait(5)] == [(asked, "Cleo")]
    clean(ana)


def test_the_day_ballot_chooses_nothing_beforehand_and_the_dead_neither_vote_nor_are_voted_for(
    browser: Browser, table
) -> None:
    hub, url, _ = table
    ana, dan = seated(browser, url, "Ana"), seated(browser, url, "Dan")
    hub.public(living=("Ana", "Ben", "Cleo"))  # Dan is dead
    dan.page.locator("#ballot-dead:not([hidden])").wait_for()
    assert not dan.page.locator("#ballot").is_visible()
    select = ana.page.locator("#ballot-target")
    ana.page.wait_for_function("() => document.querySelectorAll('#ballot-target option').length === 3")
    assert select.evaluate("s => [...s.options].map(o => o.value)") == ["", "Ben", "Cleo"]
    assert select.input_value() == ""  # nobody chosen before the player chooses
    hub.ballots(True)
    ana.page.locator("#ballot summary").click()
    ana.page.get_by_role("button", name="Voter", exact=True).click()
    ana.page.locator("#ballot-reply:not(:empty)").wait_for()
    assert "Aucun nom n'est choisi" in ana.page.locator("#ballot-reply").inner_text()
    assert hub.lines() == []
    ana.page.locator("#ballot summary").click()  # closed again: `vote` opens it
    reply = ana.vote("Cleo")
    assert reply.startswith("Vote transmis : « Ana vote contre Cleo ».") and "Vote envoyé" not in reply
    assert hub.lines() == [("Ana", "Ana vote contre Cleo")]
    # « compté » only once the narrator counted it (read back aloud), said next to the ballot
    hub.ballot("Ana", "Vote compté : contre Cleo.")
    ana.wait_text("#ballot-reply", "Vote compté : contre Cleo.")
    hub.ballot("Ana", "Vote refusé. Cleo ne reçoit plus de voix.")
    ana.wait_text("#ballot-reply", "Vote refusé.")
    # the server refuses what the page no longer offers: the dead's ballot, a ballot against the dead
    for phone, target in ((dan, "Ana"), (ana, "Dan")):
        got = phone.page.evaluate(
            """async (target) => (await (await fetch('/api/ballot', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({id: 1, target})})).json())""",
            target,
        )
        assert got["ok"] is False and got["error"] == "un joueur éliminé ne vote plus et ne reçoit plus de voix"
    assert plain(dan.page.locator("#ballot-dead").inner_text()) == "Vous êtes hors du jeu : vous ne votez plus."
    assert ana.page.locator("#ballot summary").inner_text() == "Voter sur ce téléphone"
    assert hub.lines() == []
    for phone in (ana, dan):  # the browser logs the refused requests the test made itself
        phone.errors[:] = [e for e in phone.errors if "409 (Conflict)" not in e]
    clean(ana)
    clean(dan)


def test_the_end_shows_the_winners_every_card_and_the_story_even_to_a_page_that_comes_back(
    browser: Browser, table
) -> None:
    hub, url, server = table
    ana, cleo = seated(browser, url, "Ana"), seated(browser, url, "Cleo")
    server.stop()  # Cleo's connection is down when the game ends (the narrator stopped a moment)
    cleo.wait_text("#connection", "Connexion perdue")
    hub.public(end=END, night=False)
    hub.status(str(END["winners"]))
    server.start()
    for phone in (ana, cleo):  # Ana's page came back too: both show the end
        phone.page.locator("#end:not([hidden])").wait_for()
        assert plain(phone.page.locator("#end-winners").inner_text()) == END["winners"]
        rows = phone.page.locator("#end-card-rows tr").all_inner_texts()
        assert [re.sub(r"\s+", " ", r).strip() for r in rows] == [
            "Ana Voyante",
            "Ben Loup-garou (au début : Voleur)",  # who changed card
            "Cleo Villageois",
        ]
        assert phone.page.locator("#end-story li").all_inner_texts() == END["story"]
        assert not phone.page.locator("#question-section").is_visible()
        # « La partie » says it is over, not the last status; the end is said once: its title takes the
        # focus, and nothing around it is a live region (the status and the connection line keep quiet)
        assert phone.status() == "La partie est finie."
        assert phone.page.evaluate("() => document.activeElement.id") == "end-title"
        assert phone.live_spots("#end-title") == 0 and phone.live_spots("#status") == 0
        assert not phone.page.locator("#connection").is_visible()
        clean(phone)
    server.stop(over=True)
    ana.page.wait_for_function("() => over === true && !document.getElementById('end').hidden")
    assert ana.page.locator("#end").is_visible() and not ana.page.locator("#connection").is_visible()


def said(phone: BrowserPhone, selector: str) -> None:
    """From now on, every text `selector`'s live region takes is kept in `spoken` (page side): what a screen
    reader is given to say. The same words set again are not a change it says."""
    phone.page.evaluate(
        """(selector) => { window.spoken = []; const region = document.querySelector(selector);
        new MutationObserver(() => { const text = region.textContent;
            if (text && text !== window.lastSpoken) window.spoken.push(text);
            window.lastSpoken = text; }).observe(region, {childList: true, characterData: true, subtree: true}); }""",
        selector,
    )


def spoken(phone: BrowserPhone, count: int) -> list[str]:
    phone.page.wait_for_function("(count) => window.spoken.length >= count", arg=count)
    return [plain(t) for t in phone.page.evaluate("() => window.spoken")]


def test_the_same_words_said_twice_are_announced_twice(browser: Browser, table) -> None:
    """A second identical refusal, or a question asked again in the same words, is news: its live region
    says it again (the page empties it a moment, then fills it)."""
    hub, url, _ = table
    ana = seated(browser, url, "Ana")
    hub.ballots(True)
    said(ana, "#ballot-reply")
    refused = "Vote refusé. Ana ne vote pas contre soi-même."
    hub.ballot("Ana", refused)
    assert spoken(ana, 1) == [refused]
    hub.ballot("Ana", refused)
    assert spoken(ana, 2) == [refused, refused]
    said(ana, "#question-text")
    words = "Désignez le joueur dont vous voulez voir la carte."
    hub.ask({"Ana": Question(Form.ONE, words, NAMES[1:])})
    assert spoken(ana, 1) == [words]
    hub.ask({"Ana": Question(Form.ONE, words, NAMES[1:])})  # asked again (a new question), in the same words
    assert spoken(ana, 2) == [words, words]
    clean(ana)


def test_votes_asked_again_reopen_every_ballot_and_a_blank_vote_is_said_so(browser: Browser, table) -> None:
    """« non » at the read-back: a phone that said « Vote compté » says the votes restart, with nothing
    chosen; « Vote transmis » never hides what the narrator said of the ballot since."""
    hub, url, _ = table
    ana = seated(browser, url, "Ana")
    hub.ballots(True)
    assert ana.vote("Cleo").startswith("Vote transmis : « Ana vote contre Cleo ».")
    hub.ballot("Ana", "Vote compté : contre Cleo.")
    ana.wait_text("#ballot-reply", "Vote compté : contre Cleo.")
    assert ana.page.get_by_label("Je vote contre").input_value() == "Cleo"
    hub.ballots_again("Le vote recommence : votez à nouveau.")
    ana.wait_text("#ballot-reply", "Le vote recommence : votez à nouveau.")
    assert ana.page.get_by_label("Je vote contre").input_value() == ""  # nothing chosen: an open ballot
    ana.page.locator("#ballot summary").click()  # closed again: `vote` opens it
    ana.vote(None)  # its reply replaces « Le vote recommence », still shown when `vote` returns
    ana.wait_text(
        "#ballot-reply",
        "Vote transmis : « Ana vote blanc ». Le narrateur le compte, puis relit tous les votes à la fin.",
    )
    hub.ballot("Ana", "Vote compté : vote blanc.")
    ana.wait_text("#ballot-reply", "Vote compté : vote blanc.")
    # the narrator counted it before the page heard its own reply: « transmis » does not come back over it
    ana.page.evaluate("() => { ballotAt.set(99, ballotSaid - 1); pending.set(99, 'ballot'); }")
    ana.page.evaluate("() => replied({id: 99, ok: true, said: 'Ana vote blanc'})")
    assert plain(ana.page.locator("#ballot-reply").inner_text()) == "Vote compté : vote blanc."
    clean(ana)


def test_a_phone_that_comes_after_the_end_is_shown_the_end(browser: Browser, table) -> None:
    """A late visitor (no seat) or a phone whose seat is gone: « La partie est finie. », the winners and every
    card, from /api/seats; no seat to take."""
    hub, url, _ = table
    hub.public(end=END, night=False)
    late = browser.phone(url)
    late.page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    late.page.locator("#end:not([hidden])").wait_for()
    assert late.page.locator("#end-title").inner_text() == "La partie est finie."
    assert late.page.locator("h1").inner_text() == "Fin de la partie"  # not « Prendre sa place »
    assert late.page.title() == "Fin de la partie — Narrateur"
    assert plain(late.page.locator("#end-winners").inner_text()) == END["winners"]
    rows = [re.sub(r"\s+", " ", r).strip() for r in late.page.locator("#end-card-rows tr").all_inner_texts()]
    assert rows == ["Ana Voyante", "Ben Loup-garou (au début : Voleur)", "Cleo Villageois"]
    assert late.page.locator("#seats button").count() == 0 and not late.page.locator("#seats-section").is_visible()
    assert late.page.evaluate("() => document.activeElement.id") == "end-title"  # said once, by its title
    clean(late)
    late.page.screenshot(path=str(SHOTS / "jour-15-fin-arrivee-tardive.png"))


def test_french_typography_on_the_pages(browser: Browser, table) -> None:
    """What a page sets has French spaces: no-break before « : », narrow no-break before « ; ! ? », no-break
    inside « »."""
    hub, url, _ = table
    ana = seated(browser, url, "Ana")
    hub.status("Jour 1 : le vote")
    hub.ask({"Ana": Question(Form.YES_NO, "Potion de vie ? Touchez « Oui » ; ou « Non » !")})
    ana.wait_question("Potion")
    assert ana.page.locator("#status").text_content() == "Jour 1\u00a0: le vote"
    assert (
        ana.page.locator("#question-text").text_content()
        == "Potion de vie\u202f? Touchez «\u00a0Oui\u00a0»\u202f; ou «\u00a0Non\u00a0»\u202f!"
    )
    assert ana.page.locator("#seat-name").text_content() == "Place\u00a0: Ana"
    # a sign with no space before it gets one; a time or an address keeps its colon as it is
    assert ana.page.evaluate("() => typeset('Refusé: 10:30 http://a.b')") == "Refusé\u00a0: 10:30 http://a.b"
    join = browser.phone(url)
    assert join.page.evaluate("() => typeset('Refusé : réessayez.')") == "Refusé\u00a0: réessayez."


def _night_kinds(hub: Hub, phones: dict[str, BrowserPhone]) -> dict[str, list[str]]:
    """A night's call, read as a screen reader reads the page: each step's accessibility tree of the
    question and of what the seat learned, for the called (Ana), a decoy (Ben) and a dead seat (Dan)."""
    read: dict[str, list[str]] = {seat: [] for seat in phones}

    def step(wait: str) -> None:
        for seat, phone in phones.items():
            phone.page.wait_for_function(f"() => {wait}")
            read[seat].append(plain(phone.page.locator("main").aria_snapshot()))

    hub.public(night=True, living=("Ana", "Ben", "Cleo"))
    hub.status("Nuit 2")
    step("document.getElementById('status').textContent === 'Nuit 2'")
    words = "Désignez le joueur dont vous voulez voir la carte. Chaque téléphone répond."
    questions = {
        s: Question(Form.ONE, words, tuple(c for c in NAMES if c.value != s), decoy=s != "Ana") for s in phones
    }
    asked = hub.ask(questions)
    step("!document.getElementById('question').hidden")
    for phone in phones.values():
        phone.choose("Cleo")
        phone.wait_answered()
    hub.wait(5)
    step("!document.getElementById('answered').hidden")
    hub.tell("Ana", "Cleo est Villageois.")
    phones["Ana"].wait_secrets(1)
    step("true")  # what Ana learned came: nothing on any page says so
    hub.rest()
    hub.public(night=False)
    hub.status("Jour 2 : le matin")
    step("document.getElementById('status').textContent === 'Jour 2\\u00a0: le matin'")
    assert set(asked) == set(phones)
    return read


def test_a_screen_reader_reads_the_same_night_on_every_phone_but_what_only_one_learns(browser: Browser, table) -> None:
    hub, url, _ = table
    phones = {seat: seated(browser, url, seat) for seat in ("Ana", "Ben", "Dan")}
    read = _night_kinds(hub, phones)
    ana, ben, dan = read["Ana"], read["Ben"], read["Dan"]
    # the call: the question's words once, and one radio a name read once (the seat's own left out) — the
    # same tree on the called phone, a decoy and a dead seat's, but for the names
    for snapshot in (ana[1], ben[1], dan[1]):
        assert snapshot.count("Désignez le joueur dont vous voulez voir la carte. Chaque téléphone répond.") == 1
        assert 'button "Valider"' in snapshot and 'button "Je passe"' not in snapshot
        assert "group" not in snapshot and "text: Cleo" not in snapshot and snapshot.count("Cleo") == 1
    assert 'radio "Ana"' not in ana[1] and 'radio "Ben"' in ana[1] and 'radio "Ben"' not in ben[1]
    unnamed = [[re.sub(r"\b(Ana|Ben|Cleo|Dan)\b", "X", s) for s in r] for r in (ana, ben, dan)]
    # the night, step by step: the same on every phone (no ballot at night; no « Nouveau » when Ana learns)
    for n in range(4):
        assert unnamed[0][n] == unnamed[1][n] == unnamed[2][n], n
    assert "Nouveau" not in "".join(ana + ben + dan) and "Voter" not in "".join(ana[:4])
    # the order a screen reader follows: the status, then the question, then « Réponse envoyée », then the
    # morning
    assert all("Nuit 2" in r[0] and "Rien à faire pour l'instant." in r[0] for r in (ana, ben, dan))
    assert all("Réponse envoyée. Attendez la suite." in r[2] for r in (ana, ben, dan))
    assert all("Jour 2 : le matin" in r[4] for r in (ana, ben, dan))
    assert all("Cleo est Villageois" not in "".join(r) for r in (ana, ben, dan))  # not read until asked for
    # the day: the living's ballot, the dead seat's sentence (who is dead is known to all)
    assert unnamed[0][4] == unnamed[1][4] and "Vous êtes hors du jeu" in dan[4] and "hors du jeu" not in ana[4]
    assert 'heading "Le vote du jour"' in ana[4]


SCREENS = ("attente", "question", "deux-noms", "oui-non", "toucher", "refus", "envoye", "carte", "carte-sans-symbole",
           "appris", "vote", "vote-compte", "elimine", "fin")  # fmt: skip


def _show(kind: str, hub: Hub, ana: BrowserPhone, ben: BrowserPhone) -> BrowserPhone:
    """Puts Ana's (or Ben's) page in the screen `kind`; the page to look at."""
    page = ana.page
    if kind == "attente":
        status = "Nuit 1" if page.evaluate("() => document.body.className") == "night" else "Jour 1 : le débat"
        hub.status(status)
        ana.wait_text("#status", status)
    elif kind == "question":
        hub.ask({"Ana": Question(Form.ONE, "Désignez le joueur dont vous voulez voir la carte.", NAMES[1:], True)})
        ana.wait_question("Désignez")
    elif kind == "deux-noms":
        hub.ask({"Ana": Question(Form.PAIR, "Les deux amoureux, deux joueurs différents.", NAMES)})
        ana.wait_question("amoureux")
    elif kind == "oui-non":
        life = "Potion de vie pour la victime des loups-garous ? Son nom est dans « Ce que vous avez appris »."
        hub.ask({"Ana": Question(Form.YES_NO, life)})
        ana.wait_question("Potion")
    elif kind == "toucher":
        hub.ask({"Ana": Question(Form.TAP, "Quand vous avez fini, touchez « C'est fait ». Chaque téléphone répond.")})
        ana.wait_question("C'est fait")
    elif kind == "refus":  # a classic call asked again on every phone, and « Valider » with nothing ticked
        again = "Un choix touché n'est pas permis : chaque téléphone répond à nouveau. La victime des loups-garous."
        hub.ask({"Ana": Question(Form.ONE, again, NAMES[1:])})
        ana.wait_question("Un choix touché")
        page.get_by_role("button", name="Valider", exact=True).click()
        ana.refusal()
    elif kind == "envoye":
        ana.choose("Cleo")
        ana.wait_answered()
        hub.wait(5)
    elif kind == "carte":
        hub.rest()
        ana.show_card()
        page.locator("#card-title").evaluate("e => e.scrollIntoView()")  # the card whole in the shot
    elif kind == "carte-sans-symbole":
        ana.hide_card()
        ben.show_card()
        ben.page.locator("#card-title").evaluate("e => e.scrollIntoView()")
        return ben
    elif kind == "appris":
        ben.hide_card()
        hub.tell("Ana", "La carte A du centre : Villageois.")
        ana.wait_secrets(1)
        ana.secrets()
    elif kind == "vote":
        ana.page.get_by_role("button", name="Cacher ce que j'ai appris").click()
        hub.public(living=("Ana", "Cleo", "Dan"))
        page.locator("#ballot summary").click()
        page.locator("#ballot-form").scroll_into_view_if_needed()
    elif kind == "vote-compte":  # cast on the phone, then counted by the narrator
        hub.ballots(True)
        page.get_by_label("Je vote contre").select_option("Cleo")  # the ballot is open (« vote »)
        page.get_by_role("button", name="Voter", exact=True).click()
        ana.wait_text("#ballot-reply", "Vote transmis")
        hub.ballot("Ana", "Vote compté : contre Cleo.")
        ana.wait_text("#ballot-reply", "Vote compté")
        page.locator("#ballot-reply").scroll_into_view_if_needed()
    elif kind == "elimine":
        ben.page.locator("#ballot-dead:not([hidden])").wait_for()
        ben.page.locator("#ballot-dead").scroll_into_view_if_needed()
        return ben
    elif kind == "fin":
        hub.public(end=END)
        ana.page.locator("#end:not([hidden])").wait_for()
        page.evaluate("window.scrollTo(0, 0)")
    return ana


@pytest.mark.parametrize("night", [True, False], ids=["nuit", "jour"])
def test_every_screen_kind_passes_axe_and_is_saved_at_a_phones_size(browser: Browser, table, night: bool) -> None:
    hub, url, _ = table
    hub.deal({"Ana": HERMIONE, "Ben": VOYANTE})
    hub.public(night=night)
    theme = "nuit" if night else "jour"
    SHOTS.mkdir(parents=True, exist_ok=True)
    join = browser.phone(url)
    join.page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    join.seats()
    clean(join)
    join.page.screenshot(path=str(SHOTS / f"{theme}-00-rejoindre.png"))
    ana, ben = seated(browser, url, "Ana"), seated(browser, url, "Ben")
    for n, kind in enumerate(SCREENS, start=1):
        if night and kind in ("vote", "vote-compte", "elimine"):  # the day's vote is not on a night page
            hub.public(living=("Ana", "Cleo", "Dan"))
            ben.page.wait_for_function("() => !screen.living.includes('Ben')")
            assert not ben.page.locator("#ballot-section").is_visible()
            continue
        phone = _show(kind, hub, ana, ben)
        phone.page.wait_for_function("(night) => document.body.className === (night ? 'night' : 'day')", arg=night)
        clean(phone)
        phone.page.screenshot(path=str(SHOTS / f"{theme}-{n:02d}-{kind}.png"))  # what a 390 × 844 phone shows


def test_every_symbol_of_001_is_drawn_and_named(browser: Browser, table) -> None:
    """001 "Adaptation": « Un symbole a été associé à chaque Personnage » — each drawn by the page, each
    named for a screen reader; saved side by side in docs/screens/symboles.png to be looked at."""
    _, url, _ = table
    ana = seated(browser, url, "Ana")
    names = sorted({str(s) for s in _poudlard_symbols()})
    drawn = ana.page.evaluate(
        """(names) => { const sheet = document.createElement('div'); sheet.id = 'sheet';
        for (const name of names) sheet.append(symbol(name, name));
        document.querySelector('main').prepend(sheet);
        return [...sheet.children].map(s => [s.getAttribute('aria-label'), s.childElementCount]); }""",
        names,
    )
    assert drawn == [[f"Symbole : {name}", drawn[i][1]] for i, name in enumerate(names)]
    assert all(count >= 1 for _, count in drawn)
    ana.page.locator("#sheet").screenshot(path=str(SHOTS / "symboles.png"))


def _poudlard_symbols() -> list[str]:
    words = load_shipped("poudlard").phones
    assert words is not None
    return list(words.symbols.values())
