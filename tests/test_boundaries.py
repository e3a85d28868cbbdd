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
    one_french_line(run, "journal impossible à rouvrir pour écrire")


@pytest.mark.parametrize(
    "args, why",
    [
        (["check", "/dev/zero"], "/dev/zero : lecture impossible (plus de 16 Mo : trop grand)"),
        ([*POUDLARD[:-3], "--players", "Ana,Ben,Cleo,Dan", "--ear", "script:/dev/zero", "--no-wait"], "trop grand"),
        ([*POUDLARD, "--players", "Ana,Ben,Cleo,Dan", "--voice", "zero.yaml"], "zero.yaml: profil de voix illisible"),
    ],
)
def test_an_endless_file_is_refused_at_its_size_not_read_to_its_end(tmp_path, args, why) -> None:
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    one_french_line(narrator(args, tmp_path), why)
    assert not (tmp_path / "games").exists()
