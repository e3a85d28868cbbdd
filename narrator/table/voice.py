"""The narrator's mouth for the session: say lines now, repeat the last question."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from narrator.resources import data_dir
from narrator.script.line import Line, Step
from narrator.voice import Item, Pause, QueueingSpeaker, Rendered, Say, Speaker, read_wav
from narrator.voice.bed import Bed


def to_items(steps: Sequence[Step]) -> list[Item]:
    """The script's lines and waits as the voice layer's items."""
    return [Say(s.id, s.text) if isinstance(s, Line) else Pause(s.seconds) for s in steps]


class Voice:
    """Renders and plays lines; remembers the last question, for « répète »."""

    def __init__(
        self,
        render: Callable[[Sequence[Item]], Rendered],
        speaker: Speaker,
        earcons: dict[str, Rendered] | None = None,
        bed: Bed | None = None,
    ) -> None:
        self.render = render  # replaced when the table changes a setting (« plus lentement »)
        self.speaker = speaker
        self.earcons = earcons
        self.bed = bed  # the night's music under the narration (the speaker mixes it), if the voice has one
        self.last: list[Item] = []
        self.transcript: list[str] = []  # every line said, in order (tests, the demo's transcript)

    def ask(self, *lines: Line) -> None:
        """Say a question or an announcement; « répète » says it again."""
        self.ask_items(to_items(lines))

    def ask_items(self, items: Sequence[Item]) -> None:
        self.play(items)
        self.last = list(items)

    def tell(self, *lines: Line) -> None:
        """Say something in passing (an acknowledgement, a reminder): « répète » keeps the question."""
        self.play(to_items(lines))

    def play(self, items: Sequence[Item]) -> None:
        if not items:
            return
        rendered = self.render(items)
        self.transcript.extend(s.text for s in rendered.segments)
        self.speaker.play(rendered)

    def night(self, on: bool) -> None:
        """The night begins (its music fades in under what is said from now on) or ends (it fades out)."""
        if self.bed is not None:
            self.bed.night(on)

    def repeat(self) -> None:
        if self.last:
            self.play(self.last)

    def earcon(self, name: str) -> None:
        """A short tone: « listen » before the table may speak, « understood » once it was understood.

        « understood » only starts: the answer's read-back is made while it plays and follows it.
        « listen » is heard to its end: the ear then opens on silence (half-duplex).
        """
        if self.earcons and name in self.earcons:
            if name != "listen" and isinstance(self.speaker, QueueingSpeaker):
                self.speaker.start(self.earcons[name])
            else:
                self.speaker.play(self.earcons[name])


def load_earcons() -> dict[str, Rendered]:
    """The shipped earcons (voices/earcons/*.wav), as audio ready to play."""
    out = {}
    for path in sorted((data_dir("voices") / "earcons").glob("*.wav")):
        pcm, rate = read_wav(path)
        out[path.stem] = Rendered(pcm, rate, ())
    return out
