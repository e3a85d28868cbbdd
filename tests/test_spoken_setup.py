"""A whole game from the first word, by voice only — setup, night, day, vote, cards, outcome."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_session import ClockSpeaker, fake_render

from narrator.app.family import resolve_record
from narrator.app.spoken_setup import SetupStopped, SpokenSetup
from narrator.listen.grammar import setup_phrases
from narrator.listen.setup_words import SetupParser
from narrator.listen.simple_ears import ScriptedEar
from narrator.script.prompts import load_phone_prompts, load_prompts
from narrator.table.clock import FakeClock
from narrator.table.voice import Voice


def setup(answers: list[str | None]):
    clock = FakeClock()
    speaker = ClockSpeaker(clock)
    spoken = SpokenSetup(
        voice=Voice(fake_render, speaker),
        ear=ScriptedEar(answers),
        clock=clock,
        prompts=load_prompts(),
        words=SetupParser,
        phrases=setup_phrases,
    )
    return spoken, speaker


def test_the_setup_asks_everything_and_takes_corrections() -> None:
    answers = [
        "thiercelieux",  # by voice, with the phones only
        "non",  # no phones: the operator's screen sets it up; the game asked again
        "poudlard",
        "deux",  # too few
        "nous sommes quatre",
        "ana", "oui",
        "ben", "non", "benoît", "oui",  # « non »: the name again
        "ana",  # already taken
        "chloé", "oui",
        "dan", "oui",
        "annule",  # takes back Dan
        "david", "oui",
        "première année à poudlard",
        "oui",
    ]  # fmt: skip
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert table.players == ["Ana", "Benoît", "Chloé", "David"]
    assert table.roles == ["mangemort", "mangemort", "hermione", "sirius", "harry", "eleve", "eleve"]
    said = [text for _, _, text in speaker.heard]
    assert any(line.startswith("Sans les téléphones, Thiercelieux se lance au clavier") for line in said)
    assert "Il faut entre 3 et 13 joueurs." in said
    assert "Le nom Ana est déjà pris. Choisis un autre nom." in said
    assert said[-1].startswith("4 joueurs : Ana, Benoît, Chloé et David. Personnages : 2 cartes Mangemort")


def test_characters_one_by_one_and_recommence() -> None:
    answers = [
        "une nuit", "trois",
        "ana", "oui", "ben", "oui", "cleo", "oui",
        "deux loups", "une voyante", "un voleur",  # 4 of 6
        "recommence", "non",  # asked first: « non » keeps every answer, the question again
        "recommence", "oui",  # everything again
        "une nuit", "trois",
        "ana", "oui", "ben", "oui", "cleo", "oui",
        "deux loups garous", "une voyante", "un voleur", "deux villageois",
        "oui",
    ]  # fmt: skip
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert table.game == "onuw"
    assert sorted(table.roles) == sorted(["loup", "loup", "voyante", "voleur", "villageois", "villageois"])
    said = [text for _, _, text in speaker.heard]
    check = load_prompts().text("setup_restart_check")
    assert said.count(check) == 2 and said.count("D'accord, on recommence.") == 1
    # « non »: nothing lost, the cards' count said again; « oui »: the game asked again, without « Bonjour »
    assert said[said.index(check) + 1] == "D'accord, on continue."
    assert said[said.index("D'accord, on recommence.") + 1] == load_prompts().text("ask_game")
    assert sum(line.startswith("Bonjour") for line in said) == 1


def test_a_whole_poudlard_game_needs_nothing_but_the_voice(tmp_path: Path) -> None:
    # A whole poudlard game — setup, night, day, vote, reveal, outcome — driven only by a scripted
    # ear (no keyboard, no arguments but the ear), checked against `narrator resolve`.
    record = {
        "id": "voice-only", "ruleset": "poudlard", "players": ["Ana", "Ben", "Chloé", "Dan"],
        "deal": {"Ana": "mangemort", "Ben": "sirius", "Chloé": "hermione", "Dan": "eleve",
                 "center": ["mangemort", "harry", "eleve"]},
        "night": {"Ben": {"swap_with": "Ana"}, "Chloé": {"look": "Ana"}},
        "votes": {"Ana": "Ben", "Ben": "Dan", "Chloé": "Ben", "Dan": "Ben"},
    }  # fmt: skip
    expected = resolve_record(record)
    said = ["poudlard", "quatre", "ana", "oui", "ben", "oui", "chloé", "oui", "dan", "oui"]
    said += ["première année à poudlard", "oui", "on vote"]
    said += [f"{v.lower()} vote contre {t.lower()}" for v, t in record["votes"].items()] + ["oui"]
    said += [expected["final"][p] for p in record["players"]] + ["oui"]
    answers = tmp_path / "voix.txt"
    answers.write_text("\n".join(said) + "\n", encoding="utf-8")
    env = {**os.environ, "PULSE_SERVER": "unix:/nonexistent", "NARRATOR_STATE_DIR": str(tmp_path / "state"),
           "NARRATOR_CONFIG_DIR": str(tmp_path / "config")}  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-m", "narrator", "--ear", f"script:{answers}", "--no-wait", "--wav", str(tmp_path / "p.wav")],
        capture_output=True, text=True, timeout=300, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    for line in expected["why"]:
        assert line in run.stdout
    journal = next((tmp_path / "state").glob("*.jsonl"))
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    outcome = next(line for line in lines if line.get("type") == "outcome")  # then the story offered
    assert set(outcome["dead"]) == set(expected["dead"]) and set(outcome["winners"]) == set(expected["winners"])


@pytest.mark.parametrize("command,setting", [("plus lentement", "rate"), ("plus fort", "volume")])
def test_spoken_settings_are_kept_for_the_next_game(tmp_path: Path, monkeypatch, command, setting) -> None:
    from narrator.table.settings import load_settings, settings_path

    monkeypatch.setenv("NARRATOR_CONFIG_DIR", str(tmp_path))
    from narrator.app.startup import tuner

    voice = Voice(fake_render, ClockSpeaker(FakeClock()))
    tune = tuner("fr", voice)
    name = SetupParser(None).parse(command, "any")[0].command
    changed = tune.refusal(name) is None
    if changed:
        tune.apply(name)
    saved = load_settings(settings_path())
    if setting == "volume":  # the default voice is already at full volume
        assert not changed and saved.volume is None
    else:
        assert changed and saved.rate == 140
        assert voice.render is not fake_render  # speaks with the new rate from now on


def test_every_setup_question_is_asked_again_after_silence_and_after_a_misunderstanding() -> None:
    # Every prompt has a spoken form, a list of accepted answers, and a reprompt after silence and
    # after a misunderstanding.
    valid = ["poudlard", "trois", "ana", "oui", "ben", "oui", "chloé", "oui", "première année", "oui"]
    answers: list[str | None] = []
    for answer in valid:
        answers += [None, "12 34", answer]  # silence, then something not understood, then the answer
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert table.players == ["Ana", "Ben", "Chloé"]
    said = [text for _, _, text in speaker.heard]
    for question in ("ask_count", "ask_cards_mode", "setup_read_back"):
        asked = [line for _, line, _ in speaker.heard if line.rstrip("*") == question]
        assert len(asked) == 3, question  # asked, again after the silence, again after the miss
    # the game: asked with the greeting, then again without it (« Bonjour » once)
    assert [line for _, line, _ in speaker.heard if line in ("welcome", "ask_game")] == ["welcome", *["ask_game"] * 2]
    assert said.count("Je n'ai pas compris « 12 34 ».") == len(valid)


def test_every_game_question_is_asked_again_after_silence_and_after_a_misunderstanding() -> None:
    from test_session import table

    players = ["Ana", "Ben", "Chloé"]
    in_play = ["mangemort", "ginny", "eleve", "eleve", "harry", "ron"]
    valid = ["on vote", "trois voix pour ben", "oui", "mangemort", "ginny", "eleve", "oui", "ana"]
    answers: list[str | None] = []
    for i, answer in enumerate(valid):
        answers += ([] if i == 0 else [None, "12 34"]) + [answer]  # the debate listens in silence anyway
    session, speaker, _ = table("poudlard", players, in_play, answers)
    from narrator.table.onenight.announcer import plan

    outcome = session.run(plan(session.script.announce, in_play))
    assert outcome.dead == ["Ben", "Ana"]  # Ginny (Ben) dragged the Mangemort she pointed at
    for question in ("ask_votes*", "ask_card*", "ask_pointing*", "read_back*"):
        asked = [line for _, line, _ in speaker.heard if line == question]
        assert len(asked) >= 3, question


def test_annule_takes_back_one_thing_and_says_which() -> None:
    answers = [
        "une nuit", "trois",
        "ana", "oui", "ben", "oui",
        "cleo", "annule",  # at « Cleo, c'est bien ça ? »: Cleo is taken back, seat 3 asked again
        "chloé", "oui",
        "deux loups", "une voyante", "un voleur",
        "annule",  # the last card only: the voleur
        "une insomniaque", "deux villageois",
        "oui",
    ]  # fmt: skip
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert table.players == ["Ana", "Ben", "Chloé"]
    assert sorted(table.roles) == sorted(["loup", "loup", "voyante", "insomniaque", "villageois", "villageois"])
    said = [text for _, _, text in speaker.heard]
    at = said.index("J'annule : Cleo.")
    assert said[at - 1 : at + 2] == [
        "Cleo, c'est bien ça ?",
        "J'annule : Cleo.",
        load_prompts().text("ask_name", seat=3),
    ]
    at = said.index("J'annule : Voleur.")
    assert said[at - 1 : at + 2] == ["Une carte Voleur : 4 sur 6.", "J'annule : Voleur.", "3 sur 6."]


def test_annule_before_the_cards_takes_back_the_last_name() -> None:
    answers = ["une nuit", "trois", "ana", "oui", "ben", "oui", "cleo", "oui", "annule", "chloé", "oui"]
    answers += ["deux loups", "une voyante", "un voleur", "deux villageois", "oui"]
    spoken, speaker = setup(answers)
    assert spoken.run().players == ["Ana", "Ben", "Chloé"]
    assert "J'annule : Cleo." in [text for _, _, text in speaker.heard]


def test_stop_during_the_setup_asks_first() -> None:
    # RULINGS thiercelieux 22: "Nothing a single misheard word triggers is irreversible."
    answers = ["une nuit", "stop", "non", "trois", "ana", "oui", "stop", "oui"]
    spoken, speaker = setup(answers)
    with pytest.raises(SetupStopped):
        spoken.run()
    prompts = load_prompts()
    said = [text for _, _, text in speaker.heard]
    check = prompts.text("setup_stop_check")
    at = said.index(check)
    assert said[at - 1 : at + 3] == [
        prompts.text("ask_count"),
        check,
        prompts.text("stop_cancelled"),
        prompts.text("ask_count"),
    ]
    assert said[-2:] == [check, prompts.text("setup_stopped")]


# --- the classic game, set up by voice (issue 23, point 5) --------------------------------------------


def test_a_classic_game_of_eight_is_set_up_by_voice_and_played_on_the_phones_with_no_operator(tmp_path: Path) -> None:
    """`narrator --phones` alone: the table says the game, its eight names, its cards and its options; the
    program deals the cards to the phones, each player plays their night on their own phone, and nobody
    types anything (no keyboard, no operator). Cupidon unites the two wolves, the pack devours the
    villager, the witch poisons a wolf, whose beloved dies of grief: the village wins at dawn."""
    import threading
    import time

    import yaml
    from phones_client import Phone
    from test_phones_table import Phones as SeatedPhones
    from test_phones_table import Table as CommandLine

    from narrator.script.classic.script import load_classic

    players = ["Ana", "Ben", "Chloé", "Dan", "Eva", "Farid", "Gaël", "Hugo"]
    said = ["les loups-garous de thiercelieux", "nous sommes huit"]
    for name in players:
        said += [name.lower(), "oui"]
    said += ["qu'est-ce que je peux dire", "deux loups-garous", "une voyante", "une sorcière", "un cupidon"]
    said += ["rappelle les personnages", "un chasseur", "trois villageois", "une petite fille", "un villageois"]
    said += ["non", "oui"]  # no captain; the setup read back, confirmed
    voice = tmp_path / "voix.txt"
    voice.write_text("\n".join(said) + "\n", encoding="utf-8")
    journal = tmp_path / "partie.jsonl"
    args = ["--phones", "--bind", "127.0.0.1", "--port", "0", "--ear", f"script:{voice}", "--no-wait"]
    table = CommandLine(tmp_path, [*args, "--journal", str(journal)], journal)
    by_name = {r.name[:1].upper() + r.name[1:]: rid for rid, r in load_classic().roles.items()}
    card: dict[str, str] = {}  # each seat's card, as its own phone shows it

    def choose(seat: str, question: dict) -> object:
        # a decoy looks like the real call (its words and form): each seat answers as its card would
        values = [c["value"] for c in question["choices"]]
        form = question["form"]
        while len(card) < len(players):  # every phone has read its card before the first call
            time.sleep(0.01)
        wolves = [p for p in players if card[p] == "loup"]
        touches = {
            "cupidon": wolves,
            "loup": next(p for p in players if card[p] == "villageois"),
            "sorciere": wolves[0],
        }
        mine = touches.get(card[seat])
        if form == "yes_no":
            return False
        if form in ("pair", "some"):
            return mine if isinstance(mine, list) else values[: 2 if form == "pair" else 1]
        return mine if mine in values else values[0] if values else None

    phones = SeatedPhones(table.port)
    tokens = {seat: phones.sit(seat) for seat in players}
    stop = threading.Event()

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
            if screen["card"]:
                card[seat] = by_name[screen["card"]["name"]]
            question = screen["question"]
            if question and not question["answered"] and question["asked"] > done:
                done = question["asked"]
                phone.call("POST", "/api/answer", {"asked": done, "value": choose(seat, question)})
            time.sleep(0.02)

    threads = [threading.Thread(target=play_phone, args=(seat,), daemon=True) for seat in players]
    for thread in threads:
        thread.start()
    try:
        assert table.process.wait(180) == 0, "".join(table.out + table.err)
    finally:
        stop.set()
        phones.close()
        if table.process.poll() is None:
            table.process.kill()
    header, *events = table.events()
    assert header["game"] == "thiercelieux" and header["players"] == players
    assert sorted(header["deal"]) == sorted(["loup", "loup", "voyante", "sorciere", "cupidon", "villageois", "chasseur", "petite_fille"])  # fmt: skip
    assert header["deal"] == [card[p] for p in players]  # what each phone showed is what the program dealt
    assert header["options"]["captain"] is False
    assert {e["key"]: e["by"] for e in events if e["type"] == "answer"} == dict.fromkeys(
        ["cupidon", "voyante", "petite_fille", "loup", "sorciere"], "phone"
    )
    heard = table.heard()
    prompts = load_prompts()
    wolves = [p for p in players if card[p] == "loup"]
    assert prompts.text("help_characters", characters="Cupidon, Voyante").split(":")[0] in "\n".join(heard)
    assert "Une carte Voyante : 3 sur 8." in heard and "2 cartes Loup-garou : 2 sur 8." in heard
    assert "Les personnages donnés : 2 cartes Loup-garou, Voyante, Sorcière et Cupidon." in heard
    # « trois villageois » at 6 of 8 is one too many: refused, the six cards kept
    at = heard.index("Cela fait un personnage de trop.")
    assert heard[at + 1] == "Il manque 2 personnages : 6 sur 8."
    assert any(
        h.startswith("8 joueurs : Ana, Ben, Chloé") and "Sans capitaine. Avec les téléphones." in h for h in heard
    )
    record = yaml.safe_load(journal.with_suffix(".record.yaml").read_text(encoding="utf-8"))
    result = resolve_record(record)
    villager = next(p for p in players if card[p] == "villageois")
    assert result["camp"] == "village" and result["dead"] == [villager, wolves[0], wolves[1]]
    # the verdict, its winners (the dead villager too), then the offer of the story
    village = [p for p in players if p not in wolves]
    assert heard[-4:-1] == [
        "Le village n'a plus d'ennemi en vie : le village gagne.",
        f"{', '.join(village[:-1])} et {village[-1]} gagnent.",
        "Voulez-vous l'histoire de la partie ?",
    ]


# --- every answer kept, every choice said (issue 23, point 4) ------------------------------------------

NAMES_5 = ["poudlard", "cinq", "ana", "oui", "ben", "oui", "chloé", "oui", "dan", "oui", "eva", "oui"]


def heard_lines(speaker) -> list[str]:
    return [text for _, _, text in speaker.heard]


def test_one_card_too_many_is_refused_and_the_cards_already_given_are_kept() -> None:
    answers = [*NAMES_5, "deux mangemorts", "une hermione", "un sirius", "une élève", "un harry"]  # 6 of 8
    answers += ["trois élèves", "deux élèves", "oui"]  # one too many: refused; two: 8 of 8
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert sorted(table.roles) == sorted(["mangemort", "mangemort", "hermione", "sirius", "eleve", "harry", "eleve", "eleve"])  # fmt: skip
    said = heard_lines(speaker)
    at = said.index("Cela fait un personnage de trop.")
    assert said[at - 1] == "Une carte Harry Potter : 6 sur 8."
    assert said[at + 1] == "Il manque 2 personnages : 6 sur 8."
    assert said[at + 2] == "2 cartes Élève de Poudlard : 8 sur 8."  # the six kept: two more make eight


def test_each_card_is_confirmed_by_its_name_and_c_est_tout_says_what_is_missing() -> None:
    answers = [*NAMES_5, "deux mangemorts", "c'est tout", "une hermione", "trois élèves", "un sirius"]
    answers += ["un harry", "oui"]
    spoken, speaker = setup(answers)
    spoken.run()
    said = heard_lines(speaker)
    assert "2 cartes Mangemort : 2 sur 8." in said and "Une carte Hermione Granger : 3 sur 8." in said
    assert "3 cartes Élève de Poudlard : 6 sur 8." in said
    assert said[said.index("2 cartes Mangemort : 2 sur 8.") + 1] == "Il manque 6 personnages : 2 sur 8."
    assert not any(line == "6 sur 8." for line in said)  # never a bare count


def test_the_box_s_copies_are_said_when_an_answer_asks_for_more() -> None:
    answers = [*NAMES_5, "deux élèves", "deux élèves", "deux mangemorts", "un élève", "une hermione"]
    answers += ["un sirius", "un harry", "oui"]
    spoken, speaker = setup(answers)
    spoken.run()
    said = heard_lines(speaker)
    at = said.index("Il n'y a que 3 cartes Élève de Poudlard dans la boîte.")
    assert said[at + 1] == "Il manque 6 personnages : 2 sur 8."


def test_what_can_i_say_answers_with_the_choices_of_the_question_asked() -> None:
    help_ = "qu'est-ce que je peux dire"
    answers = [help_, "poudlard", help_, "cinq", "ana", "oui", "ben", "oui", "chloé", "oui", "dan", "oui", "eva"]
    answers += [help_, "oui", help_, "première année", "oui"]
    spoken, speaker = setup(answers)
    spoken.run()
    said = heard_lines(speaker)
    prompts = load_prompts()
    games = "Loup-Garou pour une nuit, Loup-Garou pour une nuit, édition Poudlard et Les Loups-Garous de Thiercelieux"
    assert prompts.text("help_game", games=games) in said
    assert prompts.text("help_count", low=3, high=13) in said
    assert prompts.text("help_yes_no") in said  # at « Eva, c'est bien ça ? »
    # at « Quels personnages ? »: the scenarios for five by name, then every character of the game
    assert "Pour 5 joueurs, il y a un scénario : Première année à Poudlard." in said  # not « Les scénarios »
    characters = next(line for line in said if line.startswith("Les personnages du jeu : "))
    for name in ("Mangemort", "Élève de Poudlard", "Hermione Granger", "Luna Lovegood"):
        assert name in characters
    assert prompts.text("help") not in said  # never the day's help


def test_rappelle_les_personnages_reads_back_the_cards_given_so_far() -> None:
    answers = [*NAMES_5, "rappelle les personnages", "deux mangemorts", "une hermione", "rappelle les personnages"]
    answers += ["trois élèves", "un sirius", "un harry", "oui"]
    spoken, speaker = setup(answers)
    spoken.run()
    said = heard_lines(speaker)
    assert "Aucun personnage pour l'instant." in said
    at = said.index("Les personnages donnés : 2 cartes Mangemort et Hermione Granger.")
    assert said[at - 1] == "Une carte Hermione Granger : 3 sur 8."


def test_a_name_that_is_a_card_is_refused_with_why_and_how_to_fix_it() -> None:
    # the command line refuses it the same way (narrator/listen/setup_words.py, name_refusal)
    answers = ["poudlard", "trois", "harry", "harry b", "oui", "ben", "oui", "je m'appelle luna", "chloé", "oui"]
    answers += ["première année", "oui"]
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert table.players == ["Harry B.", "Ben", "Chloé"]
    said = heard_lines(speaker)
    prompts = load_prompts()
    assert prompts.text("name_is_a_card", name="Harry") in said and prompts.text("name_is_a_card", name="Luna") in said
    assert "Je n'ai pas compris « harry »." not in said
    assert SetupParser("poudlard").name_refusal("Harry") is not None
    assert SetupParser("poudlard").name_refusal("Harry B.") is None


def test_a_classic_setup_asks_the_undealt_cards_the_sectaire_s_groups_and_the_captain() -> None:
    answers = ["thiercelieux", "oui", "quatre", "ana", "oui", "ben", "oui", "chloé", "oui", "dan", "oui"]
    answers += ["un loup-garou", "un voleur", "un sectaire", "un villageois"]
    answers += ["un voleur", "une voyante", "un villageois"]  # the voleur's own card cannot stay out
    answers += ["un", "un", "un", "un", "deux"]  # the last must people group 2: « un » refused
    answers += ["oui", "oui"]  # a captain; the read-back
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert spoken.phones and table.game == "thiercelieux"
    assert table.roles == ["loup", "voleur", "sectaire", "villageois"] and table.extra == ["voyante", "villageois"]
    assert table.groups == {"Ana": 1, "Ben": 1, "Chloé": 1, "Dan": 2} and table.captain
    said = heard_lines(speaker)
    assert "Il faut des joueurs dans les deux groupes : dites groupe 2." in said
    assert said[-1] == (
        "4 joueurs : Ana, Ben, Chloé et Dan. Personnages : Loup-garou, Voleur, Abominable sectaire et Villageois."
        " Cartes non distribuées : Voyante et Villageois. Groupe 1 : Ana, Ben et Chloé. Groupe 2 : Dan."
        " Avec un capitaine. Avec les téléphones. C'est bien ça ?"
    )
    from narrator.app.classic import Classic
    from narrator.app.startup import TableRequest

    asked = TableRequest(table.players, table.roles, extra=table.extra, groups=table.groups, captain=table.captain)
    record = Classic().table(table.game, asked).record  # the command line's check takes it as it is
    assert record.options.captain and record.extra == ("voyante", "villageois")


def test_a_classic_game_named_on_the_command_line_asks_for_the_phones_first() -> None:
    # `narrator play thiercelieux` without --players nor --phones: by voice, the cards are dealt on the phones
    spoken, speaker = setup(
        ["non", "une nuit", "trois", "ana", "oui", "ben", "oui", "cleo", "oui", "découverte", "oui"]
    )
    table = spoken.run("thiercelieux")
    assert table.game == "onuw" and not spoken.phones
    said = heard_lines(speaker)
    prompts = load_prompts()
    # one greeting, first; then the game asked again without it (issue 23's ear: a second « Bonjour »)
    assert said[:4] == [
        prompts.text("hello"),
        prompts.text("classic_needs_phones"),
        prompts.text("game_unavailable"),
        prompts.text("ask_game"),
    ]


@pytest.mark.parametrize("answer", ["non, sans les téléphones", "sans les téléphones"])
def test_sans_les_telephones_answers_the_phones_question_at_once(answer: str) -> None:
    # the outside test of issue 23: « non, sans les téléphones » got « D'accord, sans les téléphones. » and
    # then the whole phones question again
    spoken, speaker = setup(["thiercelieux", answer, *ONUW_THREE, "découverte", "oui"])
    assert spoken.run().game == "onuw"
    said = heard_lines(speaker)
    prompts = load_prompts()
    assert said.count(prompts.text("classic_needs_phones")) == 1
    assert said[said.index(prompts.text("classic_needs_phones")) + 1] == prompts.text("game_unavailable")


def test_thiercelieux_without_phones_says_what_the_operator_does_and_greets_once() -> None:
    # issue 23's ear: « … : « narrator play thiercelieux --players Ana,Ben,… --roles … » … » was read aloud,
    # then « Bonjour, je suis le narrateur » came again with the question
    spoken, speaker = setup(["thiercelieux", "non", *ONUW_THREE, "découverte", "oui"])
    assert spoken.run().game == "onuw"
    said = heard_lines(speaker)
    prompts = load_prompts()
    at = said.index(prompts.text("game_unavailable"))
    assert said[at].startswith(
        "Sans les téléphones, Thiercelieux se lance au clavier, les joueurs et leurs cartes écrits dans la commande"
    )
    assert said[at + 1] == prompts.text("ask_game")
    assert sum("Bonjour" in line for line in said) == 1
    assert not [line for line in said if "narrator" in line or "--" in line]


# --- what an outside table found (try-setup): nothing lost on one word, every refusal says why ---

ONUW_THREE = ["une nuit", "trois", "ana", "oui", "ben", "oui", "cleo", "oui"]


def test_non_at_the_read_back_takes_back_the_last_answer_only() -> None:
    # a « non » to the whole read-back must not throw the game, the names and the cards away
    answers = [*ONUW_THREE, "deux loups", "une voyante", "un voleur", "deux villageois", "non"]
    answers += ["une insomniaque", "un villageois", "oui"]  # 4 of 6 kept: the last answer said again
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert table.players == ["Ana", "Ben", "Cleo"]
    assert sorted(table.roles) == sorted(["loup", "loup", "voyante", "voleur", "insomniaque", "villageois"])
    said = heard_lines(speaker)
    prompts = load_prompts()
    at = said.index(prompts.text("read_back_no"))
    assert said[at + 1 : at + 3] == ["J'annule : 2 cartes Villageois.", "4 sur 6."]
    assert sum(line.startswith("Bonjour") for line in said) == 1 and "D'accord, on recommence." not in said


def test_annule_at_the_read_back_takes_back_the_last_card_answer_only() -> None:
    answers = ["poudlard", "six", "ana", "oui", "ben", "oui", "chloé", "oui", "dan", "oui", "eva", "oui", "gus", "oui"]
    answers += ["deux mangemorts", "ron weasley", "hermione granger", "trois élèves de poudlard"]
    answers += ["sirius", "albus dumbledore", "annule", "harry potter", "oui"]
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert "harry" in table.roles and "albus" not in table.roles and len(table.roles) == 9
    said = heard_lines(speaker)
    at = said.index("J'annule : Albus Dumbledore.")
    assert said[at + 1] == "8 sur 9."
    assert not any(line.startswith("Quels personnages") for line in said[at:])  # only how many were given


def test_the_setup_s_answers_are_journaled_and_offered_again_after_a_cut(tmp_path: Path) -> None:
    from narrator.table.setup_journal import SetupJournal

    journal = SetupJournal(tmp_path / "setup.json")
    spoken, _ = setup(["une nuit", "trois", "ana", "oui", "ben", "oui", "cléo", "oui", "deux loups"])
    spoken.journal = journal
    with pytest.raises(EOFError):  # the table cut short (a Ctrl-C, a crash) after two cards
        spoken.run()
    left = journal.read()
    assert left is not None and left.value("name3") == "Cléo" and left.cards == (("loup", "loup"),)
    again, speaker = setup(["oui", "une voyante", "un voleur", "deux villageois", "oui"])
    again.journal = journal
    assert again.offer(left)
    table = again.run()
    assert table.players == ["Ana", "Ben", "Cléo"] and table.roles.count("loup") == 2
    said = heard_lines(speaker)
    assert said[:2] == [
        load_prompts().text("hello"),
        "Une mise en place n'est pas finie : Loup-Garou pour une nuit, 3 joueurs, Ana, Ben, Cléo"
        " et 2 cartes Loup-garou. On la reprend ?",
    ]
    # « non » to the offer starts from nothing, and forgets what was left
    fresh, _ = setup(["non", "poudlard"])
    fresh.journal = journal
    assert not fresh.offer(left)
    with pytest.raises(EOFError):
        fresh.run()
    assert journal.read() is not None and journal.read().answers == (("game", "poudlard"),)  # type: ignore[union-attr]


def test_a_setup_cut_short_goes_on_at_the_next_narrator(tmp_path: Path) -> None:
    env = {**os.environ, "PULSE_SERVER": "unix:/nonexistent", "NARRATOR_STATE_DIR": str(tmp_path / "state"),
           "NARRATOR_CONFIG_DIR": str(tmp_path / "config")}  # fmt: skip

    def narrator(said: list[str]) -> subprocess.CompletedProcess:
        answers = tmp_path / "voix.txt"
        answers.write_text("\n".join(said) + "\n", encoding="utf-8")
        return subprocess.run(
            [sys.executable, "-m", "narrator", "--ear", f"script:{answers}", "--no-wait"],
            capture_output=True, text=True, timeout=300, env=env, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    first = narrator(["poudlard", "trois", "ana", "oui", "ben", "oui"])
    assert first.returncode != 0 and "Traceback" not in first.stderr
    assert (tmp_path / "state" / "setup.json").is_file()
    second = narrator(["oui", "chloé", "oui", "première année", "oui"])
    assert (
        "Une mise en place n'est pas finie : Loup-Garou pour une nuit, édition Poudlard, 3 joueurs, Ana et Ben."
        in second.stdout
    )
    journal = next((tmp_path / "state").glob("*.jsonl"))  # the game began: its own journal took over
    assert json.loads(journal.read_text(encoding="utf-8").splitlines()[0])["players"] == ["Ana", "Ben", "Chloé"]
    assert not (tmp_path / "state" / "setup.json").exists()


def test_a_bad_setup_journal_is_refused_with_its_reason(tmp_path: Path) -> None:
    from narrator.table.setup_journal import SetupJournal, SetupJournalError

    path = tmp_path / "setup.json"
    path.write_text('{"version": 1, "phones": false, "answers": [["count", "trois"]], "cards": []}', encoding="utf-8")
    with pytest.raises(SetupJournalError, match="réponse « count » : valeur 'trois' refusée"):
        SetupJournal(path).read()
    path.write_text('{"version": 1, "phones": false, "answers": [["couleur", 1]], "cards": []}', encoding="utf-8")
    with pytest.raises(SetupJournalError, match="réponse inconnue « couleur »"):
        SetupJournal(path).read()


def test_a_name_with_its_initial_is_taken_back_with_one_full_stop() -> None:
    spoken, speaker = setup(
        ["poudlard", "trois", "harry b", "oui", "annule", "ana", "oui", "ben", "oui", "cleo", "oui"]
    )
    with pytest.raises(EOFError):
        spoken.run()
    said = heard_lines(speaker)
    assert "J'annule : Harry B." in said and "J'annule : Harry B.." not in said


@pytest.mark.parametrize(
    "answer,why",
    [
        ("trois ron weasley", "Il n'y a qu'une carte Ron Weasley dans la boîte."),
        ("cinq élèves de poudlard", "Il n'y a que 3 cartes Élève de Poudlard dans la boîte."),
        ("voldemort", "Voldemort n'est pas un personnage du jeu."),
    ],
)
def test_a_card_answer_refused_says_what_is_wrong_and_how_many_are_given(answer: str, why: str) -> None:
    answers = ["poudlard", "six", "ana", "oui", "ben", "oui", "chloé", "oui", "dan", "oui", "eva", "oui", "gus", "oui"]
    spoken, speaker = setup([*answers, "deux mangemorts", answer])
    with pytest.raises(EOFError):
        spoken.run()
    said = heard_lines(speaker)
    # issue 23: the cards given are kept, and how many are missing is said
    assert said[-2:] == [why, "Il manque 7 personnages : 2 sur 9."]
    # the example is one of Poudlard's own cards
    assert "par exemple « deux mangemorts »" in next(line for line in said if line.startswith("Quels personnages"))


def test_avec_les_telephones_is_heard_at_a_name_and_the_question_asked_again() -> None:
    spoken, speaker = setup(["avec les téléphones", "une nuit", "trois", "avec les téléphones", "ana", "oui"])
    with pytest.raises(EOFError):
        spoken.run()
    assert spoken.phones
    said = heard_lines(speaker)
    phoned = load_phone_prompts().text("setup_phones")
    first, second = [i for i, line in enumerate(said) if line == phoned]
    assert said[first + 1] == load_prompts().text("ask_game")  # the question again, without a second « Bonjour »
    assert said[second + 1] == load_prompts().text("ask_name", seat=1)


def test_a_new_name_at_its_confirmation_is_the_correction() -> None:
    spoken, speaker = setup([*ONUW_THREE[:4], "bem", "benoît", "oui", "cleo", "non, chloé", "oui", "découverte", "oui"])
    table = spoken.run()
    assert table.players == ["Ana", "Benoît", "Chloé"]
    said = heard_lines(speaker)
    assert "Benoît, c'est bien ça ?" in said and not any(line.startswith("Je n'ai pas compris") for line in said)


def test_the_sectaire_s_groups_are_asked_once_and_taken_back_by_name() -> None:
    answers = ["thiercelieux", "oui", "quatre", "ana", "oui", "ben", "oui", "chloé", "oui", "dan", "oui"]
    answers += ["un loup-garou", "un sectaire", "deux villageois"]
    answers += ["groupe un", "le premier", "annule", "au deuxième groupe", "groupe deux", "groupe un"]
    answers += ["oui", "annule", "non", "oui"]  # a captain taken back, then none
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert table.groups == {"Ana": 1, "Ben": 2, "Chloé": 2, "Dan": 1} and not table.captain
    said = heard_lines(speaker)
    assert sum("L'abominable sectaire partage la table" in line for line in said) == 1
    assert "Ben : groupe 1 ou 2 ?" in said
    assert "J'annule : Ben, groupe 1." in said and "J'annule : le capitaine." in said


def test_the_help_names_thiercelieux_s_first_cards_then_all_when_asked_again() -> None:
    answers = ["thiercelieux", "oui", "quatre", "ana", "oui", "ben", "oui", "chloé", "oui", "dan", "oui"]
    answers += ["aide", "aide"]
    spoken, speaker = setup(answers)
    with pytest.raises(EOFError):
        spoken.run()
    said = heard_lines(speaker)
    first, second = [line for line in said if line.startswith("Les personnages du jeu : ")]
    assert first.startswith("Les personnages du jeu : Cupidon, Voyante, Petite fille, Loup-garou, Sorcière")
    # no comma before « et », one colon (issue 23's ear: « …, et 18 autres : dites encore… »)
    assert first.endswith(", Salvateur et 18 autres ; dites encore « aide » pour tous les entendre.")
    assert len(second) > len(first) and "Abominable sectaire" in second and "Abominable sectaire" not in first


def test_c_est_tout_after_the_last_card_is_harmless() -> None:
    answers = [*ONUW_THREE, "deux loups", "une voyante", "un voleur", "deux villageois", "c'est tout", "oui"]
    spoken, speaker = setup(answers)
    assert len(spoken.run().roles) == 6
    said = heard_lines(speaker)
    assert said[-1] == load_prompts().text("yes_or_no")
    assert sum(line.startswith("3 joueurs : ") for line in said) == 1  # the read-back not said again
    assert not any(line.startswith("Je n'ai pas compris") for line in said)


def test_a_yes_or_a_no_to_an_open_question_is_told_why_it_is_not_an_answer() -> None:
    # issue 23: « oui » to « quel est ton nom ? » or « non » to « Quels personnages ? » was met with the
    # question again, unexplained; it is understood, and is not an answer to that question
    answers = ["poudlard", "cinq", "oui", "ana", "oui", "ben", "oui", "cleo", "oui", "dan", "oui", "eva", "oui"]
    spoken, speaker = setup([*answers, "non"])
    with pytest.raises(EOFError):
        spoken.run()
    said = heard_lines(speaker)
    told = [i for i, line in enumerate(said) if line == "Ce n'est pas une question à oui ou non."]
    assert len(told) == 2
    assert said[told[0] + 1].startswith("Place 1") and said[told[1] + 1].startswith("Quels personnages")
    assert not any(line.startswith("Je n'ai pas compris") for line in said)
    # a « oui » to a question of « oui » or « non » is an answer: « Ana, c'est bien ça ? »
    assert said[told[0] + 2] == "Ana, c'est bien ça ?"
