"""Invariants of the classic engine over random legal games (hypothesis) and their broken copies.

The games come from `narrator.rules.classic.deal.random_record`, which plays the engine with
random legal answers: whatever it writes, `resolve` must accept. Then: the dead never act, the
number alive never grows, one-shot powers are used once, every game ends with a camp or goes on
consistently, and a broken record always gives `RecordError`, never another exception.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from scenario_table import mutate_record

from narrator.resolve import resolve_record
from narrator.rules.classic.deal import random_record
from narrator.rules.classic.model import Camp, Options, State
from narrator.rules.classic.victory import check
from narrator.rules.errors import RecordError
from narrator.script.classic import load_classic

RULES = load_classic()
ROLE_KEYS = set(RULES.roles)

records = st.builds(
    lambda seed, players: random_record(RULES, random.Random(seed), players, seed),
    st.integers(0, 2**32),
    st.integers(3, 14),
)


def _alive_before(record: dict, out: dict) -> list[set[str]]:
    """Who was alive when each phase began."""
    alive = set(record["players"])
    starts = []
    for phase in out["phases"]:
        starts.append(set(alive))
        alive -= set(phase["dead"])
    return starts


def _holder(record: dict, role: str) -> str:
    return next(p for p, r in record["deal"].items() if r == role)


@settings(max_examples=300, deadline=None)
@given(records)
def test_random_games_resolve_and_replay_identically(record: dict) -> None:
    before = copy.deepcopy(record)
    out = resolve_record(record)
    assert record == before  # the input is left alone
    assert resolve_record(copy.deepcopy(record)) == out
    assert len(out["phases"]) == len(record["phases"])


@settings(max_examples=300, deadline=None)
@given(records)
def test_the_dead_never_act(record: dict) -> None:
    out = resolve_record(record)
    starts = _alive_before(record, out)
    for (phase,), report, alive in zip((p.items() for p in record["phases"]), out["phases"], starts):
        kind, choices = phase
        for key, value in choices.items():
            if key == "loup":  # the pack: the wolves alive
                assert any(record["deal"][p] == "loup" for p in alive)
            elif key in ROLE_KEYS and key != "chasseur":
                assert _holder(record, key) in alive, (report["phase"], key)
            if key == "chasseur":  # he acts as he dies, in this very phase
                assert _holder(record, key) in alive and _holder(record, key) in report["dead"]
            if key in ("votes", "revote"):
                assert set(value) == alive, report["phase"]  # RULINGS thiercelieux 17: every living player
                assert {t for t in value.values() if t is not None} <= alive
        for name in report.get("learned", {}):
            assert name in alive


@settings(max_examples=300, deadline=None)
@given(records, st.integers(0, 2**32))
def test_a_dead_player_acting_is_refused(record: dict, seed: int) -> None:
    out = resolve_record(record)
    starts = _alive_before(record, out)
    rng = random.Random(seed)
    later = [i for i in range(1, len(record["phases"])) if set(record["players"]) - starts[i]]
    if not later:
        return
    i = rng.choice(later)
    dead = rng.choice(sorted(set(record["players"]) - starts[i]))
    broken = copy.deepcopy(record)
    ((kind, choices),) = broken["phases"][i].items()
    role = record["deal"][dead]
    if kind == "day" and "votes" in choices:
        choices["votes"][dead] = None  # a ballot from the dead
    elif role in ("voyante", "cupidon", "sorciere", "petite_fille", "chasseur"):
        choices[role] = {"sorciere": {"heal": False}, "petite_fille": {"spied": True}, "cupidon": [dead, dead]}.get(
            role, dead
        )
    else:
        return
    try:
        resolve_record(broken)
    except RecordError:
        return
    raise AssertionError(f"{dead} ({role}) acted in phase {i} while dead")


@settings(max_examples=300, deadline=None)
@given(records)
def test_the_number_alive_never_grows(record: dict) -> None:
    out = resolve_record(record)
    players = record["players"]
    dead: list[str] = []
    alive = len(players)
    for phase in out["phases"]:
        assert not set(phase["dead"]) & set(dead) and len(set(phase["dead"])) == len(phase["dead"])
        dead += phase["dead"]
        assert len(players) - len(dead) <= alive
        alive = len(players) - len(dead)
    assert out["dead"] == dead
    assert out["alive"] == [p for p in players if p not in dead]


@settings(max_examples=300, deadline=None)
@given(records)
def test_one_shot_powers_are_used_once(record: dict) -> None:
    resolve_record(record)
    nights = [p["night"] for p in record["phases"] if "night" in p]
    potions = [n["sorciere"] for n in nights if isinstance(n.get("sorciere"), dict)]
    assert sum(1 for p in potions if p.get("heal")) <= 1
    assert sum(1 for p in potions if p.get("poison") is not None) <= 1
    assert all("cupidon" not in n for n in nights[1:])  # 002: "La première nuit"


@settings(max_examples=300, deadline=None)
@given(records, st.integers(0, 2**32))
def test_a_second_potion_is_refused(record: dict, seed: int) -> None:
    nights = [i for i, p in enumerate(record["phases"]) if "night" in p]
    used = {
        potion: [i for i in nights if (record["phases"][i]["night"].get("sorciere") or {}).get(potion)]
        for potion in ("heal", "poison")
    }
    rng = random.Random(seed)
    for potion, when in used.items():
        later = [i for i in nights if when and i > when[0]]
        if not later:
            continue
        broken = copy.deepcopy(record)
        i = rng.choice(later)
        night = broken["phases"][i]["night"]
        target = rng.choice(record["players"])
        night["sorciere"] = {"heal": True} if potion == "heal" else {"poison": target}
        try:
            resolve_record(broken)
        except RecordError:
            continue
        raise AssertionError(f"second {potion} accepted in phase {i}")


@settings(max_examples=300, deadline=None)
@given(records)
def test_games_end_with_a_camp_or_go_on_consistently(record: dict) -> None:
    out = resolve_record(record)
    state = out["state"]
    players = tuple(record["players"])
    table = State(
        players,
        tuple(state["roles"][p] for p in players),
        tuple(Camp(state["camps"][p]) for p in players),
        tuple(p in out["alive"] for p in players),
        lovers=tuple(state["lovers"]),
        options=Options(),
    )
    if out["camp"] is None:
        # nobody has won: the table the output describes is undecided, and nobody is named winner
        assert check(table) is None and out["winners"] == []
        assert any(RULES.roles[state["roles"][p]].wolf for p in out["alive"])  # a wolf still hunts
        assert out["why"][-1] == "Personne n'a encore gagné : la partie continue."
    else:
        assert check(table) is Camp(out["camp"])
        camps = state["camps"]
        if out["camp"] == "amoureux":
            assert sorted(out["winners"]) == sorted(state["lovers"]) == sorted(out["alive"])
        else:
            assert out["winners"] == [p for p in players if camps[p] == out["camp"]]
        assert out["why"][-1].startswith("Gagnants : ")
    assert state["voters"] == out["alive"]
    assert state["captain"] is None or state["captain"] in out["alive"] or not out["alive"]


JUNK = [None, 0, -1, 3.5, "", "Zed", "P0", "loup", "night", [], {}, ["P0"], ["P0", "P0"], {"x": 1}, True]


@settings(max_examples=600, deadline=None)
@given(records, st.integers(0, 2**32))
def test_malformed_records_give_record_error_never_a_crash(record: dict, seed: int) -> None:
    broken = mutate_record(record, random.Random(seed), JUNK)
    try:
        out = resolve_record(broken)
    except RecordError as exc:
        assert "attendu : " in str(exc)
    else:
        assert set(out["dead"]) <= set(broken["players"])
