"""The journal: typed events checked on write and on read, older versions migrated, a file that survives
any cut, one writer at a time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.table import events as ev
from narrator.table.journal import Journal, JournalError, read_journal

JOURNALS = Path(__file__).parent / "journals"  # real version-1 journals, written before the events were typed

ONENIGHT = {
    "family": "onenight",
    "game": "poudlard",
    "script": "",
    "players": ["Ana", "Ben", "Chloé", "Dan"],
    "cards": ["mangemort", "mangemort", "hermione", "sirius", "eleve", "eleve", "harry"],
    "minutes": 2,
    "legend": False,
    "voice": "fr",
}


def cli(*args: str, home: Path, answers: list[str] | None = None, typed: str = "") -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "narrator", *args]
    if answers is not None:
        script = home / f"answers-{len(list(home.glob('answers-*')))}.txt"
        script.write_text("".join(a + "\n" for a in answers), encoding="utf-8")
        command += ["--ear", f"script:{script}", "--no-wait", "--wav", str(home / "out.wav")]
    env = {**os.environ, "HOME": str(home), "PULSE_SERVER": "unix:/nonexistent", "NARRATOR_STATE_DIR": str(home)}
    return subprocess.run(command, input=typed, env=env, capture_output=True, text=True, timeout=120)


# -- version 1, migrated -------------------------------------------------------------------------

V1_RESUMES = [
    ("poudlard-vote-v1.jsonl", ["harry", "sirius", "oui"], ["Ana", "Chloé", "Dan"]),
    (
        "thiercelieux-stop-v1.jsonl",
        ["on vote", *(f"{v} vote contre {t}" for v, t in [("ana", "dan"), ("ben", "dan"), ("cleo", "dan")]),
         "dan vote contre ana", "oui", "je tire sur ana", "oui"],
        ["Ben", "Cleo", "Dan", "Eva"],
    ),
    ("thiercelieux-vote-v1.jsonl", ["oui", "je tire sur ana", "oui"], ["Ben", "Cleo", "Dan", "Eva"]),
]  # fmt: skip


@pytest.mark.parametrize("name, answers, winners", V1_RESUMES)
def test_a_version_1_journal_resumes_and_is_rewritten_in_version_2(tmp_path, name, answers, winners) -> None:
    path = tmp_path / name
    shutil.copy(JOURNALS / name, path)
    old_header, old_events, _ = read_journal(path)  # read, migrated, the file untouched
    assert old_header["version"] == 2 and (JOURNALS / name).read_bytes() == path.read_bytes()
    run = cli("resume", str(path), home=tmp_path, answers=answers)
    assert run.returncode == 0, run.stderr
    header, events, warnings = read_journal(path)
    assert warnings == [] and header["version"] == 2
    assert [{k: v for k, v in e.items()} for e in events[: len(old_events)]] == old_events  # nothing lost
    outcomes = [e for e in events if e["type"] == "outcome"]
    assert len(outcomes) == 1 and outcomes[0]["winners"] == winners
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line).get("line") for line in lines[1:]] == list(range(2, len(lines) + 1))
    again = cli("resume", str(path), home=tmp_path, answers=answers)
    assert (
        again.returncode == 2
        and "déjà terminée" in again.stderr
        and path.read_text(encoding="utf-8") == "\n".join(lines) + "\n"
    )


def test_a_version_1_header_names_its_cards_by_family() -> None:
    onenight, _, _ = read_journal(JOURNALS / "poudlard-whole-v1.jsonl")
    classic, _, _ = read_journal(JOURNALS / "thiercelieux-stop-v1.jsonl")
    assert onenight["family"] == "onenight" and len(onenight["cards"]) == len(onenight["players"]) + 3
    assert classic["family"] == "classic" and classic["deal"] == [
        "loup",
        "voyante",
        "sorciere",
        "chasseur",
        "villageois",
    ]
    assert "roles" not in onenight and "roles" not in classic


def test_a_stop_is_a_pause_the_stopped_game_resumes() -> None:
    from narrator.table.journal import finished

    _, events, _ = read_journal(JOURNALS / "thiercelieux-stop-v1.jsonl")
    assert events[-1]["type"] == "stop" and not finished(events)


# -- every event checked, on write and on read ---------------------------------------------------

BAD_EVENTS = [
    ({"type": "vote_input"}, "attendu : « command », ou « voter » et « target »"),
    ({"type": "vote_input", "command": {"command": "vote", "voter": "Ana"}}, "« command » : attendu : les champs"),
    ({"type": "card", "player": "Ana"}, "« card » : champ « role » manquant"),
    ({"type": "tick", "phase": "debate", "left": "200"}, "« tick » : « left » : attendu : un nombre ou null"),
    ({"type": "more_time", "seconds": True}, "« seconds » : attendu : un entier"),
    ({"type": "vote", "counts": {"Ana": 1.5}, "pointing": {}}, "« counts » : attendu : un objet dont chaque valeur"),
    ({"type": "answer", "phase": "soir 1", "key": "loup", "value": "Ana", "by": "operator"}, "« phase »"),
    ({"type": "outcome", "winners": ["Ana"], "surprise": 1}, "champ inconnu « surprise »"),
    ({"type": "vote_inputs"}, "type d'événement inconnu : 'vote_inputs'"),
    ({"type": "game", "version": 2, "family": "onenight", "game": "poudlard", "script": "", "players": ["Ana"],
      "cards": [], "voice": 3}, "« voice » : attendu : un texte"),
]  # fmt: skip


@pytest.mark.parametrize("data, message", BAD_EVENTS)
def test_an_event_off_its_definition_is_one_french_sentence(tmp_path, data, message) -> None:
    with pytest.raises(ev.EventError, match=None) as caught:
        ev.check(data)
    assert message in str(caught.value)
    journal = Journal.create(ONENIGHT, tmp_path / "j.jsonl")
    if data["type"] != "game":  # the program cannot write what it could not read back
        with pytest.raises(JournalError, match="événement refusé"):
            journal.append(data)
    journal.close()
    with open(tmp_path / "j.jsonl", "a", encoding="utf-8") as out:  # nor read what someone wrote by hand
        out.write(json.dumps({**data, "line": 2, "at_time": 1.0}) + "\n")
        out.write(json.dumps({"type": "night_done", "line": 3, "at_time": 1.0}) + "\n")
    with pytest.raises(JournalError) as refused:
        read_journal(tmp_path / "j.jsonl")
    assert str(refused.value).startswith(f"{tmp_path / 'j.jsonl'}:2: ligne illisible : ")
    assert "--avant-ligne 2" in str(refused.value)


names = st.text(min_size=1, max_size=8)
PAYLOADS = st.one_of(
    st.builds(lambda v, t: {"type": "vote_input", "voter": v, "target": t}, names, st.none() | names),
    st.builds(lambda v, t: {"type": "vote_input", "command": {"command": "vote", "voter": v, "target": t}}, names, names),
    st.builds(lambda t, n: {"type": "vote_input", "command": {"command": "tally", "target": t, "count": n}},
              names, st.integers(1, 20)),
    st.builds(lambda c, p: {"type": "vote", "counts": c, "pointing": p},
              st.dictionaries(names, st.integers(0, 9)), st.dictionaries(names, st.none() | names)),
    st.builds(lambda p, r: {"type": "card", "player": p, "role": r}, names, names),
    st.builds(lambda c: {"type": "cards", "cards": c}, st.dictionaries(names, names)),
    st.builds(lambda a: {"type": "tick", "phase": "night", "at": a}, st.floats(0, 1e6)),
    st.builds(lambda a: {"type": "tick", "phase": "debate", "left": a}, st.floats(-5, 1e4)),
    st.builds(lambda s: {"type": "more_time", "seconds": s}, st.integers(1, 600)),
    st.builds(lambda d: {"type": "debate_over", "day": d}, st.integers(1, 30)),
    st.builds(lambda n, k, v: {"type": "answer", "phase": f"nuit {n}", "key": k, "value": v, "by": "operator"},
              st.integers(1, 9), names, st.recursive(st.none() | st.booleans() | names,
                                                      lambda x: st.lists(x) | st.dictionaries(names, x))),
    st.sampled_from([{"type": k} for k in ("night_done", "debate_done", "start_vote", "pause", "resume", "stop",
                                            "undo", "votes_again")]),
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(PAYLOADS, max_size=6))
def test_any_event_written_is_read_back_as_written(tmp_path_factory, payloads) -> None:
    path = tmp_path_factory.mktemp("j") / "j.jsonl"
    journal = Journal.create(ONENIGHT, path)
    for payload in payloads:
        journal.append(payload)
    journal.close()
    _, events, warnings = read_journal(path)
    assert [{k: v for k, v in e.items() if k != "at_time"} for e in events] == payloads and warnings == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda x: st.lists(x, max_size=3) | st.dictionaries(st.text(max_size=6), x, max_size=4),
    max_leaves=12,
)
KEYS = st.sampled_from(["type", "command", "voter", "target", "counts", "pointing", "player", "role", "left", "at"])


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(ev.EVENTS)), st.dictionaries(KEYS, JSON, max_size=4))
def test_any_payload_is_an_event_or_one_french_sentence(kind, fields) -> None:
    try:
        ev.check({**fields, "type": kind})
    except ev.EventError as exc:
        assert "\n" not in str(exc) and str(exc)
