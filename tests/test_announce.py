"""The spoken night and day: which lines, in which order, with which waits, at which times."""

from __future__ import annotations

import itertools
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from audio_server import speech_spans

from narrator.script.line import Line, Wait
from narrator.script.onenight.script import load_shipped
from narrator.table.onenight.announcer import plan
from narrator.voice import MARGIN_S, Say, read_wav
from narrator.voice import plan as lay_out

POUDLARD = load_shipped("poudlard")
ONUW = load_shipped("onuw")


def ids(steps) -> list[str]:
    return [s.id for s in steps if isinstance(s, Line)]


def test_poudlard_calls_in_wake_order_and_skips_absent_characters() -> None:
    # 001: "Si un des personnages n'est pas en jeu, sauter simplement le paragraphe."
    night = POUDLARD.announce.night_steps(["mangemort", "mangemort", "hermione", "ron", "minerva", "eleve"])
    assert ids(night) == [
        "night_start",
        "mangemorts_wake", "mangemorts_alone", "mangemorts_sleep",
        "hermione_wake", "hermione_sleep",
        "ron_wake", "ron_sleep",
        "minerva_wake", "minerva_sleep",
    ]  # fmt: skip
    assert night[1] == Line("mangemorts_wake", "Mangemorts, réveillez-vous et reconnaissez-vous.")
    # 001: "Attendre 5 secondes. Puis annoncer « Mangemorts, fermez les yeux. »"
    assert night[3:5] == [Wait(5.0), Line("mangemorts_sleep", "Mangemorts, fermez les yeux.")]


def test_every_poudlard_announcement_is_the_rulebooks_word_for_word() -> None:
    rulebook = (Path(__file__).parent / "rulebooks" / "001_208a09780179c69b.txt").read_text(encoding="utf-8")
    rulebook = rulebook.replace("\u2019", "'")

    def typeset(text: str) -> str:
        # the script mends two slips of the printed text (« réveille toi », « carte! »): the words stay the book's
        return re.sub(r"\s*!", " !", text.replace("réveille toi", "réveille-toi"))

    every = POUDLARD.announce.night_steps(POUDLARD.rules.roles)
    for line in every:
        if isinstance(line, Line):
            assert typeset(line.text) in typeset(rulebook), line.id


def test_onuw_night_has_the_doppelganger_first_and_its_insomniac_turn_last() -> None:
    # 000 3a: "i) Le Doppelgänger agit …" … "x) Le Doppelgänger-insomniaque est averti de son identité finale."
    all_roles = list(ONUW.rules.roles)
    night = ids(ONUW.announce.night_steps(all_roles))
    assert night[1] == "doppelganger_wake" and night[-2:] == [
        "doppelganger_insomniaque_wake",
        "doppelganger_insomniaque_sleep",
    ]
    order = [i.split("_")[0] for i in night[1:-2] if i.endswith("_wake")]
    assert order == [
        "doppelganger",
        "loups",
        "traitre",
        "macons",
        "voyante",
        "voleur",
        "merdeux",
        "saoulon",
        "insomniaque",
    ]


def test_the_night_is_the_same_whichever_cards_lie_in_the_center() -> None:
    # the length of the night must not tell the table which cards are in the middle
    cards = ["loup", "loup", "voyante", "voleur", "doppelganger", "insomniaque", "villageois", "tannelier"]
    narrations = set()
    for deal in itertools.islice(itertools.permutations(cards), 0, 5000, 97):
        narration = plan(ONUW.announce, list(deal))
        narrations.add(tuple(narration.opening))
    assert len(narrations) == 1


def test_waits_are_exact_in_the_laid_out_timeline() -> None:
    narration = plan(POUDLARD.announce, ["mangemort", "harry", "eleve", "eleve", "luna", "ginny"], legend=False)
    says = [i for i in narration.opening if isinstance(i, Say)]
    rng = random.Random(3)
    durations = [rng.uniform(0.5, 6.0) for _ in says]
    timeline = lay_out(narration.opening, durations, wait_multiplier=1.5)
    by_id = {s.line_id: s for s in timeline.segments}
    for call in ("mangemorts", "harry"):
        gap = by_id[f"{call}_sleep"].start_s - by_id[[k for k in by_id if k.startswith(call)][-2]].end_s
        assert gap == pytest.approx(5.0 * 1.5)
    assert "luna" not in " ".join(by_id) and "ginny" not in " ".join(by_id)  # sleepers are never called
    assert timeline.duration_s == pytest.approx(sum(durations) + 2 * 5.0 * 1.5)


@pytest.mark.parametrize(
    "minutes,first_game,expected", [(None, False, 5), (None, True, 10), (3, False, 3), (1, False, 1)]
)
def test_the_debate_lasts_what_the_table_asked(minutes, first_game, expected) -> None:
    # 001: "Vous avez maintenant 5 minutes pour discuter entre vous." / "Commencez par 10 minutes au début"
    announce = POUDLARD.announce
    narration = plan(announce, ["mangemort", "eleve", "eleve", "harry"], minutes or (10 if first_game else None))
    assert narration.debate.minutes == expected
    said = next(i for i in narration.opening if isinstance(i, Say) and i.line_id == "discussion_start*")
    debate = "une minute" if expected == 1 else f"{expected} minutes"  # never « 1 minutes »
    assert said.text == f"Vous avez maintenant {debate} pour discuter entre vous."
    onuw = plan(ONUW.announce, ["loup", "voyante", "villageois", "villageois", "merdeux", "saoulon"], minutes)
    said = next(i for i in onuw.opening if isinstance(i, Say) and i.line_id == "discussion_start*")
    assert said.text.startswith(f"Vous avez {debate if minutes else '5 minutes'} pour débattre.")
    assert [left for left, _ in narration.debate.reminders] == ([60, 10] if expected > 1 else [10])
    assert [i.line_id for i in narration.vote if isinstance(i, Say)] == ["vote_call", "vote_count"]


def narrator(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True, timeout=300)


def test_render_writes_the_wav_and_prints_a_timeline_that_matches_its_audio(tmp_path: Path) -> None:
    out = tmp_path / "nuit.wav"
    run = narrator(
        "render", "poudlard", "--players", "Ana,Ben,Cleo", "--roles", "mangemort,sirius,hermione,eleve,eleve,minerva",
        "--out", str(out), "--sans-musique",  # the speech track alone: its silences are silent
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    rows = [line.split("\t") for line in run.stdout.splitlines()]
    assert all(len(r) == 4 for r in rows)
    assert [r[0] for r in rows][:2] == ["setup_intro", "legend_mangemort"]
    assert rows[-1][0] == "discussion_start*"
    pcm, rate = read_wav(out)
    # speech found in the audio by its energy, against the printed timeline (lines closer than the
    # detector's merge gap count as one stretch of speech)
    expected: list[list[float]] = []
    for _, _, start, end in rows:
        a, b = float(start) + MARGIN_S, float(end) - MARGIN_S
        if expected and a - expected[-1][1] < 0.45:
            expected[-1][1] = b
        else:
            expected.append([a, b])
    found = speech_spans(pcm, rate)
    assert len(found) == len(expected)
    worst = max(max(abs(f[0] - e[0]), abs(f[1] - e[1])) for f, e in zip(found, expected))
    assert worst <= 0.05
    assert len(pcm) / rate == pytest.approx(float(rows[-1][3]), abs=0.01)


@pytest.mark.parametrize(
    "args,message",
    [
        (["zombie", "--players", "Ana,Ben,Cleo", "--roles", "loup"], "jeu inconnu « zombie »"),
        (
            ["onuw", "--players", "Ana,Ben,Cleo", "--roles", "loup,loup,voyante,voleur,dragon,villageois"],
            "--roles : attendu : un personnage de onuw",
        ),
        (
            ["onuw", "--players", "Ana,Ben,Cleo", "--roles", "loup,loup,voyante"],
            "--roles : attendu : 6 cartes pour 3 joueurs",
        ),
        (
            ["onuw", "--players", "Ana,Ana,Cleo", "--roles", "loup,loup,voyante,voleur,villageois,villageois"],
            "--players : attendu : des noms tous différents (« Ana » est déjà à la table) ; trouvé : Ana",
        ),
        (
            ["poudlard", "--players", "Ana,,Cleo", "--roles", "mangemort,eleve,eleve,eleve,harry,ron"],
            "--players : attendu : un nom",
        ),
        (
            ["poudlard", "--players", "Ana,Ben,Cleo", "--roles", "mangemort,fred,eleve,eleve,harry,ron"],
            "fred et george toutes ensemble",
        ),
    ],
)
def test_bad_table_is_one_french_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    run = narrator("render", *args, "--out", str(tmp_path / "x.wav"))
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and message in run.stderr, run.stderr
    assert not (tmp_path / "x.wav").exists()


def test_without_a_sound_card_the_table_gets_the_console_and_a_wav(tmp_path: Path) -> None:
    # On a machine with no sound card the game still plays: speech goes to a WAV file and the
    # transcript to the terminal (README, "Two commands"). No PulseAudio server reachable here: PortAudio finds no output.
    code = (
        "import numpy as np; from narrator.app.speakers import table_speaker;"
        "from narrator.voice import Say, assemble;"
        "s = table_speaker(None); items = [Say('a', 'Fermez tous les yeux.')];"
        "s.play(assemble(items, [np.full(2205, 1000, np.int16)], 22050)); s.close()"
    )
    env = {"PATH": "/usr/bin:/bin", "PULSE_SERVER": "unix:/nonexistent", "HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith("Pas de carte son utilisable")
    assert "narrateur.wav" in run.stderr
    assert "00:00.00  Fermez tous les yeux." in run.stdout
    pcm, rate = read_wav(tmp_path / "narrateur.wav")
    assert rate == 22050 and len(pcm) == 2205
