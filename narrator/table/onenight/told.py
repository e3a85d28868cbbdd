"""What a one-night game's journal tells of it, as its story's input (pure): the same whether the story is
told at the table when the game ends or later by `narrator story JOURNAL`."""

from __future__ import annotations

from collections.abc import Sequence

from narrator.rules.onenight import choices
from narrator.rules.onenight.model import Options, Ruleset
from narrator.script.onenight.story import Told
from narrator.table import events as ev
from narrator.table.onenight.progress import progress


def told_of_journal(
    rules: Ruleset,
    players: Sequence[str],
    in_play: Sequence[str],
    deal: Sequence[str] | None,
    events: Sequence[ev.Event],
    options: Options | None = None,
) -> Told:
    """A finished game's journal as its story's input: the deal and the night's choices when the program
    dealt (the phones), the vote, whom the dead hunter or Ginny pointed at, the cards at dawn."""
    state = progress(events)
    vote = state.vote
    counts = dict(vote.counts) if vote is not None else {}
    pointing = {**(vote.pointing if vote is not None else {}), **state.pointing}
    if deal is not None:
        final = tuple(choices.final_cards(rules, players, deal, state.choices)[0][: len(players)])
    else:
        final = tuple(state.cards[p] for p in players)
    return Told(
        tuple(players),
        tuple(in_play),
        counts,
        pointing,
        final,
        options or rules.options,
        tuple(deal) if deal is not None else None,
        {p: dict(c) for p, c in state.choices.items()},
    )
