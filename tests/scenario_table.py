"""Reading the scenario tables: a game record plus `source`, `passage` and `expect`."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

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
    return yaml.safe_load((SCENARIOS / name).read_text(encoding="utf-8"))


def split(case: dict) -> tuple[dict, dict]:
    """(meta, record): the record is what `narrator resolve` gets."""
    meta = {k: case[k] for k in META_KEYS if k in case}
    record = {k: v for k, v in case.items() if k not in META_KEYS}
    return meta, record
