"""The listener's compiled tables on disk (narrator/listen/compiled.py): read back by a second process
instead of built again, built again when a source changes, and a damaged entry never a crash; and the
options a start can check cheaply refused before any table, grammar or voice is built."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from narrator import cli
from narrator.listen import compiled
from narrator.listen.table_words import Parser
from narrator.resources import data_dir

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Ana", "Ben", "Cleo", "Dan", "Eva"]

# One start as a game makes it: the table's parser, the setup's, a phase's grammar; what it built.
START = """
import json, sys
from narrator.listen import compiled
from narrator.listen.grammar import phrases
parser = compiled.table_parser("poudlard", ["Ana", "Ben", "Cleo", "Dan", "Eva"])
setup = compiled.setup_parser("poudlard")
grammar = phrases(parser, "vote", compact=True)
heard = [c.to_json() for c in parser.parse("Ana vote contre Ben", "vote")]
json.dump({"built": dict(compiled.built), "heard": heard, "grammar": grammar,
           "setup": [c.to_json() for c in setup.parse("cinq joueurs", "number")]}, sys.stdout)
"""


def start(cache: Path) -> dict:
    run = subprocess.run(
        [sys.executable, "-c", START],
        env={**os.environ, "NARRATOR_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_a_second_process_reads_what_the_first_compiled(tmp_path: Path) -> None:
    first = start(tmp_path)
    assert set(first["built"]) == {"phrasebook", "controls", "parser", "setup", "grammar"}
    assert first["heard"] == [{"command": "vote", "voter": "Ana", "target": "Ben"}]
    second = start(tmp_path)
    assert second["built"] == {}  # nothing built: every table read from the cache
    assert second["heard"] == first["heard"]
    assert second["grammar"] == first["grammar"]
    assert {"ana", "vote", "contre", "ben"} <= {w for phrase in second["grammar"] for w in phrase.split()}
    assert second["setup"] == first["setup"] == [{"command": "number", "count": 5}]


def test_a_parser_read_back_understands_what_a_built_one_does(tmp_path: Path, monkeypatch) -> None:
    # every utterance of the table's test cases at a Poudlard table of these players, in its phase
    monkeypatch.setenv("NARRATOR_CACHE_DIR", str(tmp_path))
    compiled._table_parser.cache_clear()
    built = Parser("poudlard", PLAYERS)
    compiled.table_parser("poudlard", PLAYERS)  # compiled and kept
    compiled._table_parser.cache_clear()
    before = compiled.built["parser"]
    read = compiled.table_parser("poudlard", PLAYERS)
    assert compiled.built["parser"] == before and read is not built
    assert read.book is built.book  # the phrasebook shared, not copied into every table
    cases = [
        c for p in sorted((ROOT / "tests" / "utterances").glob("day_*.yaml")) for c in yaml.safe_load(p.read_text())
    ]
    assert len(cases) > 100
    for case in cases:
        assert read.parse(case["text"], case["phase"]) == built.parse(case["text"], case["phase"]), case["text"]
    compiled._table_parser.cache_clear()


def test_an_entry_is_read_until_its_sources_change(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("NARRATOR_CACHE_DIR", str(tmp_path))
    builds: list[int] = []

    def build() -> dict:
        builds.append(1)
        return {"phrases": ["ana vote contre ben"]}

    monkeypatch.setattr(compiled, "sources_digest", lambda: "a" * 64)
    assert compiled.load("test", ("poudlard",), build) == {"phrases": ["ana vote contre ben"]}
    assert compiled.load("test", ("poudlard",), build) == {"phrases": ["ana vote contre ben"]}
    assert len(builds) == 1
    compiled.load("test", ("onuw",), build)  # another table: its own entry
    assert len(builds) == 2
    monkeypatch.setattr(compiled, "sources_digest", lambda: "b" * 64)  # a script or the code changed
    compiled.load("test", ("poudlard",), build)
    assert len(builds) == 3
    kept = sorted(p.name for p in (tmp_path / "listen").iterdir())
    assert len(kept) == 2 and not any("aaaa" in name and "poudlard" in name for name in kept)
    assert sum("b" * 20 in name for name in kept) == 1  # the stale entry of the same table is gone


def test_each_source_is_in_the_key(tmp_path: Path) -> None:
    package = Path(compiled.__file__).resolve().parent.parent
    shutil.copytree(package, tmp_path / "narrator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(data_dir("scripts"), tmp_path / "scripts")
    code, scripts = tmp_path / "narrator", tmp_path / "scripts"
    seen = {compiled.digest_of(code, scripts)}
    assert compiled.digest_of(code, scripts) in seen  # the same sources, the same key
    for changed in (
        scripts / "listen.fr.yaml",
        scripts / "poudlard.yaml",
        code / "listen" / "french.py",
        code / "listen" / "tagger.py",
        code / "script" / "role_names.py",
        code / "__init__.py",  # the package's version
    ):
        with changed.open("a", encoding="utf-8") as out:
            out.write("\n# changed\n")
        seen.add(compiled.digest_of(code, scripts))
    assert len(seen) == 7


def entry(tmp_path: Path) -> Path:
    (found,) = (tmp_path / "listen").glob("test-*.pickle")
    return found


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"",
        lambda data: data[: len(data) // 2],  # cut short
        lambda data: data[:-3] + bytes([data[-3] ^ 0xFF]) + data[-2:],  # one byte changed
        lambda data: b"\x80\x05garbage" * 100,
        lambda data: data.replace(b"narrator-listen", b"narrator-lister"),
        lambda data: data[:30] + b"\xff \xfe\n" + data[34:],  # its header: spaces, bytes of no text
        lambda data: data[:100] + b" " + data[101:],
    ],
    ids=["empty", "cut", "flipped", "garbage", "other-format", "header-bytes", "header-space"],
)
def test_a_damaged_entry_is_built_again(tmp_path: Path, monkeypatch, damage) -> None:
    monkeypatch.setenv("NARRATOR_CACHE_DIR", str(tmp_path))
    builds: list[int] = []

    def build() -> list[str]:
        builds.append(1)
        return ["ana vote contre ben"]

    compiled.load("test", ("poudlard",), build)
    path = entry(tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    assert compiled.load("test", ("poudlard",), build) == ["ana vote contre ben"]
    assert len(builds) == 2
    assert compiled.load("test", ("poudlard",), build) == ["ana vote contre ben"]  # written whole again
    assert len(builds) == 2


def test_an_entry_of_code_that_is_gone_is_built_again(tmp_path: Path, monkeypatch) -> None:
    # a sound entry (its hashes right) naming a class no module has any more
    monkeypatch.setenv("NARRATOR_CACHE_DIR", str(tmp_path))
    compiled.load("test", ("poudlard",), lambda: 1)
    path = entry(tmp_path)
    payload = b"cnarrator.listen.gone\nTable\n)R."
    digest = __import__("hashlib").sha256(payload).hexdigest()
    path.write_bytes(compiled.MAGIC + f"{compiled.sources_digest()} {digest}\n".encode() + payload)
    with pytest.raises(ModuleNotFoundError):
        pickle.loads(payload)
    assert compiled.load("test", ("poudlard",), lambda: 2) == 2


def test_an_unwritable_cache_only_costs_the_building(tmp_path: Path, monkeypatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("NARRATOR_CACHE_DIR", str(blocked))
    assert compiled.load("test", ("poudlard",), lambda: [1, 2]) == [1, 2]
    assert compiled.load("test", ("poudlard",), lambda: [1, 2]) == [1, 2]


# -- the cheap options, refused before anything costly is built

POUDLARD = ["play", "poudlard", "--players", ",".join(PLAYERS), "--scenario", "premiere_annee", "--no-wait"]


class Built(Exception):
    pass


@pytest.fixture
def nothing_built(monkeypatch):
    """Every costly step of a start made to fail loudly: a table, a grammar, the voice, the ear, the music."""

    def refuse(*args, **kwargs):
        raise Built("built before the options were checked")

    from narrator.app import startup
    from narrator.table.onenight import setup as onenight_setup

    load = compiled.load

    def tables_refused(kind, *args, **kwargs):  # a game's script may be read: --roles are its cards
        return refuse() if kind in ("phrasebook", "parser", "setup", "grammar") else load(kind, *args, **kwargs)

    monkeypatch.setattr(compiled, "load", tables_refused)
    monkeypatch.setattr(onenight_setup, "build_table", refuse)
    monkeypatch.setattr("narrator.app.onenight.build_table", refuse)
    monkeypatch.setattr(startup, "renderer", refuse)
    monkeypatch.setattr(startup, "make_ear", refuse)
    monkeypatch.setattr(startup, "make_night_music", refuse)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--phones", "--bind", "narrateur"], "--bind : attendu : lan ou une adresse IPv4"),
        (["--phones", "--bind", "127.0.0.1", "--port", "80"], "--port : attendu : un port de 1024 à 65535"),
        (["--ear", "micro"], "--ear : attendu : vosk, keyboard ou script:FICHIER ; trouvé : micro"),
        (["--ear", "script:/nulle/part.txt"], "/nulle/part.txt : script de réponses illisible (fichier ou dossier"),
        (["--wav", "/nulle/part/nuit.wav"], "/nulle/part/nuit.wav : écriture impossible (fichier ou dossier"),
        (["--minutes", "0"], "--minutes : attendu : un entier de 1 à 60 ; trouvé : 0"),
        (["--voice", "personne"], "personne"),
    ],
    ids=["bind", "port", "ear", "ear-script", "wav", "minutes", "voice"],
)
def test_a_cheap_option_is_refused_before_anything_is_built(nothing_built, capsys, extra, said) -> None:
    assert cli.main([*POUDLARD, *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("narrator: ") and said in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_an_existing_journal_is_refused_before_anything_is_built(nothing_built, capsys, tmp_path) -> None:
    kept = tmp_path / "partie.jsonl"
    kept.write_text("{}\n")
    assert cli.main([*POUDLARD, "--journal", str(kept)]) == 2
    err = capsys.readouterr().err
    assert f"{kept} : ce fichier existe déjà ; une nouvelle partie ne l'écrase pas" in err
    assert kept.read_text() == "{}\n"


def test_the_render_checks_its_file_before_it_builds_the_night(nothing_built, capsys, monkeypatch) -> None:
    monkeypatch.setattr("narrator.app.onenight.OneNight.night", lambda *a: (_ for _ in ()).throw(Built()))
    out = "/nulle/part/nuit.wav"
    assert (
        cli.main(["render", "poudlard", "--players", ",".join(PLAYERS), "--scenario", "premiere_annee", "--out", out])
        == 2
    )
    assert f"{out} : écriture impossible (fichier ou dossier introuvable)" in capsys.readouterr().err


def test_the_model_folders_are_vosks_own_without_importing_it(monkeypatch) -> None:
    # a start without a model lists vosk's folders without loading vosk (requests, tqdm): the same list
    import vosk

    from narrator.listen.model import model_dirs

    with_vosk = model_dirs()
    monkeypatch.delitem(sys.modules, "vosk")
    assert model_dirs() == with_vosk
    assert "vosk" not in sys.modules
    assert [str(p) for p in with_vosk] == [str(p) for p in vosk.MODEL_DIRS if p and "AppData" not in str(p)]
