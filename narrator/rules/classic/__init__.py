"""The multi-night engine of classic Thiercelieux (rulebooks 002 and 003): pure, no I/O.

model.py          camps, powers, roles, options, the table between phases (`State`)
asks.py           the questions the game asks (`Ask`) and who answers them (`Decider`)
record.py         a `ruleset: thiercelieux` record checked; `RecordDecider` reads its answers
night.py          a night in waking order (`STEPS`: each power's step), then its morning and the bear
dark.py           what the night has decided so far (`Dark`), and who acts in it
first_night.py    the first night's choices: voleur, Cupidon, enfant sauvage, chien-loup, sœurs, frères
village_night.py  the village's night powers: comédien, salvateur, voyante, renard, petite fille, sorcière…
wolves_night.py   the pack's night: its victim, the infect père, the loup-garou blanc, the grand méchant loup
loners_night.py   the lone characters' night powers: the joueur de flûte's charm
day.py            the captain's election, the vote, the tie-break or the revote
death.py          deaths and their cascade: the hunter's shot, the lover's grief, the captain's heir
victory.py        who has won, checked after every cascade, change of camp and vote
engine.py         the whole game, phase by phase
deal.py           a random deal and a random legal record, with an injected `random.Random`
"""

from __future__ import annotations

from narrator.rules.classic.engine import Outcome, play, play_phase, start
from narrator.rules.classic.model import Camp, Options, Power, Role, Rules, State
from narrator.rules.classic.record import Record, parse_record

__all__ = [
    "Camp",
    "Options",
    "Outcome",
    "Power",
    "Record",
    "Role",
    "Rules",
    "State",
    "parse_record",
    "play",
    "play_phase",
    "start",
]
