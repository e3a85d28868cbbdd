"""What the engines of both families return instead of French: a message key and its parameters."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Reason:
    """One step of the explanation, rendered in French from the game's texts."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)
