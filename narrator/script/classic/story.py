"""The story of a classic Thiercelieux game, told once it is over: who had which card, then each night
and each day in order — what the engine did and said of it, every ballot of every vote — to the end.
Pure: a `ruleset: thiercelieux` record in (the one a finished game writes beside its journal, or its
journal read as a record), French sentences out.

The record is played again through the engine (narrator/rules/classic/engine.py) and every one of its
reasons is told in the script's own words (`texts`, the operator's sentences, causes included:
RULINGS 23 keeps the causes out of the mornings, not out of the story), in the past where the game said
it in the present as it happened (scripts/story.yaml's `classic_…`: « Le village a éliminé Cleo »).
The engine's « Nuit 1. » is told as « Première nuit. », and the ballots of each vote come just before its count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial

from narrator.rules.classic.day import SECOND_VOTES
from narrator.rules.classic.engine import play
from narrator.rules.classic.model import Rules
from narrator.rules.classic.record import Phase, parse_record
from narrator.rules.reason import Reason
from narrator.script.classic.script import say
from narrator.script.story_words import StoryWords, load_story_words

__all__ = ["story"]

# the day's reasons that count a vote: its ballots are told just before the first of them
_COUNTS = ("raven_votes", "captain_double", "no_votes", "most_votes", "tie", "still_tied")
# what opens a vote: the day itself, a revote, the juge bègue's second vote
_OPENS = {"day": "votes", "revote": "revote", "second_vote": SECOND_VOTES}


def story(rules: Rules, raw: Mapping[str, object], words: StoryWords | None = None) -> list[str]:
    """The game told in order, one sentence a line; `RecordError` for a record the rules refuse."""
    w = words or load_story_words()
    record = parse_record(rules, raw)
    outcome = play(rules, record, partial(say, rules))
    told = replace(rules, texts={**rules.texts, **w.classic_told()})  # the engine's sentences, in the past
    out = [w.text("story_title")]
    held = [{"player": p, "card": rules.roles[r].name} for p, r in zip(record.players, record.roles)]
    out.append(w.text("deal_classic", cards=w.listed("dealt_first", "dealt_next", held)))
    if record.extra:
        out.append(w.text("extra", cards=w.join([rules.roles[r].name for r in record.extra])))
    for phase, report in zip(record.phases, outcome.phases):
        out += _phase(told, w, phase, report.why)
    out += [say(told, r) for r in outcome.why[len([r for p in outcome.phases for r in p.why]) :]]
    out.append(w.text("story_end"))
    return out


def _phase(rules: Rules, w: StoryWords, phase: Phase, why: tuple[Reason, ...]) -> list[str]:
    out = []
    pending: str | None = None  # the ballots of the vote opened, told before its count
    for reason in why:
        if reason.key in ("night", "day"):
            out.append(w.text(f"{reason.key}_title", ordinal=w.ordinal(phase.number, reason.key)))
        else:
            if reason.key in _COUNTS and pending is not None:
                out += _ballots(w, phase.choices.get(pending))
                pending = None
            out.append(say(rules, reason))
        if reason.key in _OPENS:
            pending = _OPENS[reason.key]
    return out


def _ballots(w: StoryWords, ballots: object) -> list[str]:
    """« Au vote, Ana a voté contre Ben, Ben contre Cleo et Cleo contre personne. »"""
    if not isinstance(ballots, Mapping) or not ballots:
        return []
    return [w.ballots(list(ballots.items()))]
