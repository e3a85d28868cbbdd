"""The journal: typed events checked on write and on read, older versions migrated, a file that survives
any cut, one writer at a time."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import journal_rig
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator import cli as narrator_cli
from narrator.app.startup import script_version
from narrator.rules.phase import PhaseId
from narrator.script.prompts import load_prompts
from narrator.script.story_words import load_story_words
from narrator.table import events as ev
from narrator.table.journal import Journal, JournalError, read_journal

JOURNALS = Path(__file__).parent / "journals"  # real journals of older versions, written by the code of their time

ONENIGHT = {
    "family": "onenight",
    "game": "poudlard",
    "script": "",
    "players": ["Ana", "Ben", "Chloé", "Dan"],
    "in_play": ["mangemort", "mangemort", "hermione", "sirius", "eleve", "eleve", "harry"],
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


# -- older versions, migrated --------------------------------------------------------------------

CARDS = ["eleve", "mangemort", "harry", "sirius", "oui"]
OLD_RESUMES = [
    ("poudlard-vote-v1.jsonl", ["harry", "sirius", "oui"], ["Ana", "Chloé", "Dan"]),
    (
        "thiercelieux-stop-v1.jsonl",
        ["on vote", *(f"{v} vote contre {t}" for v, t in [("ana", "dan"), ("ben", "dan"), ("cleo", "dan")]),
         "dan vote contre ana", "oui", "je tire sur ana", "oui"],
        ["Ben", "Cleo", "Dan", "Eva"],
    ),
    ("thiercelieux-vote-v1.jsonl", ["oui", "je tire sur ana", "oui"], ["Ben", "Cleo", "Dan", "Eva"]),
    # written by version 2 (a stop in the vote, after an « annule » and a tally); the ends are those
    # version 2 reached when it resumed them with the same answers
    ("poudlard-vote-v2.jsonl", ["dan vote contre ana", "oui", *CARDS], ["Ben"]),
    ("thiercelieux-vote-v2.jsonl", ["cleo vote contre dan", "dan vote contre ana", "oui", "je tire sur ana", "oui"],
     ["Ben", "Cleo", "Dan", "Eva"]),
    # the version 2 journals above, resumed by version 3 for their first ballot, then stopped
    ("poudlard-vote-v3.jsonl", ["oui", *CARDS], ["Ben"]),
    ("thiercelieux-vote-v3.jsonl", ["dan vote contre ana", "oui", "je tire sur ana", "oui"], ["Ben", "Cleo", "Dan", "Eva"]),
]  # fmt: skip


@pytest.mark.parametrize("name, answers, winners", OLD_RESUMES)
def test_an_old_journal_resumes_and_is_rewritten_in_the_current_version(
    tmp_path, name, answers, winners, monkeypatch, capsys
) -> None:
    path = tmp_path / name
    shutil.copy(JOURNALS / name, path)
    old_header, old_events, _ = read_journal(path)  # read, migrated, the file untouched
    assert old_header["version"] == ev.VERSION == 4 and (JOURNALS / name).read_bytes() == path.read_bytes()
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["version"] == int(name[-7])
    run = cli("resume", str(path), home=tmp_path, answers=answers)
    assert run.returncode == 0, run.stderr
    header, events, warnings = read_journal(path)
    assert warnings == [] and header["version"] == 4
    assert events[: len(old_events)] == old_events  # nothing lost
    outcomes = [e for e in events if isinstance(e, ev.Outcome)]
    assert len(outcomes) == 1 and outcomes[0].winners == winners
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line).get("line") for line in lines[1:]] == list(range(2, len(lines) + 1))
    # resumed again: refused before anything is built (in-process: a refusal needs no process of its own)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("NARRATOR_STATE_DIR", str(tmp_path))
    assert narrator_cli.main(["resume", str(path)]) == 2
    assert "déjà terminée" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", ["poudlard-vote-v2", "thiercelieux-vote-v2"])
def test_a_version_2_journal_resumed_says_what_version_2_said(tmp_path, name) -> None:
    """`NAME.heard.txt`: what the table heard when the code of version 2 resumed the journal with the
    same answers (a vote held with its « annule » and a tally, read back, then on to the end)."""
    path = tmp_path / f"{name}.jsonl"
    shutil.copy(JOURNALS / path.name, path)
    answers = next(a for n, a, _ in OLD_RESUMES if n == path.name)
    header = read_journal(path)[0]
    run = cli("resume", str(path), home=tmp_path, answers=answers)
    heard = [line.split("  ", 1)[1] for line in run.stdout.splitlines() if re.match(r"\d\d:\d\d\.\d\d  ", line)]
    # then, new since version 2, the story offered; the answers end there: no story, the game over
    story = load_story_words()
    assert heard[-2:] == [story.text("offer"), story.text("no_story")]
    heard = heard[:-2]
    # and, new since version 3, where the resumed game is (scripts/table.yaml `resumed_vote`)
    assert heard[0] == load_prompts().text("resumed_vote")
    heard = heard[1:]
    assert run.returncode == 0 and heard == (JOURNALS / f"{name}.heard.txt").read_text(encoding="utf-8").splitlines()
    # the scripts' warning exactly when they changed: thiercelieux's texts gained the classic reasons'
    # wording since, Poudlard's its cards' texts and the phones' words
    changed = header["script"] != script_version(header["game"])
    assert ("les scripts du jeu ont changé" in run.stderr) == changed
    assert changed


def test_version_2_lines_are_read_in_version_3() -> None:
    onenight, events, _ = read_journal(JOURNALS / "poudlard-vote-v2.jsonl")
    assert onenight["in_play"] == ["mangemort", "mangemort", "hermione", "sirius", "eleve", "eleve", "harry"]
    assert "cards" not in onenight
    assert events[2:] == [
        ev.DebateOver(1, early=True),  # « on vote », version 2's `start_vote`
        ev.VoteInput("Ana", "Ben"),
        ev.Undo(),
        ev.VoteInput("Ana", "Ben"),
        ev.VoteInput(target="Chloé", count=2),  # « deux voix pour Chloé »
        ev.Stop(),
    ]
    _, events, _ = read_journal(JOURNALS / "thiercelieux-vote-v2.jsonl")
    assert events[2] == ev.Answer(PhaseId("night", 1), "voyante", "Ana", "operator")
    ends = [e for e in events if isinstance(e, ev.DebateOver)]
    assert ends == [ev.DebateOver(1, early=True)]  # version 2 wrote it twice: `start_vote`, then `debate_over`


def test_a_version_2_classic_debate_ended_without_its_day_goes_on(tmp_path) -> None:
    """Version 2 wrote a classic debate's end as `start_vote` (or `debate_done`), then the day's
    `debate_over`: a game stopped between the two had not ended its debate, and still has not."""
    lines = (JOURNALS / "thiercelieux-vote-v2.jsonl").read_bytes().split(b"\n")
    start = next(i for i, line in enumerate(lines) if b'"start_vote"' in line)
    path = tmp_path / "debate.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines[: start + 1]))
    _, events, _ = read_journal(path)
    assert not any(isinstance(e, ev.DebateOver) for e in events) and isinstance(events[-1], ev.Said)


def test_a_version_1_header_names_its_cards_by_family() -> None:
    onenight, _, _ = read_journal(JOURNALS / "poudlard-whole-v1.jsonl")
    classic, _, _ = read_journal(JOURNALS / "thiercelieux-stop-v1.jsonl")
    assert onenight["family"] == "onenight" and len(onenight["in_play"]) == len(onenight["players"]) + 3
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
    assert events[-1] == ev.Stop() and not finished(events)


# -- one replayer, each family's undo rule -------------------------------------------------------


def test_each_familys_undo_rule_says_what_annule_takes_back() -> None:
    from narrator.table.classic import replay as classic
    from narrator.table.onenight import progress as onenight
    from narrator.table.replay import undoable

    night = ev.Answer(PhaseId("night", 1), "loup", "Eva", "operator")
    votes = ev.Answer(PhaseId("day", 1), "votes", {"Ana": "Dan", "Ben": "Dan"}, "voice")
    ana, ben = ev.VoteInput("Ana", "Dan"), ev.VoteInput("Ben", "Dan")
    # classic: the latest ballot of the vote being said, else the latest answer
    assert classic.inputs([night, ana, ben, ev.Undo()]) == ([night], {"Ana": "Dan"})
    assert undoable([night, ana, ev.VotesAgain()], classic.UNDO) == night  # the vote asked again: its ballots gone
    assert classic.inputs([night, ana, ben, votes, ev.Undo()]) == ([night], {})  # a confirmed vote: asked anew
    assert classic.inputs([night, ana, ben, votes, ev.Undo(), ev.Undo()]) == ([], {})
    # one-night: « on vote » is taken back, a debate whose time ran out is nobody's input
    assert undoable([ev.NightDone(), ev.DebateOver(1)], onenight.UNDO) is None
    assert undoable([ev.NightDone(), ev.DebateOver(1, early=True)], onenight.UNDO) == ev.DebateOver(1, early=True)
    tally = ev.VoteInput(target="Ben", count=2)
    state = onenight.progress([ev.DebateOver(1, early=True), ana, tally, ev.Vote({"Ben": 2}, {}), ev.Undo()])
    assert state.stage == "vote" and [c.count for c in state.inputs] == [None, 2]  # the vote read back again


def test_what_the_table_heard_goes_back_only_with_an_answer_it_said() -> None:
    from narrator.table.classic.replay import heard

    shot = ev.Answer(PhaseId("day", 1), "chasseur", "Ana", "voice")
    look = ev.Answer(PhaseId("night", 2), "voyante", "Ben", "operator")
    assert heard([ev.Said(3), shot, ev.Said(5), ev.Undo()]) == 3  # its consequences are said anew
    assert heard([ev.Said(3), look, ev.Said(5), ev.Undo()]) == 5  # the operator's: nothing said twice


# -- every event checked, on write and on read ---------------------------------------------------

BAD_EVENTS = [
    ({"type": "vote_input"}, "attendu : « voter » (un bulletin) ou « count » (un décompte), l'un des deux"),
    ({"type": "vote_input", "voter": "Ana", "count": 2}, "« voter » (un bulletin) ou « count »"),
    ({"type": "vote_input", "target": "Ana", "count": -1}, "« count » : attendu : 0 ou plus"),
    ({"type": "vote_input", "command": {"command": "vote", "voter": "Ana"}}, "champ inconnu « command »"),
    ({"type": "card", "player": "Ana"}, "« card » : champ « role » manquant"),
    ({"type": "tick", "phase": "debate", "left": "200"}, "« tick » : « left » : attendu : un nombre ou null"),
    ({"type": "more_time", "seconds": True}, "« seconds » : attendu : un entier"),
    ({"type": "vote", "counts": {"Ana": 1.5}, "pointing": {}}, "« counts » : attendu : un objet dont chaque valeur"),
    ({"type": "answer", "phase": {"kind": "soir", "number": 1}, "key": "loup", "value": "Ana", "by": "operator"},
     "« phase » : attendu : un objet dont « kind » est night ou day"),
    ({"type": "answer", "phase": {"kind": "day", "number": 0}, "key": "votes", "value": {}, "by": "voice"},
     "un numéro de 1 ou plus"),
    ({"type": "answer", "phase": "nuit 1", "key": "loup", "value": "Ana", "by": "operator"},
     "« phase » : attendu : un objet {kind: …, number: …}"),
    ({"type": "start_vote"}, "type d'événement inconnu : 'start_vote'"),
    ({"type": "debate_over", "day": 0}, "« day » : attendu : 1 ou plus"),
    ({"type": "outcome", "winners": ["Ana"], "surprise": 1}, "champ inconnu « surprise »"),
    ({"type": "vote_inputs"}, "type d'événement inconnu : 'vote_inputs'"),
    ({"type": "game", "version": 3, "family": "onenight", "game": "poudlard", "script": "", "players": ["Ana"],
      "in_play": [], "voice": 3}, "« voice » : attendu : un texte"),
    ({"type": "game", "version": 3, "family": "onenight", "game": "poudlard", "script": "", "players": ["Ana"],
      "cards": [], "voice": "fr"}, "champ inconnu « cards »"),
]  # fmt: skip


@pytest.mark.parametrize("data, message", BAD_EVENTS)
def test_an_event_off_its_definition_is_one_french_sentence(tmp_path, data, message) -> None:
    with pytest.raises(ev.EventError, match=None) as caught:
        ev.check(data)
    assert message in str(caught.value)
    journal = Journal.create(ONENIGHT, tmp_path / "j.jsonl")
    cls = ev.EVENTS.get(data["type"])
    if cls is not None and cls is not ev.Game:  # the program cannot write what it could not read back
        try:
            unchecked = cls(**{k: v for k, v in data.items() if k != "type"})
        except TypeError:  # a missing or unknown field: no such event can be made
            unchecked = None
        if unchecked is not None:
            with pytest.raises(JournalError, match="événement refusé"):
                journal.append(unchecked)
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
    st.builds(ev.VoteInput, names, st.none() | names),
    st.builds(lambda t, n: ev.VoteInput(target=t, count=n), st.none() | names, st.integers(0, 20)),
    st.builds(ev.Vote, st.dictionaries(names, st.integers(0, 9)), st.dictionaries(names, st.none() | names)),
    st.builds(ev.Card, names, names),
    st.builds(ev.Cards, st.dictionaries(names, names)),
    st.builds(lambda a: ev.Tick("night", at=a), st.floats(0, 1e6)),
    st.builds(lambda a: ev.Tick("debate", left=a), st.floats(-5, 1e4)),
    st.builds(ev.MoreTime, st.integers(1, 600)),
    st.builds(ev.DebateOver, st.integers(1, 30), st.booleans()),
    st.builds(ev.Answer, st.builds(PhaseId, st.sampled_from(["night", "day"]), st.integers(1, 9)), names,
              st.recursive(st.none() | st.booleans() | names, lambda x: st.lists(x) | st.dictionaries(names, x)),
              st.sampled_from(["operator", "voice", "rules"]), st.booleans(), st.sampled_from(["", "heal"])),
    st.sampled_from([ev.NightDone(), ev.Pause(), ev.Resume(), ev.Stop(), ev.Undo(), ev.VotesAgain()]),
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
    assert events == payloads and warnings == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda x: st.lists(x, max_size=3) | st.dictionaries(st.text(max_size=6), x, max_size=4),
    max_leaves=12,
)
KEYS = st.sampled_from(
    [
        "type",
        "command",
        "voter",
        "target",
        "count",
        "counts",
        "pointing",
        "player",
        "role",
        "left",
        "at",
        "phase",
        "day",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(ev.EVENTS)), st.dictionaries(KEYS, JSON, max_size=4))
def test_any_payload_is_an_event_or_one_french_sentence(kind, fields) -> None:
    try:
        ev.check({**fields, "type": kind})
    except ev.EventError as exc:
        assert "\n" not in str(exc) and str(exc)


# -- a file that survives any cut ------------------------------------------------------------------


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """Each family's whole scripted game: its journal's bytes and what it confirmed."""
    tmp = tmp_path_factory.mktemp("whole")
    return {name: journal_rig.whole_game(family, tmp) for name, family in journal_rig.FAMILIES.items()}


@pytest.fixture
def state(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("NARRATOR_STATE_DIR", str(tmp_path / "games"))
    monkeypatch.setenv("PULSE_SERVER", "unix:/nonexistent")
    return tmp_path


@pytest.mark.parametrize("name", sorted(journal_rig.FAMILIES))
def test_a_journal_cut_anywhere_in_its_last_three_lines_resumes_to_one_end(games, state, name) -> None:
    # the full sweep, every offset: benchmarks/journal_faults.py
    data, whole = games[name]
    offsets = journal_rig.cut_offsets(data)
    sample = offsets[::29] + [offsets[-1], len(data) - len(data.split(b"\n")[-2]) - 1]  # + newline only, + line start
    for offset in sample:
        assert journal_rig.after_cut(journal_rig.FAMILIES[name], state, data, whole, offset) == [], offset


def test_a_cut_line_is_taken_out_its_bytes_kept_aside(games, state) -> None:
    data, _ = games["poudlard"]
    path = state / "cut.jsonl"
    path.write_bytes(data[:-20])
    family = journal_rig.FAMILIES["poudlard"]
    run = family.resume(state, path)
    lines = data.split(b"\n")
    side = state / f"cut.jsonl.ligne-{len(lines) - 1}.ecartee"
    assert run.code == 0 and f"Les octets écartés sont gardés dans {side}." in run.out
    assert side.read_bytes() == lines[-2][:-19]
    assert path.read_bytes().startswith(b"\n".join(lines[:-2]) + b"\n")


@pytest.mark.parametrize("name", sorted(journal_rig.FAMILIES))
def test_a_failed_open_write_or_fsync_is_one_french_line_and_the_game_resumes(games, state, name) -> None:
    # the disk full at any moment; the full sweep, every call: benchmarks/journal_faults.py
    family = journal_rig.FAMILIES[name]
    _, whole = games[name]
    run, counted = journal_rig.with_fault(lambda: family.play(state, state / "count.jsonl"), None)
    lines = (state / "count.jsonl").read_bytes().count(b"\n")
    assert run.code == 0 and counted.calls >= 2 * lines  # each line written, then synced
    # the first calls one by one (the header's open, write and sync), then a dozen points through the game
    for fail_at in [*range(1, 5), *range(5, counted.calls + 1, max(1, counted.calls // 12))]:
        problems, failed = journal_rig.after_fault(family, state, whole, fail_at)
        assert problems == [], (fail_at, failed)


@pytest.mark.parametrize("name", sorted(journal_rig.FAMILIES))
def test_a_failed_open_write_or_fsync_while_resuming_is_one_french_line(games, state, name) -> None:
    # a read-only journal, a full disk while the cut line is taken out or the old version rewritten
    family = journal_rig.FAMILIES[name]
    data, whole = games[name]
    begun = b"".join(line + b"\n" for line in data.split(b"\n")[:5]) + b'{"type": "vo'
    (state / "count.jsonl").write_bytes(begun)
    _, counted = journal_rig.with_fault(lambda: family.resume(state, state / "count.jsonl"), None)
    assert counted.calls > 20
    for fail_at in [*range(1, 8), *range(8, counted.calls + 1, 17)]:
        problems, failed = journal_rig.after_fault(family, state, whole, fail_at, begun)
        assert problems == [], (fail_at, failed)


# -- damaged, duplicated, swapped, foreign and edited lines --------------------------------------


def edited(games, state, edit) -> tuple[Path, list[bytes]]:
    data, _ = games["thiercelieux"]
    lines = data.split(b"\n")[:-2]  # the game before its outcome
    path = state / "edited.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in edit(lines)))
    return path, lines


@pytest.mark.parametrize(
    "edit, line, why",
    [
        (lambda ls: ls[:4] + [b'{"type": "answer", "pha'] + ls[5:], 5, "JSON invalide"),
        (lambda ls: ls[:6] + [ls[6].replace(b'"Eva"', b'"\xff"')] + ls[7:], 7, "UTF-8"),  # the wolves' answer
        (lambda ls: ls[:5] + [ls[4]] + ls[5:], 6, "numéro de ligne 5 ; attendu : 6"),  # duplicated
        (lambda ls: ls[:3] + [ls[4], ls[3]] + ls[5:], 4, "numéro de ligne 5 ; attendu : 4"),  # swapped
        (lambda ls: ls[:3] + ls[4:], 4, "numéro de ligne 5 ; attendu : 4"),  # dropped
        (lambda ls: ls[:3] + [ls[0]] + ls[4:], 4, "un second en-tête"),  # foreign
        (lambda ls: ls[:3] + [ls[3].replace(b'"by": "operator"', b'"by": 3')] + ls[4:], 4, "« by » : attendu"),
    ],
    ids=["cut", "not-utf8", "duplicated", "swapped", "dropped", "foreign", "edited"],
)
def test_a_damaged_line_in_the_middle_is_refused_with_its_number(games, state, edit, line, why) -> None:
    path, _ = edited(games, state, edit)
    before = path.read_bytes()
    run = journal_rig.FAMILIES["thiercelieux"].resume(state, path)
    assert run.code == 2 and run.out.count("narrator: ") == 1, run.out
    assert f"{path}:{line}: ligne illisible" in run.out and why in run.out and f"--avant-ligne {line}" in run.out
    assert path.read_bytes() == before  # nothing truncated silently


def test_avant_ligne_resumes_from_the_lines_before_a_damaged_one(games, state) -> None:
    path, lines = edited(games, state, lambda ls: ls[:6] + [b"\x00\x00garbage"] + ls[7:])
    family = journal_rig.FAMILIES["thiercelieux"]
    _, events, _ = read_journal(path, before_line=7)
    typed, said = family.inputs(events)
    run = journal_rig.run_cli(family.argv(state, path, said, True)[:2] + ["--avant-ligne", "7"] +
                              family.argv(state, path, said, True)[2:], typed)  # fmt: skip
    assert run.code == 0, run.out
    assert f"{path}:7: la partie reprend de la ligne 1 à la ligne 6" in run.out
    assert (state / "edited.jsonl.ligne-7.ecartee").read_bytes().startswith(b"\x00\x00garbage\n" + lines[7])
    assert family.confirmed(path) == games["thiercelieux"][1]


def test_an_answer_edited_into_one_the_rules_refuse_is_refused(games, state) -> None:
    path, lines = edited(games, state, lambda ls: ls)
    first = next(i for i, line in enumerate(lines) if b'"type": "answer"' in line)  # the voyante's look at Ana
    edit = lines[:first] + [lines[first].replace(b'"value": "Ana"', b'"value": "Zoe"')] + lines[first + 1 :]
    path.write_bytes(b"".join(line + b"\n" for line in edit))
    run = journal_rig.FAMILIES["thiercelieux"].resume(state, path)
    assert run.code == 2 and "réponse du journal refusée" in run.out and run.out.count("narrator: ") == 1, run.out


def _before(lines: list[bytes], marker: bytes) -> list[bytes]:
    """The journal's lines before the first that holds `marker`."""
    return lines[: next(i for i, line in enumerate(lines) if marker in line)]


def _changed(lines: list[bytes], old: bytes, new: bytes) -> list[bytes]:
    """`old` changed into `new` in the last line that holds it."""
    at = max(i for i, line in enumerate(lines) if old in line)
    return lines[:at] + [lines[at].replace(old, new)] + lines[at + 1 :]


def _pointing_of_a_stranger(lines: list[bytes]) -> list[bytes]:
    stranger = {"type": "pointing", "player": "Zed", "target": None, "line": len(lines) + 1, "at_time": 1.0}
    return lines + [json.dumps(stranger).encode()]


BALLOTS = b'"type": "vote_input"'
TABLE_EDITS = [
    ("thiercelieux", lambda ls: _changed(_before(ls, b'"key": "votes"'), b'"voter": "Dan"', b'"voter": "Zed"'),
     "bulletin du journal refusé : jour 1.votes.Zed : attendu : seuls votent les joueurs en vie"),
    ("thiercelieux", lambda ls: _changed(_before(ls, b'"key": "votes"'), b'"target": "Ana"', b'"target": "Zed"'),
     "bulletin du journal refusé : jour 1.votes.Dan : attendu : le bulletin de chaque joueur en vie"),
    ("poudlard", lambda ls: _changed(_before(ls, b'"type": "vote"'), b'"voter": "Dan"', b'"voter": "Zed"'),
     "« vote_input » : Zed n'est pas un joueur de la partie"),
    ("poudlard", lambda ls: _changed(_before(ls, b'"type": "cards"'), b'"role": "harry"', b'"role": "loup"'),
     "« card » : pas de carte loup dans cette partie"),
    ("poudlard", lambda ls: _pointing_of_a_stranger(_before(ls, b'"type": "outcome"')),
     "« pointing » : Zed n'est pas un joueur de la partie"),
]  # fmt: skip


@pytest.mark.parametrize("name, edit, why", TABLE_EDITS, ids=["voter", "target", "one-night-voter", "card", "pointing"])
def test_an_input_edited_off_the_table_is_refused_with_its_line(games, state, name, edit, why) -> None:
    """A journaled ballot, card or pointing is checked against the game when read back: a voter who may not
    vote, a target or a card not in the game is one French line naming the file and line, never a traceback."""
    data, _ = games[name]
    lines = edit(data.split(b"\n")[:-1])
    path = state / "edited.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    line = next(i for i, raw in enumerate(lines, 1) if b"Zed" in raw or b"loup" in raw and b'"card"' in raw)
    run = journal_rig.FAMILIES[name].resume(state, path)
    assert run.clean and run.code == 2 and run.out.count("narrator: ") == 1, run.out
    assert f"narrator: {path}:{line}: {why}" in run.out and f"--avant-ligne {line} {path}" in run.out, run.out
    again = journal_rig.FAMILIES[name].resume(state, path)
    assert again.code == 2 and f"{path}:{line}: {why}" in again.out  # the journal is left as it was


def test_a_header_edited_into_a_table_the_game_refuses_is_refused(games, state) -> None:
    data, _ = games["poudlard"]
    header = json.loads(data.split(b"\n")[0])
    path = state / "one.jsonl"
    path.write_text(json.dumps({**header, "players": ["Ana"]}) + "\n", encoding="utf-8")
    run = journal_rig.FAMILIES["poudlard"].resume(state, path)
    assert (
        run.code == 2
        and run.out
        # line 1, by the header's key: the user resuming typed no --roles
        == f"narrator: {path}:1: en-tête de journal refusé : « in_play » : attendu : 4 cartes pour 1 joueurs (joueurs + 3) ; trouvé : 7\n"
    )


# -- one writer ----------------------------------------------------------------------------------


def test_a_second_writer_is_refused_while_a_game_holds_its_journal(state) -> None:
    path = state / "j.jsonl"
    journal = Journal.create(ONENIGHT, path)
    with pytest.raises(JournalError, match="déjà utilisé par une autre partie"):
        Journal.resume(path)
    run = journal_rig.FAMILIES["poudlard"].resume(state, path)
    assert run.code == 2 and "déjà utilisé par une autre partie en cours" in run.out
    journal.append(ev.NightDone())
    journal.close()
    Journal.resume(path)[0].close()  # free again


@pytest.mark.parametrize("name", sorted(journal_rig.FAMILIES))
def test_a_new_game_refuses_an_existing_journal_and_leaves_it_as_it_was(games, state, name) -> None:
    path = state / "existing.jsonl"
    path.write_bytes(games[name][0][:-30])
    run = journal_rig.FAMILIES[name].play(state, path)
    assert run.code == 2 and "ce fichier existe déjà" in run.out
    assert path.read_bytes() == games[name][0][:-30]


@pytest.mark.parametrize(
    "change, message",
    [
        (["--ear", "script:/nonexistent/voix.txt"], "/nonexistent/voix.txt"),
        (["--wav", "/nonexistent/x.wav"], "/nonexistent/x.wav : écriture impossible"),
        (["--voice", "nulle-part"], "nulle-part"),
    ],
)
@pytest.mark.parametrize("name", sorted(journal_rig.FAMILIES))
def test_a_table_that_cannot_start_leaves_no_journal(state, name, change, message) -> None:
    family = journal_rig.FAMILIES[name]
    path = state / "new.jsonl"
    typed, said = family.inputs(None)
    run = journal_rig.run_cli(family.argv(state, path, said, False) + change, typed)
    assert run.code == 2 and message in run.out and run.out.count("narrator: ") == 1, run.out
    assert not path.exists()


def test_journals_side_files_and_records_are_the_owners_only(games, state) -> None:
    """They hold every seat's token and the deal in clear: mode 0600, a new one or one rewritten."""
    from narrator.app.startup import write_record

    journal = Journal.create(ONENIGHT, state / "new.jsonl")
    write_record(journal, {"game": "onuw"})
    journal.close()
    record = state / "new.record.yaml"
    assert (state / "new.jsonl").stat().st_mode & 0o777 == 0o600 and record.stat().st_mode & 0o777 == 0o600
    record.chmod(0o644)
    write_record(journal, {"game": "onuw"})  # written again over an older, wider one
    assert record.stat().st_mode & 0o777 == 0o600
    data, _ = games["poudlard"]
    path = state / "cut.jsonl"
    path.write_bytes(data[:-20])
    path.chmod(0o644)
    newline = b"\n"
    assert journal_rig.FAMILIES["poudlard"].resume(state, path).code == 0  # the cut line taken out: rewritten
    side = state / f"cut.jsonl.ligne-{data.count(newline)}.ecartee"
    assert path.stat().st_mode & 0o777 == 0o600 and side.stat().st_mode & 0o777 == 0o600
