"""Every boundary of the command line: a failure is one French line on stderr and exit 2, never a traceback,
nothing half-written on stdout, no journal for a game that could not begin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

POUDLARD = ["play", "poudlard", "--scenario", "premiere_annee", "--ear", "keyboard", "--no-wait"]


def narrator(args: list[str | bytes], tmp: Path, stdout=subprocess.PIPE, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "HOME": str(tmp), "NARRATOR_STATE_DIR": str(tmp / "games"), **env}
    environment["PULSE_SERVER"] = "unix:/nonexistent"
    return subprocess.run(
        [sys.executable, "-m", "narrator", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=environment,
        cwd=tmp,
        timeout=120,
    )


def one_french_line(run: subprocess.CompletedProcess, *words: str) -> str:
    err = run.stderr.decode("utf-8", "replace")
    assert run.returncode == 2, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    last = err.splitlines()[-1]
    assert err.count("narrator: ") == 1 and last.startswith("narrator: "), err
    for word in words:
        assert word in last, last
    return last


@pytest.mark.parametrize(
    "players, why",
    [
        ("Ana,ana,Ben,Dan", "« Ana » est déjà à la table"),
        ("Cl\u00e9o,Cle\u0301o,Ben,Dan", "« Cléo » est déjà à la table"),  # one precomposed, one combining accent
        ("Cléo,Cleo,Ben,Dan", "« Cléo » est déjà à la table"),
        ("Ana,\u200b\u200b,Ben,Dan", "au moins une lettre"),
        ("Ana,Be n,Ben,Dan", "« Be n » est déjà à la table"),
    ],
)
def test_names_that_are_one_or_none_are_refused_before_any_journal(tmp_path, players, why) -> None:
    one_french_line(narrator([*POUDLARD, "--players", players], tmp_path), "--players", why)
    assert not (tmp_path / "games").exists()
    parse = narrator(["parse", "--game", "poudlard", "--players", players, "ana vote contre ben"], tmp_path)
    one_french_line(parse, "--players", why)
    assert parse.stdout == b""


def test_a_name_of_bytes_that_are_not_utf8_is_refused(tmp_path) -> None:
    one_french_line(narrator([*POUDLARD, "--players", b"Ana,B\xffn,Cleo,Dan"], tmp_path), "UTF-8", r"\xff")
    assert not (tmp_path / "games").exists()


def test_a_voice_file_that_is_not_utf8_is_refused(tmp_path) -> None:
    (tmp_path / "voix.yaml").write_bytes(b"name: x\n\xff\n")
    one_french_line(narrator([*POUDLARD, "--players", "Ana,Ben,Cleo,Dan", "--voice", "voix.yaml"], tmp_path), "UTF-8")
    assert not (tmp_path / "games").exists()


@pytest.mark.parametrize(
    "wav, why",
    [("absent/x.wav", "absent/x.wav : écriture impossible"), ("/dev/full", "/dev/full : écriture impossible")],
)
def test_a_wav_that_cannot_be_written_is_one_line(tmp_path, wav, why) -> None:
    one_french_line(narrator([*POUDLARD, "--players", "Ana,Ben,Cleo,Dan", "--wav", wav], tmp_path), why)


def test_an_empty_home_is_refused_not_taken_for_the_root(tmp_path) -> None:
    run = narrator([*POUDLARD, "--players", "Ana,Ben,Cleo,Dan"], tmp_path, HOME="", NARRATOR_STATE_DIR="")
    one_french_line(run, "$HOME : dossier personnel inconnu")


@pytest.mark.parametrize(
    "args",
    [
        ["resolve", "RECORD"],
        ["parse", "--game", "poudlard", "--players", "Ana,Ben", "ana vote contre ben"],
        [*POUDLARD, "--players", "Ana,Ben,Cleo,Dan"],
    ],
)
def test_stdout_on_a_full_disk_is_one_line(tmp_path, args) -> None:
    record = Path(__file__).parent.parent / "examples" / "records.yaml"
    args = [str(record) if a == "RECORD" else a for a in args]
    with open("/dev/full", "wb") as full:
        run = narrator(args, tmp_path, stdout=full)
    one_french_line(run, "écriture impossible")


def test_a_journal_no_one_may_write_is_refused_on_resume(tmp_path) -> None:
    journal = Path(__file__).parent / "journals" / "thiercelieux-vote-v1.jsonl"
    run = narrator(["resume", str(journal) + ".absent", "--ear", "keyboard", "--no-wait"], tmp_path)
    one_french_line(run, "journal impossible à rouvrir")


@pytest.mark.parametrize(
    "args, why",
    [
        (["check", "/dev/zero"], "/dev/zero : lecture impossible (ce n'est pas un fichier ordinaire"),
        (
            [*POUDLARD[:-3], "--players", "Ana,Ben,Cleo,Dan", "--ear", "script:/dev/zero", "--no-wait"],
            "pas un fichier ordinaire",
        ),
        ([*POUDLARD, "--players", "Ana,Ben,Cleo,Dan", "--voice", "zero.yaml"], "zero.yaml: profil de voix illisible"),
    ],
)
def test_an_endless_file_is_refused_at_its_size_not_read_to_its_end(tmp_path, args, why) -> None:
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    one_french_line(narrator(args, tmp_path), why)
    assert not (tmp_path / "games").exists()


# English words an OS or a library would put in a message, never in ours
ENGLISH = ("No such", "Errno", "directory", "Permission", "expected", "exceeded", "space left", "found")


def no_english(line: str) -> None:
    assert not any(word in line for word in ENGLISH), line


@pytest.mark.parametrize("command", ["play", "render"])
def test_an_unknown_game_lists_every_game(tmp_path, command) -> None:
    args = [command, "foo", "--players", "Ana,Ben,Cleo", "--roles", "loup", "--out", "x.wav"]
    run = narrator(args if command == "render" else args[:-2], tmp_path)
    one_french_line(run, "jeu inconnu « foo »", "onuw, poudlard, thiercelieux")


def test_a_reserved_name_of_the_records_is_said_in_french(tmp_path) -> None:
    run = narrator(
        ["play", "onuw", "--players", "A,Ben,Cleo", "--scenario", "decouverte", "--ear", "keyboard"], tmp_path
    )
    line = one_french_line(run, "--players", "les cartes du centre", "mots réservés")
    assert "un nom autre que A, B, C, center, self" not in line


@pytest.mark.parametrize(
    "args, why",
    [
        ([*POUDLARD[:-3], "--players", "Ana,Ben,Cleo,Dan", "--ear", "script:/absent", "--no-wait"], "introuvable"),
        ([*POUDLARD, "--players", "Ana,Ben,Cleo,Dan", "--journal", "/absent/dir/x.jsonl"], "introuvable"),
        (["resolve", "/absent.yaml"], "introuvable"),
        ([*POUDLARD, "--players", "Ana,Ben,Cleo,Dan", "--journal", "/dev/full/x.jsonl"], "dossier est attendu"),
        (["resolve", "bad.yaml"], "bad.yaml:2:2: YAML illisible : « , » ou « ] » attendu"),
        (["resolve", "deep.yaml"], "trop de niveaux d'imbrication"),
        (["resolve", "tab.yaml"], "tab.yaml:2:1: YAML illisible"),
    ],
)
def test_the_system_and_yaml_refusals_are_said_in_french(tmp_path, args, why) -> None:
    (tmp_path / "bad.yaml").write_text("a: [1, 2\nb: 3\n")
    (tmp_path / "deep.yaml").write_text("[" * 2000)
    (tmp_path / "tab.yaml").write_text("a:\n\t- b\n")
    no_english(one_french_line(narrator(args, tmp_path), why))
    assert not (tmp_path / "games").exists()


def test_a_full_disk_is_said_in_french(tmp_path) -> None:
    run = narrator([*POUDLARD, "--players", "Ana,Ben,Cleo,Dan", "--wav", "/dev/full"], tmp_path)
    no_english(one_french_line(run, "disque plein"))


def test_a_wav_render_that_cannot_be_written_leaves_no_ignored_exception(tmp_path) -> None:
    args = ["render", "poudlard", "--players", "Ana,Ben,Cleo", "--scenario", "premiere_annee", "--out", "/absent/n.wav"]
    run = narrator(args, tmp_path)
    no_english(one_french_line(run, "/absent/n.wav : écriture impossible (fichier ou dossier introuvable)"))
    assert run.stdout == b""


@pytest.mark.parametrize("args", [["model", "check"], ["model", "check", "--model", "."], ["model", "download", "xx"]])
def test_the_model_commands_fail_with_exit_2(tmp_path, args) -> None:
    line = one_french_line(narrator(args, tmp_path, NARRATOR_VOSK_MODEL="", VOSK_MODEL_PATH=""))
    assert "AppData" not in line


@pytest.mark.parametrize("data", [b"\xff\xfe\x00A\x00B\x00C", b"\xfe\xff\x00A\x00B", b"\xff\xfe\x00\x00A\x00\x00\x00"])
def test_a_utf16_file_is_refused_by_resolve_as_by_check(tmp_path, data) -> None:
    (tmp_path / "bin").write_bytes(data)
    for command in ("resolve", "check"):
        one_french_line(narrator([command, "bin"], tmp_path), "bin:1:1: ce n'est pas du texte UTF-8")


@pytest.mark.parametrize(
    "players, refused, why",
    [
        ("Personne,Oui,Annule,Stop", "Personne", "un mot que le narrateur écoute"),
        ("Ana,Oui,Cleo,Dan", "Oui", "un mot que le narrateur écoute"),
        ("Ana,Ben,Répète,Dan", "Répète", "un mot que le narrateur écoute"),
        ("Ana,Ben,Harry,Dan", "Harry", "un personnage du jeu"),
    ],
)
def test_a_command_word_or_a_character_is_no_name(tmp_path, players, refused, why) -> None:
    line = one_french_line(narrator([*POUDLARD, "--players", players], tmp_path), "--players", why)
    assert f"« {refused} B. »" in line
    assert not (tmp_path / "games").exists()


def test_a_command_word_with_an_initial_is_a_name_the_table_hears(tmp_path) -> None:
    players = "Oui B.,Personne B.,Ana,Ben"
    run = narrator(["parse", "--game", "poudlard", "--players", players, "oui b. vote contre personne b."], tmp_path)
    assert run.returncode == 0, run.stderr
    assert b'"voter": "Oui B.", "target": "Personne B."' in run.stdout


def test_a_finished_game_s_journal_is_not_offered_to_resume(tmp_path) -> None:
    journal = tmp_path / "a.jsonl"
    journal.write_bytes((Path(__file__).parent / "journals" / "poudlard-whole-v1.jsonl").read_bytes())
    line = one_french_line(narrator([*POUDLARD, "--players", "Ana,Ben,Cleo,Dan", "--journal", str(journal)], tmp_path))
    assert "terminée : choisissez un autre fichier" in line and "narrator resume" not in line


def test_resume_alone_says_how_a_game_journaled_elsewhere_is_resumed(tmp_path) -> None:
    line = one_french_line(narrator(["resume", "--ear", "keyboard", "--no-wait"], tmp_path))
    assert "aucune partie inachevée à reprendre dans" in line and "narrator resume FICHIER" in line
