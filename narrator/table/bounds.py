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
        # an int is compared as it is: math.isfinite() of one past a float's range raises OverflowError
        fits = isinstance(value, int) or (math.isfinite(value) and not (whole and not value.is_integer()))
        if fits and low <= value <= high:
            return None
    kind = "un entier" if whole else "un nombre"
    return f"attendu : {kind} de {_said(low)} à {_said(high)} ; trouvé : {_found(value)}"


def _said(bound: float) -> str:
    return str(int(bound)) if float(bound).is_integer() else str(bound).replace(".", ",")


def _found(value: object) -> str:
    """What was found, in a few characters: never the repr of a whole value, which may be a YAML alias
    bomb's billions of items or an int of thousands of digits (too long for Python to print)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        digits = len(str(abs(value))) if value.bit_length() < 4000 else None
        if digits is not None and digits <= 30:
            return str(value)
        return "un nombre de " + (f"{digits} chiffres" if digits is not None else "plus de 1 000 chiffres")
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 30 else f"{value[:20]!r}… ({len(value)} caractères)"
    kinds: dict[type, str] = {list: "une liste", dict: "un mapping", tuple: "une liste"}
    return kinds.get(type(value), type(value).__name__)
