"""The phones' web server: a seat taken once, its screen pushed on every change, answers and ballots
handed to the hub, the same port and tokens after a restart (`narrator resume`)."""

from __future__ import annotations

import asyncio
import fnmatch
import json
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import WSCloseCode
from phones_client import Phone

from narrator.listen.french import Parser
from narrator.phones import PhoneError
from narrator.phones.hub import Hub
from narrator.phones.screens import Card, Choice, Form, Question
from narrator.phones.server import COMMON, GAME_OVER, PAGES, SCRIPTED, SEAT_FREED, PhoneServer

PLAYERS = ("Ana", "Ben", "Cleo")
WHO = Question(Form.ONE, "Qui regardez-vous ?", tuple(Choice(p, p) for p in ("Ben", "Cleo")))


@pytest.fixture
def hub() -> Hub:
    return Hub(PLAYERS)


@pytest.fixture
def server(hub: Hub) -> Iterator[PhoneServer]:
    server = PhoneServer(hub)
    server.start()
    yield server
    server.stop()


def test_it_serves_on_a_free_port_stops_twice_and_serves_the_same_port_again(hub: Hub) -> None:
    server = PhoneServer(hub)
    server.start()
    port = server.port
    assert port > 0 and Phone(port).call("GET", "/").status == 200
    server.stop()
    server.stop()
    with pytest.raises(ConnectionRefusedError):
        Phone(port).call("GET", "/")
    server.start()
    assert server.port == port and Phone(port).call("GET", "/").status == 200
    server.stop()


def test_a_port_already_taken_is_said_in_french(server: PhoneServer) -> None:
    with pytest.raises(PhoneError, match=f"le port {server.port} est déjà pris"):
        PhoneServer(Hub(PLAYERS), port=server.port).start()


def test_an_address_not_of_this_machine_is_said_in_french(hub: Hub) -> None:
    with pytest.raises(PhoneError, match="192.0.2.1 n'est pas une adresse de cette machine"):
        PhoneServer(hub, host="192.0.2.1").start()


def test_the_join_page_lists_free_seats_and_a_claim_sets_an_httponly_cookie(server: PhoneServer) -> None:
    ana, thief = Phone(server.port), Phone(server.port)
    page = ana.call("GET", "/")
    assert page.status == 200 and 'lang="fr"' in page.text and page.headers["Content-Type"].startswith("text/html")
    assert ana.call("GET", "/api/seats").json() == {"free": list(PLAYERS), "seat": None, "night": False, "end": None}
    reply = ana.claim("Ana")
    assert reply.status == 200 and reply.json() == {"seat": "Ana"}
    cookie = reply.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert ana.token and ana.token not in reply.text  # the token travels in the cookie alone
    assert ana.call("GET", "/api/seats").json() == {"free": ["Ben", "Cleo"], "seat": "Ana", "night": False, "end": None}
    moved = ana.call("GET", "/")
    assert moved.status == 303 and moved.headers["Location"] == "/seat"
    taken = thief.claim("Ana")
    assert (taken.status, taken.json()) == (409, {"error": "cette place est déjà prise : Ana"})
    assert thief.claim("Zoé").json() == {"error": "cette place n'existe pas à cette table"}
    assert ana.claim("Ben").json() == {"error": "ce téléphone a déjà une place : Ana"}


def test_the_seat_page_needs_a_seat(server: PhoneServer) -> None:
    phone = Phone(server.port)
    assert phone.call("GET", "/seat").headers["Location"] == "/"
    phone.claim("Ben")
    page = phone.call("GET", "/seat")
    assert page.status == 200 and "Voir ma carte" in page.text and "<script" not in page.text.split("</head>")[1]


def test_every_page_and_script_is_served_with_its_type_and_no_inline_script(server: PhoneServer) -> None:
    phone = Phone(server.port)
    for path in sorted(PAGES.iterdir()):
        if path.suffix == ".html":
            text = path.read_text(encoding="utf-8")
            assert "<script>" not in text and " on" not in text.replace("\n", " ").split("<body")[1].split(">")[0]
            continue
        reply = phone.call("GET", f"/pages/{path.name}")
        if path.name == COMMON:  # what both pages share: served at the head of each page's one script
            assert reply.status == 404
            continue
        assert reply.status == 200, path.name
        assert reply.headers["Content-Type"].split(";")[0] in {"text/javascript", "text/css"}
        if path.name in SCRIPTED:
            assert (
                reply.text.startswith((PAGES / COMMON).read_text(encoding="utf-8")) and "function typeset" in reply.text
            )
    assert phone.call("GET", "/pages/seat.html").status == 404  # the seat's page only through /seat
    assert phone.call("GET", "/pages/..%2Fserver.py").status == 404


async def _first_screen_then_a_question(hub: Hub, phone: Phone) -> None:
    hub.deal({"Ana": Card("voyante", "Voyante", "Chaque nuit, elle voit la carte d'un joueur.", "un œil")})
    async with phone.socket() as ws:
        screen = await ws.next()
        assert screen["seat"] == "Ana" and screen["card"]["name"] == "Voyante" and screen["question"] is None
        assert screen["players"] == list(PLAYERS)
        asked = (await asyncio.to_thread(hub.ask, {"Ana": WHO, "Ben": WHO}))["Ana"]
        screen = await ws.next()
        assert screen["question"] == {
            "asked": asked,
            "form": "one",
            "text": "Qui regardez-vous ?",
            "choices": [{"value": "Ben", "label": "Ben"}, {"value": "Cleo", "label": "Cleo"}],
            "optional": False,
            "count": None,
            "answered": False,
        }
        await ws.send({"type": "answer", "id": 7, "asked": asked, "value": "Ana"})
        assert await ws.next("reply") == {"type": "reply", "ok": False, "id": 7, "error": "ce choix n'est pas proposé"}
        await ws.send({"type": "answer", "id": 8, "asked": asked, "value": "Cleo"})
        assert await ws.next("reply") == {"type": "reply", "ok": True, "id": 8}
        assert (await ws.next())["question"]["answered"] is True
        [answer] = hub.wait(1)
        assert (answer.seat, answer.asked, answer.value) == ("Ana", asked, "Cleo")
        hub.tell("Ana", "Ben est Loup-Garou.")
        hub.tell("Ana", "Cleo est Villageoise.")
        while len((screen := await ws.next())["secrets"]) < 2:
            pass
        assert screen["secrets"] == ["Cleo est Villageoise.", "Ben est Loup-Garou."]  # newest first


def test_the_seat_gets_its_screen_on_every_change_and_answers_over_the_socket(server: PhoneServer, hub: Hub) -> None:
    phone = Phone(server.port)
    phone.claim("Ana")
    asyncio.run(_first_screen_then_a_question(hub, phone))


def test_a_decoy_question_is_sent_exactly_like_a_real_one(server: PhoneServer, hub: Hub) -> None:
    real, decoy = Phone(server.port), Phone(server.port)
    real.claim("Ana")
    decoy.claim("Ben")
    asked = hub.ask({"Ana": WHO, "Ben": Question(WHO.form, WHO.text, WHO.choices, decoy=True)})
    seen = [p.call("GET", "/api/screen").json()["screen"]["question"] for p in (real, decoy)]
    assert seen[0] == seen[1] and "decoy" not in str(seen)
    assert decoy.call("POST", "/api/answer", {"asked": asked["Ben"], "value": "Ben"}).json() == {
        "type": "reply",
        "ok": True,
    }
    assert [(a.seat, a.decoy) for a in hub.wait(1)] == [("Ben", True)]


def test_answers_by_post_say_why_they_are_refused(server: PhoneServer, hub: Hub) -> None:
    phone = Phone(server.port)
    phone.claim("Cleo")
    asked = hub.ask({"Cleo": Question(Form.PAIR, "Les deux amoureux ?", tuple(Choice(p, p) for p in PLAYERS))})["Cleo"]
    refused = phone.call("POST", "/api/answer", {"asked": asked, "value": ["Ana"]})
    assert (refused.status, refused.json()["error"]) == (409, "cochez deux choix")
    assert phone.call("POST", "/api/answer", {"value": ["Ana"]}).json()["error"] == "attendu : « asked » et « value »"
    assert phone.call("POST", "/api/answer", {"asked": asked, "value": ["Ana", "Ben"]}).status == 200
    assert (
        phone.call("POST", "/api/answer", {"asked": asked, "value": ["Ana", "Ben"]}).json()["error"]
        == "vous avez déjà répondu"
    )


def test_a_ballot_on_the_phone_is_a_line_the_tables_parser_understands(server: PhoneServer, hub: Hub) -> None:
    phone = Phone(server.port)
    phone.claim("Ben")
    hub.ballots(True)
    assert phone.call("POST", "/api/ballot", {"target": "Cleo"}).json()["said"] == "Ben vote contre Cleo"
    assert phone.call("POST", "/api/ballot", {"target": None}).json()["said"] == "Ben vote blanc"
    assert phone.call("POST", "/api/ballot", {"target": "Zoé"}).json()["error"] == "ce joueur n'est pas à la table"
    lines = hub.lines()
    assert lines == [("Ben", "Ben vote contre Cleo"), ("Ben", "Ben vote blanc")]
    for game in ("onuw", "thiercelieux"):
        parser = Parser(game, list(PLAYERS))
        heard = [[c.to_json() for c in parser.parse(words, "vote")] for _, words in lines]
        assert heard == [
            [{"command": "vote", "voter": "Ben", "target": "Cleo"}],
            [{"command": "vote", "voter": "Ben", "target": None}],
        ]


async def _freed(hub: Hub, phone: Phone) -> None:
    async with phone.socket() as ws:
        await ws.next()
        assert hub.connected() == ["Ben"]
        await asyncio.to_thread(hub.free, "Ben")
        closed = await asyncio.wait_for(ws.ws.receive(), 5)
        assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == SEAT_FREED


@pytest.mark.parametrize("over", [True, False])
def test_the_phones_learn_the_game_is_over_before_the_server_stops(hub: Hub, over: bool) -> None:
    """At the game's end each page is told so (it stops reconnecting); at « stop » it waits for a resume."""
    server = PhoneServer(hub)
    server.start()
    phone = Phone(server.port)
    phone.claim("Ben")

    async def stopped() -> list[object]:
        async with phone.socket() as ws:
            await ws.next()
            await asyncio.to_thread(server.stop, over)
            got = []
            while (message := await asyncio.wait_for(ws.ws.receive(), 5)).type is aiohttp.WSMsgType.TEXT:
                got.append(json.loads(message.data))
            return [*got, message.data]

    # the end (`Screen.end`: none here) comes with it, for a page that missed the last screen
    assert asyncio.run(stopped()) == ([{"type": "over", "end": None}, GAME_OVER] if over else [WSCloseCode.GOING_AWAY])


def test_a_ballot_is_taken_only_while_the_table_collects_a_vote(server: PhoneServer, hub: Hub) -> None:
    """At night or during the debate a phone's ballot is refused (heard later, it would give the phone away);
    one not yet heard when the vote closes is dropped."""
    phone = Phone(server.port)
    phone.claim("Ben")
    closed = phone.call("POST", "/api/ballot", {"target": "Cleo"})
    assert closed.status == 409 and closed.json()["error"] == "aucun vote n'est ouvert pour l'instant"
    hub.ballots(True)
    assert phone.call("POST", "/api/ballot", {"target": "Cleo"}).status == 200
    hub.ballots(False)
    assert hub.lines() == [] and not hub.voting()
    assert phone.call("POST", "/api/ballot", {"target": None}).status == 409


def test_a_seat_freed_by_the_table_closes_its_old_phone_and_voids_its_cookie(server: PhoneServer, hub: Hub) -> None:
    phone = Phone(server.port)
    phone.claim("Ben")
    asyncio.run(_freed(hub, phone))
    assert phone.call("GET", "/api/screen").status == 401
    assert hub.connected() == []
    newcomer = Phone(server.port)
    assert newcomer.claim("Ben").status == 200 and newcomer.token != phone.token


async def _connected_while_open(hub: Hub, phone: Phone) -> None:
    async with phone.socket() as ws:
        await ws.next()
        assert hub.connected() == ["Cleo"] and hub.arrivals() == ["Cleo"]
    for _ in range(100):
        if not hub.connected():
            break
        await asyncio.sleep(0.02)
    assert hub.connected() == []


def test_the_hub_knows_which_phones_are_connected(server: PhoneServer, hub: Hub) -> None:
    phone = Phone(server.port)
    phone.claim("Cleo")
    asyncio.run(_connected_while_open(hub, phone))


async def _comes_back(server: PhoneServer, hub: Hub, phone: Phone) -> None:
    async with phone.socket() as ws:
        await ws.next()
        await asyncio.to_thread(server.stop)
        assert (await asyncio.wait_for(ws.ws.receive(), 5)).type in {aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED}
    resumed = Hub(PLAYERS, tokens=hub.tokens, claimed=hub.claimed())  # what `narrator resume` rebuilds
    again = PhoneServer(resumed, port=server.port)
    await asyncio.to_thread(again.start)
    try:
        resumed.status("Nuit 1")
        async with phone.socket() as ws:
            assert (await ws.next())["status"] == "Nuit 1"
    finally:
        await asyncio.to_thread(again.stop)


def test_a_phone_comes_back_to_a_resumed_game_on_the_same_port_with_its_token(server: PhoneServer, hub: Hub) -> None:
    phone = Phone(server.port)
    phone.claim("Ana")
    asyncio.run(_comes_back(server, hub, phone))


def test_screens_pushed_from_another_thread_arrive_in_order(server: PhoneServer, hub: Hub) -> None:
    phone = Phone(server.port)
    phone.claim("Ana")

    async def watch() -> None:
        async with phone.socket() as ws:
            await ws.next()
            thread = threading.Thread(target=lambda: [hub.status(f"Nuit {n}") for n in range(1, 51)])
            thread.start()
            seen = []
            while not seen or seen[-1] != "Nuit 50":
                seen.append((await ws.next())["status"])
            thread.join()
            numbers = [int(s.split()[1]) for s in seen]
            assert numbers == sorted(numbers)  # coalesced, never older after newer

    asyncio.run(watch())


def test_the_port_is_free_for_others_after_stop(hub: Hub) -> None:
    server = PhoneServer(hub)
    server.start()
    server.stop()
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", server.port))


def test_an_installed_narrator_carries_every_page() -> None:
    root = Path(__file__).resolve().parents[1]  # the checkout, whichever narrator the tests import
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    [globs] = re.findall(r'^"narrator\.phones" = \[(.*)\]$', pyproject, flags=re.M)
    patterns = re.findall(r'"([^"]+)"', globs)
    folder = root / "narrator" / "phones" / "pages"
    pages = [p.relative_to(folder.parent).as_posix() for p in folder.iterdir()]
    assert pages and all(any(fnmatch.fnmatch(p, g) for g in patterns) for p in pages), pages


def test_the_pages_own_words_keep_french_spacing() -> None:
    # the outside test of issue 26: « …toute la partie : gardez-le… » with a plain space could start a line
    # with « : » on a narrow phone; what the scripts set goes through typeset(), the pages' own text is written so
    for page in ("join.html", "seat.html"):
        text = re.sub(r"<[^>]+>", " ", (PAGES / page).read_text(encoding="utf-8"))
        assert not re.findall(r"\w [:;?!]", text), page
