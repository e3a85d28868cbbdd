"""What the installed model cannot hear, with the real Korean model: it lacks every French word, and has Korean ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import narrator.listen.heard as heard
from narrator.listen.ear_words import EarWords, ear_words
from narrator.listen.heard import character_forms, heard_forms, hears, unheard_characters, unheard_in_play
from narrator.listen.model_check import check, report
from narrator.script.onenight.script import load_shipped
from narrator.table.onenight.announcer import plan
from narrator.table.onenight.setup import Table

KOREAN = "민수 영희"  # two words the Korean model has


@pytest.fixture
def korean_respelling(monkeypatch):
    """The phrasebook's respellings, with Mangemort also said in words the Korean model has."""
    shipped = ear_words()
    respell = {game: dict(roles) for game, roles in shipped.respell.items()}
    respell["poudlard"]["mangemort"] = (*respell["poudlard"]["mangemort"], KOREAN)
    monkeypatch.setattr(heard, "ear_words", lambda: EarWords(shipped.go_on, respell))


def test_the_forms_of_a_character_are_its_names_then_its_respellings():
    forms = character_forms("poudlard", "mangemort")
    assert forms[0] == "mangemort" and "mange mort" in forms
    assert "minerva mcgonagall" in character_forms("poudlard", "minerva")
    assert character_forms("onuw", "loup")[:2] == ["loup-garou", "loup garou"]


def test_the_korean_model_hears_no_french_form(model):
    assert hears(model, KOREAN) and not hears(model, "mange mort") and not hears(model, f"{KOREAN} mort")
    assert heard_forms(model, "poudlard", "mangemort") == []
    assert heard_forms(model, "onuw", "voyante") == []


def test_a_respelling_the_model_has_is_picked(model, korean_respelling):
    assert heard_forms(model, "poudlard", "mangemort") == [KOREAN]
    assert heard_forms(model, "poudlard", "harry") == []


def test_the_start_says_what_to_say_for_a_character_the_model_cannot_hear(model):
    script = load_shipped("poudlard")
    roles = ["eleve", "mangemort", "harry", "eleve"]
    said = unheard_in_play(model, script, roles, legend_read=True)
    # the legend's order is the script's: Mangemort first, Harry, then élève
    assert said[0] == (
        "Le modèle de reconnaissance ne connaît pas le mot « Mangemort » : "
        "pour ce personnage, dites son numéro dans la légende, 1."
    )
    assert len(said) == 3 and "« Harry Potter »" in said[1] and "légende, 2." in said[1]
    assert "légende" not in unheard_in_play(model, script, roles, legend_read=False)[0]


def test_the_start_says_the_respelling_when_the_model_has_it(model, korean_respelling):
    [problem] = unheard_characters(model, "poudlard", ["mangemort"], ["mangemort"], {"mangemort": "Mangemort"})
    assert problem.message.endswith(f"pour ce personnage, dites « {KOREAN} ».")


def test_model_check_lists_every_french_word_with_what_is_heard_instead(model, korean_respelling):
    found = {u.word: u for u in check(model)}
    assert {"mangemort", "contre", "euh", "vote", "oui", "dumbledore"} <= set(found)
    assert found["mangemort"].characters == {"poudlard:mangemort": f"« {KOREAN} »"}
    assert found["dumbledore"].characters == {"poudlard:dumbledore": "son numéro dans la légende"}
    assert found["dumbledore"].commands == {}  # a character's word: its own alternative, not every reveal
    # « contre »: a vote is still heard as two names (« ana ben »), no tally is left
    assert found["contre"].commands["vote"] == "ana ben" and found["contre"].commands["tally"] is None
    assert found["euh"].instead.startswith("rien")
    assert "mise en place poudlard" in found["mangemort"].phases and "any" in found["mangemort"].phases["poudlard"]
    lines = list(report(model, "ko"))
    assert lines[0] == "Modèle : ko" and len(lines) == len(found) + 2
    assert any(line.startswith("« euh » [partout] → rien") for line in lines)


def test_the_check_on_the_command_line(model_dir: Path):
    done = subprocess.run(
        [sys.executable, "-m", "narrator", "model", "check", "--model", str(model_dir)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == f"Modèle : {model_dir}" and "mots des grammaires sont inconnus du modèle" in out[1]
    assert any(line.startswith("« mangemort » [") and "son numéro dans la légende" in line for line in out)
    missing = subprocess.run(
        [sys.executable, "-m", "narrator", "model", "check", "--model", "/nulle/part"], capture_output=True, text=True
    )
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr == "narrator: --model : le dossier de modèle /nulle/part n'existe pas.\n"


def test_the_live_table_says_it_before_the_legend(audio_server, model):
    from narrator.app.onenight import unheard_lines
    from narrator.listen.vosk_ear import VoskEar

    script = load_shipped("poudlard")
    roles = ["mangemort", "harry", "eleve", "eleve", "hermione", "ron", "eleve", "eleve"]
    table = Table(script, ["Ana", "Ben", "Cleo", "Dan", "Eva"], roles, plan(script.announce, roles, 5))
    with VoskEar(model) as ear:
        lines = unheard_lines(ear, table)
    assert [line.text.split("« ")[1].split(" »")[0] for line in lines] == [
        "Mangemort",
        "Hermione Granger",
        "Ron Weasley",
        "Harry Potter",
        "élève de Poudlard",
    ]
    assert unheard_lines(object(), table) == []


def test_a_phase_grammar_gets_the_respellings_the_model_hears(model, korean_respelling):
    from narrator.listen.heard import with_respellings

    said = ["ana est mangemort", "ben vote contre ana", "mangemort", "mangemorts", "ana harry potter"]
    assert with_respellings(model, "poudlard", said) == [*said, f"ana est {KOREAN}", KOREAN]
    assert with_respellings(model, "onuw", said) == said  # no Korean respelling there


def test_the_respellings_name_no_other_character_nor_symbol():
    from narrator.listen.french import phrasebook
    from narrator.listen.heard import symbol_of
    from narrator.script.onenight.script import load_game

    for game, roles in ear_words().respell.items():
        known = load_game(game).roles
        assert set(roles) <= set(known), f"{game}: {set(roles) - set(known)}"
        aliases = {alias.lower(): rid for alias, rid in phrasebook().role_aliases(game) if ":" not in rid}
        symbols = {symbol_of(game, rid): rid for rid in known if symbol_of(game, rid)}
        for role, forms in roles.items():
            for form in forms:
                assert aliases.get(form, role) == role, f"{game}: « {form} » is {aliases[form]}'s"
                assert symbols.get(form, role) == role, f"{game}: « {form} » is {symbols[form]}'s symbol"


def test_narrator_check_reads_the_respellings_too(tmp_path: Path):
    from narrator.resources import data_dir

    text = (data_dir("scripts") / "listen.fr.yaml").read_text(encoding="utf-8")
    assert text.rstrip().endswith("eleve: [élève]")  # respell is the file's last section
    broken = tmp_path / "listen.fr.yaml"
    broken.write_text(text.rstrip() + "\n    ron: ron\n", encoding="utf-8")
    line = len(text.rstrip().splitlines()) + 1
    done = subprocess.run([sys.executable, "-m", "narrator", "check", str(broken)], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f'{broken}:{line}:10: respell.poudlard.ron: attendu : une liste ; trouvé : "ron"\n'
