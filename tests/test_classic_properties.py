"""Invariants of the classic engine over random legal games (hypothesis) and their broken copies.

The games come from `narrator.rules.classic.deal.random_record`, which plays the engine with
random legal answers: whatever it writes, `resolve` must accept. Then: the dead never act, the
number alive never grows, one-shot powers are used once, every game ends with a camp or goes on
consistently, and a broken record always gives `RecordError`, never another exception.
"""

from __future__ import annotations

import copy
import random
from functools import partial

from hypothesis import given, settings
from hypothesis import strategies as st
from scenario_table import mutate_record

from narrator.app.family import resolve_record
from narrator.rules.classic.deal import random_record
from narrator.rules.classic.engine import play_phase, start
from narrator.rules.classic.model import Camp, Options, Power, State
from narrator.rules.classic.record import RecordDecider, parse_record
from narrator.rules.classic.victory import check
from narrator.rules.errors import RecordError
from narrator.script.classic.script import load_classic, say

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


def _tables(record: dict) -> list[State]:
    """The table as each phase began, from the engine itself (roles change: the voleur, the servante…)."""
    game = parse_record(RULES, record)
    state = start(RULES, game)
    tables = []
    for phase in game.phases:
        tables.append(state)
        state, _ = play_phase(RULES, state, phase.kind, phase.number, RecordDecider(phase, partial(say, RULES)))
    return tables


def _may_act(table: State, key: str) -> set[str]:
    """Who may answer under `key` in a phase that began with `table`: the card's holders, the comédien
    (who takes a card for a night), the servante (who takes a card at a death), the voleur (night 1)."""
    who = set(RULES.acting(table, key))
    for power in (Power.PERFORM, Power.DEVOTE, Power.STEAL):
        rid = RULES.keyed(power)
        if rid is not None:
            who |= set(table.holders(rid))
    return who


DEATH_KEYS = {r.id for r in RULES.roles.values() if r.power in (Power.SHOOT, Power.SCAPEGOAT)}


@settings(max_examples=300, deadline=None)
@given(records)
def test_the_dead_never_act(record: dict) -> None:
    out = resolve_record(record)
    starts = _alive_before(record, out)
    tables = _tables(record)
    for (phase,), report, alive, table in zip((p.items() for p in record["phases"]), out["phases"], starts, tables):
        kind, choices = phase
        for key, value in choices.items():
            if key == RULES.pack:  # the pack: the loups-garous alive
                assert any(RULES.is_wolf(table, p) for p in alive) or kind == "night" and report["phase"] == "nuit 1"
            elif key in ROLE_KEYS and key not in DEATH_KEYS:
                assert _may_act(table, key) & alive, (report["phase"], key)
            if key in DEATH_KEYS:  # he acts as he dies, in this very phase
                assert _may_act(table, key) & alive & set(report["dead"]), (report["phase"], key)
            if key in ("votes", "revote", "second_votes"):
                # RULINGS thiercelieux 17: every living player allowed to vote
                assert set(value) <= alive, report["phase"]
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
    acting = {
        "sorciere": {"heal": False},
        "petite_fille": {"spied": True},
        "cupidon": [dead, dead],
        "joueur_de_flute": [dead, dead],
        "pyromane": {"douse": dead},
    }
    targets = ("voyante", "chasseur", "salvateur", "renard", "corbeau", "grand_mechant_loup", "loup_blanc")
    if kind == "day" and "votes" in choices:
        choices["votes"][dead] = None  # a ballot from the dead
    elif role in acting or role in targets:
        choices[role] = acting.get(role, dead)  # the dead acts, or aims at the dead
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
    # 003: "infection …", "second vote du Juge Bègue" are "à usage unique"; the pyromane sets fire once
    assert sum(1 for n in nights if n.get("infect")) <= 1
    assert sum(1 for n in nights if (n.get("pyromane") or {}).get("ignite")) <= 1
    days = [p["day"] for p in record["phases"] if "day" in p]
    assert sum(1 for d in days if d.get("juge_begue")) <= 1
    # 003: "La première nuit" for the voleur, the enfant sauvage and the chien-loup
    assert all(k not in n for n in nights[1:] for k in ("voleur", "enfant_sauvage", "chien_loup"))
    # 003, Loup-Garou Blanc: "une nuit sur deux" — nights 2, 4… (RULINGS thiercelieux 8)
    assert all("loup_blanc" not in n for n in nights[0::2])
    # 003, Comédien: each of his cards once (options.comedien_cards_once)
    if record["options"]["comedien_cards_once"]:
        used = [(n.get("comedien") or {}).get("use") for n in nights]
        used = [u for u in used if u is not None]
        assert len(used) == len(set(used))
    # 003, Salvateur: "Il ne peut pas protéger deux fois de suite la même personne."
    guards = [n.get("salvateur") for n in nights]
    assert all(a is None or a != b for a, b in zip(guards, guards[1:]))


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
    groups = record["deal"].get("groups")
    table = State(
        players,
        tuple(state["roles"][p] for p in players),
        tuple(Camp(state["camps"][p]) for p in players),
        tuple(p in out["alive"] for p in players),
        lovers=tuple(state["lovers"]),
        options=Options(**record["options"]),  # the record's rule switches decide who has won
        charmed=tuple(state["charmed"]),
        groups=tuple(groups[p] for p in players) if groups else (),
        # the ange's win is his death at the start, which the table after it does not show
        heaven=out["winners"][0] if out["camp"] == "ange" else None,
    )
    lone = {Camp.PIPER, Camp.WHITE_WOLF, Camp.SECT, Camp.ANGEL, Camp.LOVERS}
    if out["camp"] is None:
        # nobody has won: the table the output describes is undecided, and nobody is named winner
        assert check(table) is None and out["winners"] == []
        # a wolf still hunts, or an enemy of the village lives on
        assert any(RULES.is_wolf(table, p) or table.camp_of(p) in lone for p in out["alive"])
        assert out["why"][-1] == "Personne n'a encore gagné : la partie continue."
    else:
        assert check(table) is Camp(out["camp"])
        camps = state["camps"]
        if out["camp"] == "amoureux":
            assert sorted(out["winners"]) == sorted(state["lovers"]) == sorted(out["alive"])
        elif out["camp"] in ("ange", "joueur_de_flute", "loup_blanc", "sectaire"):
            assert len(out["winners"]) == 1  # 003: the Solitaires, each alone
            assert camps[out["winners"][0]] == out["camp"]
        else:
            assert out["winners"] == [p for p in players if camps[p] == out["camp"]]
        assert out["why"][-1].endswith((" gagne.", " gagnent."))
    # who may vote next: the living, but a pardoned idiot (003: "perd son droit de vote") and whom the
    # bouc émissaire left out
    assert set(state["voters"]) <= set(out["alive"])
    assert not set(state["voters"]) & {p for p, r in state["known_roles"].items() if r == "idiot"}
    assert state["captain"] is None or state["captain"] in out["alive"] or not out["alive"]
    assert set(state["charmed"]) <= set(players) and len(set(state["charmed"])) == len(state["charmed"])
    piper = [p for p, r in record["deal"].items() if r == "joueur_de_flute"]
    assert not set(piper) & set(state["charmed"])  # he charms others (a servante may take his card, charmed)


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
