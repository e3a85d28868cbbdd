"""The test tables (tests/utterances, tests/scenarios) read at collection with libyaml's C loader: ten
times faster than PyYAML's pure-Python one on these files, the same data (both are YAML 1.1 safe loaders)."""

from __future__ import annotations

from typing import Any

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # PyYAML built without libyaml: the same, slower


def load(text: str) -> Any:
    return yaml.load(text, Loader=LOADER)
