"""A classic game's journal read as a `ruleset: thiercelieux` record (pure): what its story is told from,
the same at the table when the game ends and later with `narrator story JOURNAL`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from narrator.table import events as ev
from narrator.table.classic.replay import hold, inputs


def record_of(
    game: str,
    players: Sequence[str],
    deal: Sequence[str],
    options: Mapping[str, object],
    extra: Sequence[str],
    groups: Sequence[int],
    events: Sequence[ev.Event],
    reached: int | None = None,
) -> dict[str, Any]:
    """The game so far as a record: each answer the journal keeps, in its phase (`reached`: the phases
    begun; by default, up to the last one answered)."""
    answers = inputs(events)[0]
    if reached is None:
        reached = max((a.phase.index for a in answers), default=-1) + 1
    phases: list[dict[str, dict[str, object]]] = [{"night" if i % 2 == 0 else "day": {}} for i in range(reached)]
    for answer in answers:
        hold(phases[answer.phase.index][answer.phase.kind], answer)
    dealt: dict[str, object] = dict(zip(players, deal))
    if extra:
        dealt["extra"] = list(extra)
    if groups:
        dealt["groups"] = dict(zip(players, groups))
    return {"ruleset": game, "players": list(players), "deal": dealt, "options": dict(options), "phases": phases}
