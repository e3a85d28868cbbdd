"""Turn-taking through the real audio loopback with the real recognizer (Korean model): the table
hears an earcon when it may speak and another once understood, the narrator never hears itself,
and the answer is taken soon after the end of speech (counted in seconds of audio: load-proof).
"""

from __future__ import annotations

import threading
import time

from test_listen_vosk import ear, read_pcm, say  # noqa: F401  (the ear fixture)
from vosk_rig import WORDS, FedAudio

from narrator.listen.commands import Command
from narrator.script.line import Line
from narrator.script.prompts import load_prompts
from narrator.table.clock import RealClock
from narrator.table.conversation import Conversation
from narrator.table.voice import Voice, load_earcons
from narrator.voice import Rendered, Renderer, SoundDeviceSpeaker


class WatchedVoice(Voice):
    """A Voice that notes when each earcon is played."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.earcon_times: list[tuple[str, float]] = []
        self.listening = threading.Event()

    def earcon(self, name: str) -> None:
        self.earcon_times.append((name, time.monotonic()))
        super().earcon(name)
        if name == "listen":
            self.listening.set()


def test_earcons_turn_taking_and_half_duplex_on_the_loopback(audio_server, ear, clips, monkeypatch) -> None:  # noqa: F811
    fed = FedAudio(ear, monkeypatch)
    speaker = SoundDeviceSpeaker()
    try:
        voice = WatchedVoice(Renderer().render, speaker, load_earcons())
        heard: list[str] = []

        def parse(text: str, phase: str) -> list[Command]:
            heard.append(text)
            return [Command("yes")] if text == "영희" else [Command("no")] if text else []

        talk = Conversation(
            voice=voice, ear=ear, clock=RealClock(), prompts=load_prompts(), parse=parse,
            phrases=lambda phase: WORDS, controls=(), control=lambda c: None, listen_s=6.0,
        )  # fmt: skip
        # the narrator's own question ends with a Hangul word: half-duplex means it is never heard
        pcm, rate = read_pcm(clips["bare:민수"])
        import numpy as np

        own = Rendered(np.frombuffer(pcm, "<i2").copy(), rate, ())
        voice.ask(Line("question", "Une question pour la table."))
        speaker.play(own)

        def player() -> None:
            voice.listening.wait(10)
            time.sleep(0.2)
            process = say(clips["영희"])
            process.wait()

        thread = threading.Thread(target=player)
        thread.start()
        answer = talk.ask("any", lambda cs: cs[0].command if cs else None)
        thread.join()
    finally:
        speaker.close()
    # the narrator's « 민수 » was not heard (the ear's judge of a complete command parses too)
    assert answer == "yes" and heard[-1] == "영희" and "민수" not in " ".join(heard)
    names = [name for name, _ in voice.earcon_times]
    assert names == ["listen", "understood"]
    # the table knows at once it was heard: the command ended on its partial result, a short silence after
    # the word (tests/test_listen_vosk.py: vosk's own end-point would take about 0.9 s of audio)
    assert fed.after_s < 0.6, f"decided {fed.after_s:.2f} s of audio after the word"
