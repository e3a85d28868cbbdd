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
from narrator.table.conversation import yes_or_no
from narrator.table.host import Host, StoryWanted

ASKED = 2  # turns the offer is heard: a silence, then the question again, then no story


def offer_story(host: Host, story: Sequence[str]) -> bool:
    """Ask whether the table wants the story; tell it (aloud, and printed on stdout) if so. Whether it was."""
    words = load_story_words()
    if not any(isinstance(e, ev.StoryOffered) for e in host.events):
        host._record(ev.StoryOffered())
    host.story_offered = True
    try:
        wanted = _ask(host, Line("offer", words.text("offer")))
    except StoryWanted:  # « raconte la partie » said at the question: a « oui »
        wanted = True
    except EOFError:  # the answers ended (a script, the keyboard's Ctrl-D) with the game: no story
        wanted = False
    finally:
        host.story_offered = False
    host._record(ev.Story(wanted))
    if wanted:
        print("\n".join(story), flush=True)
        host.voice.tell(*story_lines(story))
    else:
        host.voice.tell(Line("no_story", words.text("no_story")))
    return wanted


def _ask(host: Host, question: Line) -> bool:
    """« oui » or « non »; asked twice at most: a table that has left the game says nothing, and is not
    asked again and again."""
    host.voice.ask(question)
    for turn in range(ASKED):
        commands = host.talk.ask_once("any", hint=host.prompts.text("typed_yes_no"))
        answer = yes_or_no(commands) if commands else None
        if answer is not None:
            return answer
        if turn + 1 < ASKED:
            host.voice.repeat()
    return False


def story_lines(story: Sequence[str]) -> list[Line]:
    """The story as lines the voice says (filled: no recorded voice pack replaces them)."""
    return [Line(f"story_{n}*", text) for n, text in enumerate(story)]


def offered(events: Sequence[ev.Event]) -> bool:
    """Whether the story was already offered (a game resumed at the question: the reveal is not said again)."""
    return any(isinstance(e, ev.StoryOffered) for e in events)
