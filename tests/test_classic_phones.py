"""Classic Thiercelieux with the players' phones and no operator: whole games played by scripted phones
(each calls `Hub.answer` as the web server would) and the scripted voice, each checked against
`narrator resolve` of the record the game writes; decoys on every other phone; what a character
learns on their phone alone; the pack agreeing; a slow answer asked again aloud; a game cut mid-night
and resumed."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from phones_client import Phone
from test_phones_table import Phones as SeatedPhones
from test_phones_table import Table as CommandLine
from test_session import ClockSpeaker, fake_render

from narrator.app.classic import Classic, _card
from narrator.app.family import resolve_record
from narrator.app.record_play import RecordVoices, answer_of
from narrator.app.startup import TableRequest
from narrator.listen.french import Parser
from narrator.phones.hub import Hub
from narrator.phones.screens import Choice, Form, Question, Screen
from narrator.rules.classic import Options
from narrator.rules.classic.asks import Kind
from narrator.rules.classic.deal import random_record
from narrator.script.classic.narration import load_narration
from narrator.script.classic.script import load_classic
from narrator.script.prompts import load_phone_prompts, load_prompts
from narrator.table import events as ev
from narrator.table.classic.phones import PhoneOperator
from narrator.table.classic.session import ClassicSession
from narrator.table.clock import FakeClock
from narrator.table.journal import Journal, read_journal
from narrator.table.voice import Voice

PLAYERS = ["Ana", "Ben", "Cleo", "Dan", "Eva", "Fay", "Gus", "Hugo"]
DEAL = ["loup", "loup", "voyante", "sorciere", "chasseur", "cupidon", "petite_fille", "villageois"]
NIGHT_1 = {
    "cupidon": ["Cleo", "Hugo"],
    "voyante": "Ana",
    "petite_fille": {"spied": True, "caught": False},
    "loup": "Hugo",
    "sorciere": {"heal": False, "poison": None},
}
RECORD = {
    "ruleset": "thiercelieux",
    "players": PLAYERS,
    "deal": dict(zip(PLAYERS, DEAL)),
    "options": {"captain": False},
    "phases": [
        {"night": NIGHT_1},
        {"day": {"votes": {"Ana": "Eva", "Ben": "Eva", "Dan": "Eva", "Eva": "Ana", "Fay": "Eva", "Gus": "Ana"}}},
        {"night": {"petite_fille": {"spied": True, "caught": True}, "loup": "Dan"}},
    ],
}
# the hunter's shot comes after the votes, the witch's potions after the pack: the record's order
RECORD["phases"][1]["day"]["chasseur"] = "Ana"
RECORD["phases"][2]["night"]["sorciere"] = {"heal": False, "poison": "Ben"}

LOVERS = "Cupidon unit Cleo et Hugo pour toujours."
SEEN = "La voyante regarde la carte de son choix : Ana a la carte loup-garou."
SPIED = "Gus, qui a la carte petite fille, espionne les loups-garous sans se faire surprendre."
SPARED = "Les loups-garous renoncent à leur victime, Dan."


@dataclass
class Phones:
    """Every seat's phone, scripted: a thread that answers each question it shows (`answer`: the seat, the
    question, how many times that seat was asked), and the history of every screen each seat showed."""

    hub: Hub
    answer: Callable[[str, Question, int], object]
    delay: Callable[[str, Question], float] = lambda seat, question: 0.0
    shown: dict[str, list[Screen]] = field(default_factory=dict)
    rounds: dict[int, dict[str, Question]] = field(default_factory=dict)  # each question number: each seat's
    refused: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.shown = {seat: [] for seat in self.hub.seats}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.hub.watch(self._changed)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _changed(self, seats: frozenset[str]) -> None:
        with self._lock:
            for seat in seats:
                screen = self.hub.screen(seat)
                self.shown[seat].append(screen)
                if screen.question is not None:
                    self.rounds.setdefault(screen.asked, {})[seat] = screen.question

    def _run(self) -> None:
        done = dict.fromkeys(self.hub.seats, 0)
        asked = dict.fromkeys(self.hub.seats, 0)
        due: dict[str, float] = {}
        while not self._stop.is_set():
            for seat in self.hub.seats:
                screen = self.hub.screen(seat)
                if screen.question is None or screen.answered or screen.asked <= done[seat]:
                    continue
                wait = due.setdefault(seat, time.monotonic() + self.delay(seat, screen.question))
                if time.monotonic() < wait:
                    continue
                del due[seat]
                done[seat] = screen.asked
                asked[seat] += 1
                problem = self.hub.answer(seat, screen.asked, self.answer(seat, screen.question, asked[seat]))
                if problem:
                    self.refused.append(f"{seat}: {problem}")
            time.sleep(0.001)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def secrets(self, seat: str) -> set[str]:
        return {text for screen in self.shown[seat] for text in screen.secrets}

    def everything(self, seat: str) -> str:
        """All the words seat's phone ever showed."""
        words = []
        for screen in self.shown[seat]:
            words += screen.secrets
            if screen.question is not None:
                words += [screen.question.text, *(c.label for c in screen.question.choices)]
        return "\n".join(words)


def decoy_touch(question: Question) -> object:
    """What a player touches on a decoy: anything it offers."""
    names = [c.value for c in question.choices]
    if question.form is Form.YES_NO:
        return random.choice([True, False])
    if question.form is Form.ONE:
        return random.choice(names)
    if question.form is Form.PAIR:
        return names[:2]
    return names[: question.count or 1]


def record_phone(record: dict, session_of: Callable[[], ClassicSession]) -> Callable[[str, Question, int], object]:
    """Each holder answers what `record` says; a decoy is touched anyhow."""
    phases = [next(iter(p.values())) or {} for p in record["phases"]]
    seen: dict = {}

    def answer(seat: str, question: Question, nth: int) -> object:
        if question.decoy:
            return decoy_touch(question)
        session = session_of()
        ask = session.asking
        value = answer_of(phases, seen, ask, session.phase)
        if ask.kind is Kind.POTIONS:
            part = "heal" if question.form is Form.YES_NO else "poison"
            return (value or {}).get(part, False if part == "heal" else None)
        if ask.kind is Kind.SPY:
            spied = (value or {}).get("spied", False)
            return spied if seat == ask.by[0] else (value or {}).get("caught", False)
        if ask.kind is Kind.YES_NO:
            return bool(value)
        if ask.kind is Kind.OPTION:
            return None if value is None else str(value)
        return value

    return answer


@dataclass
class Table:
    session: ClassicSession
    hub: Hub
    phones: Phones
    speaker: ClockSpeaker

    def said(self) -> list[str]:
        return [text for _, _, text in self.speaker.heard]


def phone_table(
    record: dict,
    answer: Callable[[str, Question, int], object] | None = None,
    journal: Journal | None = None,
    patience: float = 5.0,
    delay: Callable[[str, Question], float] | None = None,
    remind: Callable[[], None] | None = None,
) -> Table:
    players = record["players"]
    deal = record["deal"]
    clock = FakeClock()
    speaker = ClockSpeaker(clock)
    voice = Voice(fake_render, speaker)
    prompts, words = load_prompts(), load_phone_prompts()
    hub = Hub(players)
    operator = PhoneOperator(
        hub,
        load_narration().phones,
        words,
        remind or (lambda: voice.tell(words.line("waiting_answer"))),
        patience=patience,
    )
    ear = RecordVoices(record)
    session = ClassicSession(
        prompts=prompts,
        voice=voice,
        ear=ear,
        clock=clock,
        parser=Parser("thiercelieux", players),
        phrases=lambda phase: [],
        journal=journal,
        rules=load_classic(),
        narration=load_narration(),
        players=tuple(players),
        deal=tuple(deal[p] for p in players),
        options=Options(**record.get("options", {})),
        extra=tuple(deal.get("extra", ())),
        groups=tuple(deal["groups"][p] for p in players) if "groups" in deal else (),
        operator=operator,
        minutes=1,
    )
    ear.session = session
    phones = Phones(hub, answer or record_phone(record, lambda: session), delay or (lambda seat, q: 0.0))
    return Table(session, hub, phones, speaker)


def play(table: Table, events: list[ev.Event] | None = None):
    try:
        return table.session.run(events)
    finally:
        table.phones.stop()


def test_an_eight_player_game_on_phones_ends_as_narrator_resolve_says(capsys) -> None:
    table = phone_table(RECORD)
    ending = play(table)
    expected = resolve_record(RECORD)
    # the game the phones played is the record, and `narrator resolve` of what the table wrote ends the same
    assert resolve_record(ending.record) == expected
    assert [p for p in ending.record["phases"]] == [
        {"night": NIGHT_1},
        {"day": RECORD["phases"][1]["day"]},
        {"night": RECORD["phases"][2]["night"]},
    ]
    assert ending.winners == expected["winners"] == ["Cleo", "Dan", "Eva", "Fay", "Gus", "Hugo"]
    assert table.phones.refused == []
    # every night choice is journaled as the phones' (the hunter's shot and the votes are the voice's)
    answers = [e for e in table.session.events if isinstance(e, ev.Answer)]
    assert {a.key: a.by for a in answers} == {
        "cupidon": "phone",
        "voyante": "phone",
        "petite_fille": "phone",
        "loup": "phone",
        "sorciere": "phone",
        "votes": "voice",
        "chasseur": "voice",
    }
    # 003: "Les morts de la nuit ne sont révélés qu'au matin": the public sentences are spoken, in order
    said = table.said()
    assert [w for w in expected["why"] if w in said] == [w for w in said if w in expected["why"]]
    assert "La nuit a coûté la vie à Hugo, qui avait la carte villageois." in said
    # nothing on the terminal in phone mode
    out = capsys.readouterr()
    for secret in (LOVERS, SEEN, SPIED, SPARED, "Ana est loup-garou"):
        assert secret not in out.out + out.err
        assert not any(secret in line for line in said)


def test_what_a_character_learns_is_on_their_phone_alone() -> None:
    table = phone_table(RECORD)
    play(table)
    phones = table.phones
    learners = {
        # 002, Cupidon: "il désigne les 2 joueurs … amoureux": Cupidon and the two lovers learn it
        LOVERS: {"Fay", "Cleo", "Hugo"},
        # 002, Voyante: "elle découvre la vraie personnalité d'un joueur de son choix"
        SEEN: {"Cleo"},
        # the petite fille alone knows she spied unseen: the wolves are not told
        SPIED: {"Gus"},
        # the pack (Ben, alone alive) learns its victim is spared once the petite fille is caught
        SPARED: {"Ben"},
    }
    for secret, seats in learners.items():
        holders = {seat for seat in PLAYERS if secret in phones.secrets(seat)}
        assert holders == seats, secret
        # no other seat's screen ever showed the words, in a secret or a question
        for seat in set(PLAYERS) - seats:
            assert secret not in phones.everything(seat)
    # the engine's other sentences are told to nobody: « Nuit 1. » is not a secret of anyone
    assert all(not any(s.startswith(("Nuit", "Jour")) for s in phones.secrets(seat)) for seat in PLAYERS)
    # the voyante's look is not in anyone's questions either, and no seat ever saw another's card
    assert all(screen.card is None for seat in PLAYERS for screen in phones.shown[seat])


def test_every_other_phone_shows_a_decoy_of_the_same_form() -> None:
    table = phone_table(RECORD)
    play(table)
    rounds = table.phones.rounds
    assert rounds
    # the lists of names of each night (the rounds of Cupidon, the voyante, the pack, the poison): on every
    # phone the living but its holder (Cupidon may choose himself: then every phone shows every name), so
    # that a decoy beside a list looks like it, and neither tells who the wolves are nor who the voyante is
    night_2 = ["Ben", "Dan", "Fay", "Gus"]  # Hugo devoured, Cleo grieved, Eva voted out, Ana shot
    lists = {1: PLAYERS, 2: PLAYERS, 4: PLAYERS, 6: PLAYERS, 8: night_2, 10: night_2}
    for number, questions in rounds.items():
        # every seat is asked, the dead included, so nobody learns who acted from who touched a phone
        assert set(questions) == set(PLAYERS), number
        real = {seat for seat, q in questions.items() if not q.decoy}
        assert real, number
        forms = {q.form for q in questions.values()}
        assert len(forms) == 1, (number, forms)
        if number in lists:
            names = lists[number]
            whole = {seat: tuple(Choice(p, p) for p in names) for seat in PLAYERS}
            but_own = {seat: tuple(Choice(p, p) for p in names if p != seat) for seat in PLAYERS}
            shown = {seat: q.choices for seat, q in questions.items()}
            assert shown in (whole, but_own), number
            # the rules let Cupidon (002: "il peut se désigner lui-même") and the sorcière's poison choose
            # their own holder: in those calls (the poison: rounds 6 and 10), and no other, every phone shows every name
            assert (shown == whole) == (number in (1, 6, 10)), number
        # a glance at any phone tells nothing: the same words on every phone, decoys included
        texts = {q.text for q in questions.values()}
        assert len(texts) == 1, (number, texts)
        # and no name in them: a name only the called may read is in their secrets (the witch's victim)
        assert not any(p in text for p in PLAYERS for text in texts), (number, texts)
    heal = load_narration().phones["heal"].split("{")[0]
    assert [t for t in table.phones.secrets("Dan") if t.startswith(heal)]  # the sorcière (Dan) reads the victim
    assert not any(t.startswith(heal) for seat in set(PLAYERS) - {"Dan"} for t in table.phones.secrets(seat))
    # the voyante's list is the rules' own; the pack's shows the other wolf; no phone refuses a touch by
    # itself (a refusal on one phone would tell it is live): every name a phone shows, it sends
    assert "Cleo" not in [c.value for c in rounds[2]["Cleo"].choices]
    assert "Ben" in [c.value for c in rounds[4]["Ana"].choices]
    assert all(q.allowed is None for qs in rounds.values() for q in qs.values())
    assert all(q.check(c.value) is None for qs in rounds.values() for q in qs.values() if q.form is Form.ONE
               for c in q.choices)  # fmt: skip
    real_by_round = [frozenset(s for s, q in qs.items() if not q.decoy) for _, qs in sorted(rounds.items())]
    # night 1: Cupidon, the voyante, the petite fille with the pack (spied / caught), the pack, the
    # sorcière's two potions (life, then death); night 2: the spying, the pack, the potions
    assert real_by_round == [
        {"Fay"},
        {"Cleo"},
        {"Gus", "Ana", "Ben"},
        {"Ana", "Ben"},
        {"Dan"},
        {"Dan"},
        {"Gus", "Ben"},
        {"Ben"},
        {"Dan"},
        {"Dan"},
    ]


def test_the_wolves_propose_until_they_agree() -> None:
    base = record_phone(RECORD, lambda: table.session)
    first_pack_round: dict[str, int] = {}

    def answer(seat: str, question: Question, nth: int) -> object:
        if not question.decoy and table.session.asking.key == "loup" and table.session.number == 1:
            first_pack_round.setdefault(seat, nth)
            if nth == first_pack_round[seat]:
                return {"Ana": "Hugo", "Ben": "Dan"}[seat]  # they disagree first
        return base(seat, question, nth)

    table = phone_table(RECORD, answer)
    ending = play(table)
    assert ending.record["phases"][0]["night"]["loup"] == "Hugo"
    pack_rounds = [
        qs
        for _, qs in sorted(table.phones.rounds.items())
        if {s for s, q in qs.items() if not q.decoy} == {"Ana", "Ben"}
    ]
    assert len(pack_rounds) == 2  # night 1: asked again once; night 2 Ben is alone
    # asked again under the same words on every phone; the proposals are the pack's secrets
    again = pack_rounds[1]["Ana"].text
    assert again.startswith(load_narration().phones["disagree"])
    assert {q.text for q in pack_rounds[1].values()} == {again}
    for wolf in ("Ana", "Ben"):
        assert any("Ana propose Hugo" in t and "Ben propose Dan" in t for t in table.phones.secrets(wolf))
    # no other phone ever shows them
    for seat in set(PLAYERS) - {"Ana", "Ben"}:
        assert "propose" not in table.phones.everything(seat)


def test_a_wolf_touching_the_other_wolf_is_asked_again_on_every_phone_alike() -> None:
    """A name the rules refuse is never refused on the acting phone alone: the round ends as any other, then
    every phone, decoys and the dead included, shows the same refusal words before the same question."""
    base = record_phone(RECORD, lambda: table.session)
    touched: dict[str, int] = {}

    def answer(seat: str, question: Question, nth: int) -> object:
        if not question.decoy and table.session.asking.key == "loup" and table.session.number == 1:
            if touched.setdefault(seat, nth) == nth:
                return {"Ana": "Ben", "Ben": "Hugo"}[seat]  # Ana touches Ben, a wolf too
        return base(seat, question, nth)

    table = phone_table(RECORD, answer)
    ending = play(table)
    assert ending.record["phases"][0]["night"]["loup"] == "Hugo"
    refused = load_narration().phones["refused"]
    rounds = [qs for _, qs in sorted(table.phones.rounds.items())]
    pack = [n for n, qs in enumerate(rounds) if {s for s, q in qs.items() if not q.decoy} == {"Ana", "Ben"}]
    first, again = rounds[pack[0]], rounds[pack[1]]
    assert pack[1] == pack[0] + 1  # asked again at once, in the next round
    assert not any(q.text.startswith(refused) for q in first.values())
    assert set(again) == set(PLAYERS) and all(q.text.startswith(refused) for q in again.values())
    decoys = {q.text for q in again.values() if q.decoy}
    assert len(decoys) == 1 and all(q.text.startswith(next(iter(decoys))) for q in again.values())
    assert table.phones.refused == []  # no phone was refused anything
    assert not any("Refusé" in text for seat in PLAYERS for text in table.phones.secrets(seat))


def test_a_missing_answer_is_asked_again_aloud_naming_nobody() -> None:
    # the voyante (Cleo) takes her time on night 1
    slow = {"Cleo"}

    def delay(seat: str, question: Question) -> float:
        return 0.35 if seat in slow and not question.decoy else 0.0

    table = phone_table(RECORD, patience=0.1, delay=delay)
    ending = play(table)
    assert resolve_record(ending.record) == resolve_record(RECORD)
    said = table.said()
    reminder = load_phone_prompts().text("waiting_answer")
    assert said.count(reminder) >= 2
    # said while the voyante's call is open, after her wake and before her sleep
    at = said.index(reminder)
    assert (
        said.index("la Voyante se réveille, et désigne un joueur dont elle veut sonder la véritable personnalité !")
        < at
    )
    assert at < said.index("La Voyante se rendort.")
    assert not any(name in reminder for name in PLAYERS) and "voyante" not in reminder.lower()


class Cut(Exception):
    """The power goes out: the process ends here, the journal holds what it held."""


def test_a_game_cut_mid_night_resumes_with_the_phones_answers_journaled(tmp_path: Path) -> None:
    whole = play(phone_table(RECORD))
    path = tmp_path / "partie.jsonl"
    header = {
        "family": "classic",
        "game": "thiercelieux",
        "script": "",
        "players": PLAYERS,
        "deal": DEAL,
        "options": {"captain": False},
        "voice": "fr",
    }
    journal = Journal.create(header, path)

    # the sorcière's phone is slow on night 1: the game is cut while it waits for her
    def cut() -> None:
        raise Cut()

    table = phone_table(
        RECORD, journal=journal, patience=0.05, delay=lambda s, q: 60 if s == "Dan" and not q.decoy else 0, remind=cut
    )
    with pytest.raises(Cut):
        play(table)
    journal.close()
    _, events, _ = read_journal(path)
    # the phones' answers given before the cut are journaled: Cupidon's, the voyante's, the spying, the pack's
    keys = [e.key for e in events if isinstance(e, ev.Answer)]
    assert keys == ["cupidon", "voyante", "petite_fille", "loup"]
    assert all(e.by == "phone" for e in events if isinstance(e, ev.Answer))

    resumed, _ = Journal.resume(path)
    again = phone_table(RECORD, journal=resumed)
    ending = play(again, events)
    resumed.close()
    assert ending.record == whole.record
    # what was answered before the cut is not asked again; the phones' secrets are back on the new hub
    real = [{s for s, q in qs.items() if not q.decoy} for _, qs in sorted(again.phones.rounds.items())]
    assert real[0] == {"Dan"}  # the sorcière's potion of life, where the night stood
    assert LOVERS in again.hub.screen("Fay").secrets and SEEN in again.hub.screen("Cleo").secrets
    assert SEEN not in again.hub.screen("Fay").secrets


@pytest.mark.parametrize("seed", [*range(12), 13, 20])  # 0–11 deal 30 characters; 13 the sectaire, 20 the frères
def test_random_games_of_every_character_play_on_phones_as_resolve_says(seed: int) -> None:
    """issue 16: "Classic Thiercelieux plays with no operator at all": every character's night answered on
    the phones of random legal games."""
    rng = random.Random(seed)
    names = ["Ana", "Ben", "Cleo", "Dan", "Eva", "Fay", "Gus", "Hugo", "Ines", "Jade", "Kim", "Lou"]
    players = rng.randint(6, len(names))
    record = random_record(load_classic(), rng, players, seed, names=names[:players], max_phases=40)
    expected = resolve_record(record)
    if expected["camp"] is None:
        pytest.skip("this random game does not end within 40 phases")  # a long game, not a missing feature
    table = phone_table(record)
    ending = play(table)
    table_result = resolve_record(ending.record)
    assert {k: v for k, v in table_result.items() if k != "id"} == {k: v for k, v in expected.items() if k != "id"}
    assert table.phones.refused == []


def test_the_program_deals_the_cards_in_play_with_its_seed() -> None:
    """issue 16: "Digital deal: the narrator shuffles (journaled, seeded) and each phone shows its holder's
    card only"."""
    asked = TableRequest(players=PLAYERS, roles=sorted(DEAL))
    table = Classic().table("thiercelieux", asked)
    one, same, other = table.dealt(5), table.dealt(5), table.dealt(6)
    assert sorted(one.record.roles) == sorted(DEAL) and one.record.players == tuple(PLAYERS)
    assert one.record.roles == same.record.roles != other.record.roles
    assert one.header()["seed"] == 5 and one.header()["deal"] == list(one.record.roles)
    # a resumed game rebuilds the same deal from its header
    header = {"players": PLAYERS, **one.header()}
    assert Classic().from_header(header).record.roles == one.record.roles
    assert table.dealt(None).seed is not None  # a fresh seed, kept
    card = _card("voyante")
    assert (card.role, card.name) == ("voyante", "Voyante")
    assert card.text == "Chaque nuit, vous découvrez le personnage d'un joueur de votre choix."


def test_every_private_sentence_says_who_learns_it() -> None:
    from narrator.script.classic.script import load_classic_script
    from narrator.script.marks import YamlError

    text = (Path(__file__).parent.parent / "scripts" / "thiercelieux.yaml").read_text(encoding="utf-8")
    for old, new, problem in (
        (
            "  seen: [call]                 #",
            "  seen: [role]                 #",
            "attendu : call, name ; trouvé : role",
        ),
        ("  seen: [call]                 #", "  #", "manque : seen"),
        ("  night: []\n", "  night: []\n  winners: []\n", "« winners » est dans `public`"),
    ):
        assert old in text
        with pytest.raises(YamlError) as caught:
            load_classic_script(text.replace(old, new, 1), "scripts/thiercelieux.yaml")
        assert problem in str(caught.value)
        assert "scripts/thiercelieux.yaml:" in str(caught.value)


def test_a_lovers_ballot_against_the_beloved_is_told_to_the_voters_phone_alone() -> None:
    """RULINGS thiercelieux 19 with no operator: "a ballot the rules forbid because of a secret (a lover against
    the beloved) is counted as said", and the voter alone learns it (issue 16: "told to the voter's phone
    alone")."""
    record = {
        **RECORD,
        "options": {"captain": False, "lovers_spare_each_other": True},
        "phases": [
            {"night": {**NIGHT_1, "cupidon": ["Dan", "Fay"]}},
            {
                "day": {
                    **RECORD["phases"][1]["day"],
                    "votes": {**RECORD["phases"][1]["day"]["votes"], "Cleo": "Eva", "Fay": "Dan"},
                }
            },
            RECORD["phases"][2],
        ],
    }
    table = phone_table(record)
    ending = play(table)
    assert resolve_record(ending.record) == resolve_record(record)
    assert ending.record["phases"][1]["day"]["votes"]["Fay"] == "Dan"  # counted as said
    told = [s for s in table.phones.secrets("Fay") if s.startswith("Fay vote contre Dan")]
    assert len(told) == 1 and "son amour" in told[0]
    for seat in set(PLAYERS) - {"Fay"}:
        assert "Fay vote contre Dan" not in table.phones.everything(seat)
    assert not any("son amour" in line for line in table.said())


CLI_CARDS = ["villageois", "loup", "voyante", "loup", "sorciere", "cupidon", "chasseur", "petite_fille"]
CLI_SEED = 4


def village_wins_at_dawn(card: dict[str, str]) -> Callable[[str, list[str], bool], object]:
    """What each player touches in the command-line games of eight (a seat, the values offered, whether it
    is oui/non): Cupidon unites the two wolves, the pack devours the villager, the witch poisons a wolf,
    whose beloved dies of grief: at dawn the village has no enemy left."""
    wolves = [p for p in card if card[p] == "loup"]
    villager = next(p for p in card if card[p] == "villageois")
    touches = {"cupidon": wolves, "loup": villager, "sorciere": wolves[0]}

    def choose(seat: str, values: list[str], yes_no: bool) -> object:
        return False if yes_no else touches.get(card[seat], values[0] if values else None)

    return choose


def test_eight_players_play_a_classic_night_on_their_phones_with_no_operator(tmp_path: Path) -> None:
    """`narrator play thiercelieux --phones` as a table runs it: eight phones on the real server (127.0.0.1)
    take their seats, each sees its own card and answers its night on `/api/answer`; no operator."""
    # the program deals the cards in play with the seed: the same deal here, to know who holds what
    dealt = (
        Classic().table("thiercelieux", TableRequest(players=PLAYERS, roles=sorted(CLI_CARDS))).dealt(CLI_SEED).record
    )
    card = dict(zip(PLAYERS, dealt.roles))
    wolves = [p for p in PLAYERS if card[p] == "loup"]
    villager = next(p for p in PLAYERS if card[p] == "villageois")

    def choose(seat: str, question: dict) -> object:
        """What each player touches: Cupidon unites the two wolves, the pack devours the villager, the witch
        poisons a wolf (whose beloved dies of grief: the village wins at dawn); a decoy, which shows the
        same words as the call's question, anything of its form."""
        values = [c["value"] for c in question["choices"]]
        wanted = village_wins_at_dawn(card)(seat, values, question["form"] == "yes_no")
        if question["form"] == "pair":
            return wanted if isinstance(wanted, list) and all(v in values for v in wanted) else values[:2]
        if question["form"] == "some":
            return values[:1]
        if question["form"] == "one":
            return wanted if wanted in values else values[0]
        return wanted

    journal = tmp_path / "partie.jsonl"
    quiet = tmp_path / "voix.txt"
    quiet.write_text("", encoding="utf-8")
    roles = ",".join(sorted(CLI_CARDS))  # the cards in play, in any order
    args = ["play", "thiercelieux", "--players", ",".join(PLAYERS), "--roles", roles, "--seed", str(CLI_SEED)]
    table = CommandLine(tmp_path, [*args, "--phones", "--bind", "127.0.0.1", "--port", "0", "--ear", f"script:{quiet}", "--no-wait", "--journal", str(journal)], journal)  # fmt: skip
    phones = SeatedPhones(table.port)
    tokens = {seat: phones.sit(seat) for seat in PLAYERS}
    shown: dict[str, list[dict]] = {seat: [] for seat in PLAYERS}
    stop = threading.Event()
    refused: list[tuple[str, object]] = []  # a touch once its round is over: too late, and harmless

    def play_phone(seat: str) -> None:
        phone, done = Phone(table.port, tokens[seat]), 0
        while not stop.is_set():
            try:
                reply = phone.call("GET", "/api/screen")
            except OSError:
                return  # the game is over: the server has stopped
            if reply.status != 200:
                return
            screen = reply.json()["screen"]
            shown[seat].append(screen)
            question = screen["question"]
            if question and not question["answered"] and question["asked"] > done:
                done = question["asked"]
                reply = phone.call("POST", "/api/answer", {"asked": done, "value": choose(seat, question)})
                if reply.status != 200:
                    refused.append((question["text"], reply.json()))
            time.sleep(0.02)

    threads = [threading.Thread(target=play_phone, args=(seat,), daemon=True) for seat in PLAYERS]
    for thread in threads:
        thread.start()
    try:
        assert table.process.wait(120) == 0, "".join(table.out + table.err)
    finally:
        stop.set()
        phones.close()
        if table.process.poll() is None:
            table.process.kill()
    assert all(reply["error"] == "cette question n'est plus posée" for _, reply in refused), refused
    header, *events = table.events()
    assert header["seed"] == CLI_SEED and header["deal"] == list(dealt.roles)
    assert {e["key"]: e["by"] for e in events if e["type"] == "answer"} == dict.fromkeys(
        ["cupidon", "voyante", "petite_fille", "loup", "sorciere"], "phone"
    )
    record = yaml.safe_load(journal.with_suffix(".record.yaml").read_text(encoding="utf-8"))
    result = resolve_record(record)
    assert result["camp"] == "village" and result["dead"] == [villager, wolves[0], wolves[1]]
    heard = table.heard()
    offer = heard.index("Voulez-vous l'histoire de la partie ?")  # after the verdict; the answers end: no story
    assert heard[offer - 2] == "Le village n'a plus d'ennemi en vie : le village gagne."
    # each phone showed its own card, and nobody else's
    roles = load_classic().roles
    for seat in PLAYERS:
        names = {s["card"]["name"] for s in shown[seat] if s["card"]}
        assert names == {roles[card[seat]].name.capitalize()}
    # the lovers and the voyante's look: on their phones alone, never on the terminal or aloud
    lovers = f"Cupidon unit {wolves[0]} et {wolves[1]} pour toujours."
    knew = {seat for seat in PLAYERS if any(lovers in s["secrets"] for s in shown[seat])}
    assert knew == {*wolves, next(p for p in PLAYERS if card[p] == "cupidon")}
    terminal = "".join(table.out + table.err)
    assert "Cupidon unit" not in terminal and "La voyante regarde" not in terminal
    assert not any(token in terminal for token in tokens.values())  # no seat's token either


def test_a_seat_claimed_without_its_page_reads_no_card_before_every_seat_is_there_and_is_said_aloud(
    tmp_path: Path,
) -> None:
    """A cheater takes Ben's free seat with two HTTP requests and no page: the table hears that Ben has
    joined (Ben, still without a phone, says it is not him), and no card is dealt while seats are missing."""
    journal = tmp_path / "partie.jsonl"
    args = ["play", "thiercelieux", "--players", ",".join(PLAYERS), "--roles", ",".join(CLI_CARDS)]
    table = CommandLine(tmp_path, [*args, "--phones", "--bind", "127.0.0.1", "--port", "0", "--ear", "keyboard", "--no-wait", "--journal", str(journal)], journal)  # fmt: skip
    try:
        cheater = Phone(table.port)
        assert cheater.claim("Ben").status == 200
        table.wait_for(lambda: "Ben a rejoint la partie." in table.heard())
        assert not any("reprise" in line for line in table.heard())  # joining, not taken back
        screen = cheater.call("GET", "/api/screen").json()["screen"]
        assert screen["card"] is None  # the other seats are still missing: nothing dealt yet
    finally:
        table.end()


def test_a_seat_freed_mid_game_and_taken_again_is_said_aloud() -> None:
    """After « libère la place de Ben », whoever takes the seat can read Ben's card: the table hears it taken."""
    hub = Hub(PLAYERS)
    clock = FakeClock()
    speaker = ClockSpeaker(clock)
    voice = Voice(fake_render, speaker)
    session = ClassicSession(
        prompts=load_prompts(),
        voice=voice,
        ear=RecordVoices(RECORD),
        clock=clock,
        parser=Parser("thiercelieux", PLAYERS),
        phrases=lambda phase: [],
        journal=None,
        phones=hub,
        rules=load_classic(),
        narration=load_narration(),
        players=tuple(PLAYERS),
        deal=tuple(DEAL),
        options=Options(),
        operator=PhoneOperator(hub, load_narration().phones, load_phone_prompts(), lambda: None),
    )
    hub.claim("Ana")
    session.note_seats()  # while the phones join, the joining says it its own way
    assert speaker.heard == [] and [e.seat for e in session.events if isinstance(e, ev.SeatTaken)] == ["Ana"]
    session.joined = True
    hub.free("Ben", "nouveau-jeton")
    hub.claim("Ben")
    session.note_seats()
    assert [text for _, _, text in speaker.heard] == ["La place de Ben est reprise."]
    assert [e.seat for e in session.events if isinstance(e, ev.SeatTaken)] == ["Ana", "Ben"]


def test_every_phone_shows_where_the_game_is_and_its_verdict_nothing_secret() -> None:
    table = phone_table(RECORD)
    ending = play(table)
    for seat in PLAYERS:
        statuses = [s.status for s in table.phones.shown[seat]]
        seen = [s for i, s in enumerate(statuses) if s and (i == 0 or s != statuses[i - 1])]
        verdict = seen[-1]
        # the morning's questions (the hunter's) under « Jour 1 : le matin », not « Nuit 1 »
        assert seen[:-1] == [
            "Nuit 1",
            "Jour 1 : le matin",
            "Jour 1 : le débat",
            "Jour 1 : le vote",
            "Nuit 2",
            "Jour 2 : le matin",
        ], seat
        assert verdict in table.said() and all(name in verdict for name in ending.winners)


def test_the_end_on_every_phone_has_the_verdict_every_card_and_no_story_not_asked_for() -> None:
    table = phone_table(RECORD)
    table.session.phones = table.hub  # as narrator/app/classic.py gives it
    ending = play(table)
    end = table.hub.screen("Ana").end
    assert end is not None and all(table.hub.screen(seat).end == end for seat in PLAYERS)  # the same on every phone
    assert end["winners"] == ending.verdict
    assert [row["player"] for row in end["cards"]] == PLAYERS  # type: ignore[union-attr]
    # the table did not ask for the story: no phone shows it (test_story.py: shown once asked for, as said)
    assert "L'histoire de la partie." not in table.said() and end["story"] == []


def test_an_answer_the_rules_refuse_is_said_next_to_the_question_asked_again_never_among_the_secrets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 26: « a refusal, if one can still happen, said next to the question, never among the secrets »;
    the question comes again on every phone alike, under the refusal's words."""
    from narrator.rules.errors import RecordError

    check, refused_once = ClassicSession._check, []

    def once(self, ask, rule, value):  # the rules refuse the voyante's first look
        if ask.key == "voyante" and not refused_once:
            refused_once.append(value)
            raise RecordError(("voyante",), "un joueur en vie", value)
        return check(self, ask, rule, value)

    monkeypatch.setattr(ClassicSession, "_check", once)
    table = phone_table(RECORD)
    play(table)
    refused = load_narration().phones["refused"]
    rounds = [qs for _, qs in sorted(table.phones.rounds.items())]
    seer = [n for n, qs in enumerate(rounds) if {s for s, q in qs.items() if not q.decoy} == {"Cleo"}]
    first, again = rounds[seer[0]], rounds[seer[1]]
    assert seer[1] == seer[0] + 1 and refused_once
    assert not any(q.text.startswith(refused) for q in first.values())
    assert {q.text for q in again.values()} == {f"{refused} {first['Cleo'].text}"}  # every phone alike
    assert not any("Refusé" in text or "attendu" in text for seat in PLAYERS for text in table.phones.secrets(seat))
