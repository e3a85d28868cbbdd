"""The `narrator` command as a user runs it: output on stdout, one French line and exit 2 on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from cli_rig import narrator_here

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "records.yaml"


def narrator(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The real command, in a new process: one such run for each command (and stdin); the other cases run
    in-process (tests/cli_rig.py)."""
    return subprocess.run(
        [sys.executable, "-m", "narrator", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_resolve_prints_the_documented_example() -> None:
    # docs/record.md, "Output": the example record and its documented result
    run = narrator("resolve", str(EXAMPLES))
    assert run.returncode == 0, run.stderr
    first = json.loads(run.stdout)[0]
    assert first["id"] == "example-1"
    assert first["final"] == {
        "Ana": "voleur", "Ben": "voyante", "Cleo": "loup", "Dan": "villageois", "Eva": "chasseur",
        "center": ["loup", "saoulon", "tannelier"],
    }  # fmt: skip
    assert first["learned"] == {
        "Ana": {"loups": ["Ana"], "B": "saoulon"},
        "Ben": {"A": "loup", "C": "tannelier"},
        "Cleo": {"self": "loup"},
    }
    assert set(first["dead"]) == {"Ben", "Cleo"}
    assert set(first["winners"]) == {"Ana", "Dan", "Eva"}
    assert first["why"][:3] == [
        "Égalité à 2 voix entre Ben et Cleo, qui meurent.",
        "Ben avait la carte voyante.",
        "Cleo avait la carte loup-garou : le village gagne.",  # who wins once every card is said
    ]


def test_one_record_gives_one_object_and_json_input_works(tmp_path: Path, capsys) -> None:
    record = {
        "id": 7, "ruleset": "poudlard", "players": ["Ana", "Ben", "Cleo"],
        "deal": {"Ana": "mangemort", "Ben": "harry", "Cleo": "eleve", "center": ["luna", "eleve", "ron"]},
        "night": {"Ben": {"reveal": "Ana"}}, "votes": {"Ana": "Cleo", "Ben": "Ana", "Cleo": "Ana"},
    }  # fmt: skip
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    run = narrator_here(capsys, "resolve", str(path))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["id"] == 7 and out["dead"] == ["Ana"] and set(out["winners"]) == {"Ben", "Cleo"}
    assert out["visible"] == {}  # 001: "Si cette carte est un Mangemort, remets-la face cachée."
    assert out["learned"]["Ben"] == {"Ana": "mangemort"}


BAD = [
    ("ruleset: onuw\nplayers: [Ana]\n", "game.yaml:1:1: enregistrement n° 1 : deal : attendu"),
    (
        "- id: ok\n  ruleset: onuw\n  players: [A1, B1, C1]\n  deal: {A1: loup, B1: voyante, C1: voleur, center: [villageois, villageois, tannelier]}\n"
        "- id: two\n  ruleset: onuw\n  players: [A1, B1, C1]\n  deal: {A1: loup, B1: voyante, C1: voleur, center: [villageois, villageois, tannelier]}\n"
        "  night:\n    B1: {look: B1}\n",
        'game.yaml:10:16: enregistrement « two » : night.B1.look : attendu : un autre joueur assis à la table ; trouvé : "B1"',
    ),
    (
        "id: x\nruleset: poudlard\nplayers: [A1, B1, C1]\ndeal: {A1: fred, B1: eleve, C1: eleve, center: [ron, harry, luna]}\n",
        "enregistrement « x » : deal : attendu : les cartes fred et george toutes ensemble, ou aucune",
    ),
    ("id: x\nruleset: zombie\n", 'ruleset : attendu : onuw, poudlard ou thiercelieux ; trouvé : "zombie"'),
    ("id: [1, 2\n", "game.yaml:2:1: YAML illisible"),
    ("- 3\n", "enregistrement n° 1 : (enregistrement) : attendu : un enregistrement (un mapping) ; trouvé : 3"),
]


@pytest.mark.parametrize("text,message", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_records_give_one_line_exit_2_and_nothing_on_stdout(
    tmp_path: Path, text: str, message: str, capsys
) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    run = narrator_here(capsys, "resolve", str(path))
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr
    assert message in lines[0]


def test_missing_file_and_stdin(capsys) -> None:
    run = narrator_here(capsys, "resolve", "/nonexistent/game.yaml")
    assert run.returncode == 2 and "fichier introuvable" in run.stderr and run.stdout == ""
    run = narrator("resolve", "-", stdin=EXAMPLES.read_text(encoding="utf-8"))
    assert run.returncode == 0 and len(json.loads(run.stdout)) == 2


def test_check_accepts_the_shipped_scripts(capsys) -> None:
    for game in ("onuw", "poudlard", "thiercelieux"):
        run = (narrator if game == "onuw" else partial(narrator_here, capsys))(
            "check", str(ROOT / "scripts" / f"{game}.yaml")
        )
        assert run.returncode == 0, run.stderr
        assert "correct" in run.stdout


# argparse's own English, which must never reach the user
ENGLISH = ("usage:", "show this help", "positional arguments", "options:", "error:", "required", "invalid", "{")


def _every_parser():
    import argparse

    from narrator.argparse_fr import in_french
    from narrator.cli import _parser

    with in_french():
        todo = [_parser()]
    while todo:
        parser = todo.pop()
        yield parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo += action.choices.values()


def test_every_argument_of_every_command_is_described() -> None:
    import argparse

    for parser in _every_parser():
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                assert all(a.help for a in action._choices_actions), parser.prog
                continue
            assert action.help and action.help != argparse.SUPPRESS, f"{parser.prog} {action.dest}"
            if action.option_strings and action.nargs != 0:
                assert action.metavar, f"{parser.prog} {action.dest}: its value has a French name"


def test_help_is_entirely_in_french(capsys) -> None:
    commands = [p.prog.split()[1:] for p in _every_parser()]
    assert len(commands) > 8
    for command in commands:
        run = (narrator if command == ["play"] else partial(narrator_here, capsys))(*command, "--help")
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith("utilisation : narrator"), command
        assert "afficher cette aide et quitter" in run.stdout
        for word in ENGLISH:
            assert word not in run.stdout, (command, word)
    assert "roles" in narrator_here(capsys, "--help").stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["render"], "narrator render : erreur : il manque ces arguments, obligatoires : JEU, --players, --out"),
        (["--bogus"], "narrator : erreur : arguments inconnus : --bogus"),
        (["demo", "--seed", "sept"], "argument --seed : attendu : un nombre entier ; trouvé : 'sept'"),
        (["roles", "zombie"], "argument JEU : attendu : une de 'onuw', 'poudlard', 'thiercelieux' ; trouvé : 'zombie'"),
        (["play", "poudlard", "--roles", "x", "--scenario", "y"], "argument --scenario : incompatible avec l'argument"),
    ],
)
def test_command_line_mistakes_are_said_in_french(args: list[str], message: str, capsys) -> None:
    run = narrator_here(capsys, *args)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("utilisation : narrator")
    assert message in run.stderr, run.stderr
    for word in ENGLISH:
        assert word not in run.stderr, word


def test_roles_lists_the_characters_of_each_game(capsys) -> None:
    run = narrator("roles", "thiercelieux")
    assert run.returncode == 0, run.stderr
    assert "  sorciere : sorcière\n" in run.stdout
    assert "  loup : loup-garou (jusqu'à 4 cartes)\n" in run.stdout
    assert "  montreur_ours : montreur d'ours\n" in run.stdout
    poudlard = narrator_here(capsys, "roles", "poudlard").stdout
    assert "  eleve : élève de Poudlard (jusqu'à 3 cartes)\n" in poudlard and "  harry : Harry Potter\n" in poudlard
    assert "  doppelganger : Doppelgänger\n" in narrator_here(capsys, "roles", "onuw").stdout


def test_cards_are_accepted_with_their_accents_and_their_names() -> None:
    from narrator.script.role_names import role_ids

    assert role_ids("thiercelieux", ["sorcière", "Sœur", "montreur d'ours", "Loup-Garou", "loup_blanc"]) == [
        "sorciere", "soeur", "montreur_ours", "loup", "loup_blanc",
    ]  # fmt: skip
    assert role_ids("thiercelieux", ["Loup-Garou Blanc", "petite fille", "juge bègue"]) == [
        "loup_blanc", "petite_fille", "juge_begue",
    ]  # fmt: skip
    assert role_ids("poudlard", ["élève", "Élève de Poudlard", "Hermione"]) == ["eleve", "eleve", "hermione"]
    assert role_ids("onuw", ["dragon", "Doppelgänger"]) == ["dragon", "doppelganger"]  # unknown: said as typed


def test_render_takes_accented_card_names(tmp_path: Path, capsys) -> None:
    out = tmp_path / "nuit.wav"
    cards = "Mangemort,Élève,élève,Hermione,sirius,Minerva McGonagall"
    run = narrator(
        "render", "poudlard", "--players", "Ana,Ben,Cleo", "--roles", cards, "--no-legend", "--out", str(out)
    )
    assert run.returncode == 0, run.stderr
    said = [row.split("\t")[0] for row in run.stdout.splitlines()]
    assert "hermione_wake" in said and "minerva_wake" in said and "mangemorts_wake" in said
    bad = narrator_here(
        capsys,
        "render",
        "poudlard",
        "--players",
        "Ana,Ben,Cleo",
        "--roles",
        "Mangemort,Élève,élève,dragon,a,b",
        "--out",
        str(out),
    )
    assert bad.returncode == 2 and "dragon" in bad.stderr


def test_render_takes_the_voleurs_undealt_cards(tmp_path: Path, capsys) -> None:
    # a classic table with the voleur is rendered only with its two undealt cards, as it is played
    out = tmp_path / "nuit.wav"
    table = ["render", "thiercelieux", "--players", "Ana,Ben,Cleo,Dan,Eva,Fay", "--out", str(out)]
    table += ["--roles", "voleur,loup,voyante,sorciere,chasseur,villageois", "--no-legend"]
    run = narrator(*table, "--extra", "loup,villageois")
    assert run.returncode == 0, run.stderr
    assert "voleur_wake" in [row.split("\t")[0] for row in run.stdout.splitlines()]
    without = narrator_here(capsys, *table)
    assert without.returncode == 2 and "--extra" in without.stderr


@pytest.mark.parametrize("name", ["table.yaml", "demo.yaml", "listen.fr.yaml", "onuw.yaml", "thiercelieux.yaml"])
def test_check_validates_each_shipped_file_for_what_it_is(name: str, capsys) -> None:
    run = narrator_here(capsys, "check", str(ROOT / "scripts" / name))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"{ROOT / 'scripts' / name} : correct (") and run.stderr == ""


@pytest.mark.parametrize(
    "name,change,expected",
    [
        (
            "table.yaml",
            ("{player}, quelle", "{joueur}, quelle"),
            ":26:11: ask_card: {joueur} inconnu ; attendu : {player}",
        ),
        (
            "demo.yaml",
            ("scenario: premiere_annee", "scenario: zzz"),
            ":4:11: scenario: attendu : un scénario de poudlard",
        ),
        ("listen.fr.yaml", ("\nfillers:", "\nfilers:"), ": filers: clé inconnue"),
    ],
)
def test_check_reports_a_broken_file_with_its_own_schema(tmp_path: Path, name, change, expected, capsys) -> None:
    text = (ROOT / "scripts" / name).read_text(encoding="utf-8")
    assert change[0] in text
    broken = tmp_path / name
    broken.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    run = narrator_here(capsys, "check", str(broken))
    assert run.returncode == 2
    assert expected in run.stderr, run.stderr
    assert len(run.stderr.splitlines()) <= 2, run.stderr  # not a flood of another file's schema
