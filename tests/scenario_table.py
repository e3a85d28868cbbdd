"""Reading the scenario tables: a game record plus `source`, `passage` and `expect`."""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path

import table_yaml

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"
RULEBOOKS = HERE / "rulebooks"
META_KEYS = ("source", "passage", "expect")


def normalize(text: str) -> str:
    """Compare quotes loosely on typography only: apostrophes, quotes, spaces, case."""
    text = text.replace("\u2019", "'").replace("\u00a0", " ").replace("\u202f", " ")
    text = text.replace("«", '"').replace("»", '"').replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip().lower()


def load_cases(name: str) -> list[dict]:
    return table_yaml.load((SCENARIOS / name).read_text(encoding="utf-8"))


def split(case: dict) -> tuple[dict, dict]:
    """(meta, record): the record is what `narrator resolve` gets."""
    meta = {k: case[k] for k in META_KEYS if k in case}
    record = {k: v for k, v in case.items() if k not in META_KEYS}
    return meta, record


def mutate_record(record: dict, rng: random.Random, junk: list) -> dict:
    """A record broken in one random place: a key dropped, a value replaced by junk, or a key added."""
    broken = copy.deepcopy(record)
    paths: list[tuple] = []

    def walk(node: object, path: tuple) -> None:
        if isinstance(node, dict):
            for key in list(node):
                paths.append(path + (key,))
                walk(node[key], path + (key,))
        elif isinstance(node, list):
            for i in range(len(node)):
                paths.append(path + (i,))
                walk(node[i], path + (i,))

    walk(broken, ())
    path = rng.choice(paths)
    parent: object = broken
    for step in path[:-1]:
        parent = parent[step]  # type: ignore[index]
    if isinstance(parent, dict) and rng.random() < 0.3:
        del parent[path[-1]]
    elif isinstance(parent, dict) and rng.random() < 0.2:
        parent[rng.choice([j for j in junk if isinstance(j, str)])] = rng.choice(junk)  # an extra key
    else:
        parent[path[-1]] = rng.choice(junk)  # type: ignore[index]
    return broken


def resolve_case(case: dict) -> tuple[dict, dict | None]:
    """(expect, output) of a scenario; output None for a case that expects an error (checked here)."""
    import pytest

    from narrator.app.family import resolve_record
    from narrator.rules.errors import RecordError

    meta, record = split(case)
    expect = meta["expect"]
    if "error" in expect:
        with pytest.raises(RecordError) as caught:
            resolve_record(record)
        assert expect["error"] in str(caught.value)
        return expect, None
    return expect, resolve_record(record)
