"""The tagging parser beyond the utterance table: names not at the table said back, the respellings
of scripts/listen.fr.yaml's `respell:` section read as the character, the kinds a sentence is read
from, and a whole game played from a table's own words through the CLI.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from narrator.listen.commands import Command
from narrator.listen.ear_words import ear_words
from narrator.listen.french import Parser, TemplateParser, phrasebook
from narrator.listen.reading import Reader
from narrator.listen.tagger import Lexicon, role_forms


def test_a_name_not_at_the_table_is_said_back_and_never_seated() -> None:
    table = Parser("onuw", ["Paul", "Max", "Léo"])
    assert table.parse("zoé vote contre max", "any") == []
    assert table.stranger("zoé vote contre max") == "Zoé"
    assert table.stranger("euh léa contre max") == "Léa"  # at a table with Léo
    assert table.stranger("jean-pierre contre max") == "Jean-Pierre"
    assert table.stranger("paul vote contre max") is None
    assert table.stranger("il fait beau") is None
    # a seated player's own name is never a stranger, whatever the list of first names holds
    seated = Parser("onuw", ["Zoé", "Max"])
    assert seated.stranger("zoé vote contre max") is None
    assert seated.parse("zoé vote contre max", "any") == [Command("vote", voter="Zoé", target="Max")]


def test_a_slip_is_read_only_when_no_other_first_name_is_as_close() -> None:
    table = Parser("onuw", ["Léo", "Max", "Camille", "Marie"])
    assert table.parse("camile contre max", "any") == [Command("vote", voter="Camille", target="Max")]
    assert table.parse("maxe contre léo", "any") == [Command("vote", voter="Max", target="Léo")]
    assert table.parse("léa contre max", "any") == []  # Léa is a first name of its own
    assert table.parse("mari contre max", "any") == []  # one letter from Marie, and from Maria
    assert table.parse("lèo contre max", "any") == [Command("vote", voter="Léo", target="Max")]


def test_respellings_are_read_as_the_character() -> None:
    book = phrasebook()
    respell = {"poudlard": {"mangemort": ["vol de mort"]}}
    assert role_forms(book, "poudlard", respell)["vol de mort"] == {"mangemort"}
    lexicon = Lexicon(book, "poudlard", {"ana": "Ana", "ben": "Ben"}, respell)
    read = Reader(players=2).read(lexicon.tag("ana est vol de mort".split()), "reveal")
    assert read == [Command("reveal", player="Ana", role="mangemort")]
    # the shipped section (narrator/listen/ear_words.py) is read by every table
    for game, roles in ear_words().respell.items():
        for rid, forms in roles.items():
            for form in forms:
                assert rid in role_forms(book, game)[form], (game, rid, form)


def test_the_old_parser_is_kept_for_the_benchmark_and_reads_the_templates() -> None:
    old, new = TemplateParser("onuw", ["Paul", "Max"]), Parser("onuw", ["Paul", "Max"])
    assert old.parse("paul vote contre max", "vote") == new.parse("paul vote contre max", "vote")
    assert old.parse("paul et max votent contre max", "any") == []  # what the tags now read
    assert len(new.parse("paul et max votent contre max", "any")) == 2


def test_narrator_parse_keeps_its_json_shape() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "narrator", "parse", "--game", "onuw", "--players", "Paul,Zoé,Max", "--phase", "any"]
        + ["paul et zoé votent contre max"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [
        {"command": "vote", "voter": "Paul", "target": "Max"},
        {"command": "vote", "voter": "Zoé", "target": "Max"},
    ]


def test_a_game_played_in_a_tables_own_words(tmp_path: Path) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text(
        "\n".join(
            [
                "euh bon on passe au vote",
                "zoé vote contre ben",  # nobody called Zoé here: said back, not seated
                "ana et chloé votent contre ben et ben aussi",
                "oui",
                "ana j'ai la cible",  # Harry's tactile symbol
                "mangemort",
                "la carte de chloé c'est une élève",
                "oui",
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "narrator", "play", "poudlard", "--players", "Ana,Ben,Chloé"]
        + ["--roles", "harry,mangemort,eleve,ron,luna,eleve", "--ear", f"script:{answers}", "--no-wait"]
        + ["--wav", str(tmp_path / "p.wav"), "--journal", str(tmp_path / "j.jsonl")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "Je ne connais pas de joueur Zoé." in run.stdout
    assert "Ana vote contre Ben, Chloé vote contre Ben et Ben vote contre Ben" in run.stdout
    assert "Ana : Harry Potter, Ben : Mangemort et Chloé : élève de Poudlard" in run.stdout
    assert "Ana et Chloé gagnent." in run.stdout
