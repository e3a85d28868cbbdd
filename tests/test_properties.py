"""Invariants over random games (hypothesis): conservation, determinism, sane outcomes, no crash."""

from __future__ import annotations

import copy
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from scenario_table import mutate_record

from narrator.app.family import resolve_record
from narrator.rules.errors import RecordError
from narrator.rules.onenight.deal import random_record
from narrator.rules.onenight.model import COPY_PREFIX
from narrator.script.games import ONE_NIGHT, games_of
from narrator.script.onenight.script import load_game

records = st.builds(
    lambda game, seed, players: random_record(load_game(game), random.Random(seed), players, seed),
    st.sampled_from(games_of(ONE_NIGHT)),
    st.integers(0, 2**32),
    st.integers(3, 13),
)


def _plain(card: str) -> str:
    return "doppelganger" if card.startswith(COPY_PREFIX) else card


@settings(max_examples=300, deadline=None)
@given(records)
def test_the_night_conserves_the_cards(record: dict) -> None:
    out = resolve_record(record)
    dealt = [record["deal"][p] for p in record["players"]] + record["deal"]["center"]
    final = [out["final"][p] for p in record["players"]] + out["final"]["center"]
    assert Counter(map(_plain, final)) == Counter(dealt)


@settings(max_examples=200, deadline=None)
@given(records)
def test_resolve_is_deterministic_and_leaves_its_input_alone(record: dict) -> None:
    before = copy.deepcopy(record)
    assert resolve_record(record) == resolve_record(copy.deepcopy(record))
    assert record == before


@settings(max_examples=300, deadline=None)
@given(records)
def test_outcome_is_a_well_formed_verdict(record: dict) -> None:
    out = resolve_record(record)
    players = set(record["players"])
    assert set(out["dead"]) <= players and len(set(out["dead"])) == len(out["dead"])
    assert set(out["winners"]) <= players
    # every game ends with a defined winner set, said aloud as the last sentence
    assert out["why"][-1].endswith((" gagne.", " gagnent.")) or out["why"][-1] == "Personne ne gagne."
    for name, told in out["learned"].items():
        assert name in players and told


JUNK = [None, 0, -1, 3.5, "", "Zed", "A", "loup", [], {}, ["A"], ["A", "A"], {"x": 1}, True]


@settings(max_examples=500, deadline=None)
@given(records, st.integers(0, 2**32))
def test_malformed_records_get_the_documented_error_never_a_crash(record: dict, seed: int) -> None:
    broken = mutate_record(record, random.Random(seed), JUNK)
    try:
        out = resolve_record(broken)
    except RecordError as exc:
        assert " : attendu : " in str(exc)
    else:
        assert set(out["dead"]) <= set(broken["players"])
