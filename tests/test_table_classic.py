"""Whole classic Thiercelieux games at a table: a scripted operator types the night, scripted voices
speak the day, on a fake clock; each game ends as `narrator resolve` says its record ends."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from test_session import ClockSpeaker, fake_render

from narrator.listen.french import Parser
from narrator.listen.grammar import phrases
from narrator.listen.simple_ears import ScriptedEar
from narrator.resolve import resolve_record
from narrator.rules.classic import Options
from narrator.script.classic import load_classic
from narrator.script.classic_narration import load_narration
from narrator.script.prompts import load_prompts
from narrator.table.classic import ClassicSession
from narrator.table.clock import FakeClock
from narrator.table.journal import Journal, read_journal
from narrator.table.operator import ScriptedOperator
from narrator.table.voice import Voice

PLAYERS = ["Ana", "Ben", "Cleo", "Dan", "Eva", "Fay", "Gus"]
DEAL = ["loup", "loup", "voyante", "sorciere", "chasseur", "cupidon", "petite_fille"]
NIGHTS = [
    # night 1
    ("cupidon", ["Fay", "Gus"]),
    ("voyante", "Ana"),
    ("petite_fille", {"spied": True, "caught": False}),
    ("loup", "Eva"),
    ("sorciere", {"heal": False, "poison": None}),
    # night 2: the voyante is dead
    ("petite_fille", None),
    ("loup", "Dan"),
    ("sorciere", {"heal": True, "poison": None}),
]
VOICES = [
    # morning 1: Eva, the hunter, was devoured
    "je tire sur ben",
    "oui",
    # day 1: the captain, the debate, the ballots (one refused: a lover against his beloved), the tie-break
    "dan est élu capitaine",
    "oui",
    None,
    "on vote",
    "ana vote contre cleo",
    "cleo vote contre ana",
    "dan vote contre personne",
    "fay vote contre gus",
    "fay vote contre cleo",
    "gus vote contre ana",
    "oui",
    "cleo",
    "oui",
    # day 2
    "on vote",
    "ana vote contre dan",
    "dan vote contre ana",
    "fay vote contre ana",
    "gus vote contre ana",
    "oui",
]
# the same game as a record, written by hand from the answers above
RECORD = {
    "ruleset": "thiercelieux",
    "players": PLAYERS,
    "deal": dict(zip(PLAYERS, DEAL)),
    "options": {"captain": True, "witch_self_heal": True, "lovers_spare_each_other": True},
    "phases": [
        {
            "night": {
                "cupidon": ["Fay", "Gus"],
                "voyante": "Ana",
                "petite_fille": {"spied": True, "caught": False},
                "loup": "Eva",
                "sorciere": {"heal": False, "poison": None},
                "chasseur": "Ben",
            }
        },
        {
            "day": {
                "captain": "Dan",
                "votes": {"Ana": "Cleo", "Cleo": "Ana", "Dan": None, "Fay": "Cleo", "Gus": "Ana"},
                "tiebreak": "Cleo",
            }
        },
        {"night": {"petite_fille": None, "loup": "Dan", "sorciere": {"heal": True, "poison": None}}},
        {"day": {"votes": {"Ana": "Dan", "Dan": "Ana", "Fay": "Ana", "Gus": "Ana"}}},
    ],
}


def classic_table(operator_answers, voices, journal: Journal | None = None, captain: bool = True):
    clock = FakeClock()
    speaker = ClockSpeaker(clock)
    parser = Parser("thiercelieux", PLAYERS)
    operator = ScriptedOperator(operator_answers)
    session = ClassicSession(
        prompts=load_prompts(),
        voice=Voice(fake_render, speaker),
        ear=ScriptedEar(voices),
        clock=clock,
        parser=parser,
        phrases=lambda phase: phrases(parser, phase),
        journal=journal,
        rules=load_classic(),
        narration=load_narration(),
        players=tuple(PLAYERS),
        deal=tuple(DEAL),
        options=Options(captain=captain),
        operator=operator,
        minutes=1,
    )
    return session, speaker, operator


def said(speaker: ClockSpeaker) -> list[str]:
    return [text for _, _, text in speaker.heard]


def test_a_whole_classic_game_ends_as_narrator_resolve_says() -> None:
    session, speaker, operator = classic_table(NIGHTS, VOICES)
    ending = session.run()
    expected = resolve_record(RECORD)
    # the table's game is the record written by hand, and both end the same way
    assert ending.record == RECORD
    assert ending.winners == expected["winners"] == ["Cleo", "Dan", "Eva", "Fay", "Gus"]
    assert ending.state.dead == tuple(expected["dead"]) == ("Eva", "Ben", "Cleo", "Ana")
    lines = said(speaker)
    # 003: "Le narrateur révèle les victimes, déclenche les pouvoirs liés à la mort (Chasseur, Amoureux…),
    # puis ouvre le débat et le vote": every public sentence of the resolve is spoken, in its order
    public = [w for w in expected["why"] if w in lines]
    assert public == [w for w in lines if w in expected["why"]]
    for sentence in (
        "Les loups-garous ont dévoré Eva, qui était chasseur.",
        "Le chasseur Eva réplique en mourant et élimine Ben, qui était loup-garou.",
        "Le village élit Dan capitaine.",
        "Le capitaine Dan départage les ex-æquo et désigne Cleo.",
        "Au matin, personne n'est mort.",
        "Le village élimine Ana, qui était loup-garou.",
        "Tous les ennemis du village sont morts : le village gagne.",
    ):
        assert sentence in lines
    assert lines[-1] == "Gagnants : Cleo, Dan, Eva, Fay et Gus."
    # 002, "Mise en place" C and step 4: the night's first and morning words, verbatim
    assert lines[0] == "C'est la nuit, tout le village s'endort, les joueurs ferment les yeux."
    assert "c'est le matin, le village se réveille, tout le monde se réveille et ouvre les yeux…" in lines
    assert "c'est la nuit, les survivants se rendorment !" in lines
    # a lover's ballot against his beloved is refused aloud (002: "Un Amoureux ne doit jamais voter contre son aimé")
    assert "Fay ne peut pas voter contre Gus : les règles ne le permettent pas." in lines


def test_secrets_go_to_the_operator_never_to_the_speaker() -> None:
    session, speaker, operator = classic_table(NIGHTS, VOICES)
    session.run()
    lines = said(speaker)
    secrets = [
        "La voyante regarde la carte de son choix : Ana est loup-garou.",
        "Cupidon unit Fay et Gus pour toujours.",
        "La sorcière sauve Dan avec sa potion de vie.",
        "Gus, la petite fille, espionne les loups-garous sans se faire surprendre.",
    ]
    for secret in secrets:
        assert secret in operator.shown
        assert secret not in lines
    # the operator is asked each night choice in the waking order (002: voyante, loups, sorcière)
    assert operator.asked == [
        ("nuit 1", "cupidon"),
        ("nuit 1", "voyante"),
        ("nuit 1", "petite_fille"),
        ("nuit 1", "loup"),
        ("nuit 1", "sorciere"),
        ("nuit 2", "petite_fille"),
        ("nuit 2", "loup"),
        ("nuit 2", "sorciere"),
    ]


def test_a_dead_roles_call_is_made_and_lasts_as_long() -> None:
    # issue 5: "A dead role's call is still made, with its usual length, so the table cannot hear who died."
    session, speaker, _ = classic_table(NIGHTS, VOICES)
    session.run()
    starts = {}
    for at, line_id, _ in speaker.heard:
        starts.setdefault(line_id, []).append(at)
    wakes, sleeps = starts["voyante_wake"], starts["voyante_sleep"]
    assert len(wakes) == len(sleeps) == 2  # night 1 (she chooses) and night 2 (dead since day 1)
    call = next(c for c in load_narration().calls if "voyante" in c.roles)
    assert sleeps[0] - wakes[0] == pytest.approx(sleeps[1] - wakes[1])
    assert sleeps[1] - wakes[1] >= call.wait
    # Cupidon's calls are made the first night only (002: "La première nuit (tour préliminaire)")
    assert len(starts["cupidon_wake"]) == len(starts["lovers_wake"]) == 1


def test_an_illegal_night_choice_is_refused_on_the_screen_and_asked_again() -> None:
    answers = list(NIGHTS)
    answers[1:1] = [("voyante", "Cleo")]  # the voyante Cleo may not look at her own card
    session, speaker, operator = classic_table(answers, VOICES)
    ending = session.run()
    assert ending.record == RECORD
    refusal = next(s for s in operator.shown if s.startswith("Refusé"))
    assert "pas Cleo : elle-même" in refusal
    assert not any("Refusé" in line for line in said(speaker))


def test_annule_takes_back_the_last_ballot() -> None:
    voices = list(VOICES)
    at = voices.index("cleo vote contre ana")
    voices[at:at] = ["cleo vote contre dan", "annule"]
    session, speaker, _ = classic_table(NIGHTS, voices)
    ending = session.run()
    assert ending.record == RECORD  # Cleo's ballot is the one said after « annule »
    assert "J'annule." in said(speaker)


@pytest.mark.parametrize("cut", ["ana vote contre cleo", "cleo", "ana vote contre dan"])
def test_a_game_cut_short_resumes_from_its_journal(tmp_path: Path, cut: str) -> None:
    """issue 7 for the classic game: every answer journaled before it is used; a resumed game ends the same.
    Cut after a ballot (kept, the vote goes on), after the confirmed tie-break, in the second day."""
    at = VOICES.index(cut) + (2 if cut == "cleo" else 1)
    path = tmp_path / "partie.jsonl"
    journal = Journal.create({"game": "thiercelieux"}, path)
    session, _, operator = classic_table(NIGHTS, VOICES[:at], journal)
    with pytest.raises(EOFError):
        session.run()
    journal.close()
    used = len(operator.asked) - 1 if cut == "ana vote contre dan" else len(operator.asked)
    _, events, _ = read_journal(path)
    journal = Journal(path)
    resumed, speaker, _ = classic_table(NIGHTS[used:], VOICES[at:], journal)
    ending = resumed.run(events)
    journal.close()
    assert ending.record == RECORD
    assert said(speaker)[-1] == "Gagnants : Cleo, Dan, Eva, Fay et Gus."


def test_without_captain_a_tie_is_voted_again() -> None:
    # 002: "Sinon, les joueurs votent à nouveau pour départager les ex-æquo (y compris les joueurs en cause).
    # S'il y a toujours égalité, aucun joueur n'est éliminé."
    voices = VOICES[:2] + [None, "on vote"]
    voices += ["ana vote contre cleo", "cleo vote contre ana", "dan vote contre personne", "fay vote contre cleo"]
    voices += ["gus vote contre ana", "oui"]
    voices += ["ana vote contre cleo", "cleo vote contre ana", "dan vote contre cleo", "fay vote contre cleo"]
    voices += ["gus vote contre ana", "oui"]
    nights = NIGHTS[:5] + [("petite_fille", None), ("loup", "Fay"), ("sorciere", {"heal": False, "poison": None})]
    session, speaker, _ = classic_table(nights, voices, captain=False)
    ending = session.run()
    record = copy.deepcopy(RECORD)
    record["options"]["captain"] = False
    record["phases"][1] = {
        "day": {
            "votes": {"Ana": "Cleo", "Cleo": "Ana", "Dan": None, "Fay": "Cleo", "Gus": "Ana"},
            "revote": {"Ana": "Cleo", "Cleo": "Ana", "Dan": "Cleo", "Fay": "Cleo", "Gus": "Ana"},
        }
    }
    record["phases"][2:] = [{"night": dict(nights[5:])}]
    assert ending.record == record
    expected = resolve_record(record)
    # night 2: Fay devoured, Gus dies of grief: Ana alone against Dan, the wolves win at parity
    assert ending.winners == expected["winners"] == ["Ana", "Ben"]
    assert expected["camp"] == "loups"
    assert "Sans capitaine, le village vote à nouveau entre Ana et Cleo." in said(speaker)
