"""The `narrator` command as a user runs it: output on stdout, one French line and exit 2 on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "records.yaml"


def narrator(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "narrator", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_resolve_prints_the_documented_example() -> None:
    # formats/game-record.md, "Output": the example record and its documented result
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
    assert first["why"][:2] == [
        "Ben et Cleo ont 2 voix chacun : égalité, ils meurent tous les deux.",
        "Cleo était loup-garou : le village gagne, pour ceux qui sont encore en vie.",
    ]


def test_one_record_gives_one_object_and_json_input_works(tmp_path: Path) -> None:
    record = {
        "id": 7, "ruleset": "poudlard", "players": ["Ana", "Ben", "Cleo"],
        "deal": {"Ana": "mangemort", "Ben": "harry", "Cleo": "eleve", "center": ["luna", "eleve", "ron"]},
        "night": {"Ben": {"reveal": "Ana"}}, "votes": {"Ana": "Cleo", "Ben": "Ana", "Cleo": "Ana"},
    }  # fmt: skip
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    run = narrator("resolve", str(path))
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
def test_bad_records_give_one_line_exit_2_and_nothing_on_stdout(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    run = narrator("resolve", str(path))
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr
    assert message in lines[0]


def test_missing_file_and_stdin() -> None:
    run = narrator("resolve", "/nonexistent/game.yaml")
    assert run.returncode == 2 and "fichier introuvable" in run.stderr and run.stdout == ""
    run = narrator("resolve", "-", stdin=EXAMPLES.read_text(encoding="utf-8"))
    assert run.returncode == 0 and len(json.loads(run.stdout)) == 2


def test_check_accepts_the_shipped_scripts() -> None:
    for game in ("onuw", "poudlard", "thiercelieux"):
        run = narrator("check", str(ROOT / "scripts" / f"{game}.yaml"))
        assert run.returncode == 0, run.stderr
        assert "correct" in run.stdout
