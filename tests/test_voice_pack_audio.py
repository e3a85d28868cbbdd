"""A whole voice pack recorded through the microphone, then played: `narrator voice record` listens to
the PulseAudio null sink's monitor while espeak-ng, standing in for the person, reads each line into
the sink (tests/audio_server.py); then a classic game is played with that pack.

The scope is the pack with the fewest fixed lines that a game still plays whole: thiercelieux with
only werewolves and villagers (98 lines). The stand-in reads only each line's first words, fast, and a
take ends after 0.25 s of silence: the recorder keeps what it hears and never checks the words, so a
short take proves the same loop in three quarters of the time (printed).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import yaml
from audio_server import speech_spans
from test_table_classic import classic_table

from narrator.script.classic.narration import load_narration
from narrator.script.fixed_lines import fixed_lines
from narrator.table.clock import FakeClock
from narrator.table.voice import Voice, to_items
from narrator.voice import MARGIN_S, SAMPLE_RATE, Pause, Rendered, Renderer, Say, find_profile
from narrator.voice.loudness import TARGET_LUFS, loudness
from narrator.voice.pack import MANIFEST_FILE

ROLES = ["loup", "villageois"]
PLAYERS = ["Ana", "Ben", "Cleo", "Dan", "Eva", "Fay"]
DEAL = ["loup", "loup", "villageois", "villageois", "villageois", "villageois"]
# a whole game: the wolves eat Cleo, the village eliminates Dan, the wolves are as many as the rest
NIGHT = [("loup", "Cleo")]
DAY = [None, "on vote", *(f"{v} vote contre {t}" for v, t in [("ana", "dan"), ("ben", "dan"), ("dan", "ana")])]
DAY += ["eva vote contre dan", "fay vote contre dan", "oui"]
SPEAKING_RATE = 900  # words a minute: espeak-ng reads a line in about a second
TAKE_WORDS = 7  # a take long enough to measure its loudness (one 400 ms block)
TOLERANCE_S = 0.05


@pytest.fixture(scope="session")  # once per run, even when the worker runs other modules between its tests
def recorded_pack(audio_server, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pack, recorded line by line through the loopback."""
    if shutil.which("espeak-ng") is None or shutil.which("paplay") is None:
        pytest.fail("espeak-ng and paplay are needed: apt-get install espeak-ng pulseaudio-utils", pytrace=False)
    root = tmp_path_factory.mktemp("recorded")
    lines = fixed_lines("thiercelieux", ROLES)
    voiced = dict(zip((line.text for line in lines), ThreadPoolExecutor(4).map(lambda t: speak(root, t), lines)))
    pack = root / "voix"
    command = [sys.executable, "-m", "narrator", "voice", "record", str(pack), "--game", "thiercelieux"]
    command += ["--roles", ",".join(ROLES), "--silence", "0.25"]
    started = time.monotonic()
    person = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1
    )
    assert person.stdin is not None and person.stdout is not None
    transcript: list[str] = []
    text = ""
    for said in person.stdout:
        transcript.append(f"{time.monotonic() - started:7.2f} {said}")
        shown = re.fullmatch(r"  « (.*) »\n", said)
        if shown:
            text = shown.group(1)
        elif said.startswith(("Entrée : enregistrer", "Entrée : garder")):
            person.stdin.write("\n")
            person.stdin.flush()
        elif said.startswith("● J'écoute"):
            subprocess.run(["paplay", str(voiced[text])], check=True, env=os.environ.copy())
        elif said.startswith(("Je n'ai rien entendu", "Trop fort")):
            break
    person.stdin.close()
    code = person.wait(timeout=30)
    elapsed = time.monotonic() - started
    print(f"\nwhole pack of {len(lines)} lines recorded through the loopback in {elapsed:.1f} s")
    assert code == 0, "".join(transcript) + person.stderr.read()  # type: ignore[union-attr]
    assert "Terminé : la voix est complète." in transcript[-1]
    return pack


def speak(root: Path, line) -> Path:
    """The stand-in for the person: espeak-ng reading the line's first words, fast, not too loud."""
    path = root / f"{line.id}.wav"
    words = " ".join(line.text.split()[:TAKE_WORDS])
    subprocess.run(
        ["espeak-ng", "-v", "fr", "-s", str(SPEAKING_RATE), "-a", "60", "-w", str(path), words],
        check=True,
        capture_output=True,
    )
    return path


class KeepingSpeaker:
    """Keeps every buffer played; playing takes the buffer's length on the fake clock."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.played: list[Rendered] = []

    def play(self, rendered: Rendered) -> None:
        self.played.append(rendered)
        self.clock.advance(rendered.duration_s)

    def close(self) -> None:
        pass


def test_the_recorded_pack_is_complete_and_plays_a_whole_game(recorded_pack: Path, tmp_path: Path) -> None:
    check = subprocess.run(
        [sys.executable, "-m", "narrator", "voice", "check", str(recorded_pack), "--roles", ",".join(ROLES)],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0 and "La voix est complète." in check.stdout, check.stdout + check.stderr

    renderer = Renderer(find_profile(str(recorded_pack)), tmp_path / "cache")
    session, _, _ = classic_table(NIGHT, DAY, captain=False, players=PLAYERS, deal=DEAL)
    speaker = KeepingSpeaker(session.clock)
    session.voice = Voice(renderer.render, speaker)
    ending = session.run()
    assert ending.winners == ["Ana", "Ben"]
    recorded, synthesized, levels = [], [], {"pack": [], "tts": []}
    for rendered in speaker.played:
        for segment in rendered.segments:
            from_pack = renderer.recording(Say(segment.line_id, segment.text)) is not None
            (recorded if from_pack else synthesized).append(segment.line_id)
            clip = rendered.pcm[round(segment.start_s * SAMPLE_RATE) : round(segment.end_s * SAMPLE_RATE)]
            value = loudness(clip, SAMPLE_RATE)
            if value is not None:
                levels["pack" if from_pack else "tts"].append(value)
    print(f"said from the pack: {len(recorded)} lines, by TTS: {len(synthesized)} (names and numbers)")
    print(f"loudness (LUFS), pack: {np.round(levels['pack'], 2)}; TTS: {np.round(levels['tts'], 2)}")
    assert all(line_id.endswith("*") for line_id in synthesized)  # every fixed line said came from the pack
    assert {"night_first", "loups_wake", "loups_sleep", "morning", "vote_call"} <= set(recorded)
    assert levels["pack"] and levels["tts"]
    for value in levels["pack"] + levels["tts"]:
        assert value == pytest.approx(TARGET_LUFS, abs=1.0)
    assert abs(np.mean(levels["pack"]) - np.mean(levels["tts"])) < 1.0


def test_a_night_of_recorded_and_synthesized_lines_keeps_every_pause_exact(recorded_pack: Path, tmp_path: Path):
    night = [item for item in to_items(load_narration().night_steps(set(ROLES), 1)) if isinstance(item, Say)]
    # a line with a name in it, said by TTS between two recorded ones; pauses long enough to tell lines apart
    says = [*night[:2], Say("death_devoured*", "Les loups-garous ont dévoré Cleo."), *night[2:]]
    items: list[Say | Pause] = [says[0]]
    for number, say in enumerate(says[1:]):
        items += [Pause(0.6 + 0.13 * number), say]
    renderer = Renderer(find_profile(str(recorded_pack)), tmp_path / "cache")
    rendered = renderer.render(items)
    from_pack = [renderer.recording(item) is not None for item in items if isinstance(item, Say)]
    assert any(from_pack) and not all(from_pack)
    says = iter(rendered.segments)
    previous = None
    waited = 0.0
    for item in items:
        if isinstance(item, Pause):
            waited += item.seconds
            continue
        segment = next(says)
        if previous is not None:
            gap = segment.start_s - previous.end_s
            assert gap == pytest.approx(waited, abs=1 / SAMPLE_RATE)
            silence = rendered.pcm[round(previous.end_s * SAMPLE_RATE) : round(segment.start_s * SAMPLE_RATE)]
            assert not silence.any()
        previous, waited = segment, 0.0
    found = speech_spans(rendered.pcm, rendered.rate)
    expected = [(s.start_s + MARGIN_S, s.end_s - MARGIN_S) for s in rendered.segments]
    assert len(found) == len(expected), (found, expected)
    errors = [max(abs(a - c), abs(b - d)) for (a, b), (c, d) in zip(found, expected)]
    print(f"mixed night: worst edge error {max(errors) * 1000:.1f} ms")
    assert max(errors) < TOLERANCE_S


def test_a_line_whose_script_changed_is_stale_and_said_by_tts(recorded_pack: Path, tmp_path: Path) -> None:
    pack = tmp_path / "voix"
    shutil.copytree(recorded_pack, pack)
    manifest = yaml.safe_load((pack / MANIFEST_FILE).read_text(encoding="utf-8"))
    manifest["lines"]["loups_wake"]["text"] = "les Loups-Garous se réveillent."  # what the script said before
    (pack / MANIFEST_FILE).write_text(yaml.safe_dump(manifest, allow_unicode=True), encoding="utf-8")
    check = subprocess.run(
        [sys.executable, "-m", "narrator", "voice", "check", str(pack), "--roles", ",".join(ROLES)],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 1
    assert "Périmées, le texte a changé depuis l'enregistrement (1) :" in check.stdout
    assert "  loups_wake :\n    enregistré : « les Loups-Garous se réveillent. »" in check.stdout
    renderer = Renderer(find_profile(str(pack)), tmp_path / "cache")
    wake = next(line for line in fixed_lines("thiercelieux", ROLES) if line.id == "loups_wake")
    assert renderer.recording(Say(wake.id, wake.text)) is None
    renderer.render([Say(wake.id, wake.text)])
    assert renderer.tts.synthesized == 1
