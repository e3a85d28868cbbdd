"""The seats' screens: tokens claimed once, answers checked, a seat's secrets on its screen alone."""

from __future__ import annotations

import threading

from narrator.phones.hub import Hub
from narrator.phones.screens import Card, Choice, Form, Question

PLAYERS = ("Ana", "Ben", "Cleo")
WHO = Question(Form.ONE, "Qui regardez-vous ?", tuple(Choice(p, p) for p in ("Ben", "Cleo")))


def test_a_seat_is_claimed_once_and_its_token_names_it_alone() -> None:
    hub = Hub(PLAYERS)
    token = hub.claim("Ana")
    assert token is not None and len(token) >= 32
    assert hub.claim("Ana") is None  # a second phone cannot take the seat
    assert hub.claim("Zoé") is None
    assert hub.seat_of(token) == "Ana"
    assert hub.seat_of(hub.tokens["Ben"]) is None  # a token not yet handed out opens nothing
    assert hub.seat_of(token + "x") is None and hub.seat_of(None) is None and hub.seat_of("") is None


def test_freeing_a_seat_voids_its_old_token() -> None:
    hub = Hub(PLAYERS)
    old = hub.claim("Ben")
    hub.free("Ben")
    assert hub.seat_of(old) is None
    new = hub.claim("Ben")
    assert new is not None and new != old and hub.seat_of(new) == "Ben"


def test_tokens_are_new_for_each_game() -> None:
    assert Hub(PLAYERS).tokens["Ana"] != Hub(PLAYERS).tokens["Ana"]


def test_an_answer_is_checked_against_its_question_and_taken_once() -> None:
    hub = Hub(PLAYERS)
    asked = hub.ask({"Ana": WHO})["Ana"]
    assert hub.answer("Ana", asked, "Ana") == "ce choix n'est pas proposé"
    assert hub.answer("Ana", asked + 1, "Ben") == "cette question n'est plus posée"
    assert hub.answer("Ben", asked, "Ben") == "cette question n'est plus posée"
    assert hub.answer("Ana", asked, None) == "une réponse est obligatoire"
    assert hub.answer("Ana", asked, "Cleo") is None
    assert hub.answer("Ana", asked, "Ben") == "vous avez déjà répondu"
    [got] = hub.wait(0)
    assert (got.seat, got.asked, got.value, got.decoy) == ("Ana", asked, "Cleo", False)


def test_forms_refuse_what_they_do_not_ask() -> None:
    names = tuple(Choice(p, p) for p in PLAYERS)
    pair = Question(Form.PAIR, "Les deux amoureux ?", names)
    assert pair.check(["Ana", "Ana"]) == "deux fois le même choix"
    assert pair.check(["Ana"]) == "cochez deux choix"
    assert pair.check(["Ana", "Ben"]) is None
    assert pair.check("Ana") == "un des choix n'est pas proposé"
    assert Question(Form.YES_NO, "Potion ?").check("oui") == "touchez oui ou non"
    assert Question(Form.SOME, "Qui ?", names, optional=True).check([]) is None
    assert Question(Form.SOME, "Qui ?", names, count=2).check(["Ana", "Ben", "Cleo"]) == "cochez deux choix"
    # a name the rules refuse among several ticked: said in words, not as which list it was missing from
    lovers = Question(Form.PAIR, "Les deux amoureux ?", names, allowed=("Ana", "Ben"))
    assert lovers.check(["Ana", "Cleo"]) == "un des choix n'est pas permis : touchez-en un autre"
    assert Question(Form.ONE, "Qui ?", names, allowed=("Ana",)).check("Ben") == (
        "ce choix n'est pas permis : touchez-en un autre"
    )


def test_a_secret_reaches_its_seat_alone() -> None:
    hub = Hub(PLAYERS)
    hub.deal({p: Card(p.lower(), f"Carte de {p}", "…") for p in PLAYERS})
    hub.tell("Ana", "Ben est Loup-Garou.")
    assert hub.screen("Ana").secrets == ("Ben est Loup-Garou.",)
    for other in ("Ben", "Cleo"):
        screen = hub.screen(other)
        assert screen.secrets == () and screen.card is not None and screen.card.name == f"Carte de {other}"


def test_wait_returns_as_soon_as_an_answer_comes_from_another_thread() -> None:
    hub = Hub(PLAYERS)
    asked = hub.ask({"Ben": WHO})["Ben"]
    threading.Timer(0.05, lambda: hub.answer("Ben", asked, "Ben")).start()
    assert [a.value for a in hub.wait(5)] == ["Ben"]
    assert hub.wait(0.01) == []


def test_watchers_hear_which_screens_changed() -> None:
    hub = Hub(PLAYERS)
    seen: list[frozenset[str]] = []
    hub.watch(seen.append)
    hub.ask({"Cleo": WHO})
    hub.tell("Ana", "secret")
    assert seen == [frozenset({"Cleo"}), frozenset({"Ana"})]
