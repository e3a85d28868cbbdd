"""The last edges a user (or a file) can reach: settings.yaml that is not text or holds a number too long
for Python, a named pipe given where a file is read, a journal header out of the ranges `play` allows or
naming a voice by a relative path, a full disk while the record is written, and PortAudio's English.
Each is one French sentence (or the defaults with one), never a traceback, never a wait without end."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from journal_rig import run_cli

from narrator.app import startup
from narrator.resources import open_to_write
from narrator.table.bounds import refusal
from narrator.table.journal import JournalError, read_journal
from narrator.table.settings import Settings, load_settings
from narrator.voice.errors import VoiceError
from narrator.voice.playback import portaudio_reason
from narrator.voice.wavfile import read_wav

JOURNALS = Path(__file__).parent / "journals"
OLD = JOURNALS / "poudlard-vote-v3.jsonl"  # a stopped poudlard game: its header is edited below


@pytest.fixture
def state(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("NARRATOR_STATE_DIR", str(tmp_path / "games"))
    monkeypatch.setenv("NARRATOR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PULSE_SERVER", "unix:/nonexistent")
    return tmp_path


# -- settings.yaml ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, why",
    [
        (b"rate: \xff\xfe\n", "pas du texte UTF-8, octet 7"),
        (b"rate: 1" + b"0" * 100_000 + b"\n", "un nombre trop long"),
        (b"rate: [\n", "YAML incorrect ligne 2"),
    ],
    ids=["not-utf8", "100000-digits", "not-yaml"],
)
def test_unreadable_settings_give_the_defaults_with_one_french_line(tmp_path, data, why) -> None:
    path = tmp_path / "settings.yaml"
    path.write_bytes(data)
    notice = io.StringIO()
    assert load_settings(path, notice) == Settings()
    assert notice.getvalue() == f"{path} : réglages ignorés ({why}) ; les réglages par défaut s'appliquent\n"


def test_settings_out_of_range_are_refused_with_the_range_the_table_uses(tmp_path) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text("rate: 99999\nvolume: 0.5\n", encoding="utf-8")
    notice = io.StringIO()
    assert load_settings(path, notice) == Settings(volume=0.5)
    assert notice.getvalue() == f"{path} : réglage ignoré : rate : {refusal('rate', 99999)}\n"


def test_a_named_pipe_as_settings_is_not_waited_on(tmp_path) -> None:
    path = tmp_path / "settings.yaml"
    os.mkfifo(path)
    notice = io.StringIO()
    got: list[Settings] = []
    reader = threading.Thread(target=lambda: got.append(load_settings(path, notice)), daemon=True)
    reader.start()
    reader.join(30)  # a bound for a hang, not a measure: it returns at once
    assert got == [Settings()]
    assert "ce n'est pas un fichier ordinaire" in notice.getvalue()


@pytest.mark.parametrize(
    "data, why",
    [
        (b"rate: " + b"9" * 4000 + b"\n", "trouvé : un nombre de plus de 1 000 chiffres"),  # past a float's range
        (b"rate: -" + b"9" * 400 + b"\n", "trouvé : un nombre de 400 chiffres"),
        (b"rate: &a [&b [1, 2]]\n", "trouvé : une liste"),
    ],
    ids=["4000-digits", "400-digits-negative", "list"],
)
def test_a_setting_of_a_huge_integer_or_a_list_is_ignored_with_its_range(tmp_path, data, why) -> None:
    path = tmp_path / "settings.yaml"
    path.write_bytes(data)
    notice = io.StringIO()
    assert load_settings(path, notice) == Settings()
    said = notice.getvalue()
    assert said.startswith(f"{path} : réglage ignoré : rate : attendu : un entier de 80 à 450 ; {why}")
    assert said.count("\n") == 1 and len(said) < 200 + len(str(path))


def test_settings_nested_deeper_than_python_give_the_defaults_with_one_french_line(tmp_path) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text("rate: " + "[" * 20_000 + "]" * 20_000 + "\n", encoding="utf-8")
    notice = io.StringIO()
    assert load_settings(path, notice) == Settings()
    assert notice.getvalue() == (
        f"{path} : réglages ignorés (imbrication trop profonde) ; les réglages par défaut s'appliquent\n"
    )


def test_a_yaml_alias_bomb_in_settings_is_ignored_without_walking_it(tmp_path) -> None:
    """19 levels of 9 aliases: 9^19 items if anything walked the value (its repr did)."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, 20)]
    path = tmp_path / "settings.yaml"
    path.write_text("\n".join([*lines, "rate: *a19", "volume: 0.5"]) + "\n", encoding="utf-8")
    notice = io.StringIO()
    got: list[Settings] = []
    reader = threading.Thread(target=lambda: got.append(load_settings(path, notice)), daemon=True)
    reader.start()
    reader.join(60)  # a bound for a hang, not a measure: it returns at once
    assert got == [Settings(volume=0.5)]
    assert (
        notice.getvalue() == f"{path} : réglage ignoré : rate : attendu : un entier de 80 à 450 ; trouvé : une liste\n"
    )


# -- a named pipe for resolve and check ------------------------------------------------------------


@pytest.mark.parametrize("command", ["resolve", "check"])
def test_resolve_and_check_refuse_a_named_pipe_instead_of_waiting(tmp_path, command) -> None:
    fifo = tmp_path / "partie.yaml"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "narrator", command, str(fifo)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"narrator: {fifo} : lecture impossible (ce n'est pas un fichier ordinaire : un tube ou un périphérique)\n"
    )


def test_resume_and_a_recorded_line_refuse_a_named_pipe(state) -> None:
    fifo = state / "partie.jsonl"
    os.mkfifo(fifo)
    run = run_cli(["resume", str(fifo), "--no-wait"])
    assert run.code == 2 and run.out == (
        f"narrator: {fifo} : journal impossible à rouvrir (ce n'est pas un fichier ordinaire : un tube ou un "
        "périphérique)\n"
    )
    with pytest.raises(VoiceError, match="ce n'est pas un fichier ordinaire"):
        read_wav(fifo)


@pytest.mark.parametrize(
    "option",
    [["--wav", "{fifo}"], ["--journal", "{fifo}"], ["--ear", "script:{fifo}"]],
    ids=["wav", "journal", "ear"],
)
def test_play_refuses_a_named_pipe_for_any_file_it_opens(state, option) -> None:
    fifo = state / "tube"
    os.mkfifo(fifo)
    args = ["play", "poudlard", "--players", "Ana,Ben,Cleo,Dan,Eva", "--scenario", "premiere_annee", "--no-wait",
            "--ear", "script:/dev/null", "--minutes", "1", *(a.format(fifo=fifo) for a in option)]  # fmt: skip
    environment = {**os.environ, "HOME": str(state), "NARRATOR_STATE_DIR": str(state / "games")}
    done = subprocess.run(
        [sys.executable, "-m", "narrator", *args], capture_output=True, text=True, timeout=120, env=environment
    )  # the timeout bounds a hang, it measures nothing
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"narrator: {fifo} : ")


def test_a_render_and_a_narration_file_refuse_a_named_pipe(tmp_path) -> None:
    fifo = tmp_path / "nuit.wav"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "narrator", "render", "poudlard", "--players", "Ana,Ben,Cleo", "--scenario",
         "premiere_annee", "--out", str(fifo)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2 and "ce n'est pas un fichier ordinaire" in done.stderr
    with pytest.raises(OSError, match="ce n'est pas un fichier ordinaire"):
        open_to_write(fifo)
    with pytest.raises(OSError, match="ce n'est pas un fichier ordinaire"):
        open_to_write(fifo, keep=True)


# -- the journal's header ---------------------------------------------------------------------------


def with_header(tmp_path: Path, **changes: object) -> Path:
    lines = OLD.read_text(encoding="utf-8").splitlines()
    header = {**json.loads(lines[0]), **changes}
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join([json.dumps(header, ensure_ascii=False), *lines[1:]]) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("minutes", [-5, 0, 61, 1_000_000_000])
def test_a_header_out_of_the_minutes_play_allows_is_refused_at_line_1(state, minutes) -> None:
    path = with_header(state, minutes=minutes)
    with pytest.raises(JournalError) as refused:
        read_journal(path)
    assert str(refused.value) == f"{path}:1: en-tête refusé : « minutes » : {refusal('minutes', minutes)}"
    before = path.read_bytes()
    run = run_cli(["resume", str(path), "--no-wait", "--ear", "script:/dev/null"])
    assert (
        run.code == 2
        and run.out == f"narrator: {path}:1: en-tête refusé : « minutes » : {refusal('minutes', minutes)}\n"
    )
    assert path.read_bytes() == before


def test_a_header_of_minutes_past_a_floats_range_is_refused_at_line_1(state) -> None:
    path = with_header(state, minutes=int("9" * 4000))
    with pytest.raises(JournalError) as refused:
        read_journal(path)
    assert str(refused.value) == (
        f"{path}:1: en-tête refusé : « minutes » : attendu : un entier de 1 à 60 ; "
        "trouvé : un nombre de plus de 1 000 chiffres"
    )


def test_a_header_number_longer_than_python_reads_is_said_in_french(state) -> None:
    path = with_header(state, minutes=1)
    text = path.read_text(encoding="utf-8").replace('"minutes": 1', '"minutes": ' + "9" * 5000, 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(JournalError) as refused:
        read_journal(path)
    assert str(refused.value) == f"{path}:1: en-tête illisible : un nombre de 5000 chiffres : trop long"


@pytest.mark.parametrize("name", ["Ana\u202e", "A\u200bna", "Ana\x07", "An\u2028a", "\u2066Ana"])
def test_a_name_with_a_control_or_format_character_is_refused_by_play_and_resume(state, name) -> None:
    path = with_header(state, players=[name, "Ben", "Cleo", "Dan"])
    with pytest.raises(JournalError) as refused:
        read_journal(path)
    hidden = next(c for c in name if c not in "Ana")
    why = f"un nom sans caractère de contrôle ni de mise en forme invisible (U+{ord(hidden):04X})"
    assert str(refused.value).startswith(f"{path}:1: en-tête refusé : « players » : attendu : {why} ; trouvé : ")
    run = run_cli(["render", "poudlard", "--players", f"{name},Ben,Cleo", "--scenario", "premiere_annee",
                   "--out", "/dev/null"])  # fmt: skip
    assert run.code == 2 and why in run.out and run.out.count("\n") == 1


def test_huge_minutes_on_the_command_line_are_the_range_refusal() -> None:
    run = run_cli(["render", "poudlard", "--players", "Ana,Ben,Cleo", "--scenario", "premiere_annee",
                   "--minutes", "9" * 4000, "--out", "/dev/null"])  # fmt: skip
    assert run.code == 2 and run.out == (
        "narrator: --minutes : attendu : un entier de 1 à 60 ; trouvé : un nombre de plus de 1 000 chiffres\n"
    )


def test_the_minutes_play_refuses_are_the_ones_a_header_refuses() -> None:
    assert refusal("minutes", 1) is None and refusal("minutes", 60) is None
    assert refusal("minutes", 61) == "attendu : un entier de 1 à 60 ; trouvé : 61"
    run = run_cli(["render", "poudlard", "--players", "Ana,Ben,Cleo", "--scenario", "premiere_annee",
                   "--minutes", "61", "--out", "/dev/null"])  # fmt: skip
    assert run.code == 2 and run.out == "narrator: --minutes : attendu : un entier de 1 à 60 ; trouvé : 61\n"


@pytest.mark.parametrize("voice", ["../../../../etc/passwd", "voices/../../x.yaml", "/etc/../etc/passwd", ".cache", ""])
def test_a_header_voice_is_a_shipped_name_or_an_absolute_path(state, voice) -> None:
    path = with_header(state, voice=voice)
    with pytest.raises(JournalError, match=f"^{path}:1: en-tête refusé : « voice » : attendu : le nom d'un profil"):
        read_journal(path)


def test_a_header_refused_by_the_game_says_its_key_and_line_not_an_option(state) -> None:
    path = with_header(state, in_play=["mangemort", "mangemort", "hermione", "sirius", "eleve", "eleve", "noiseuse"])
    run = run_cli(["resume", str(path), "--no-wait", "--ear", "script:/dev/null"])
    assert run.code == 2 and run.out.startswith(f"narrator: {path}:1: en-tête de journal refusé : « in_play » : ")
    assert "--roles" not in run.out and "noiseuse" in run.out


# -- the record at the game's end ------------------------------------------------------------------


def test_a_full_disk_while_the_record_is_written_says_the_game_is_over_and_leaves_no_half_record(
    tmp_path, monkeypatch
) -> None:
    path = tmp_path / "partie.jsonl"
    path.write_text("", encoding="utf-8")
    held = SimpleNamespace(path=path)  # the journal: only its path is read
    real_replace = os.replace

    def full(src, dst):  # the disk fills as the whole record is put in place
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dst))

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(startup.SetupError) as refused:
        startup.write_record(held, {"id": "x", "ruleset": "onuw"})  # type: ignore[arg-type]
    monkeypatch.setattr(os, "replace", real_replace)
    record = path.with_suffix(".record.yaml")
    assert str(refused.value) == (
        f"{record} : écriture impossible (disque plein) ; la partie est finie, son journal {path} la garde "
        "entière, mais son enregistrement n'est pas écrit"
    )
    assert "gardée" not in str(refused.value) and "resume" not in str(refused.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["partie.jsonl"]  # no record, whole or half


# -- PortAudio ---------------------------------------------------------------------------------------


def test_portaudios_errors_are_said_in_french() -> None:
    sd = pytest.importorskip("sounddevice")
    assert portaudio_reason(sd.PortAudioError("Error querying device -1")) == "aucun périphérique audio trouvé"
    assert portaudio_reason(sd.PortAudioError("Error opening RawOutputStream: Device unavailable", -9985)) == (
        "périphérique occupé ou indisponible"
    )
    assert portaudio_reason(
        sd.PortAudioError("Error opening RawOutputStream: Unanticipated host error", -9999, (0, "x"))
    ) == ("erreur du système audio")
    assert portaudio_reason(ValueError("No output device matching 'x'")) == "aucun périphérique audio trouvé"
    assert portaudio_reason(sd.PortAudioError("Some new error", -9900)) == "erreur PortAudio n° -9900"


def test_with_no_sound_card_the_sentence_is_french_from_end_to_end(monkeypatch) -> None:
    monkeypatch.setenv("PULSE_SERVER", "unix:/nonexistent")
    done = subprocess.run(
        [sys.executable, "-c", "from narrator.voice.playback import open_speaker; open_speaker()"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PULSE_SERVER": "unix:/nonexistent", "AUDIODEV": "null"},
    )
    if "Pas de carte son utilisable" not in done.stderr:
        pytest.skip("a sound card answered on this machine")  # the sentence is checked where there is none
    assert done.stderr.startswith("Pas de carte son utilisable (aucune sortie audio : ")
    assert "Error" not in done.stderr and "device" not in done.stderr
