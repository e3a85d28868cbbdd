"""Records read as a stream: the same data as the whole-document reader, bounded input, ids that print back."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator import records as records_module
from narrator.records import InputError, read_records
from narrator.script.marks import load_marked

ROOT = Path(__file__).parent.parent
SHIPPED = [ROOT / "examples" / "records.yaml", ROOT / "examples" / "classic.yaml"]
SHIPPED += sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))


def streamed(text: str | bytes, file: str = "f.yaml") -> tuple[str, list]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    found = read_records(io.BytesIO(data), file)
    return found.shape, [item.data for item in found.items]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_a_file_streamed_gives_the_data_and_positions_of_the_whole_document(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    whole = load_marked(text, path.name)
    found = read_records(io.BytesIO(text.encode("utf-8")), path.name)
    items = list(found.items)
    expected = whole.data if isinstance(whole.data, list) else [whole.data]
    assert [i.data for i in items] == expected
    for item in items:
        prefix = () if item.index is None else (item.index,)
        for path_in_record in list(item.marks)[:50]:
            assert item.where(path_in_record) == whole.where(prefix + path_in_record)


KEYS = st.from_regex(r"[A-Za-zé][A-Za-zé0-9_ ]{0,5}", fullmatch=True)  # (« << » would be a merge in both)
YAML = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda x: st.lists(x, max_size=3) | st.dictionaries(KEYS, x, max_size=3),
    max_leaves=15,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(KEYS, YAML, max_size=4), max_size=4), st.booleans())
def test_any_list_reads_as_the_whole_document_reads_it(data, flow) -> None:
    import yaml

    text = yaml.safe_dump(data, allow_unicode=True, default_flow_style=flow)
    assert streamed(text)[1] == (load_marked(text, "f").data or [])


@pytest.mark.parametrize(
    "text, message",
    [
        ("a: 1\na: 2\n", "f.yaml:2:1: a : clé en double"),
        ("- &x [1, 2]\n- *y\n", "f.yaml:2:3: alias *y jamais défini"),
        ("a: !!python/object:os.system x\n", "étiquette !!python/object:os.system inconnue"),
        ("[" * 200 + "]" * 200, "niveaux d'imbrication"),
        ("- a\n---\n- b\n", "un seul document attendu"),
        ("a: [1, 2\n", "f.yaml:2:1: YAML illisible"),
        ("", "fichier vide"),
    ],
)
def test_bad_yaml_is_one_french_line(text, message) -> None:
    with pytest.raises(InputError) as caught:
        streamed(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_an_alias_bomb_stops_at_the_bound() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for level in "bcdefgh":
        previous = chr(ord(level) - 1)
        bomb += f"{level}: &{level} [*{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}]\n"
    with pytest.raises(InputError, match="valeurs dans un enregistrement une fois les alias développés"):
        streamed(bomb)


def test_a_document_or_a_line_past_its_size_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(records_module, "MAX_DOCUMENT_BYTES", 1000)
    monkeypatch.setattr(records_module, "MAX_LINE_BYTES", 100)
    with pytest.raises(InputError, match="plus de 0 Mo : trop grand pour un document YAML ou JSON"):
        streamed("- " + "x" * 5000 + "\n")
    with pytest.raises(InputError, match="f.jsonl:2:1: ligne de plus de"):
        streamed('{"id": 1}\n{"id": "' + "x" * 200 + '"}\n', "f.jsonl")


def test_json_lines_are_read_one_by_one_with_their_line_numbers() -> None:
    assert streamed('{"a": 1}\n\n{"b": [2]}\n') == ("lines", [{"a": 1}, {"b": [2]}])
    for bad, message in [
        ('{"a": 1}\n{"a": NaN}\n', "f:2:1: JSON illisible : NaN n'est pas un nombre JSON"),
        ('{"a": 1}\n{"a": 1, "a": 2}\n', "f:2:1: JSON illisible : clé en double « a »"),
        (b'{"a": 1}\n{"a": "\xff"}\n', "f:2:8: ce n'est pas du texte UTF-8 (octet 0xff)"),
        ('{"a": 1}\n{"a": \n', "f:2:8: JSON illisible : valeur attendue"),
    ]:
        with pytest.raises(InputError) as caught:
            streamed(bad, "f")
        assert message in str(caught.value)


# -- through the command line --------------------------------------------------------------------

RECORD = {
    "ruleset": "poudlard",
    "players": ["Ana", "Ben", "Cleo"],
    "deal": {"Ana": "mangemort", "Ben": "harry", "Cleo": "eleve", "center": ["luna", "eleve", "ron"]},
    "night": {"Ben": {"reveal": "Ana"}},
    "votes": {"Ana": "Cleo", "Ben": "Ana", "Cleo": "Ana"},
}


def resolve(tmp_path: Path, text: str | bytes, name: str = "game.yaml") -> subprocess.CompletedProcess:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return subprocess.run(
        [sys.executable, "-m", "narrator", "resolve", str(path)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "id_text, found",
    [
        ("2024-05-01", "une date"),
        ("2024-05-01 10:00:00", "une date et une heure"),
        ("!!binary aGVsbG8=", "des octets (!!binary)"),
        ("1" * 4000, "un nombre de plus de 15 chiffres"),
        (".nan", "un nombre infini ou NaN"),
        ("-.inf", "un nombre infini ou NaN"),
        ("yes", "true"),
        ("[1, 2]", "une liste"),
    ],
)
def test_an_id_that_is_not_a_plain_string_or_number_is_one_line(tmp_path, id_text, found) -> None:
    record = json.dumps(RECORD)[1:-1]
    run = resolve(tmp_path, f"{{id: {id_text}, {record}}}\n")
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr, run.stderr
    assert len(run.stderr.splitlines()) == 1
    assert "enregistrement n° 1 : id : attendu : un identifiant : un texte simple, ou un nombre" in run.stderr
    assert found in run.stderr


def test_an_id_with_a_lone_surrogate_is_one_line(tmp_path) -> None:
    line = json.dumps({**RECORD, "id": "x\ud800"})
    run = resolve(tmp_path, line + "\n" + line + "\n", "games.jsonl")
    assert run.returncode == 2 and run.stdout == "" and len(run.stderr.splitlines()) == 1, run.stderr
    assert "games.jsonl:1:1: enregistrement n° 1 : id : attendu : un identifiant" in run.stderr


def test_json_lines_in_give_json_lines_out_each_as_the_record_alone_gives(tmp_path) -> None:
    lines = [{**RECORD, "id": i, "votes": {"Ana": "Cleo", "Ben": "Ana", "Cleo": v}} for i, v in enumerate("ABC")]
    lines = [{**line, "votes": {k: {"A": "Ana", "B": "Ben", "C": "Cleo"}.get(v, v) for k, v in line["votes"].items()}}
             for line in lines]  # fmt: skip
    run = resolve(tmp_path, "".join(json.dumps(line) + "\n" for line in lines), "games.jsonl")
    assert run.returncode == 0, run.stderr
    alone = [json.loads(resolve(tmp_path, json.dumps(line), "one.json").stdout) for line in lines]
    assert [json.loads(out) for out in run.stdout.splitlines()] == alone
    listed = resolve(tmp_path, json.dumps(lines), "list.json")
    assert json.loads(listed.stdout) == alone


def test_a_bad_record_late_in_a_stream_prints_nothing(tmp_path) -> None:
    lines = [{**RECORD, "id": i} for i in range(50)] + [{**RECORD, "id": "bad", "players": ["Ana"]}]
    run = resolve(tmp_path, "".join(json.dumps(line) + "\n" for line in lines), "games.jsonl")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("narrator: ") and "games.jsonl:51:1: enregistrement « bad »" in run.stderr


def test_dev_zero_is_refused_at_once() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "narrator", "resolve", "/dev/zero"], capture_output=True, text=True, timeout=30
    )
    # a device is never read: refused before a byte of it (narrator/resources.py's open_regular)
    assert run.returncode == 2 and run.stdout == "" and "ce n'est pas un fichier ordinaire" in run.stderr


@pytest.mark.parametrize(
    "players, why",
    [
        (["Cl\u00e9o", "Cle\u0301o", "Ben"], "des noms tous différents (« Cléo » est déjà à la table)"),
        (["Cléo", "CLEO", "Ben"], "des noms tous différents (« Cléo » est déjà à la table)"),
        (["Ana", "\u200b\u200d", "Ben"], "un nom qui contient au moins une lettre"),
    ],
)
def test_a_record_seating_one_name_twice_or_a_name_of_no_letter_is_refused(tmp_path, players, why) -> None:
    deal = dict(zip(players, ["mangemort", "harry", "eleve"])) | {"center": ["luna", "eleve", "ron"]}
    record = {**RECORD, "id": "x", "players": players, "deal": deal, "night": {}, "votes": {}}
    run = resolve(tmp_path, json.dumps(record, ensure_ascii=False), "game.json")
    assert (
        run.returncode == 2 and run.stdout == "" and f"enregistrement « x » : players.1 : attendu : {why}" in run.stderr
    )
