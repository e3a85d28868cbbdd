"""When an utterance is over, decided from the words heard so far (the real recognizer: test_listen_vosk.py)."""

from __future__ import annotations

import numpy as np
import pytest

from narrator.listen.ear_words import ear_words, load_ear_words
from narrator.listen.endpoint import QUIET_S, EndPoint, command_is_complete
from narrator.listen.french import Parser
from narrator.script.marks import YamlError

RATE = 16000
BLOCK = RATE // 20  # 50 ms


def block(level: float, rng: np.random.Generator) -> bytes:
    return np.clip(rng.normal(0, level, BLOCK), -32768, 32767).astype("<i2").tobytes()


@pytest.fixture(scope="module")
def french():
    parser = Parser("poudlard", ["Paul", "Zoé", "Max", "Léo"])
    return command_is_complete(lambda text: parser.parse(text, "any"))


@pytest.mark.parametrize(
    "text",
    ["paul vote contre max", "Paul vote contre Max", "oui", "trois voix pour max", "paul est mangemort", "annule"],
)
def test_a_command_said_to_its_end_is_complete(french, text):
    assert french(text)


@pytest.mark.parametrize(
    "text",
    [
        "paul vote contre",  # no target yet
        "paul vote contre max et",  # « … et Léo aussi » is coming
        "non pardon",  # « non pardon, contre Léo »: a correction is coming (« pardon » alone is « répète »)
        "non",  # « non, annule »
        "paul vote contre max euh",
        "pour moi c'est",
        "",
        "max",  # a name alone is no command in a game
    ],
)
def test_a_sentence_still_going_is_not_complete(french, text):
    assert not french(text)


def test_the_go_on_words_come_from_the_phrasebook():
    words = ear_words().go_on
    assert {"et", "pardon", "non", "contre"} <= words and "aussi" not in words
    assert not command_is_complete(lambda t: ["x"], words)("paul et")
    assert command_is_complete(lambda t: ["x"], frozenset())("paul et")  # the judge uses no other list


def test_a_complete_partial_ends_only_after_a_short_silence():
    rng = np.random.default_rng(1)
    asked: list[str] = []
    end = EndPoint(lambda text: asked.append(text) or text == "oui", RATE)
    for _ in range(6):
        end.feed(block(20, rng))  # the room before speech
        assert not end.over("")
    for _ in range(8):
        end.feed(block(3000, rng))  # speech: a complete partial is not enough while it goes on
        assert not end.over("oui")
    quiet = 0
    while not end.over("oui"):
        end.feed(block(20, rng))
        quiet += 1
        assert quiet < 10
    assert quiet * 0.05 == pytest.approx(QUIET_S, abs=0.051)
    assert not end.over("oui non")  # an incomplete partial keeps waiting, whatever the silence
    assert asked == ["oui", "oui non"]  # each partial is judged once


def test_a_noisy_room_is_silence_once_heard():
    rng = np.random.default_rng(2)
    end = EndPoint(lambda text: True, RATE)
    for _ in range(10):
        end.feed(block(400, rng))  # a fan, a street: louder than the floor
    for _ in range(6):
        end.feed(block(5000, rng))
    for _ in range(3):
        end.feed(block(400, rng))
    assert end.over("oui")


def test_the_sections_are_checked_with_their_place():
    good = load_ear_words("go_on: [et]\nrespell:\n  poudlard:\n    mangemort: [mange mort]\n", "x.yaml")
    assert good.respell["poudlard"]["mangemort"] == ("mange mort",)
    with pytest.raises(YamlError) as caught:
        load_ear_words("go_on: []\nrespell:\n  poudlard:\n    mangemort: [3, '']\n", "x.yaml")
    problems = [str(p) for p in caught.value.problems]
    assert problems[0].startswith("x.yaml:1:8: go_on:")
    assert any(p.startswith("x.yaml:4:17: respell.poudlard.mangemort.0:") for p in problems)


def test_speech_from_the_very_first_block_is_told_from_the_silence_after_it():
    rng = np.random.default_rng(3)
    end = EndPoint(lambda text: True, RATE)
    for _ in range(12):
        end.feed(block(3000, rng))  # the player spoke before the ear's first block
    assert end.quiet_for() is None or end.quiet_for() == 0.0
    for _ in range(2):
        end.feed(block(20, rng))
    assert end.quiet_for() == pytest.approx(0.1) and end.over("oui")
