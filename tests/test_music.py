"""The night's music at the table: « coupe la musique »… by voice and keyboard (journaled, kept, resumed),
the night turning it on and the day off (one-night and classic games), the start-up making it once, the
command line's `--sans-musique`, and `narrator render` with it.

The sessions run on a fake clock with fake audio (tests/test_session.py); the speaker that mixes the music
at the output is stood in for by `MixingSpeaker`, which mixes it as the real speakers do (`Bed.mix`) and
keeps, for every line, whether music was under it.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from test_session import RECORDS, ClockSpeaker, fake_render, spoken, table
from test_table_classic import NIGHTS, VOICES, classic_table

from narrator.app.family import resolve_record
from narrator.app.startup import Options, make_night_music, tuner
from narrator.listen.simple_ears import KeyboardEar
from narrator.script.prompts import load_prompts
from narrator.table import events as ev
from narrator.table.clock import FakeClock
from narrator.table.journal import read_journal
from narrator.table.onenight.announcer import plan
from narrator.table.settings import Settings, Tuner, load_settings, save_settings, settings_path
from narrator.table.voice import Voice
from narrator.voice import Profile, Rendered, read_wav
from narrator.voice.bed import FADE_S, LEVEL_RANGE_LU, Bed

RATE = 100  # test_session's fake audio: one second a line
PROMPTS = load_prompts()


def said(key: str) -> str:
    return PROMPTS.line(key).text


def night_music(level_lu: float = -20.0) -> Bed:
    """A music that is never silent by itself: whatever is heard of it is the night's and the table's doing."""
    return Bed(np.full(2 * RATE, 0.5, np.float32), RATE, level_lu)


class MixingSpeaker(ClockSpeaker):
    """A speaker that mixes the night's music at its output, as the program's speakers do; for every line
    played, whether music was under it (the speech track itself is never changed)."""

    def __init__(self, clock: FakeClock, bed: Bed) -> None:
        super().__init__(clock)
        self.bed = bed
        self.music: list[tuple[str, bool]] = []  # (line id, music heard under it)

    def play(self, rendered: Rendered) -> None:
        mixed = self.bed.mix(rendered)
        assert len(mixed.pcm) == len(rendered.pcm) and mixed.segments == rendered.segments
        under = mixed.pcm.astype(np.int32) - rendered.pcm
        for segment in rendered.segments:
            start, end = round(segment.start_s * RATE), round(segment.end_s * RATE)
            self.music.append((segment.line_id, bool(np.any(under[start:end]))))
        super().play(rendered)


def with_music(session, clock: FakeClock, bed: Bed | None) -> MixingSpeaker | None:
    """The session's voice with this music, mixed by its speaker."""
    session.voice.bed = bed
    if bed is None:
        return None
    session.voice.speaker = speaker = MixingSpeaker(clock, bed)
    return speaker


@pytest.fixture(autouse=True)
def _private_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """settings.yaml in the test's folder, never the user's."""
    monkeypatch.setenv("NARRATOR_CONFIG_DIR", str(tmp_path / "config"))


# -- the night turns the music on, the day off ------------------------------------------------


def whole_game(record: dict, extra: list[str | None] | None = None) -> list[str | None]:
    """A table's answers for a whole one-night game: `extra` said in the debate, then the vote and the cards."""
    expected = resolve_record(record)
    answers: list[str | None] = [None, *(extra or []), "on vote"]
    answers += [f"{voter.lower()} vote contre {target.lower()}" for voter, target in record["votes"].items()]
    answers += ["oui", *(spoken(expected["final"][p]) for p in record["players"]), "oui"]
    return answers


def one_night(extra: list[str | None] | None = None, bed: Bed | None = None, **kwargs):
    record = RECORDS[0]
    in_play = [record["deal"][p] for p in record["players"]] + record["deal"]["center"]
    session, _, clock = table(record["ruleset"], record["players"], in_play, whole_game(record, extra), **kwargs)
    speaker = with_music(session, clock, bed)
    return session, speaker, plan(session.script.announce, in_play, minutes=5)


def line_ids(items) -> list[str]:
    return [item.line_id for item in items if hasattr(item, "line_id")]


def test_the_music_plays_under_the_one_night_night_not_under_the_legend_nor_the_debate() -> None:
    bed = night_music()
    session, speaker, narration = one_night(bed=bed)
    session.run(narration)
    opening = line_ids(narration.opening)
    # the deal's line comes first (physical cards: the table deals before the legend)
    start = [line for line, _ in speaker.music].index(opening[0])
    assert [line for line, _ in speaker.music[:start]] == ["deal_cards*"]
    music = dict(speaker.music[start : start + len(opening)])
    legend = line_ids(narration.opening[: narration.night])
    night = line_ids(narration.opening[narration.night : narration.sections[-1]])
    assert legend and night
    assert not any(music[line] for line in legend)  # the legend: no music yet
    assert all(music[line] for line in night)  # from the night's first line to its last
    fading = round(FADE_S)  # the lines said while it fades out (a line lasts a second here)
    day = [heard for _, heard in speaker.music[start + len(opening) + fading :]]
    assert day and not any(day)  # the debate, the vote, the cards, the verdict: none
    assert not bed.playing


def test_a_resumed_one_night_night_has_its_music_from_its_first_word() -> None:
    bed = night_music()
    in_play = ["mangemort", "mangemort", "hermione", "sirius", "eleve", "eleve"]
    session, _, clock = table("poudlard", ["Ana", "Ben", "Chloé"], in_play, [])
    speaker = with_music(session, clock, bed)
    narration = plan(session.script.announce, in_play)  # with its legend
    hermione = next(s for s in fake_render(narration.opening).segments if s.line_id == "hermione_wake")
    session.night(narration, at=hermione.start_s + 3.0)
    assert speaker is not None and speaker.music[0] == ("hermione_wake", True)


def test_the_music_plays_under_every_classic_night_and_never_in_the_day() -> None:
    bed = night_music()
    session, _, _ = classic_table(NIGHTS, VOICES)
    speaker = with_music(session, session.clock, bed)
    session.run()
    assert speaker is not None
    ids = [line for line, _ in speaker.music]
    heard = [music for _, music in speaker.music]
    mornings = [i for i, line in enumerate(ids) if line == "morning"]
    dusk = ids.index("dusk")
    assert ids[0] == "night_first" and len(mornings) == 2
    assert all(heard[: mornings[0]]) and all(heard[dusk : mornings[1]])  # each night, from its first line
    fading = round(FADE_S)
    assert not any(heard[mornings[0] + fading : dusk])  # the first day
    assert not any(heard[mornings[1] + fading :])  # the second day, to the verdict


# -- the table changes it ----------------------------------------------------------------------


def test_the_music_commands_are_journaled_then_done_said_and_kept() -> None:
    bed = night_music()
    session, _, narration = one_night(
        ["coupe la musique", "musique plus forte", "baisse la musique", "monte l'ambiance", "remets la musique"]
    )
    session.voice.bed = bed
    session.tune = Tuner(Profile(), session.voice, Settings())
    done: list[tuple[str, ev.Event]] = []
    for name in ("mute", "louder", "softer"):  # each change of the music, when it is made
        original = getattr(bed, name)

        def spy(*args, _original=original, _name=name):
            done.append((_name, session.events[-1]))  # the journal's last event, as the change is made
            return _original(*args)

        setattr(bed, name, spy)
    session.run(narration)
    settings = [e.command for e in session.events if isinstance(e, ev.Setting)]
    assert settings == ["music_off", "music_louder", "music_softer", "music_louder", "music_on"]
    assert [event for _, event in done] == [ev.Setting(c) for c in settings]  # journaled, then done
    assert not bed.muted and bed.level_lu == -17.0
    heard = [text for _, _, text in session.voice.speaker.heard]
    for key in ("music_off", "music_louder", "music_softer"):
        assert said(key) in heard
    assert said("music_off") == "Musique coupée." and said("music_on_later") in heard  # said in the day
    kept = yaml.safe_load(settings_path().read_text(encoding="utf-8"))
    assert kept == {"music": True, "music_level": -17.0}
    assert load_settings() == Settings(music=True, music_level=-17.0)


def test_the_music_at_its_limits_and_without_music() -> None:
    top, bottom = LEVEL_RANGE_LU[1], LEVEL_RANGE_LU[0]
    base = Profile()
    loud = Voice(fake_render, ClockSpeaker(FakeClock()), bed=night_music(top))
    tune = Tuner(base, loud, Settings(music_level=top))
    assert tune.refusal("music_louder") == "music_louder_limit" and tune.refusal("music_softer") is None
    soft = Tuner(
        base, Voice(fake_render, ClockSpeaker(FakeClock()), bed=night_music(bottom)), Settings(music_level=bottom)
    )
    assert soft.refusal("music_softer") == "music_softer_limit"
    assert said("music_louder_limit") == "La musique est déjà au plus fort."
    silent = Tuner(base, Voice(fake_render, ClockSpeaker(FakeClock())))  # a voice with no music
    assert {silent.refusal(c) for c in ("music_off", "music_on", "music_louder")} == {"no_music"}
    assert said("no_music") == "Il n'y a pas de musique dans cette partie."  # a voice without, or --sans-musique


def test_the_music_put_back_says_when_it_plays() -> None:
    bed = night_music()
    tune = Tuner(Profile(), Voice(fake_render, ClockSpeaker(FakeClock()), bed=bed), Settings())
    bed.mute(True)
    assert tune.reply("music_on") == "music_on_later"  # the day: nothing plays until the night
    bed.night(True)
    assert tune.reply("music_on") == "music_on"
    assert tune.reply("music_off") == "music_off"
    assert said("music_on_later") == "La musique jouera la nuit." and said("music_on") == "La musique revient."


def test_the_help_says_the_four_music_commands() -> None:
    for key in ("help", "help_classic"):
        assert "coupe ou remets la musique, musique plus forte ou moins forte" in said(key)


def test_at_the_table_a_limit_and_no_music_are_said_and_nothing_is_journaled() -> None:
    # the level one step under the top: once louder, then the limit
    loud = night_music(LEVEL_RANGE_LU[1] - 3)
    session, _, narration = one_night(["musique plus forte", "la musique plus forte"])
    session.voice.bed = loud
    session.tune = Tuner(Profile(), session.voice, Settings(music_level=LEVEL_RANGE_LU[1] - 3))
    session.run(narration)
    assert [e.command for e in session.events if isinstance(e, ev.Setting)] == ["music_louder"]
    heard = [text for _, _, text in session.voice.speaker.heard]
    assert said("music_louder") in heard and said("music_louder_limit") in heard
    assert loud.level_lu == LEVEL_RANGE_LU[1]

    session, _, narration = one_night(["coupe la musique"])
    session.tune = Tuner(Profile(), session.voice, Settings())  # the voice has no music
    session.run(narration)
    assert not [e for e in session.events if isinstance(e, ev.Setting)]
    assert said("no_music") in [text for _, _, text in session.voice.speaker.heard]


def test_the_music_commands_typed_on_the_keyboard() -> None:
    bed = night_music()
    typed = "\n".join(str(a or "") for a in whole_game(RECORDS[0], ["coupe la musique", "musique moins forte"]))
    session, _, narration = one_night()
    session.talk.ear = session.ear = KeyboardEar(io.StringIO(typed + "\n"), io.StringIO())
    session.voice.bed = bed
    session.tune = Tuner(Profile(), session.voice, Settings())
    session.run(narration)
    assert [e.command for e in session.events if isinstance(e, ev.Setting)] == ["music_off", "music_softer"]
    assert bed.muted and bed.level_lu == -23.0


# -- the start-up ------------------------------------------------------------------------------


def test_the_start_up_makes_the_music_with_the_saved_settings_or_none() -> None:
    bed = make_night_music(Options())
    assert bed is not None and bed.level_lu == Profile().ambience.level_lu and not bed.muted
    save_settings(Settings(music=False, music_level=-26.0))
    bed = make_night_music(Options())
    assert bed is not None and bed.muted and bed.level_lu == -26.0
    assert make_night_music(Options(music=False)) is None  # --sans-musique


def test_a_resumed_game_has_its_music_as_its_journal_left_it() -> None:
    # « coupe la musique » journaled, then the game cut before settings.yaml was written
    voice = Voice(fake_render, ClockSpeaker(FakeClock()), bed=night_music())
    tuner("fr", voice, [ev.Setting("slower"), ev.Setting("music_off")])
    assert voice.bed is not None and voice.bed.muted
    tuner("fr", voice, [ev.Setting("music_off"), ev.MoreTime(60), ev.Setting("music_on")])
    assert not voice.bed.muted


def narrator(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PULSE_SERVER": "unix:/nonexistent", "NARRATOR_STATE_DIR": str(tmp_path / "state"),
           "NARRATOR_CONFIG_DIR": str(tmp_path / "config")}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "narrator", *args],
        capture_output=True, text=True, timeout=300, env=env, stdin=subprocess.DEVNULL, cwd=tmp_path,
    )  # fmt: skip


def test_a_table_cuts_the_music_by_voice_and_a_resumed_game_keeps_it_cut(tmp_path: Path) -> None:
    # in a person's own words, with a word not understood on the way
    answers = tmp_path / "answers.txt"
    answers.write_text("euh la musique\ncoupe la musique s'il te plaît\nstop\noui\n", encoding="utf-8")
    game = ["play", "poudlard", "--players", "Ana,Ben,Cleo", "--scenario", "premiere_annee", "--no-legend"]
    run = narrator(tmp_path, *game, "--no-wait", "--ear", f"script:{answers}", "--journal", str(tmp_path / "j.jsonl"))
    assert run.returncode == 0, run.stderr
    assert "Musique coupée." in run.stdout
    _, events, _ = read_journal(tmp_path / "j.jsonl")
    assert ev.Setting("music_off") in events
    assert yaml.safe_load((tmp_path / "config" / "settings.yaml").read_text(encoding="utf-8")) == {"music": False}
    # the music comes back by voice in the resumed game, and is kept so
    answers.write_text("remets la musique\nstop\noui\n", encoding="utf-8")
    run = narrator(tmp_path, "resume", str(tmp_path / "j.jsonl"), "--no-wait", "--ear", f"script:{answers}")
    assert run.returncode == 0, run.stderr
    assert "La musique jouera la nuit." in run.stdout  # said in the day
    assert yaml.safe_load((tmp_path / "config" / "settings.yaml").read_text(encoding="utf-8")) == {"music": True}


def test_sans_musique_at_the_table_says_there_is_none(tmp_path: Path) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text("musique plus forte\nstop\noui\n", encoding="utf-8")
    game = ["play", "poudlard", "--players", "Ana,Ben,Cleo", "--scenario", "premiere_annee", "--no-legend"]
    run = narrator(tmp_path, *game, "--no-wait", "--sans-musique", "--ear", f"script:{answers}")
    assert run.returncode == 0, run.stderr
    assert "Il n'y a pas de musique dans cette partie." in run.stdout


@pytest.mark.parametrize("game", ["poudlard", "thiercelieux"])
def test_the_demo_plays_without_music_when_asked(tmp_path: Path, game: str) -> None:
    args = ["--seed", "3", "--out", str(tmp_path / "d.wav"), "--sans-musique"]
    run = narrator(tmp_path, "demo", *([game] if game == "thiercelieux" else []), *args)
    assert run.returncode == 0, run.stderr
    assert "musique d'ambiance" not in run.stdout  # no notice of the music
    pcm, rate = read_wav(tmp_path / "d.wav")
    tenths = pcm[: len(pcm) // (rate // 10) * (rate // 10)].reshape(-1, rate // 10)
    silent = (tenths == 0).all(axis=1)
    if game == "thiercelieux":  # it opens on the night: its first 20 s have silences (none with the music)
        assert silent[:200].mean() > 0.1


@pytest.mark.parametrize("before", [["--sans-musique"], ["--voice", "./bad.yaml"], ["--no-wait"]])
def test_an_option_before_a_command_is_refused_in_french(tmp_path: Path, before: list[str]) -> None:
    run = narrator(tmp_path, *before, "demo", "--out", str(tmp_path / "d.wav"))
    assert run.returncode == 2 and not (tmp_path / "d.wav").exists()
    assert run.stderr.startswith(f"narrator: {before[0]} : placée avant « demo »"), run.stderr


def test_render_writes_the_night_with_its_music_and_the_same_timeline(tmp_path: Path) -> None:
    game = ["render", "poudlard", "--players", "Ana,Ben,Cleo", "--scenario", "premiere_annee", "--no-legend"]
    music = narrator(tmp_path, *game, "--out", str(tmp_path / "music.wav"))
    bare = narrator(tmp_path, *game, "--out", str(tmp_path / "bare.wav"), "--sans-musique")
    assert music.returncode == 0 and bare.returncode == 0, music.stderr + bare.stderr
    assert music.stdout == bare.stdout  # the same lines at the same times
    with_music, rate = read_wav(tmp_path / "music.wav")
    speech, _ = read_wav(tmp_path / "bare.wav")
    assert len(with_music) == len(speech)
    under = with_music.astype(np.int32) - speech
    silent = np.abs(speech) < 50  # between the lines: the music alone
    assert np.sqrt(np.mean(under[silent].astype(float) ** 2)) > 100
