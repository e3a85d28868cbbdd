"""A game's fixed lines: every (id, text) the narrator can say in that game with no name or number in it.

These are the lines a recorded voice pack holds (narrator/voice/pack.py). A line filled with a name
or a number has an id ending in "*" (`Prompts.line`, the scripts' filled openings) and is never
fixed. The lines come from the game's script (the legend, the night's calls, the day) and from the
table's prompts (scripts/table.yaml, scripts/phones.yaml) the sessions say whole; the prompts that
are only pieces of other sentences or words typed at a keyboard are left out.
"""

from __future__ import annotations

from collections.abc import Iterable

from narrator.script.classic.narration import Narration, load_narration
from narrator.script.games import CLASSIC, ONE_NIGHT, family_of
from narrator.script.line import Line
from narrator.script.onenight.announce import Announcements
from narrator.script.onenight.phone_words import PhoneWords
from narrator.script.onenight.script import load_shipped
from narrator.script.prompts import PHONE_PLACEHOLDERS, PLACEHOLDERS, Prompts, load_phone_prompts, load_prompts
from narrator.script.story_words import STORY_PLACEHOLDERS, load_story_words

# prompts said only inside another sentence (« et », « personne », what « annule » takes back)
FRAGMENTS = frozenset(
    {"and", "nobody", "not_a_target", "not_alive", "not_tied", "undo_start_vote", "undo_vote", "undo_cards"}
)
# what each family's sessions never say: the other family's help and questions; the spoken setup is
# one-night only (a classic table is set up on the operator's screen)
NOT_SAID: dict[str, frozenset[str]] = {
    ONE_NIGHT: frozenset({"help_classic", "choice_needed", "waiting_answer"}),
    CLASSIC: frozenset(
        {
            "help",
            "ask_votes",
            "ask_cards",
            "cards_again",
            "card_other_player",
            "ask_copy",
            "welcome",
            "ask_game",
            "game_unavailable",
            "ask_count",
            "setup_again",
            "setup_stop_check",
            "setup_restart_check",
            "setup_unfinished",
            "game_unfinished",
            "hello",
            "setup_stopped",
            "setup_phones",
            "setup_no_phones",
        }
    ),
}
# the phones' prompts shown on a phone's screen, never said
SHOWN = ("phone_decoy_", "status_")
LATE_ID = "phones_late"  # a one-night game's « Il manque encore une réponse » (narrator/table/onenight/phones.py)


class UnknownGame(ValueError):
    """A game that has no script."""


def fixed_lines(game: str, in_play: Iterable[str] | None = None) -> tuple[Line, ...]:
    """The game's fixed lines in the order a game says them, each id once; `in_play` keeps only the
    legend and night calls of those characters (a pack for one set of cards)."""
    family = family_of(game)
    if family == ONE_NIGHT:
        script = load_shipped(game)
        roles = list(script.rules.roles) if in_play is None else list(in_play)
        lines = script_lines(script.announce, roles) + phone_lines(script.phones)
    elif family == CLASSIC:
        narration = load_narration()
        lines = classic_lines(narration, None if in_play is None else set(in_play))
    else:
        raise UnknownGame(f"jeu inconnu « {game} »")
    said = NOT_SAID[family]
    lines += prompt_lines(load_prompts(), PLACEHOLDERS, said)
    lines += prompt_lines(load_phone_prompts(), PHONE_PLACEHOLDERS, said)
    lines += prompt_lines(load_story_words().prompts, STORY_PLACEHOLDERS, said)  # the end: the story offered
    return unique(lines)


def script_lines(announce: Announcements, in_play: list[str]) -> list[Line]:
    """A one-night script's fixed lines: the legend, the night, the day (a filled opening is not fixed)."""
    steps = [
        *announce.setup_steps(in_play),
        *announce.night_steps(in_play),
        *announce.opening_steps(announce.minutes),
        *(reminder.line for reminder in announce.reminders),
        *announce.vote,
    ]
    return [step for step in steps if isinstance(step, Line) and is_fixed(step)]


def phone_lines(words: PhoneWords | None) -> list[Line]:
    """What a one-night game with phones says aloud of its own words: a late answer asked for again."""
    return [] if words is None else [Line(LATE_ID, words.missing)]


def classic_lines(narration: Narration, dealt: set[str] | None) -> list[Line]:
    """The classic narration's fixed lines: the first nightfall, every call, the morning and the day."""
    calls = [call for call in narration.calls if dealt is None or dealt.intersection(call.roles)]
    lines = [
        *narration.first,
        *(line for call in calls for line in (*call.wake, *call.sleep)),
        *narration.morning,
        *narration.debate_opening("{time}"),
        *(reminder.line for reminder in narration.reminders),
        *narration.vote,
        *narration.dusk,
    ]
    return [line for line in lines if isinstance(line, Line) and is_fixed(line)]


def prompt_lines(prompts: Prompts, placeholders: dict[str, set[str]], not_said: frozenset[str]) -> list[Line]:
    """The prompts said whole with nothing filled in."""
    return [
        prompts.line(key)
        for key, wanted in placeholders.items()
        if not wanted
        and key not in FRAGMENTS
        and key not in not_said
        and not key.startswith(("typed_", *SHOWN))
        and isinstance(prompts.texts[key], str)
    ]


def is_fixed(line: Line) -> bool:
    """A line with nothing filled in: its id does not end in "*" and no placeholder is left in it."""
    return not line.id.endswith("*") and "{" not in line.text


def unique(lines: Iterable[Line]) -> tuple[Line, ...]:
    """Each id once (its first text: a script says one text per id)."""
    seen: dict[str, Line] = {}
    for line in lines:
        seen.setdefault(line.id, line)
    return tuple(seen.values())
