"""Recorded voice packs without a sound card: the fixed lines of each game, whole games said from a
complete pack, the manifest, staleness, `narrator voice check`, and `narrator voice record` driven
with a stand-in microphone (the real one, through PulseAudio: tests/test_voice_pack_audio.py)."""

from __future__ import annotations

import atexit
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import wave
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from test_session import RECORDS, ClockSpeaker, fake_render, spoken, table
from test_table_classic import NAMES, NIGHTS, VOICES, classic_table

from narrator.app.family import resolve_record
from narrator.app.record_play import RecordOperator, RecordVoices
from narrator.app.startup import warn_other_game
from narrator.app.voice_pack import Keyboard, PackProblem, check_pack, record, to_record
from narrator.cli import main
from narrator.listen.french import Parser
from narrator.rules.classic import Options
from narrator.rules.classic.deal import random_record
from narrator.script.classic.narration import load_narration
from narrator.script.classic.script import load_classic
from narrator.script.fixed_lines import fixed_lines
from narrator.script.line import Line
from narrator.script.prompts import load_prompts
from narrator.table.classic.session import ClassicSession
from narrator.table.clock import FakeClock
from narrator.table.onenight.announcer import plan
from narrator.table.voice import Voice
from narrator.voice import SAMPLE_RATE, Pause, Renderer, Say, VoiceError, find_profile, write_wav
from narrator.voice.loudness import TARGET_LUFS, loudness
from narrator.voice.pack import MANIFEST_FILE, Pack, load_pack, save_line
from narrator.voice.pcm import trim

GAMES = ("onuw", "poudlard", "thiercelieux")


def tone(seconds: float = 1.0, amplitude: int = 6000, hz: float = 220.0) -> np.ndarray:
    t = np.arange(round(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    body = (amplitude * np.sin(2 * np.pi * hz * t)).astype(np.int16)
    return np.concatenate([np.zeros(2000, np.int16), body, np.zeros(2000, np.int16)])


_PACKS = Path(tempfile.mkdtemp(prefix="narrator-packs-"))  # each game's complete pack, made once, then copied
atexit.register(shutil.rmtree, _PACKS, ignore_errors=True)


def complete_pack(folder: Path, game: str) -> Pack:
    """A pack holding every fixed line of the game (a short tone each): saving them takes seconds, so the
    first one of a game is kept and the others are copies of it."""
    made = _PACKS / game
    if not made.exists():
        building = _PACKS / f".{game}"
        building.mkdir()
        (building / "profile.yaml").write_text("rate: 160\n", encoding="utf-8")
        pack = Pack(building, game)
        clip = trim(tone(0.2))
        for line in fixed_lines(game):
            save_line(pack, line, clip, None, 0.0, "2026-12-01T00:00:00+00:00")
        building.rename(made)
    shutil.copytree(made, folder)
    return load_pack(folder)


@pytest.fixture(scope="module")
def packs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Pack]:
    root = tmp_path_factory.mktemp("packs")
    return {game: complete_pack(root / game, game) for game in GAMES}


# --- a game's fixed lines ------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_fixed_lines_have_nothing_filled_in_and_each_id_once(game: str) -> None:
    lines = fixed_lines(game)
    ids = [line.id for line in lines]
    assert len(ids) == len(set(ids))
    assert not [line for line in lines if line.id.endswith("*") or "{" in line.text or not line.text.strip()]
    # never a piece of a sentence, nor what a keyboard or a phone's screen shows
    assert not {"and", "nobody", "undo_vote", "typed_any", "phone_decoy_one", "status_vote"} & set(ids)


def test_fixed_lines_follow_the_cards_in_play() -> None:
    every = {line.id for line in fixed_lines("poudlard")}
    few = {line.id for line in fixed_lines("poudlard", ["mangemort", "eleve"])}
    assert few < every
    assert {"legend_mangemort", "mangemorts_wake", "night_start", "vote_call"} <= few
    assert not {"legend_harry", "legend_sirius"} & few
    classic = {line.id for line in fixed_lines("thiercelieux", ["loup", "villageois"])}
    assert "help_classic" in classic and "help" not in classic and "welcome" not in classic


def said_from(pack: Pack, heard: list[tuple[float, str, str]]) -> tuple[list[str], list[str]]:
    """(recorded, synthesized) among the lines said that have nothing filled in."""
    fixed = [(line_id, text) for _, line_id, text in heard if not line_id.endswith("*")]
    recorded = [i for i, text in fixed if pack.recording(i, text) is not None]
    return recorded, [f"{i}: {text}" for i, text in fixed if pack.recording(i, text) is None]


class AlwaysTuned:
    """A setting the table says is always done (« plus fort »: its acknowledgement is a fixed line)."""

    def refusal(self, command: str) -> None:
        return None

    def apply(self, command: str) -> None:
        pass

    def reply(self, command: str) -> str:
        return command


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_every_fixed_line_of_a_whole_one_night_game_is_recorded(record: dict, packs) -> None:
    game, players = record["ruleset"], record["players"]
    expected = resolve_record(record)
    in_play = [record["deal"][p] for p in players] + record["deal"]["center"]
    answers: list[str | None] = [None, "plus fort", "aide", "pause", "reprends", "on vote"]
    answers += [f"{voter.lower()} vote contre {target.lower()}" for voter, target in record["votes"].items()]
    answers += ["non"]  # the read-back refused: the votes again
    answers += [f"{voter.lower()} vote contre {target.lower()}" for voter, target in record["votes"].items()]
    answers += ["oui"] + [spoken(expected["final"][p]) for p in players] + ["oui"]
    session, speaker, _ = table(game, players, in_play, answers, tune=AlwaysTuned())
    outcome = session.run(plan(session.script.announce, in_play, minutes=5))
    assert set(outcome.winners) == set(expected["winners"])
    recorded, synthesized = said_from(packs[game], speaker.heard)
    print(f"{record['id']}: {len(recorded)} fixed lines from the pack, {len(speaker.heard) - len(recorded)} by TTS")
    assert synthesized == []
    assert {"night_start", "vote_call", "help", "paused", "louder"} <= set(recorded)


def test_every_fixed_line_of_whole_classic_games_is_recorded(packs) -> None:
    pack = packs["thiercelieux"]
    session, speaker, _ = classic_table(NIGHTS, VOICES)
    session.run()
    heard = list(speaker.heard)
    for seed in range(6):  # random legal games: other characters' calls, other mornings
        rng = random.Random(seed)
        count = rng.randint(6, len(NAMES))
        game = random_record(load_classic(), rng, count, seed, names=NAMES[:count], max_phases=30)
        clock = FakeClock()
        speaker = ClockSpeaker(clock)
        ear = RecordVoices(game)
        deal = game["deal"]
        session = ClassicSession(
            prompts=load_prompts(),
            voice=Voice(fake_render, speaker),
            ear=ear,
            clock=clock,
            parser=Parser("thiercelieux", game["players"]),
            phrases=lambda phase: [],
            rules=load_classic(),
            narration=load_narration(),
            players=tuple(game["players"]),
            deal=tuple(deal[p] for p in game["players"]),
            options=Options(**game["options"]),
            extra=tuple(deal.get("extra", ())),
            groups=tuple(deal["groups"][p] for p in game["players"]) if "groups" in deal else (),
            operator=RecordOperator(game),
            minutes=1,
        )
        ear.session = session
        session.run()
        heard += speaker.heard
    recorded, synthesized = said_from(pack, heard)
    print(f"classic: {len(recorded)} fixed lines from the pack, {len(heard) - len(recorded)} by TTS")
    assert synthesized == []
    assert len(set(recorded)) > 20


# --- play time: a recording only for its exact text ----------------------------------------------


NIGHT = [
    Pause(0.2),
    Say("loups_reveil", "Loups-garous, réveillez-vous et regardez-vous."),
    Pause(1.5),
    Say("jour", "Le village se réveille."),
    Pause(0.3),
]


def test_a_recording_plays_for_its_exact_text_only(tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "profile.yaml").write_text("rate: 200\n", encoding="utf-8")
    pack = Pack(folder, "onuw")
    recording = tone(1.0)
    measured = loudness(trim(recording), SAMPLE_RATE)  # kept unlevelled (gain 0): levelled as it is played
    save_line(pack, Line("loups_reveil", NIGHT[1].text), trim(recording), measured, 0.0, "2026-12-01T00:00:00+00:00")
    save_line(pack, Line("jour", "Le village se lève."), trim(recording), measured, 0.0, "2026-12-01T00:00:00+00:00")
    profile = find_profile(str(folder))  # a pack folder is a voice: its profile, its recordings
    assert profile.rate == 200 and profile.pack == folder
    renderer = Renderer(profile, tmp_path / "cache")
    rendered = renderer.render(NIGHT)
    assert renderer.tts.synthesized == 1  # « jour » was recorded with another text: stale, said by TTS
    first = rendered.segments[0]
    played = rendered.pcm[round(first.start_s * SAMPLE_RATE) : round(first.end_s * SAMPLE_RATE)]
    assert len(played) == len(trim(recording))
    assert loudness(played, SAMPLE_RATE) == pytest.approx(TARGET_LUFS, abs=0.1)
    # the same id with a name in it is never the recording
    assert renderer.recording(Say("loups_reveil", "Ana, réveille-toi.")) is None


def test_old_folders_of_wavs_and_broken_manifests_are_refused_in_french(tmp_path: Path) -> None:
    old = tmp_path / "old"
    old.mkdir()
    write_wav(old / "jour.wav", tone(), SAMPLE_RATE)
    profile = replace(find_profile("fr"), pack=old)
    with pytest.raises(VoiceError, match="sans lines.yaml n'est plus lu"):
        Renderer(profile, tmp_path)
    with pytest.raises(VoiceError, match="dossier de voix enregistrée introuvable"):
        Renderer(replace(profile, pack=tmp_path / "absent"), tmp_path)
    with pytest.raises(VoiceError, match="pas de profile.yaml"):
        find_profile(str(old))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "profile.yaml").write_text("rate: 160\n", encoding="utf-8")
    (broken / MANIFEST_FILE).write_text(
        "format: 1\nlines:\n  jour:\n    text: Le jour.\n    file: ../../etc/passwd\n", encoding="utf-8"
    )
    with pytest.raises(VoiceError) as error:
        load_pack(broken)
    message = str(error.value)
    assert f"{broken / MANIFEST_FILE}:5:" in message and "gain_db" in message


# --- narrator voice check ------------------------------------------------------------------------


def test_check_says_missing_stale_and_unused_lines(tmp_path: Path, packs) -> None:
    folder = tmp_path / "pack"
    complete_pack(folder, "thiercelieux")
    out = io.StringIO()
    assert check_pack(folder, None, "loup,villageois", out) == 0
    assert "La voix est complète." in out.getvalue()

    pack = load_pack(folder)
    first = fixed_lines("thiercelieux")[0]
    save_line(pack, Line(first.id, "Un ancien texte."), trim(tone(0.3)), None, 0.0, "2026-12-01T00:00:00+00:00")
    save_line(pack, Line("retired", "Une réplique retirée."), trim(tone(0.3)), None, 0.0, "2026-12-01T00:00:00+00:00")
    gone = next(line for line in fixed_lines("thiercelieux") if line.id not in (first.id,))
    (folder / "lines" / f"{gone.id}.wav").unlink()
    command = [sys.executable, "-m", "narrator", "voice", "check", str(folder), "--game", "thiercelieux"]
    done = subprocess.run(command, capture_output=True, text=True, env=os.environ.copy())
    assert done.returncode == 1, done.stderr
    assert f"  {gone.id} : « {gone.text} »" in done.stdout
    assert f"  {first.id} :\n    enregistré : « Un ancien texte. »\n    maintenant  : « {first.text} »" in done.stdout
    assert "que le jeu ne dit plus (1) : retired" in done.stdout
    assert f"narrator voice record {folder} --game thiercelieux" in done.stdout
    nothing = subprocess.run([*command[:5], str(tmp_path / "none")], capture_output=True, text=True)
    assert nothing.returncode == 2 and "ce n'est pas un dossier de voix" in nothing.stderr and not nothing.stdout


# --- narrator voice record, with a stand-in microphone ------------------------------------------


class StandInMicrophone:
    """Gives the takes it was handed, in order; remembers what it played back."""

    def __init__(self, takes: list[np.ndarray]) -> None:
        self.takes = list(takes)
        self.played: list[np.ndarray] = []

    def record(self, stop, silence_s: float, max_s: float) -> np.ndarray:
        return self.takes.pop(0)

    def play(self, pcm: np.ndarray) -> None:
        self.played.append(pcm)

    def close(self) -> None:
        self.closed = True


def run_record(folder: Path, typed: str, takes: list[np.ndarray], **kwargs) -> tuple[int, str, StandInMicrophone]:
    mic = StandInMicrophone(takes)
    out = io.StringIO()
    code = record(
        folder,
        "thiercelieux",
        "fr",
        "loup,villageois",
        kwargs.get("redo", []),
        kwargs.get("everything", False),
        lambda: mic,
        Keyboard(io.StringIO(typed)),
        out,
    )
    return code, out.getvalue(), mic


def test_record_keeps_redoes_skips_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    folder = tmp_path / "voix"
    lines = fixed_lines("thiercelieux", ["loup", "villageois"])
    short = tone(0.2, 3000)  # too short to measure: the pack's usual gain
    loud = tone(1.0, 40000 // 2)
    silent = np.zeros(SAMPLE_RATE, np.int16)
    clipped = np.clip(tone(1.0, 60000), -32768, 32767).astype(np.int16)
    # line 1: nothing heard, then too loud, then a take listened to and kept; line 2: redone, kept;
    # line 3: skipped; line 4: a short take kept; then « q »
    typed = "\n\n\n" + "é\n\n" + "\nr\n\n\n" + "p\n" + "\n\n" + "q\n"
    code, said, mic = run_record(folder, typed, [silent, clipped, loud, tone(1.0, 2000), tone(1.0, 9000), short])
    assert code == 1
    assert said.count("Je n'ai rien entendu : on recommence.") == 1
    assert "Trop fort : le son sature" in said
    assert f"[1/{len(lines)}] {lines[0].id}\n  « {lines[0].text} »" in said
    assert "Arrêté : ce qui est enregistré est gardé" in said
    assert len(mic.played) == 1 and mic.closed
    pack = load_pack(folder)
    assert set(pack.lines) == {lines[0].id, lines[1].id, lines[3].id}
    assert pack.game == "thiercelieux" and find_profile(str(folder)).rate == 160  # profile.yaml from --voice fr
    kept = {line_id: load(folder, line_id) for line_id in pack.lines}
    for line_id in (lines[0].id, lines[1].id):
        assert loudness(kept[line_id], SAMPLE_RATE) == pytest.approx(TARGET_LUFS, abs=0.2)
        assert pack.lines[line_id].lufs is not None
    assert pack.lines[lines[3].id].lufs is None  # too short: it took the median of the measured gains
    assert pack.lines[lines[3].id].gain_db == pytest.approx(np.median(pack.measured_gains()), abs=0.01)
    assert not list(folder.rglob("*.tmp"))

    # again: only what is missing, from the skipped line on; the input's end stops like « q »
    code, said, _ = run_record(folder, "\n\n", [tone(1.0)])
    assert f"{len(lines) - 3} répliques à enregistrer" in said
    assert f"[1/{len(lines) - 3}] {lines[2].id}" in said and code == 1
    assert lines[2].id in load_pack(folder).lines

    # --redo: that line only, whatever is recorded
    code, said, _ = run_record(folder, "\n\n", [tone(1.0)], redo=[lines[0].id])
    assert f"[1/1] {lines[0].id}" in said
    with pytest.raises(PackProblem, match="réplique inconnue de ce jeu : nope"):
        run_record(folder, "", [], redo=["nope"])


def load(folder: Path, line_id: str) -> np.ndarray:
    from narrator.voice import read_wav

    pcm, rate = read_wav(folder / "lines" / f"{line_id}.wav")
    assert rate == SAMPLE_RATE
    return pcm


def test_record_refuses_another_games_folder_and_an_unwritable_one(tmp_path: Path) -> None:
    folder = tmp_path / "voix"
    complete_pack(folder, "poudlard")
    with pytest.raises(PackProblem, match="ce dossier est la voix de poudlard"):
        run_record(folder, "", [])
    a_file = tmp_path / "a_file"
    a_file.write_text("")  # a folder that cannot be made, even by root
    with pytest.raises(PackProblem, match="écriture impossible"):
        run_record(a_file / "voix", "", [])


# --- a pack given by a relative path, in a game resumed from elsewhere ------------------------------


def test_a_game_with_a_pack_by_relative_path_resumes_from_another_folder(tmp_path: Path) -> None:
    table, elsewhere = tmp_path / "table", tmp_path / "elsewhere"
    (table / "p1").mkdir(parents=True)
    elsewhere.mkdir()
    (table / "p1" / "profile.yaml").write_text("rate: 200\n", encoding="utf-8")
    (tmp_path / "answers.txt").write_text("stop\noui\n", encoding="utf-8")  # each run stops at once
    journal = tmp_path / "j.jsonl"
    common = ["--ear", f"script:{tmp_path / 'answers.txt'}", "--no-wait", "--wav", str(tmp_path / "o.wav")]
    env = {**os.environ, "HOME": str(tmp_path), "NARRATOR_STATE_DIR": str(tmp_path / "games")}

    def narrator(where: Path, *args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "narrator", *args, *common, "--sans-musique"]
        return subprocess.run(command, capture_output=True, text=True, cwd=where, env=env, timeout=120)

    cards = "loup,voyante,voleur,villageois,villageois,merdeux"
    played = narrator(
        table,
        "play",
        "onuw",
        "--players",
        "Ana,Ben,Cleo",
        "--roles",
        cards,
        "--voice",
        "./p1",
        "--journal",
        str(journal),
    )
    assert played.returncode == 0, played.stderr
    header = journal.read_text(encoding="utf-8").splitlines()[0]
    assert f'"voice": "{table / "p1"}"' in header  # its absolute path: found from any folder
    resumed = narrator(elsewhere, "resume", str(journal))
    assert resumed.returncode == 0 and "Partie arrêtée" in resumed.stderr, resumed.stderr
    (table / "p1").rename(table / "p2")
    lost = narrator(elsewhere, "resume", str(journal))
    assert lost.returncode == 2 and "donnez-la avec « narrator resume --voice VOIX »" in lost.stderr, lost.stderr
    chosen = narrator(elsewhere, "resume", str(journal), "--voice", "../table/p2")  # --voice wins over the journal's
    assert chosen.returncode == 0, chosen.stderr


# --- recordings that cannot be played: listed by check, recorded again, said by TTS in a game ----------


def spoil(folder: Path) -> dict[str, str]:
    """Four recordings of a complete pack made unplayable, each its own way: line id -> what check says."""
    ids = [line.id for line in fixed_lines("poudlard")][:4]
    files = [folder / "lines" / f"{i}.wav" for i in ids]
    files[0].write_bytes(files[0].read_bytes()[:30])  # cut in its header
    files[1].write_bytes(b"")
    with wave.open(str(files[2]), "wb") as other:  # 44.1 kHz, stereo, 8 bits
        other.setnchannels(2), other.setsampwidth(1), other.setframerate(44100)
        other.writeframes(bytes(range(256)) * 200)
    write_wav(files[3], np.zeros(SAMPLE_RATE, np.int16), SAMPLE_RATE)
    return dict(zip(ids, ["fichier coupé", "fichier coupé", "8 bits", "muet"]))


def test_unplayable_recordings_are_listed_recorded_again_and_said_by_tts(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "pack"
    complete_pack(folder, "poudlard")
    bad = spoil(folder)
    out = io.StringIO()
    assert check_pack(folder, None, None, out) == 1
    said = out.getvalue()
    assert f"Illisibles, à enregistrer de nouveau ({len(bad)}) :" in said and "La voix est complète" not in said
    for line_id, why in bad.items():
        assert any(row.startswith(f"  {line_id} : ") and why in row for row in said.splitlines()), (line_id, said)

    pack = load_pack(folder)
    assert [line.id for line in to_record(pack, fixed_lines("poudlard"), [], False)] == list(bad)

    capsys.readouterr()
    lines = [line for line in fixed_lines("poudlard") if line.id in bad]
    renderer = Renderer(find_profile(str(folder)), tmp_path / "cache")
    rendered = renderer.render([Say(line.id, line.text) for line in lines])  # never a stop
    assert renderer.tts.synthesized == len(bad) and len(rendered.segments) == len(bad)
    warnings = capsys.readouterr().err.splitlines()
    assert len(warnings) == 1 and warnings[0].startswith("Attention : ") and "synthèse vocale" in warnings[0]


def test_check_reports_a_missing_profile_and_another_games_pack(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "pack"
    complete_pack(folder, "poudlard")
    with pytest.raises(PackProblem, match="ce dossier est la voix de poudlard, pas de onuw"):
        check_pack(folder, "onuw", None, io.StringIO())
    warn_other_game(Renderer(find_profile(str(folder)), tmp_path / "cache"), "onuw")
    assert "est la voix de poudlard, pas de onuw" in capsys.readouterr().err

    (folder / "profile.yaml").unlink()  # play refuses such a folder: check must not call it complete
    out = io.StringIO()
    assert check_pack(folder, None, "harry,mangemort", out) == 1
    said = out.getvalue()
    assert "Il manque profile.yaml" in said and "complète" not in said
    assert f"narrator voice record {folder} --game poudlard --roles harry,mangemort" in said


class ListeningMicrophone(StandInMicrophone):
    """Hears silence until `stop()` says Entrée was pressed (or the input closed), as the real one."""

    def record(self, stop, silence_s: float, max_s: float) -> np.ndarray:
        for _ in range(200):
            if stop():
                break
            time.sleep(0.01)
        return np.zeros(SAMPLE_RATE, np.int16)


def test_the_end_of_input_anywhere_stops_like_q(tmp_path: Path) -> None:
    keyboard = Keyboard(io.StringIO("\n"))
    assert keyboard.answer() == "" and keyboard.pressed() and keyboard.answer() is None and keyboard.answer() is None
    mic = ListeningMicrophone([])
    out = io.StringIO()
    typed = Keyboard(io.StringIO("\n"))  # Entrée, then Ctrl-D during the take
    code = record(tmp_path / "p4", "poudlard", "fr", "harry", [], False, lambda: mic, typed, out)
    assert code == 1 and "Je n'ai rien entendu" in out.getvalue() and "Arrêté" in out.getvalue()


@pytest.mark.parametrize("seconds", ["0", "-1", "abc", "60"])
def test_a_take_silence_out_of_range_is_refused_in_french(seconds: str, tmp_path: Path, capsys) -> None:
    """--silence 0 cut a 3-s line at its first pause (an outside tester): refused before anything is made."""
    with pytest.raises(SystemExit) as stopped:
        main(["voice", "record", str(tmp_path / "voix"), "--game", "onuw", "--silence", seconds])
    assert stopped.value.code == 2
    assert f"--silence : attendu : des secondes, de 0.1 à 5 ; trouvé : {seconds}" in capsys.readouterr().err
    assert not (tmp_path / "voix").exists()
