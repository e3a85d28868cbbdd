"""The end of a game at the table, after its verdict: the story offered, then told aloud and printed.

« Voulez-vous l'histoire de la partie ? »: « oui », or « raconte la partie », tells it; « non » ends the
game. The offer is journaled before it is asked, so a game stopped (or cut) at the question resumes
there, and the answer after it, so a game whose offer was answered is over (journal.py's `finished`).
"""

from __future__ import annotations

from collections.abc import Sequence

from narrator.script.line import Line
from narrator.script.story_words import load_story_words
from narrator.table import events as ev
from narrator.table.host import Host, StoryWanted


def offer_story(host: Host, story: Sequence[str]) -> bool:
    """Ask whether the table wants the story; tell it (aloud, and printed on stdout) if so. Whether it was."""
    words = load_story_words()
    if not any(isinstance(e, ev.StoryOffered) for e in host.events):
        host._record(ev.StoryOffered())
    host.story_offered = True
    try:
        wanted = host.talk.confirm(Line("offer", words.text("offer")))
    except StoryWanted:  # « raconte la partie » said at the question: a « oui »
        wanted = True
    finally:
        host.story_offered = False
    host._record(ev.Story(wanted))
    if wanted:
        print("\n".join(story), flush=True)
        host.voice.tell(*story_lines(story))
    else:
        host.voice.tell(Line("no_story", words.text("no_story")))
    return wanted


def story_lines(story: Sequence[str]) -> list[Line]:
    """The story as lines the voice says (filled: no recorded voice pack replaces them)."""
    return [Line(f"story_{n}*", text) for n, text in enumerate(story)]


def offered(events: Sequence[ev.Event]) -> bool:
    """Whether the story was already offered (a game resumed at the question: the reveal is not said again)."""
    return any(isinstance(e, ev.StoryOffered) for e in events)
