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
from narrator.script.prompts import load_prompts
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
        "thiercelieux",  # not ready yet: asked again
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
    assert any(line.startswith("Thiercelieux se prépare à l'écran, par l'opérateur") for line in said)
    assert "Il faut entre 3 et 13 joueurs." in said
    assert "Le nom Ana est déjà pris. Choisis un autre nom." in said
    assert said[-1].startswith("4 joueurs : Ana, Benoît, Chloé et David. Personnages : Mangemort, Mangemort")


def test_characters_one_by_one_and_recommence() -> None:
    answers = [
        "une nuit", "trois",
        "ana", "oui", "ben", "oui", "cleo", "oui",
        "deux loups", "une voyante", "un voleur",  # 4 of 6
        "recommence",  # everything again
        "une nuit", "trois",
        "ana", "oui", "ben", "oui", "cleo", "oui",
        "deux loups garous", "une voyante", "un voleur", "deux villageois",
        "oui",
    ]  # fmt: skip
    spoken, speaker = setup(answers)
    table = spoken.run()
    assert table.script.rules.game == "onuw"
    assert sorted(table.roles) == sorted(["loup", "loup", "voyante", "voleur", "villageois", "villageois"])
    assert "D'accord, on recommence." in [text for _, _, text in speaker.heard]


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
    for question in ("welcome", "ask_count", "ask_cards_mode", "setup_read_back"):
        asked = [line for _, line, _ in speaker.heard if line.rstrip("*") == question]
        assert len(asked) == 3, question  # asked, again after the silence, again after the miss
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
    for question in ("ask_votes", "ask_card*", "ask_pointing*", "read_back*"):
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
    at = said.index("J'annule : voleur.")
    so_far = [load_prompts().text("characters_so_far", count=n, total=6) for n in (4, 3)]
    assert said[at - 1 : at + 2] == [so_far[0], "J'annule : voleur.", so_far[1]]


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
