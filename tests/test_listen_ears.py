"""Ears without audio (scripted, keyboard), the grammar encoding, the decoding loop, and the model's
location, tuned overlay, vocabulary check and download wrapper: all without loading a real model."""

from __future__ import annotations

import io
import json
import os
import time
import wave
from pathlib import Path

import pytest
import vosk

from narrator.listen import model as model_module
from narrator.listen.ear import Ear, Heard, ListenError, ModelError, NoMicrophone
from narrator.listen.model import check_names, download, find_model, known_words, load_model, tuned_conf, tuned_model
from narrator.listen.simple_ears import KeyboardEar, ScriptedEar, WavEar, read_pcm
from narrator.listen.vosk_ear import PARTIAL_LAG_S, VoskEar, decode, grammar_json, new_recognizer, open_ear

# --- the ears without audio -------------------------------------------------------------------


def test_every_ear_is_an_ear(tmp_path: Path):
    for ear in (ScriptedEar([]), KeyboardEar(io.StringIO("")), WavEar(object(), [])):
        assert isinstance(ear, Ear)
        ear.close()


def test_scripted_ear_answers_in_order_and_records_the_questions():
    ear = ScriptedEar(["Alice vote contre Bob", None, "", "répète"])
    assert ear.listen(["oui", "non"], 5.0) == Heard("Alice vote contre Bob")
    assert ear.listen(["oui"], 1.0) is None
    assert ear.listen(["oui"], 1.0) is None
    assert ear.listen(["répète"], 2.0).text == "répète"
    with pytest.raises(EOFError):
        ear.listen(["oui"], 1.0)
    assert ear.asked[0] == (("oui", "non"), 5.0) and len(ear.asked) == 5


def test_scripted_ear_from_a_file(tmp_path: Path):
    path = tmp_path / "answers.txt"
    path.write_text("# la nuit\nAlice\n\n  on vote  \n", encoding="utf-8")
    ear = ScriptedEar.from_file(path)
    assert [ear.listen(["x"], 1.0) for _ in range(3)] == [Heard("Alice"), None, Heard("on vote")]
    with pytest.raises(ListenError, match="illisible"):
        ScriptedEar.from_file(tmp_path / "absent.txt")


def test_keyboard_ear_reads_lines_with_a_french_prompt():
    out = io.StringIO()
    ear = KeyboardEar(io.StringIO("Chloe\u0301\n\n  trois voix pour Bob \n"), out)
    ear.expect("oui ou non")
    assert ear.listen(["oui", "non", "répète"], 1.0).text == "Chloé"  # NFC, as typed on any keyboard
    assert ear.listen(["oui"], 1.0) is None  # an empty line: nothing said
    assert ear.listen(["trois voix pour bob"], 1.0).text == "trois voix pour Bob"
    with pytest.raises(EOFError):
        ear.listen(["oui"], 1.0)
    with pytest.raises(EOFError):  # and it stays at the end
        ear.listen(["oui"], 1.0)
    assert out.getvalue().startswith("oui ou non > ")  # what to type, not the recognizer's vocabulary


def test_keyboard_ear_times_out_without_prompting_again():
    read_end, write_end = os.pipe()
    out = io.StringIO()
    with open(read_end, encoding="utf-8") as typed, open(write_end, "w", encoding="utf-8") as keyboard:
        ear = KeyboardEar(typed, out)
        ear.expect("Votre réponse")
        started = time.monotonic()
        assert ear.listen(["oui", "non"], 0.2) is None
        assert time.monotonic() - started >= 0.2  # never before its timeout (that it returns: the next lines)
        assert ear.listen(["oui", "non"], 0.1) is None
        keyboard.write("oui\n")
        keyboard.flush()
        assert ear.listen(["oui", "non"], 2.0) == Heard("oui")
    assert out.getvalue().count("Votre réponse") == 1


def test_wav_ear_refuses_unreadable_files(tmp_path: Path):
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"pas un wav")
    with pytest.raises(ListenError, match="illisible"):
        WavEar(object(), [bad]).listen(["oui"], 1.0)
    eight_bits = tmp_path / "8bits.wav"
    with wave.open(str(eight_bits), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(1)
        wav.setframerate(8000)
        wav.writeframes(bytes(800))
    with pytest.raises(ListenError, match="16 bits"):
        read_pcm(eight_bits)


def test_read_pcm_averages_channels(tmp_path: Path):
    stereo = tmp_path / "stereo.wav"
    with wave.open(str(stereo), "wb") as wav:
        wav.setnchannels(2)
        wav.setsampwidth(2)
        wav.setframerate(22050)
        wav.writeframes((100).to_bytes(2, "little", signed=True) + (300).to_bytes(2, "little", signed=True))
    assert read_pcm(stereo) == ((200).to_bytes(2, "little", signed=True), 22050)


# --- grammar and decoding loop ------------------------------------------------------------------


def test_grammar_keeps_non_ascii_words_as_they_are():
    text = grammar_json(["Répète", "zéro", "Chloe\u0301", "joueur  trois", "zéro", " "])
    assert "répète" in text and "\\u" not in text  # escaped words are dropped by vosk, silently
    assert json.loads(text) == ["répète", "zéro", "chloé", "joueur trois"]  # NFC, lower case, deduplicated
    assert json.loads(grammar_json(["oui"], unk=True)) == ["oui", "[unk]"]
    with pytest.raises(ValueError):
        grammar_json(["", "  "])


class Vocabulary:
    """A stand-in for vosk.Model's vocabulary lookup."""

    def __init__(self, *words: str) -> None:
        self.words = list(words)

    def vosk_model_find_word(self, word: str) -> int:
        return self.words.index(word) if word in self.words else -1


@pytest.mark.parametrize("has_unk", [True, False])
def test_a_fresh_recognizer_gets_unk_only_if_the_model_has_it(monkeypatch, has_unk):
    made = []

    class Recognizer:
        def __init__(self, model, rate, grammar):
            made.append((rate, json.loads(grammar)))

        def SetWords(self, on):
            assert on

    monkeypatch.setattr(vosk, "KaldiRecognizer", Recognizer)
    model = Vocabulary("oui", "non", *(["[unk]"] if has_unk else []))
    new_recognizer(model, ["oui", "non"], 44100)
    assert made == [(44100.0, ["oui", "non"] + (["[unk]"] if has_unk else []))]


class ScriptedRecognizer:
    """Ends an utterance at given blocks with given texts; a partial text from given blocks."""

    def __init__(self, finals: dict[int, str], speaking_from: int | None = None) -> None:
        self.finals, self.speaking_from, self.block = finals, speaking_from, 0

    def AcceptWaveform(self, data):
        self.block += 1
        return self.block in self.finals

    def Result(self):
        text = self.finals[self.block]
        return json.dumps({"text": text, "result": [{"word": text, "end": self.block * 0.1}] if text else []})

    def PartialResult(self):
        talking = self.speaking_from is not None and self.block >= self.speaking_from
        return json.dumps({"partial": "…" if talking else ""})

    def FinalResult(self):
        return json.dumps({"text": "coupé" if self.speaking_from is not None else ""})


BLOCK = bytes(1600)  # 0.1 s at 8 kHz


def test_decode_returns_the_first_non_empty_utterance():
    recognizer = ScriptedRecognizer({3: "", 6: "alice"})  # an utterance of silence first
    found = decode(recognizer, [BLOCK] * 100, 8000, timeout_s=5.0)
    assert (found.text, found.end_s, recognizer.block) == ("alice", pytest.approx(0.6), 6)


def test_decode_gives_up_once_nothing_is_said_after_the_timeout():
    recognizer = ScriptedRecognizer({})
    assert decode(recognizer, [BLOCK] * 100, 8000, timeout_s=1.0) is None
    assert recognizer.block == round((1.0 + PARTIAL_LAG_S) * 10)


def test_decode_lets_speech_begun_before_the_timeout_end():
    recognizer = ScriptedRecognizer({25: "bob"}, speaking_from=8)
    assert decode(recognizer, [BLOCK] * 100, 8000, timeout_s=1.0).text == "bob"
    # speech that never ends is cut max_utterance_s after the timeout
    endless = ScriptedRecognizer({}, speaking_from=8)
    assert decode(endless, [BLOCK] * 100, 8000, timeout_s=1.0, max_utterance_s=2.0).text == "coupé"
    assert endless.block == 30
    # and a stream that ends (a file) gives what was heard
    assert decode(ScriptedRecognizer({}, speaking_from=1), [BLOCK] * 3, 8000, timeout_s=5.0).text == "coupé"


# --- the model: location, overlay, vocabulary, download --------------------------------------------


def fake_model(folder: Path, grammar: bool = True, conf: str | None = "--beam=10.0\n") -> Path:
    (folder / "am").mkdir(parents=True)
    (folder / "am" / "final.mdl").write_bytes(b"")
    (folder / "graph").mkdir()
    for name in ("HCLr.fst", "Gr.fst") if grammar else ("HCLG.fst",):
        (folder / "graph" / name).write_bytes(b"")
    if conf is not None:
        (folder / "conf").mkdir()
        (folder / "conf" / "model.conf").write_text(conf)
        (folder / "conf" / "mfcc.conf").write_text("--use-energy=false\n")
    return folder


@pytest.fixture
def vosk_cache(tmp_path: Path, monkeypatch) -> Path:
    """vosk's model folders reduced to one empty temporary folder; no $NARRATOR_VOSK_MODEL."""
    cache = tmp_path / "vosk-cache"
    cache.mkdir()
    monkeypatch.setattr(vosk, "MODEL_DIRS", [None, cache])
    monkeypatch.delenv("NARRATOR_VOSK_MODEL", raising=False)
    return cache


def test_find_model_explicit_path_then_environment_then_vosk_cache(tmp_path: Path, vosk_cache: Path, monkeypatch):
    explicit = fake_model(tmp_path / "mine")
    from_env = fake_model(tmp_path / "env")
    fake_model(vosk_cache / "vosk-model-small-fr-0.15")
    cached = fake_model(vosk_cache / "vosk-model-small-fr-0.22")
    fake_model(vosk_cache / "vosk-model-fr-0.22", grammar=False)  # the big one: no grammar
    assert find_model() == cached
    monkeypatch.setenv("NARRATOR_VOSK_MODEL", str(from_env))
    assert find_model() == from_env
    assert find_model(explicit) == explicit


def test_find_model_says_in_french_what_is_missing(tmp_path: Path, vosk_cache: Path):
    with pytest.raises(ModelError, match="narrator model download fr"):
        find_model()
    with pytest.raises(ModelError, match="n'existe pas"):
        find_model(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelError, match="pas un modèle vosk"):
        find_model(tmp_path / "empty")
    with pytest.raises(ModelError, match="n'accepte pas de grammaire"):
        find_model(fake_model(tmp_path / "big", grammar=False))


def test_tuned_overlay_links_the_model_and_rewrites_only_its_conf(tmp_path: Path):
    source = fake_model(
        tmp_path / "vosk-model-small-fr-0.22", conf="--beam=10.0\n--endpoint.rule2.min-trailing-silence=0.5\n"
    )
    before = {p: p.read_bytes() for p in source.rglob("*") if p.is_file()}
    overlay = tuned_model(source, 0.3)
    assert overlay.parent == Path(os.environ["NARRATOR_CACHE_DIR"]) / "vosk"
    assert (overlay / "am").is_symlink() and (overlay / "am").resolve() == (source / "am").resolve()
    assert (overlay / "conf" / "mfcc.conf").is_symlink()
    conf = (overlay / "conf" / "model.conf").read_text().splitlines()
    assert conf[0] == "--beam=10.0" and "--endpoint.rule2.min-trailing-silence=0.3" in conf
    assert "--endpoint.rule4.min-trailing-silence=1.3" in conf and len(conf) == 5
    assert {p: p.read_bytes() for p in source.rglob("*") if p.is_file()} == before  # the user's model is untouched
    assert tuned_model(source, 0.3) == overlay  # built once
    assert tuned_model(source, 0.5) != overlay
    no_conf = fake_model(tmp_path / "old", conf=None)
    assert tuned_model(no_conf) == no_conf.resolve()


def test_tuned_conf_replaces_the_options_it_sets():
    text = tuned_conf("--endpoint.rule3.min-trailing-silence=1.0\n--frames-per-chunk=50\n--max-active=3000\n", 0.25)
    assert text.splitlines() == [
        "--max-active=3000",
        "--endpoint.rule2.min-trailing-silence=0.25",
        "--endpoint.rule3.min-trailing-silence=0.75",
        "--endpoint.rule4.min-trailing-silence=1.25",
        f"--frames-per-chunk={model_module.FRAMES_PER_CHUNK}",
    ]


def test_an_unreadable_model_is_a_french_error(tmp_path: Path):
    with pytest.raises(ModelError, match="illisible"):
        load_model(fake_model(tmp_path / "broken"))


def test_names_the_model_cannot_hear_are_refused_with_a_suggestion():
    model = Vocabulary("alice", "chloe", "jean", "pierre", "bob", "anne", "marie")
    assert known_words(model, ["Alice", "Chloé", "BOB"]) == {"alice", "bob"}
    problems = check_names(model, ["Alice", "Chloé", "Jean-Pierre", "Xavière", "Marrie", "Anne"])
    assert [(p.seat, p.unknown, p.spellings) for p in problems] == [
        (2, ("chloé",), ("chloe",)),
        (3, ("jean-pierre",), ("jean pierre",)),
        (4, ("xavière",), ()),
        (5, ("marrie",), ("marie",)),
    ]
    assert problems[0].message == (
        "Le modèle de reconnaissance ne connaît pas « chloé » dans le nom « Chloé » (place 2) : "
        "écrivez-le « chloe », ou désignez ce joueur par son numéro de place (2)."
    )
    assert problems[2].message.endswith("(place 4) : désignez ce joueur par son numéro de place (4).")


class NoNetwork(OSError):
    """What requests raises without a connection (its errors are OSErrors)."""


def test_download_without_network_is_a_french_sentence(vosk_cache: Path, monkeypatch):
    def offline(*args, **kwargs):
        raise NoNetwork("Name or service not known")

    monkeypatch.setattr(vosk.requests, "get", offline)
    with pytest.raises(ModelError, match="vérifiez la connexion"):
        download("fr")


def test_download_of_an_unknown_model_is_a_french_sentence_not_sys_exit(vosk_cache: Path, monkeypatch, capsys):
    class Listing:
        def json(self):
            return [{"name": "vosk-model-small-fr-0.22", "lang": "fr"}]

    monkeypatch.setattr(vosk.requests, "get", lambda *a, **k: Listing())
    with pytest.raises(ModelError, match="ne connaît pas de modèle « vosk-model-small-xx-9 »"):
        download("vosk-model-small-xx-9")
    assert capsys.readouterr().out == ""  # vosk's own print went to stderr with the progress bar
    with pytest.raises(ModelError, match="langue « xx » inconnue"):
        download("xx")


def test_an_interrupted_download_leaves_nothing_behind(vosk_cache: Path, monkeypatch):
    class Listing:
        def json(self):
            return [{"name": "vosk-model-small-fr-0.22", "lang": "fr"}]

    def cut(url, filename, reporthook=None, data=None):
        Path(filename).write_bytes(b"PK partial")
        raise NoNetwork("connection reset")

    monkeypatch.setattr(vosk.requests, "get", lambda *a, **k: Listing())
    monkeypatch.setattr(vosk, "urlretrieve", cut)
    with pytest.raises(ModelError, match="téléchargement de vosk-model-small-fr-0.22 impossible"):
        download("fr")
    assert list(vosk_cache.iterdir()) == []


def test_download_finds_a_model_already_there_without_network(vosk_cache: Path, monkeypatch):
    there = fake_model(vosk_cache / "vosk-model-small-fr-0.22")
    monkeypatch.setattr(vosk.requests, "get", lambda *a, **k: pytest.fail("no network needed"))
    assert download("fr") == there


def test_no_model_means_one_french_sentence_and_the_keyboard(vosk_cache: Path):
    notice = io.StringIO()
    ear = open_ear(keyboard=io.StringIO("oui\n"), notice=notice)
    assert isinstance(ear, KeyboardEar)
    assert notice.getvalue().startswith("Pas d'écoute vocale (Aucun modèle de reconnaissance vocale")
    assert notice.getvalue().count("\n") == 1 and "clavier" in notice.getvalue()
    assert ear.listen(["oui"], 1.0) == Heard("oui")


def test_no_input_device_is_a_french_no_microphone(monkeypatch):
    import sounddevice

    def nothing(*args, **kwargs):
        raise sounddevice.PortAudioError("Error querying device -1")

    monkeypatch.setattr(sounddevice, "query_devices", nothing)
    with pytest.raises(NoMicrophone, match="aucune entrée audio"):
        VoskEar(Vocabulary())
