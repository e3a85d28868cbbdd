"""One-night games played with the digital deal: each player's card and night choices on their own phone.

Rulebooks quoted: 000 is tests/rulebooks/000_ebff617422767dd2.txt (onuw), 001 is
tests/rulebooks/001_208a09780179c69b.txt (poudlard).

The phones are scripted threads at the machine's edge: they read their seat's screen from the hub and
answer as the web server would hand their answers in (`hub.answer`). The table's voice is a scripted ear,
the clock a fake one. Every game is checked against `narrator resolve` of the record it writes.
"""

from __future__ import annotations

import copy
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
import yaml
from crash_rig import kill_at
from test_session import ClockSpeaker, fake_render

from narrator.app.family import resolve_record
from narrator.app.onenight import OneNight
from narrator.app.startup import Options, TableRequest, open_io, start
from narrator.listen.french import Parser
from narrator.listen.grammar import phrases
from narrator.listen.simple_ears import ScriptedEar
from narrator.phones.hub import Hub
from narrator.phones.screens import Form, Question, Screen
from narrator.rules.onenight.deal import random_record, shuffled
from narrator.script.marks import YamlError
from narrator.script.onenight.script import load_script, load_shipped, script_path
from narrator.script.prompts import load_prompts
from narrator.table import events as ev
from narrator.table.clock import FakeClock
from narrator.table.host import Stopped
from narrator.table.journal import Journal, JournalError, finished, read_journal
from narrator.table.onenight.announcer import plan
from narrator.table.onenight.session import Session
from narrator.table.voice import Voice

POUDLARD_FILE = "scripts/poudlard.yaml"


def shipped_text(file: str) -> str:
    return script_path("poudlard").read_text(encoding="utf-8")


ONUW = {
    "id": "onuw-phones",
    "ruleset": "onuw",
    "players": ["Ana", "Ben", "Cleo", "Dan", "Eva", "Fay"],
    "deal": {
        "Ana": "loup",
        "Ben": "doppelganger",
        "Cleo": "voyante",
        "Dan": "voleur",
        "Eva": "insomniaque",
        "Fay": "chasseur",
        "center": ["loup", "merdeux", "villageois"],
    },
    # the Doppelgänger copies the voyante and looks at once (000 i); the loup wakes alone and peeks
    "night": {
        "Ana": {"peek": "B"},
        "Ben": {"copy": "Cleo", "then": {"look": "Ana"}},
        "Cleo": {"look": ["A", "C"]},
        "Dan": {"swap_with": "Ana"},
    },
    "votes": {"Ana": "Dan", "Ben": "Dan", "Cleo": "Dan", "Dan": "Ana", "Eva": "Dan", "Fay": "Dan"},
}

POUDLARD = {
    "id": "poudlard-phones",
    "ruleset": "poudlard",
    "players": ["Ana", "Ben", "Cleo", "Dan", "Eva"],
    "deal": {
        "Ana": "mangemort",
        "Ben": "dumbledore",
        "Cleo": "neville",
        "Dan": "harry",
        "Eva": "minerva",
        "center": ["mangemort", "ron", "eleve"],
    },
    # Dumbledore looks at B and gives it to Eva; Neville swaps Ana and Dan; Harry turns Cleo's card face up
    "night": {
        "Ben": {"look": "B", "give_to": "Eva"},
        "Cleo": {"swap": ["Ana", "Dan"]},
        "Dan": {"reveal": "Cleo"},
    },
    "votes": {"Ana": "Dan", "Ben": "Dan", "Cleo": "Dan", "Dan": "Eva", "Eva": "Dan"},
}


class Phones:
    """Every seat's phone, a thread each: it answers its screen's question as its player chooses
    (`choose`), and every screen it was ever shown is kept, to check what reached which seat."""

    def __init__(
        self,
        hub: Hub,
        choose: Callable[[str, Question], object],
        slow: set[str] | None = None,
        clock: FakeClock | None = None,
        lazy: set[str] | None = None,
    ) -> None:
        self.hub, self.choose, self.slow, self.clock = hub, choose, slow or set(), clock
        self.lazy = lazy or set()  # phones that never touch a decoy (a phone left on the table)
        self.seen: dict[str, list[Screen]] = {seat: [] for seat in hub.seats}
        self.answered: list[tuple[str, Question, object]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        hub.watch(self._changed)
        self.threads = [threading.Thread(target=self._phone, args=(s,), daemon=True) for s in hub.seats]

    def _changed(self, seats: frozenset[str]) -> None:
        with self._lock:
            for seat in seats:
                self.seen[seat].append(self.hub.screen(seat))

    def _phone(self, seat: str) -> None:
        while not self._stop.is_set():
            screen = self.hub.screen(seat)
            if (
                screen.question is not None
                and not screen.answered
                and not (seat in self.lazy and screen.question.decoy)
            ):
                if seat in self.slow and not screen.question.decoy and self.clock is not None:
                    self.slow.discard(seat)
                    self.clock.advance(20)  # the player takes 20 seconds (on the game's fake clock)
                    time.sleep(0.3)  # meanwhile the game asks again aloud
                value = self.choose(seat, screen.question)
                if self.hub.answer(seat, screen.asked, value) is None:
                    with self._lock:
                        self.answered.append((seat, screen.question, value))
            time.sleep(0.002)

    def __enter__(self) -> Phones:
        for seat in self.hub.seats:  # each phone takes its seat and connects, as the server tells the hub
            self.hub.claim(seat)
            self.hub.connect(seat, True)
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self.threads:
            thread.join()


def chooser(record: dict) -> Callable[[str, Question], object]:
    """A player's answers on the phone: what the record says he chose; a decoy is touched anyhow."""
    words = load_shipped(record["ruleset"]).phones
    assert words is not None
    said = {f"{text} {words.decoy}": key for key, text in words.questions.items()}  # as every phone shows it

    def choose(seat: str, question: Question) -> object:
        if question.decoy or question.form is Form.TAP:  # touched as the form asks: two for a pair
            values = [c.value for c in question.choices]
            if not values:
                return None
            return values[:2] if question.form is Form.PAIR else values[:1] if question.form is Form.SOME else values[0]
        choice = record["night"].get(seat, {})
        if words.copy_step and words.copy_step in question.text:  # the Doppelgänger's neutral second step
            then = next(iter(choice.get("then", {}).values()), None)  # what his copied card does
            return None if then is None else then if isinstance(then, list) else [then]
        key = said[question.text]
        if key == "copy":
            return choice["copy"]
        inner = choice.get("then", choice) if "copy" in choice else choice
        value = inner.get({"look_center": "look"}.get(key, key))
        if isinstance(value, list) and key == "look":
            return "+".join(value)  # two middle cards: one choice of the list
        return value

    return choose


def game(record: dict, answers: list[str | None], **kwargs) -> tuple[Session, ClockSpeaker, Hub, FakeClock]:
    players = record["players"]
    deal = [record["deal"][p] for p in players] + record["deal"]["center"]
    script = load_shipped(record["ruleset"])
    clock = FakeClock()
    speaker = ClockSpeaker(clock)
    parser = parser_of(record["ruleset"], tuple(players))
    hub = Hub(players)
    session = Session(
        script=script,
        prompts=load_prompts(),
        players=tuple(players),
        in_play=sorted(deal),
        deal=deal,
        phones=hub,
        voice=Voice(fake_render, speaker),
        ear=ScriptedEar(answers),
        clock=clock,
        parser=parser,
        phrases=lambda phase: grammar_of(parser, phase),
        **kwargs,
    )
    assert session.on_phones is not None
    session.on_phones.poll_s = 0.05
    return session, speaker, hub, clock


@cache
def parser_of(game: str, players: tuple[str, ...]) -> Parser:
    return Parser(game, list(players))


@cache
def grammar_of(parser: Parser, phase: str) -> list[str]:
    return phrases(parser, phase, compact=True)


def day(record: dict) -> list[str | None]:
    ballots = [
        f"{voter.lower()} vote contre {(target or 'personne').lower()}" for voter, target in record["votes"].items()
    ]
    return [None, "on vote", *ballots, "oui"]


def narration(record: dict) -> object:
    script = load_shipped(record["ruleset"])
    players = record["players"]
    return plan(script.announce, [record["deal"][p] for p in players] + record["deal"]["center"], minutes=5)


def played(record: dict, **kwargs) -> tuple[Session, ClockSpeaker, Phones, object]:
    session, speaker, hub, _ = game(record, day(record))
    with Phones(hub, chooser(record), **kwargs) as phones:
        ending = session.run(narration(record))
    return session, speaker, phones, ending


@pytest.mark.parametrize("record", [ONUW, POUDLARD], ids=["onuw", "poudlard"])
def test_a_whole_game_on_the_phones_ends_as_narrator_resolve_of_its_record(record: dict) -> None:
    session, speaker, phones, ending = played(record)
    expected = resolve_record(record)
    assert set(ending.dead) == set(expected["dead"]) and set(ending.winners) == set(expected["winners"])
    written = session.record(ending)
    assert written["night"] == record["night"]  # the choices made on the phones, as the record holds them
    assert written["deal"] == record["deal"]
    again = resolve_record(copy.deepcopy(written))
    assert {k: again[k] for k in ("final", "learned", "dead", "winners", "why")} == {
        k: expected[k] for k in ("final", "learned", "dead", "winners", "why")
    }
    heard = [text for _, _, text in speaker.heard]
    assert not any("quelle carte" in t.lower() for t in heard)  # no round of cards: the final cards are known
    dawn = heard.index("Retournez vos cartes : voici la carte de chacun à la fin de la nuit.")
    assert heard[dawn - len(expected["why"]) : dawn] == expected["why"]  # the verdict, then every card
    assert isinstance(session.events[-3], ev.Outcome)  # then the story offered, its answer (the script ended)
    assert session.events[-2:] == [ev.StoryOffered(), ev.Story(False)]


def test_each_choice_is_journaled_before_what_it_shows_reaches_the_phone() -> None:
    session, _, phones, _ = played(ONUW)
    journaled = [(e.player, e.choice) for e in session.events if isinstance(e, ev.NightChoice)]
    # the Doppelgänger's copy first (he learns the voyante at once), then his look as the voyante
    assert journaled[:2] == [("Ben", {"copy": "Cleo"}), ("Ben", {"copy": "Cleo", "then": {"look": "Ana"}})]
    assert dict(journaled) == ONUW["night"]


def secrets_of(record: dict) -> dict[str, list[str]]:
    """What each player must be told, in the phone's words, from `narrator resolve`'s `learned`."""
    session, _, _, _ = game(record, [])
    assert session.on_phones is not None
    learned = resolve_record(record)["learned"]
    return {p: [session.on_phones.secret(k, v) for k, v in told.items()] for p, told in learned.items()}


@pytest.mark.parametrize("record", [ONUW, POUDLARD], ids=["onuw", "poudlard"])
def test_what_a_character_learns_is_on_his_phone_alone_and_never_said(record: dict) -> None:
    _, speaker, phones, _ = played(record)
    expected = secrets_of(record)
    heard = " ".join(text for _, _, text in speaker.heard)
    for seat in record["players"]:
        final = phones.hub.screen(seat).secrets
        assert sorted(final) == sorted(expected.get(seat, []))
        others = {s for other, told in expected.items() if other != seat for s in told} - set(expected.get(seat, []))
        for screen in phones.seen[seat]:  # not once, on any screen this seat was shown
            assert not others.intersection(screen.secrets)
    for told in expected.values():
        for secret in told:
            assert secret not in heard


def test_a_learned_card_reaches_the_phone_within_its_call() -> None:
    """000, 3a v: "La voyante reçoit le résultat de sa voyance." — in her call, before she sleeps again."""
    _, _, phones, _ = played(ONUW)
    cleo = phones.seen["Cleo"]
    told = next(i for i, s in enumerate(cleo) if s.secrets)
    assert cleo[told].question is not None  # her call's question still on screen: the call is not over


def test_every_other_phone_shows_a_decoy_of_the_same_look() -> None:
    session, _, phones, _ = played(ONUW)
    dan_screens = [s.question for s in phones.seen["Dan"] if s.question is not None and not s.answered]
    # in the voyante's call Dan (voleur) gets a decoy: players and middle pairs, one touch, no effect
    words = load_shipped("onuw").phones
    assert words is not None
    voyante = f"{words.questions['look']} {words.decoy}"  # the call's words, then whose touch counts
    decoys = [q for q in dan_screens if q.decoy]
    assert decoys and all(q.text.endswith(words.decoy) for q in decoys)
    looks = [q for q in phones.seen["Cleo"] if q.question and q.question.text == voyante]
    assert looks
    real = looks[0].question
    same = [q for q in decoys if len(q.choices) == len(real.choices) and q.form is real.form]
    # the same words too: a glance at Dan's phone reads what Cleo's reads
    assert same and all(q.text == real.text for q in same), "the voyante's decoy: her question's words and look"
    # every call puts a question on every phone at once: the called their own, the others a decoy
    everyone: dict[int, set[str]] = {}
    for seat, screens in phones.seen.items():
        for screen in screens:
            if screen.question is not None:
                everyone.setdefault(screen.asked, set()).add(seat)
    # (each seat numbers its own questions, so equal numbers mean the same step of the same call); in a
    # call of two steps (the Doppelgänger's, Dumbledore's) every phone answers twice
    calls = [c for c in narration(ONUW).callers if c]  # type: ignore[attr-defined]
    steps = len(calls) + len({c for c in calls if c[0] in ("doppelganger", "dumbledore")})  # their first call
    assert sum(1 for seats in everyone.values() if seats == set(ONUW["players"])) == steps


def decoy_forms(record: dict) -> list[tuple[str, int, bool]]:
    """The decoys Eva (insomniaque, at the end) was shown, call after call: form, choices, optional."""
    _, _, phones, _ = played(record)
    shown = []
    for screen in phones.seen["Eva"]:
        q = screen.question
        if q is not None and q.decoy and not screen.answered and (not shown or shown[-1][0] != screen.asked):
            shown.append((screen.asked, (q.form.value, len(q.choices), q.optional)))
    return [form for _, form in shown]


def test_a_decoy_looks_the_same_whether_the_card_was_dealt_or_lies_in_the_middle() -> None:
    """A call is read whether its card was dealt or lies in the middle (001: "Si un des personnages n’est
    pas en jeu, sauter simplement le paragraphe"): Eva's phone cannot tell which from her decoy."""
    swapped = copy.deepcopy(ONUW)
    deal = swapped["deal"]
    deal["Cleo"], deal["center"][1] = deal["center"][1], deal["Cleo"]  # the voyante in the middle, the merdeux dealt
    swapped["night"] = {"Ana": {"peek": "B"}, "Ben": {"copy": "Cleo", "then": {"swap": ["Ana", "Dan"]}}}
    swapped["night"]["Dan"] = {"swap_with": "Ana"}
    assert decoy_forms(ONUW) == decoy_forms(swapped)


def test_the_doppelganger_copies_then_acts_as_the_copied_card_in_its_call() -> None:
    """000, 3a i: "Le Doppelgänger agit s’il est voyante, voleur, merdeux ou saoulon." — at once; a
    Doppelgänger-loup wakes with the wolves (000, 3a ii: "(incluant le Doppelgänger-loup)")."""
    record = copy.deepcopy(ONUW)
    record["night"]["Ben"] = {"copy": "Ana"}  # he becomes a loup: Ana no longer wakes alone
    record["night"]["Ana"] = {}
    _, _, phones, ending = played(record)
    ben = phones.hub.screen("Ben").secrets
    words = load_shipped("onuw").phones
    assert words is not None
    assert "Ana : loup-garou." in ben
    assert words.group.format(group="Loups-garous", names="Ana et Ben") in ben
    asked_ana = [q.text for seat, q, _ in phones.answered if seat == "Ana" and not q.decoy]
    assert words.questions["peek"] not in asked_ana  # 000: only a wolf who wakes alone may peek
    assert resolve_record(record)["winners"] == ending.winners


def copier_deals() -> dict[str, dict]:
    """Ben's Doppelgänger copies a card that acts at once (the voyante who looks at a player or at two middle
    cards, the merdeux, the saoulon), one that wakes later (a loup), or lies in the middle (nobody copies)."""
    merdeux = copy.deepcopy(ONUW)
    merdeux["deal"]["Cleo"], merdeux["deal"]["center"][1] = "merdeux", "voyante"
    merdeux["night"]["Ben"] = {"copy": "Cleo", "then": {"swap": ["Ana", "Dan"]}}
    del merdeux["night"]["Cleo"]
    saoulon = copy.deepcopy(ONUW)
    saoulon["deal"]["Cleo"], saoulon["deal"]["center"][1] = "saoulon", "voyante"
    saoulon["night"]["Ben"], saoulon["night"]["Cleo"] = {"copy": "Cleo", "then": {"take": "B"}}, {"take": "A"}
    pair = copy.deepcopy(ONUW)
    pair["night"]["Ben"] = {"copy": "Cleo", "then": {"look": ["A", "C"]}}
    loup = copy.deepcopy(ONUW)
    loup["night"]["Ben"] = {"copy": "Ana"}
    del loup["night"]["Ana"]  # Ana no longer wakes alone: nothing to choose
    middle = copy.deepcopy(ONUW)
    middle["deal"]["Ben"], middle["deal"]["center"][2] = "villageois", "doppelganger"
    del middle["night"]["Ben"]
    return {
        "voyante": ONUW,
        "voyante_pair": pair,
        "merdeux": merdeux,
        "saoulon": saoulon,
        "loup": loup,
        "middle": middle,
    }


def questions_seen(phones: Phones) -> dict[str, list[tuple[str, str, int, bool]]]:
    """Each seat's questions, one entry per question, as a glance at its phone reads them: words, kind of
    list, how many choices, whether « Je passe » is offered."""
    out: dict[str, list[tuple[str, str, int, bool]]] = {}
    for seat, screens in phones.seen.items():
        shown: dict[int, tuple[str, str, int, bool]] = {}
        for screen in screens:
            q = screen.question
            if q is not None:
                shown.setdefault(screen.asked, (q.text, q.form.value, len(q.choices), q.optional))
        out[seat] = list(shown.values())
    return out


@pytest.mark.parametrize("deal", ["voyante", "voyante_pair", "merdeux", "saoulon", "loup", "middle"])
def test_in_the_doppelgangers_call_every_phone_shows_the_same_steps_whatever_he_copied(deal: str) -> None:
    """000, 3a i: "Le Doppelgänger agit s'il est voyante, voleur, merdeux ou saoulon." — at once, in his
    call; the other phones must not tell it: in his call every phone answers the same two steps, with the
    same words and the same kind of list (issue 26, 6), and so does every phone at every later call."""
    record = copier_deals()[deal]
    session, _, phones, ending = played(record)
    words = load_shipped("onuw").phones
    assert words is not None
    seen = questions_seen(phones)
    copy_step = f"{words.copy_step} {words.decoy}"
    for seat, questions in seen.items():
        # his call: the copy's question, then the one neutral step (every other player and the middle cards)
        assert [q[0] for q in questions[:2]] == [f"{words.questions['copy']} {words.decoy}", copy_step], seat
        assert questions[1][1:] == ("some", len(record["players"]) - 1 + 3, True), seat
    assert len({tuple(questions) for questions in seen.values()}) == 1, seen  # the whole night alike
    assert session.record(ending)["night"] == record["night"]  # his ticks read as his copied card's act
    assert resolve_record(record)["winners"] == ending.winners


def test_the_same_steps_are_seen_whatever_the_doppelganger_copied() -> None:
    """A neighbour who reads any phone in his call cannot tell a Doppelgänger who acts at once from one who
    does not, nor from one whose card lies in the middle: the same questions, in the same order."""
    seen = {}
    for name, record in copier_deals().items():
        _, _, phones, _ = played(record)
        seen[name] = questions_seen(phones)["Eva"][:2]  # Eva: the insomniaque, never called in his call
    assert len({tuple(s) for s in seen.values()}) == 1, seen


def dumbledore_deals() -> dict[str, dict]:
    """Ben's Dumbledore looks and gives (POUDLARD), looks at nothing, or lies in the middle."""
    passes = copy.deepcopy(POUDLARD)
    del passes["night"]["Ben"]  # « Je passe »: the record keeps no choice
    middle = copy.deepcopy(POUDLARD)
    middle["deal"]["Ben"], middle["deal"]["center"][2] = "eleve", "dumbledore"
    del middle["night"]["Ben"]
    return {"gives": POUDLARD, "passes": passes, "middle": middle}


@pytest.mark.parametrize("deal", ["gives", "passes", "middle"])
def test_in_dumbledores_call_every_phone_shows_the_same_two_steps_whatever_he_does(deal: str) -> None:
    """001: "Tu peux regarder une des cartes au centre. Si tu le fais, tu dois échanger cette carte avec celle
    d’un autre joueur, éventuellement la tienne" — two steps for him, so two on every phone, in the same
    words (issue 26, 6), whether he looks, passes, or his card lies in the middle."""
    record = dumbledore_deals()[deal]
    session, _, phones, ending = played(record)
    words = load_shipped("poudlard").phones
    assert words is not None
    seen = questions_seen(phones)
    look, give = (f"{words.questions[k]} {words.decoy}" for k in ("look_center", "give_to"))
    for seat, questions in seen.items():
        at = [q[0] for q in questions].index(look)
        assert [q[0] for q in questions[at : at + 2]] == [look, give], seat
    assert len({tuple(questions) for questions in seen.values()}) == 1, seen  # the whole night alike
    assert session.record(ending)["night"] == record["night"]


def test_a_combination_his_copied_card_refuses_is_asked_again_on_every_phone_alike() -> None:
    """000, 3a v: the voyante looks at "la carte d'un autre joueur, ou de deux des trois cartes du milieu":
    one middle card ticked is refused, and every phone, not his alone, shows the step again under words
    that say so; then his next ticks count."""
    words = load_shipped("onuw").phones
    assert words is not None
    choose = chooser(ONUW)
    wrong = {"Ben": ["B"]}  # one middle card: no voyante's look

    def careless(seat: str, question: Question) -> object:
        if seat in wrong and not question.decoy and question.form is Form.SOME:
            return wrong.pop(seat)
        return choose(seat, question)

    session, _, hub, _ = game(ONUW, day(ONUW))
    with Phones(hub, careless) as phones:
        ending = session.run(narration(ONUW))
    assert session.record(ending)["night"] == ONUW["night"]  # the second ticks counted: Ana's card
    again = f"{words.copy_refused} {words.copy_step} {words.decoy}"
    seen = questions_seen(phones)
    for seat, questions in seen.items():
        texts = [q[0] for q in questions]
        assert again in texts, seat  # every phone says the ticks were refused, next to the question
        # and shows nothing else in his call: the copy, the neutral step, the neutral step asked again
        call = texts[: texts.index(again) + 1]
        assert set(call) <= {f"{words.questions['copy']} {words.decoy}", f"{words.copy_step} {words.decoy}", again}
    assert not any(words.copy_refused in secret for seat in ONUW["players"] for secret in hub.screen(seat).secrets)


def test_harrys_face_up_card_is_said_to_everyone_at_dawn() -> None:
    """001: "Harry se réveille et peut retourner la carte d’un joueur au choix. Cette carte reste visible
    durant la journée." """
    _, speaker, phones, _ = played(POUDLARD)
    words = load_shipped("poudlard").phones
    assert words is not None
    face_up = words.visible.format(name="Cleo", card="Neville Londubat")
    heard = [(line, t) for _, line, t in speaker.heard]
    at = [t for _, t in heard].index(face_up)
    # ear.md 20: said once the eyes are open, before the debate's clock is given
    assert heard[at - 1][0] == "day_start" and heard[at + 1][0].startswith("discussion_start")
    assert all(phones.hub.screen(seat).status.endswith(face_up) for seat in POUDLARD["players"])  # on every phone


def test_a_missing_answer_is_asked_again_aloud_without_naming_its_holder() -> None:
    session, speaker, hub, clock = game(ONUW, day(ONUW))
    assert session.on_phones is not None
    session.on_phones.again_s = 10
    with Phones(hub, chooser(ONUW), slow={"Dan"}, clock=clock):
        session.run(narration(ONUW))
    words = load_shipped("onuw").phones
    assert words is not None
    ids = [line_id for _, line_id, _ in speaker.heard]
    assert "phones_late" in ids
    missing = ids.index("phones_late")
    assert ids.index("voleur_wake") < missing < ids.index("voleur_sleep")  # in the voleur's call
    assert "Dan" not in words.missing and "voleur" not in words.missing.lower()


def test_while_an_answer_is_late_the_table_is_heard_and_may_stop_the_night() -> None:
    """A phone that died mid-call must not hold the table hostage: after « J'attends encore une réponse »
    the narrator hears the table (« stop », « libère la place de … »)."""
    session, speaker, hub, clock = game(ONUW, ["stop", "oui"])
    assert session.on_phones is not None
    session.on_phones.again_s = 10
    with Phones(hub, chooser(ONUW), slow={"Dan"}, clock=clock), pytest.raises(Stopped):
        session.run(narration(ONUW))
    ids = [line_id for _, line_id, _ in speaker.heard]
    assert "phones_late" in ids and ids.index("voleur_wake") < ids.index("phones_late")
    assert "voleur_sleep" not in ids  # stopped in the voleur's call, where Dan's phone was awaited
    assert isinstance(session.events[-1], ev.Stop)


def test_an_untouched_decoy_is_awaited_and_reminded_as_a_late_answer_is() -> None:
    """A call must not tell whether its card was dealt: a phone that does not touch its decoy keeps the
    call open and asked again aloud, exactly as a slow holder would."""
    session, speaker, hub, clock = game(ONUW, ["stop", "oui"])
    assert session.on_phones is not None
    session.on_phones.again_s = 1  # asked again after a second of the game's clock (20 of its polls)
    lazy = next(p for p in ONUW["players"] if p != "Dan")
    with Phones(hub, chooser(ONUW), clock=clock, lazy={lazy}), pytest.raises(Stopped):
        session.run(narration(ONUW))
    ids = [line_id for _, line_id, _ in speaker.heard]
    assert "phones_late" in ids and isinstance(session.events[-1], ev.Stop)
    assert not any(isinstance(e, ev.NightDone) for e in session.events)  # stopped in the night


def test_a_call_lasts_at_least_its_wait() -> None:
    session, speaker, phones, _ = played(ONUW)
    heard = {line_id: at for at, line_id, _ in speaker.heard}
    for call in ("loups", "voyante", "voleur", "insomniaque"):
        assert heard[f"{call}_sleep"] - heard[f"{call}_wake"] >= 5  # its wait: 5 s (+ its lines)


@pytest.mark.parametrize(
    ("cut_after", "restarts_at"), [(1, "doppelganger_wake"), (2, "doppelganger_wake"), (3, "loups_wake")]
)
def test_a_game_killed_mid_night_resumes_at_its_call_without_asking_again(cut_after: int, restarts_at: str) -> None:
    """The journal holds the night's choices: a resumed night restarts the call it was in; what was
    answered is not asked again, and what was learned is back on the phones."""
    first, _, _, ending = played(ONUW)
    made = [i for i, e in enumerate(first.events) if isinstance(e, ev.NightChoice)]
    cut = first.events[: made[cut_after - 1] + 1]  # killed right after this choice was journaled
    kept = {(e.player, key) for e in cut if isinstance(e, ev.NightChoice) for key in _keys(e.choice)}
    session, speaker, hub, _ = game(ONUW, day(ONUW))
    with Phones(hub, chooser(ONUW)) as phones:
        again = session.run(narration(ONUW), cut)
    assert (again.winners, again.dead) == (ending.winners, ending.dead)
    assert session.record(again)["night"] == ONUW["night"]
    words = load_shipped("onuw").phones
    assert words is not None
    said = {f"{text} {words.decoy}": key for key, text in words.questions.items()}  # as every phone shows it
    said[f"{words.copy_step} {words.decoy}"] = "then"  # the copier's second step: his copied card's act
    asked = {(seat, said[q.text]) for seat, q, _ in phones.answered if not q.decoy and q.form is not Form.TAP}
    assert not {(p, {"look_center": "look"}.get(k, k)) for p, k in asked} & kept  # nothing answered asked again
    heard = [line for _, line, _ in speaker.heard]
    assert heard[0] == "resumed_night"  # « On reprend la partie. C'est la nuit : tout le monde ferme les yeux. »
    assert heard[1] == restarts_at and heard.count(restarts_at) == 1  # the call it was in, said once
    expected = secrets_of(ONUW)
    for seat in ONUW["players"]:
        assert sorted(hub.screen(seat).secrets) == sorted(expected.get(seat, []))


def _keys(choice: dict) -> set[str]:
    return set(choice) | set(choice.get("then", {}))


def test_random_games_on_the_phones_end_as_narrator_resolve_says() -> None:
    rng = random.Random(16)
    for game_name in ["onuw", "poudlard"] * 6:
        rules = load_shipped(game_name).rules
        record = random_record(rules, rng, rng.randint(3, 6), names=None)
        names = ["Ana", "Ben", "Cleo", "Dan", "Eva", "Fay"][: len(record["players"])]
        rename = dict(zip(record["players"], names))
        record = _renamed(record, rename)
        session, _, phones, ending = played(record)
        expected = resolve_record(record)
        assert set(ending.dead) == set(expected["dead"]), record
        assert resolve_record(session.record(ending))["final"] == expected["final"]


def _renamed(record: dict, rename: dict[str, str]) -> dict:
    """A random record with speakable names (the scripted ear hears them)."""

    def swap(value: object) -> object:
        if isinstance(value, str):
            return rename.get(value, value)
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {rename.get(k, k): swap(v) for k, v in value.items()}
        return value

    return {k: swap(v) for k, v in record.items()}


def test_the_deal_is_a_shuffle_of_the_cards_in_play_drawn_from_its_seed() -> None:
    cards = ["loup", "loup", "voyante", "voleur", "merdeux", "villageois"]
    assert shuffled(cards, random.Random(3)) == shuffled(cards, random.Random(3))
    assert sorted(shuffled(cards, random.Random(3))) == sorted(cards)
    assert len({tuple(shuffled(cards, random.Random(s))) for s in range(20)}) > 1


def test_a_table_with_phones_is_dealt_from_its_seed_and_rebuilt_from_its_header(tmp_path) -> None:
    """000, « Le déroulement du jeu »: "Il distribue une carte à chaque joueur et trois au milieu,
    identifiés A-B-C": the program deals the cards in play, and the journal's header keeps the deal and its seed."""
    family = OneNight()
    asked = TableRequest(players=["Ana", "Ben", "Cleo"], scenario="decouverte", seed=11)
    table = family.table("onuw", asked).dealt(11)
    header = table.header()
    assert header["seed"] == 11 and sorted(header["deal"]) == sorted(header["in_play"])  # type: ignore[arg-type]
    assert header["deal"] == family.table("onuw", asked).dealt(11).header()["deal"]  # the same seed, the same deal
    journal = Journal.create({"family": "onenight", "game": "onuw", "script": "x", "players": table.players,
                              **header, "voice": "fr"}, tmp_path / "g.jsonl")  # fmt: skip
    journal.close()
    rebuilt = family.from_header(read_journal(tmp_path / "g.jsonl")[0])
    assert (rebuilt.deal, rebuilt.seed) == (table.deal, 11)
    assert (
        "deal" not in family.table("onuw", TableRequest(players=["Ana", "Ben", "Cleo"], scenario="decouverte")).header()
    )


def test_a_night_choice_edited_in_the_journal_is_refused_at_its_line() -> None:
    first, _, _, _ = played(ONUW)
    made = [i for i, e in enumerate(first.events) if isinstance(e, ev.NightChoice)]
    cut = first.events[: made[2] + 1]
    cut[made[2]] = ev.NightChoice("Ana", {"peek": "Zoé"})  # the lone wolf peeks at no middle card
    session, _, _, _ = game(ONUW, day(ONUW))
    with pytest.raises(JournalError, match=r"ligne .*night_choice.*night\.Ana\.peek"):
        session.run(narration(ONUW), cut)


def test_a_script_with_phones_needs_every_cards_text_and_every_groups_name() -> None:
    text = shipped_text(POUDLARD_FILE)
    no_card = re.sub(r"^    card: .*\n", "", text, count=1, flags=re.MULTILINE)
    assert any("roles.mangemort: clé manquante « card »" in p for p in yaml_problems(no_card))
    no_group = text.replace("groups: {mangemorts: Mangemorts, jumeaux: Fred et George}", "groups: {mangemorts: M}")
    assert any("phones.groups: clé manquante « jumeaux »" in p for p in yaml_problems(no_group))
    bad = text.replace('seen: "{place} : {card}."', 'seen: "{place} : {role}."')
    assert any("phones.seen: {role} inconnu" in p for p in yaml_problems(bad))


def test_a_script_with_a_doppelganger_needs_the_words_of_his_second_step() -> None:
    text = script_path("onuw").read_text(encoding="utf-8")
    without = re.sub(r"^  copy_step: .*\n", "", text, flags=re.MULTILINE)
    assert any("phones: clé manquante « copy_step »" in p for p in yaml_problems(without, "scripts/onuw.yaml"))


def yaml_problems(text: str, file: str = POUDLARD_FILE) -> list[str]:
    with pytest.raises(YamlError) as caught:
        load_script(text, file)
    return [str(p) for p in caught.value.problems]


def first_choices(seat: str, question: Question) -> object:
    """A player who touches the first choices offered (a legal night whatever the deal): on the Doppelgänger's
    second step, nothing, which every copied card takes but the saoulon's; asked again, one middle card
    (tests/phone_rig.py does the same in its own process)."""
    values = [c.value for c in question.choices]
    if question.form is Form.SOME:
        refused = load_shipped("onuw").phones.copy_refused  # type: ignore[union-attr]
        return values[-1:] if refused in question.text else []
    return None if question.form is Form.TAP else values[:2] if question.form is Form.PAIR else values[0]


def test_the_family_plays_a_phone_game_and_writes_the_record_resolve_plays_to_the_same_end(tmp_path, capsys) -> None:
    """From the table asked for to the record beside the journal: the start-up's phones, the journal's deal."""
    players = ["Ana", "Ben", "Cleo", "Dan", "Eva"]
    table = OneNight().table("poudlard", TableRequest(players=players, scenario="premiere_annee")).dealt(4)
    ballots = [f"{p.lower()} vote contre {players[(i + 1) % 5].lower()}" for i, p in enumerate(players)]
    answers = tmp_path / "day.txt"
    answers.write_text("\n".join(["on vote", *ballots, "oui"]) + "\n", encoding="utf-8")
    options = Options(ear=f"script:{answers}", no_wait=True, wav=str(tmp_path / "n.wav"), phones=True)
    options.bind, options.port = "127.0.0.1", 0
    io = open_io(options, players)  # the phones' server on the loopback
    assert io.phones is not None
    hub = io.phones.hub
    with Phones(hub, first_choices):
        assert start(table, options, str(tmp_path / "game.jsonl"), io) == 0
    header, events = read_journal(tmp_path / "game.jsonl")[:2]
    assert header["deal"] == table.deal and header["seed"] == 4  # type: ignore[attr-defined]
    record = yaml.safe_load((tmp_path / "game.record.yaml").read_text(encoding="utf-8"))
    assert record["deal"] == {**dict(zip(players, table.deal[:5])), "center": table.deal[5:]}  # type: ignore[index]
    outcome = next(e for e in events if isinstance(e, ev.Outcome))
    assert sorted(resolve_record(record)["winners"]) == sorted(outcome.winners)
    captured = capsys.readouterr()
    assert "Réveillez-vous tous" in captured.out  # the console shows what the table hears…
    told = [secret for seat in players for secret in hub.screen(seat).secrets]
    assert told and not [s for s in told if s in captured.out + captured.err]  # …and no phone's secret


RIG = Path(__file__).with_name("phone_rig.py")


def rig(mode: str, journal: Path) -> list[str]:
    return [sys.executable, str(RIG), mode, str(journal)]


def phone_game(journal: Path) -> tuple[list[ev.Event], list[ev.Event]]:
    """The night's choices, and the vote and outcome, of a phone game's journal."""
    events = read_journal(journal)[1]
    return [e for e in events if isinstance(e, ev.NightChoice)], [
        e for e in events if isinstance(e, ev.Vote | ev.Outcome)
    ]


@pytest.fixture(scope="module")
def crash_env() -> dict[str, str]:
    return {**os.environ, "PULSE_SERVER": "unix:/nonexistent"}


@pytest.fixture(scope="module")
def uninterrupted_phone_game(tmp_path_factory, crash_env) -> tuple[list[ev.Event], list[ev.Event]]:
    journal = tmp_path_factory.mktemp("phones") / "whole.jsonl"
    run = subprocess.run(rig("play", journal), env=crash_env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return phone_game(journal)


@pytest.mark.parametrize("after_events", [1, 3, 5, 7, 9, 11, 13])
def test_a_phone_game_killed_with_sigkill_mid_night_resumes_to_the_same_end(
    tmp_path, crash_env, uninterrupted_phone_game, after_events
) -> None:
    """Each choice journaled before it is applied: a game killed anywhere in its night and resumed by
    `narrator resume` makes the same choices, none asked twice (the same `night_choice` lines), and ends
    the same."""
    journal = tmp_path / "killed.jsonl"
    kill_at(rig("play", journal), crash_env, journal, after_events)
    if not finished(read_journal(journal)[1]):
        run = subprocess.run(rig("resume", journal), env=crash_env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
    assert phone_game(journal) == uninterrupted_phone_game


def test_a_vote_said_as_tallies_is_written_as_ballots_that_make_the_same_counts() -> None:
    session, _, hub, _ = game(ONUW, [None, "on vote", "cinq voix pour dan", "une voix pour ana", "oui"])
    with Phones(hub, chooser(ONUW)):
        ending = session.run(narration(ONUW))
    votes = session.record(ending)["votes"]
    assert sorted(t for t in votes.values() if t) == ["Ana", "Dan", "Dan", "Dan", "Dan", "Dan"]  # type: ignore[union-attr]
    again = resolve_record(session.record(ending))
    assert (sorted(again["dead"]), sorted(again["winners"])) == (sorted(ending.dead), sorted(ending.winners))


def test_each_phone_shows_its_card_named_as_printed_with_its_camp_the_doppelganger_too() -> None:
    """Issue 26: the card large, « with its name, its camp »: names capitalized as on the cards (« Voyante »,
    000 says « voyante » in its sentences); the Doppelgänger's text names no camp: he plays for the card he
    copies (000 2a: « il devient ce rôle »)."""
    session, _, hub, _ = game(ONUW, day(ONUW))
    with Phones(hub, chooser(ONUW)):
        session.run(narration(ONUW))
    cards = {seat: hub.screen(seat).card for seat in ONUW["players"]}
    assert {seat: (c.name, c.camp) for seat, c in cards.items() if c is not None} == {
        "Ana": ("Loup-garou", "Camp des loups-garous"),
        "Ben": ("Doppelgänger", "Camp de la carte copiée"),
        "Cleo": ("Voyante", "Camp du village"),
        "Dan": ("Voleur", "Camp du village"),
        "Eva": ("Insomniaque", "Camp du village"),
        "Fay": ("Chasseur", "Camp du village"),
    }


def test_the_end_reaches_the_phones_as_the_verdict_is_said_before_the_dawn_cards() -> None:
    # the outside test of issue 26: the phones showed the day's ballot for half a minute after the verdict,
    # while every card at dawn was read aloud
    session, speaker, hub, _ = game(ONUW, day(ONUW))
    ends: list[int] = []  # how many lines the table had heard when the end was shown
    statuses: list[tuple[int, str]] = []  # … when each public line was shown
    public, status = hub.public, hub.status

    def showing(**kwargs: object) -> None:
        if kwargs.get("end") is not None:
            ends.append(len(speaker.heard))
        public(**kwargs)

    def stating(text: str) -> None:
        statuses.append((len(speaker.heard), text))
        status(text)

    hub.public, hub.status = showing, stating  # type: ignore[method-assign]
    with Phones(hub, chooser(ONUW)):
        session.run(narration(ONUW))
    heard = [text for _, _, text in speaker.heard]
    dawn = heard.index("Retournez vos cartes : voici la carte de chacun à la fin de la nuit.")
    assert ends and ends[0] <= dawn  # the verdict said, the dawn's cards not yet
    # and through the vote the public line says the vote, no longer « le débat »
    asked = next(n for n, t in enumerate(heard) if t.startswith("Dites-moi les votes"))
    assert [t for n, t in statuses if n <= asked + 1][-1] == "Le jour : le vote."
