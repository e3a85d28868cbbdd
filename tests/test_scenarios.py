"""The rulebooks' sentences, one scenario each (tests/scenarios/*.yaml), run through `resolve`."""

from __future__ import annotations

from collections import Counter

import pytest
from scenario_table import RULEBOOKS, load_cases, normalize, resolve_case

TABLES = {"onuw.yaml": 40, "poudlard.yaml": 30}
CASES = [(table, case) for table in TABLES for case in load_cases(table)]


@pytest.mark.parametrize("table,case", CASES, ids=[c["id"] for _, c in CASES])
def test_scenario(table: str, case: dict) -> None:
    expect, out = resolve_case(case)
    if out is None:
        return  # the expected error was checked
    for key in ("final", "learned", "visible"):
        if key in expect:
            assert out[key] == expect[key], key
    assert set(out["dead"]) == set(expect["dead"])
    assert set(out["winners"]) == set(expect["winners"])
    assert out["why"] and all(isinstance(line, str) and line for line in out["why"])
    if "why" in expect:  # these lines, in this order, with none of them said twice
        assert [line for line in out["why"] if line in expect["why"]] == expect["why"]


@pytest.mark.parametrize("table", TABLES)
def test_table_is_complete_and_quotes_the_rulebook(table: str) -> None:
    cases = load_cases(table)
    assert len(cases) >= TABLES[table]
    ids = Counter(c["id"] for c in cases)
    assert [i for i, n in ids.items() if n > 1] == []
    texts = {}
    for case in cases:
        source = case["source"]
        if source not in texts:
            texts[source] = normalize((RULEBOOKS / source).read_text(encoding="utf-8"))
        assert normalize(case["passage"]) in texts[source], (case["id"], case["passage"])
