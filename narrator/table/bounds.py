"""The one range of every number a user or a file gives a table: the same whether it comes from an
option (`--minutes`), a journal's header or settings.yaml, so that what `play` refuses a resume refuses
too and a setting kept between games is one a table could have said."""

from __future__ import annotations

import math

from narrator.voice.bed import LEVEL_RANGE_LU
from narrator.voice.profile import RATE_RANGE

BOUNDS: dict[str, tuple[float, float]] = {
    "minutes": (1, 60),  # the debate's length
    "rate": (RATE_RANGE[0], RATE_RANGE[1]),  # words a minute
    "volume": (0.01, 1.0),
    "wait_multiplier": (0.1, 10.0),
    "music_level": (LEVEL_RANGE_LU[0], LEVEL_RANGE_LU[1]),
}
INTEGERS = frozenset({"minutes", "rate"})


def refusal(name: str, value: object) -> str | None:
    """Why `value` is no `name` (« attendu : … ; trouvé : … », French), or None when it is one."""
    low, high = BOUNDS[name]
    whole = name in INTEGERS
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        fits = not (whole and isinstance(value, float) and not value.is_integer())
        if fits and math.isfinite(value) and low <= value <= high:
            return None
    kind = "un entier" if whole else "un nombre"
    return f"attendu : {kind} de {_said(low)} à {_said(high)} ; trouvé : {_found(value)}"


def _said(bound: float) -> str:
    return str(int(bound)) if float(bound).is_integer() else str(bound).replace(".", ",")


def _found(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}… ({len(text)} caractères)"
