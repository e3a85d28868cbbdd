"""The end of a game at the table, after its verdict: the story offered, then told aloud and printed.

« Voulez-vous l'histoire de la partie ? »: « oui », or « raconte la partie », tells it; « non » ends the
game. An answer not understood is asked for once more (« oui » or « non »), then the table is told how to
ask for it (« raconte la partie »), heard once more; a table that has left says nothing, and the game ends
without the story. The offer is journaled before it is asked, so a game stopped (or cut) at the question
resumes there, and the answer after it, so a game whose offer was answered is over (journal.py's
`finished`). The phones show the story only once the table asked for it, the same sentences as said.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from narrator.script.line import Line
from narrator.script.story_words import load_story_words
from narrator.table import events as ev
from narrator.table.conversation import yes_or_no
from narrator.table.host import Host, StoryWanted

# what is said after each answer not understood (or silence): the question again, put plainly, then how
# to ask for the story; after the last, no story
AGAIN = ("offer_again", "offer_last")


def offer_story(host: Host, story: Sequence[str]) -> bool:
    """Ask whether the table wants the story; tell it (aloud, and printed on stdout) if so. Whether it was."""
    words = load_story_words()
    if not any(isinstance(e, ev.StoryOffered) for e in host.events):
        host._record(ev.StoryOffered())
    host.story_offered = True
    wanted: bool | None
    try:
        wanted = _ask(host, Line("offer", words.text("offer")))
    except StoryWanted:  # « raconte la partie » said at the question: a « oui »
        wanted = True
    except EOFError:  # the answers ended (a script, the keyboard's Ctrl-D) with the game: no story
        wanted = False
    finally:
        host.story_offered = False
    host._record(ev.Story(bool(wanted)))
    if wanted:
        print("\n".join(story), flush=True)
        _on_phones(host, story)
        host.voice.tell(*story_lines(story))
    elif wanted is None:
        host.voice.tell(Line("no_answer", words.text("no_answer")))
        if host.journal is not None:  # the story is still there, for whoever asks later
            print(f"L'histoire de la partie : narrator story {host.journal.path}", file=sys.stderr, flush=True)
    else:
        host.voice.tell(Line("no_story", words.text("no_story")))
    return bool(wanted)


def _ask(host: Host, question: Line) -> bool | None:
    """« oui » or « non »; None when nothing was understood by the last turn: a table that has left the game
    says nothing, and is not asked again and again."""
    host.voice.ask(question)
    words = load_story_words()
    for turn in range(len(AGAIN) + 1):
        commands = host.talk.ask_once("any", hint=host.prompts.text("typed_yes_no"))
        answer = yes_or_no(commands) if commands else None
        if answer is not None:
            return answer
        if turn < len(AGAIN):
            host.voice.ask(Line(AGAIN[turn], words.text(AGAIN[turn])))
    return None


def _on_phones(host: Host, story: Sequence[str]) -> None:
    """The story on every phone's end screen, as it was said; its title is the end screen's own heading."""
    if host.phones is None:
        return
    end = host.phones.screen(host.phones.seats[0]).end
    if end is None:
        return
    title = load_story_words().text("story_title")
    host.phones.public(end={**end, "story": [s for s in story if s != title]})


def story_lines(story: Sequence[str]) -> list[Line]:
    """The story as lines the voice says (filled: no recorded voice pack replaces them)."""
    return [Line(f"story_{n}*", text) for n, text in enumerate(story)]


def offered(events: Sequence[ev.Event]) -> bool:
    """Whether the story was already offered (a game resumed at the question: the reveal is not said again)."""
    return any(isinstance(e, ev.StoryOffered) for e in events)
