"""The end of a game, the way a game master ends it: every card at dawn after the verdict (one-night games
with the phones), then « Voulez-vous l'histoire de la partie ? » and the story told in order — the same
at the table, from the journal (`narrator story JOURNAL`) and from the record.

Rulebooks quoted: 001 is tests/rulebooks/001_208a09780179c69b.txt (poudlard), 002 is
tests/rulebooks/002_e447aa202eb5d4a8.txt (thiercelieux).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from functools import partial

import pytest
import yaml
from test_onenight_phones import ONUW, POUDLARD, Phones, chooser, day, first_choices, game, narration, played
from test_session import RECORDS, spoken, table
from test_table_classic import HEADER, NIGHTS, RECORD, VOICES, classic_table, said

from narrator.app.classic import Classic
from narrator.app.family import resolve_record
from narrator.app.onenight import OneNight
from narrator.app.startup import Options, TableRequest, open_io, start
from narrator.cli import main
from narrator.rules.classic.engine import play
from narrator.rules.classic.record import parse_record
from narrator.rules.reason import Reason
from narrator.script.classic.script import load_classic, say
from narrator.script.story_words import load_story_words
from narrator.table import events as ev
from narrator.table.host import Stopped
from narrator.table.journal import Journal, finished, read_journal
from narrator.table.onenight.announcer import plan
from narrator.table.onenight.progress import progress

WORDS = load_story_words()
CLASSIC_HEADER = {**HEADER, "extra": [], "groups": {}, "minutes": 1}
OFFER = WORDS.text("offer")


def heard(speaker) -> list[str]:
    return [text for _, _, text in speaker.heard]


def in_order(lines: list[str], wanted: list[str]) -> bool:
    """Every wanted line is among `lines`, in this order."""
    at = 0
    for line in lines:
        if at < len(wanted) and line == wanted[at]:
            at += 1
    return at == len(wanted)


# -- one-night games with the phones: the cards at dawn, who changed card -----------------------------------


def test_every_card_is_turned_face_up_after_the_verdict_and_who_changed_card_is_said() -> None:
    """001, after the vote: « Enfin, chacun retourne sa carte Personnage et dévoile qui il est. » — the
    narrator says it after the verdict (the table has heard who dies and wins; the cards now say why)."""
    session, speaker, phones, ending = played(ONUW)
    lines = heard(speaker)
    expected = resolve_record(ONUW)
    verdict_end = lines.index(expected["why"][-1])
    assert lines[verdict_end + 1 : verdict_end + 9] == [
        "Retournez vos cartes : voici la carte de chacun à la fin de la nuit.",
        # the voleur Dan took Ana's card; the Doppelgänger Ben copied the voyante
        "Ana : loup-garou au début de la nuit, voleur à la fin.",
        # the Doppelgänger kept his card: it copied the voyante (not « Doppelgänger-voyante », a machine's word)
        "Ben garde sa carte : Doppelgänger, qui a copié la carte voyante.",
        "Cleo garde sa carte : voyante.",
        "Dan : voleur au début de la nuit, loup-garou à la fin.",
        "Eva garde sa carte : insomniaque.",
        "Fay garde sa carte : chasseur.",
        "Au milieu : loup-garou, merdeux et villageois.",
    ]
    assert lines[verdict_end + 9] == OFFER
    # every phone gets the cards at the end, named as printed on the cards; not the story: nobody asked for it
    for seat in ONUW["players"]:
        end = phones.hub.screen(seat).end
        assert end is not None
        assert {c["player"]: (c["card"], c["first_card"]) for c in end["cards"]} == {  # type: ignore[attr-defined]
            "Ana": ("Voleur", "Loup-garou"),
            "Ben": ("Doppelgänger, qui a copié la carte voyante", "Doppelgänger, qui a copié la carte voyante"),
            "Cleo": ("Voyante", "Voyante"),
            "Dan": ("Loup-garou", "Voleur"),
            "Eva": ("Insomniaque", "Insomniaque"),
            "Fay": ("Chasseur", "Chasseur"),
            # then the middle's cards, as the dawn reveal says them (the outside test of issue 26)
            "La carte A du milieu": ("Loup-garou", "Loup-garou"),
            "La carte B du milieu": ("Merdeux", "Merdeux"),
            "La carte C du milieu": ("Villageois", "Villageois"),
        }
        assert end["story"] == []


@pytest.mark.parametrize("answer", ["oui", "non"])
def test_the_story_goes_to_the_phones_only_once_the_table_asked_for_it(answer: str) -> None:
    """Issue 26: « the story of the game when the table asks for it (the same story as the spoken one) »: the
    phones show none while it is offered, the spoken one after « oui » (its title is the screen's heading)."""
    session, speaker, hub, _ = game(ONUW, [*day(ONUW), answer])
    stories: list[list[str]] = []  # the end screen's story at each change of a phone's screen
    hub.watch(lambda seats: stories.append(list(hub.screen("Ana").end["story"])) if hub.screen("Ana").end else None)
    with Phones(hub, chooser(ONUW)):
        session.run(narration(ONUW))
    lines = heard(speaker)
    offered = lines.index(OFFER)
    assert stories[0] == []  # the end came before the offer, without the story
    if answer == "non":
        assert {tuple(s) for s in stories} == {()}
        return
    told = lines[offered + 1 :]
    assert told[0] == WORDS.text("story_title") and stories[-1] == told[1:]
    assert all(s == [] for s in stories[:-1])


def test_the_story_of_a_phone_game_tells_each_action_in_the_order_of_the_night() -> None:
    session, speaker, hub, _ = game(ONUW, [*day(ONUW), "oui"])
    with Phones(hub, chooser(ONUW)):
        session.run(narration(ONUW))
    lines = heard(speaker)
    story = lines[lines.index(OFFER) + 1 :]
    assert story == session.story()
    assert story[:2] == [
        "L'histoire de la partie.",
        "Au début de la nuit, Ana avait la carte loup-garou, Ben la carte Doppelgänger, Cleo la carte"
        " voyante, Dan la carte voleur, Eva la carte insomniaque et Fay la carte chasseur.",
    ]
    assert in_order(
        story,
        [
            "Au milieu restaient les cartes loup-garou, merdeux et villageois.",
            # 000 3a i: the Doppelgänger copies, and a Doppelgänger-voyante looks at once
            "Ben, avec la carte Doppelgänger, a copié la carte de Cleo : voyante.",
            "Ben, avec la carte Doppelgänger-voyante, a regardé la carte d'Ana : loup-garou.",
            "Ana, avec la carte loup-garou, n'a vu personne d'autre ouvrir les yeux.",
            "Ana a regardé la carte B du milieu : merdeux.",
            "Cleo, avec la carte voyante, a regardé deux cartes du milieu : loup-garou et villageois.",
            "Dan, avec la carte voleur, a échangé sa carte contre celle d'Ana et a pris la carte loup-garou.",
            "Eva, avec la carte insomniaque, a regardé sa carte à la fin de la nuit : insomniaque.",
            # the cards at dawn, before the vote: the game's order
            "Dan : voleur au début de la nuit, loup-garou à la fin.",
            "Eva a gardé sa carte : insomniaque.",
            "Au vote, Ana a voté contre Dan, Ben contre Dan, Cleo contre Dan, Dan contre Ana, Eva contre Dan et Fay"
            " contre Dan.",
            # the verdict the table heard (« Dan a le plus de voix, avec 5 voix, et meurt. »), told in the past
            "Dan a eu le plus de voix, avec 5 voix, et a perdu la vie.",
            "Dan avait la carte loup-garou : le village a gagné.",
            "Ana, Ben, Cleo, Eva et Fay ont gagné.",
            WORDS.text("story_end"),
        ],
    )
    assert story[-1] == WORDS.text("story_end")


def test_the_story_of_poudlard_tells_dumbledore_neville_and_harry() -> None:
    session, speaker, hub, _ = game(POUDLARD, [*day(POUDLARD), "raconte-nous la partie"])
    with Phones(hub, chooser(POUDLARD)):
        session.run(narration(POUDLARD))
    story = heard(speaker)[heard(speaker).index(OFFER) + 1 :]
    assert in_order(
        story,
        [
            "Ben, avec la carte Albus Dumbledore, a regardé la carte B du milieu, la carte Ron Weasley, et l'a"
            " mise devant Eva.",
            "Cleo, avec la carte Neville Londubat, a échangé les cartes d'Ana et de Dan.",
            # 001: "Si cette carte est un Mangemort, remets-la face cachée." — Neville's card is not; Harry acts by the card dealt
            "Dan, avec la carte Harry Potter, a retourné la carte de Cleo et l'a laissée face visible : Neville"
            " Londubat.",
        ],
    )


def test_a_story_may_be_declined_and_the_game_is_over() -> None:
    session, speaker, hub, _ = game(ONUW, [*day(ONUW), "non"])
    with Phones(hub, chooser(ONUW)):
        session.run(narration(ONUW))
    lines = heard(speaker)
    assert lines[lines.index(OFFER) + 1 :] == [WORDS.text("no_story")]
    assert session.events[-2:] == [ev.StoryOffered(), ev.Story(False)]
    assert finished(session.events)


def test_a_table_that_says_nothing_is_asked_again_told_how_to_ask_then_the_game_ends_without_its_story() -> None:
    session, speaker, hub, _ = game(ONUW, [*day(ONUW), None, None, None, "oui"])
    with Phones(hub, chooser(ONUW)):
        session.run(narration(ONUW))
    lines = heard(speaker)
    assert lines[lines.index(OFFER) :] == [
        OFFER,
        "Dites « oui » pour l'histoire de la partie, ou « non ».",
        "Si vous voulez l'histoire, dites « raconte la partie ».",
        "Je ne raconte pas la partie cette fois. Merci d'avoir joué !",
    ]
    assert session.events[-2:] == [ev.StoryOffered(), ev.Story(False)] and finished(session.events)


def test_two_misheard_answers_to_the_offer_do_not_end_the_game_without_its_story() -> None:
    """Issue 26 (the helper's F3): two answers not understood used to end the game without the story; a careful
    game master asks once more, then says how to ask for it."""
    session, speaker, hub, _ = game(ONUW, [*day(ONUW), "peut-être bien", "euh", "raconte la partie"])
    with Phones(hub, chooser(ONUW)):
        session.run(narration(ONUW))
    lines = heard(speaker)
    assert lines[lines.index(OFFER) :][:5] == [
        OFFER,
        "Je n'ai pas compris « peut-être bien ».",
        "Dites « oui » pour l'histoire de la partie, ou « non ».",
        "Je n'ai pas compris « euh ».",
        "Si vous voulez l'histoire, dites « raconte la partie ».",
    ]
    assert lines[lines.index(OFFER) + 5 :] == session.story()
    assert session.events[-1] == ev.Story(True) and finished(session.events)


def test_raconte_la_partie_before_the_end_is_refused_and_the_game_goes_on() -> None:
    answers = day(ONUW)
    answers.insert(1, "raconte la partie")  # in the debate: the story would tell the night's secrets
    session, speaker, hub, _ = game(ONUW, [*answers, "oui"])
    with Phones(hub, chooser(ONUW)):
        ending = session.run(narration(ONUW))
    lines = heard(speaker)
    assert WORDS.text("story_later") in lines[: lines.index(OFFER)]
    assert not any("au début de la nuit," in line for line in lines[: lines.index(resolve_record(ONUW)["why"][0])])
    assert ending.winners == resolve_record(ONUW)["winners"]


def test_a_game_stopped_at_the_offer_resumes_at_the_question(tmp_path) -> None:
    """RULINGS 22: « stop » pauses; a stopped game can always be resumed — at the offer of its story too."""
    path = tmp_path / "partie.jsonl"
    deal = [ONUW["deal"][p] for p in ONUW["players"]] + ONUW["deal"]["center"]
    header = {"family": "onenight", "game": "onuw", "script": "", "players": ONUW["players"], "voice": "fr"}
    journal = Journal.create({**header, "in_play": sorted(deal), "deal": deal}, path)
    session, speaker, hub, _ = game(ONUW, [*day(ONUW), "stop", "oui"], journal=journal)
    with Phones(hub, chooser(ONUW)), pytest.raises(Stopped):
        session.run(narration(ONUW))
    journal.close()
    _, events, _ = read_journal(path)
    assert not finished(events) and progress(events).stage == "done"
    assert ev.StoryOffered() in events and not any(isinstance(e, ev.Story) for e in events)
    story = session.story()

    again, speaker, hub, _ = game(ONUW, ["raconte la partie"])
    ending = again.run(narration(ONUW), events)
    lines = heard(speaker)
    assert lines[0] == OFFER  # where the game is: the offer; neither the verdict nor the cards again
    assert lines[1:] == story
    assert again.events[len(events) :] == [ev.Story(True)]
    assert finished(again.events)
    assert ending.winners == resolve_record(ONUW)["winners"]


def test_the_story_told_at_the_table_is_the_one_narrator_story_prints_from_the_journal_and_the_record(
    tmp_path, capsys
) -> None:
    players = ["Ana", "Ben", "Cleo", "Dan", "Eva"]
    table_ = OneNight().table("poudlard", TableRequest(players=players, scenario="premiere_annee")).dealt(4)
    ballots = [f"{p.lower()} vote contre {players[(i + 1) % 5].lower()}" for i, p in enumerate(players)]
    answers = tmp_path / "day.txt"
    answers.write_text("\n".join(["on vote", *ballots, "oui", "oui"]) + "\n", encoding="utf-8")
    options = Options(ear=f"script:{answers}", no_wait=True, wav=str(tmp_path / "n.wav"), phones=True)
    options.bind, options.port = "127.0.0.1", 0
    io = open_io(options, players)
    assert io.phones is not None
    with Phones(io.phones.hub, first_choices):
        assert start(table_, options, str(tmp_path / "game.jsonl"), io) == 0
    live = capsys.readouterr().out
    assert main(["story", str(tmp_path / "game.jsonl")]) == 0
    from_journal = capsys.readouterr().out
    assert from_journal.startswith("L'histoire de la partie.\n") and from_journal in live  # printed as told
    assert main(["raconte", str(tmp_path / "game.record.yaml")]) == 0
    assert capsys.readouterr().out == from_journal  # every ballot said one by one: the record holds the same


# -- one-night games with physical cards: what the narrator knows -----------------------------------------


def test_a_game_with_physical_cards_tells_what_the_table_said_and_not_the_night_it_did_not_see() -> None:
    record = RECORDS[1]  # onuw, a Doppelgänger who copies the chasseur and a voleur
    expected = resolve_record(record)
    players = record["players"]
    in_play = [record["deal"][p] for p in players] + record["deal"]["center"]
    answers: list[str | None] = [None, "on vote"]
    answers += [f"{voter.lower()} vote contre {target.lower()}" for voter, target in record["votes"].items()]
    answers += ["oui", *[spoken(expected["final"][p]) for p in players], "oui", "oui"]
    session, speaker, _ = table(record["ruleset"], players, in_play, answers)
    session.run(plan(session.script.announce, in_play, minutes=5))
    lines = heard(speaker)
    assert not any("au début de la nuit," in line or "garde sa carte" in line for line in lines)  # the deal is unknown
    story = lines[lines.index(OFFER) + 1 :]
    assert story == [
        "L'histoire de la partie.",
        # in the order of the game's script, as the legend says them
        "Les cartes en jeu : Doppelgänger, loup-garou, loup-garou, voyante, voleur, insomniaque, villageois, chasseur"
        " et tannelier.",
        "La nuit s'est jouée avec les vraies cartes : je n'ai pas vu ce que chacun a fait.",
        # the cards at dawn, as the players said them, before the vote they decided: the game's order
        "À la fin de la nuit, Ana avait la carte voleur, Ben la carte Doppelgänger-chasseur, Chloé la carte"
        " chasseur, Dan la carte loup-garou, Eva la carte tannelier et Fay la carte villageois.",
        "Au vote, Ana a voté contre Dan, Ben contre Chloé, Chloé contre Dan, Dan contre Chloé, Eva contre Chloé et"
        " Fay contre Dan.",
        # the verdict the table heard (« …, qui meurent. »), told in the past
        "Égalité à 3 voix entre Chloé et Dan, qui ont perdu la vie.",
        "Chloé avait la carte chasseur et votait contre Dan.",  # Dan dies at the tie already: said once
        "Dan avait la carte loup-garou : le village a gagné.",
        "Chloé, qui avait la carte chasseur, a tué un loup-garou avec son pouvoir.",  # her win: the next line
        "Ana, Ben, Chloé et Fay ont gagné.",
        WORDS.text("story_end"),
    ]


# -- classic Thiercelieux -------------------------------------------------------------------------------


def test_the_story_of_a_classic_game_tells_every_night_and_day_with_the_potion_and_the_hunter(tmp_path, capsys) -> None:
    """002: the witch's potion of life, the hunter's shot, Cupidon's lovers — told at the end, causes
    included (RULINGS 23 keeps them out of the mornings only)."""
    path = tmp_path / "partie.jsonl"
    journal = Journal.create(CLASSIC_HEADER, path)
    session, speaker, _ = classic_table(NIGHTS, [*VOICES, "oui"], journal)
    ending = session.run()
    journal.close()
    lines = said(speaker)
    story = lines[lines.index(OFFER) + 1 :]
    assert story == session.story()
    assert capsys.readouterr().out == "\n".join(story) + "\n"  # printed as told
    # the engine's every sentence of the record, in its order, among the story's own lines (its « Nuit 1. »
    # told « Première nuit. »)
    titles = {say(load_classic(), Reason(kind, {"number": n})) for kind in ("night", "day") for n in (1, 2)}
    rules = load_classic()
    past = replace(rules, texts={**rules.texts, **WORDS.classic_told()})
    reasons = play(rules, parse_record(rules, RECORD), partial(say, rules)).why
    # every one of them told in the past, where the game said it as it happened (« Le village élimine Cleo »)
    assert in_order(story, [say(past, r) for r in reasons if say(rules, r) not in titles])
    assert "Le village élimine Cleo, qui avait la carte voyante." in resolve_record(RECORD)["why"]
    assert "Le village a éliminé Cleo, qui avait la carte voyante." in story
    assert in_order(
        story,
        [
            "L'histoire de la partie.",
            "Au début de la partie, Ana avait la carte loup-garou, Ben la carte loup-garou, Cleo la carte"
            " voyante, Dan la carte sorcière, Eva la carte chasseur, Fay la carte Cupidon et Gus la carte"
            " petite fille.",
            "Première nuit.",
            "Premier jour.",
            # the ballots, before their count
            "Au vote, Ana a voté contre Cleo, Cleo contre Ana, Dan contre personne, Fay contre Cleo et Gus contre Ana.",
            "Dan, capitaine, a départagé les joueurs à égalité et a désigné Cleo.",
            "Deuxième nuit.",
            "La sorcière a sauvé Dan avec sa potion de vie.",
            "Deuxième jour.",
            "Au vote, Ana a voté contre Dan, Dan contre Ana, Fay contre Ana et Gus contre Ana.",
            "Dan, capitaine, avait une voix qui comptait double.",  # part of the count: after the ballots
            WORDS.text("story_end"),
        ],
    )
    # the same story from the journal (`narrator story`) and from the record written at the end
    _, events, _ = read_journal(path)
    assert Classic().story_of_journal(CLASSIC_HEADER, events) == story
    assert Classic().story(copy.deepcopy(ending.record)) == story
    record = tmp_path / "partie.record.yaml"
    record.write_text(yaml.safe_dump(ending.record, allow_unicode=True), encoding="utf-8")
    assert main(["story", str(record)]) == 0
    assert capsys.readouterr().out == "\n".join(story) + "\n"


def test_a_classic_game_stopped_at_the_offer_resumes_at_the_question(tmp_path) -> None:
    path = tmp_path / "partie.jsonl"
    journal = Journal.create(CLASSIC_HEADER, path)
    session, _, _ = classic_table(NIGHTS, [*VOICES, "stop", "oui"], journal)
    with pytest.raises(Stopped):
        session.run()
    journal.close()
    header, events, _ = read_journal(path)
    assert not finished(events)
    journal, reading = Journal.resume(path)
    again, speaker, _ = classic_table([], ["oui"], journal)
    again.run(reading.events)
    journal.close()
    lines = said(speaker)
    assert lines[0] == OFFER  # nothing of the game is said again: the offer, then the story
    assert lines[1:] == again.story()
    _, events, _ = read_journal(path)
    assert finished(events) and sum(isinstance(e, ev.Outcome) for e in events) == 1


def test_an_unfinished_game_has_no_story_yet(tmp_path, capsys) -> None:
    path = tmp_path / "partie.jsonl"
    Journal.create(CLASSIC_HEADER, path).close()
    assert main(["story", str(path)]) == 2
    assert "n'est pas terminée" in capsys.readouterr().err


# -- the words ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "said"),
    [("Ana", "d'Ana"), ("Hugo", "d'Hugo"), ("Ben", "de Ben"), ("élève de Poudlard", "d'élève de Poudlard")],
)
def test_de_is_elided_before_a_vowel_or_an_h(word: str, said: str) -> None:
    assert WORDS.of(word) == said


def test_numbers_and_ordinals_are_said_in_words() -> None:
    assert [WORDS.number(n) for n in (1, 2, 12)] == ["une", "deux", "douze"]
    assert WORDS.ordinal(1, "night") == "Première" and WORDS.ordinal(1, "day") == "Premier"
    assert WORDS.ordinal(2, "day") == "Deuxième"
