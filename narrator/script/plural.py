"""Templates that agree in number: one text, or a form for one, for two and for more.

`{one: "… 1 carte …", many: "… {n} cartes …"}`: the form is chosen by how many names a sentence
lists, or by its count, so that the narrator never says « 1 cartes » nor « Ana gagnent ».
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_TEXT = {"type": "string", "minLength": 1}
FORMS: dict[str, Any] = {
    "type": "object",
    "properties": {"one": _TEXT, "two": _TEXT, "many": _TEXT},
    "required": ["many"],
    "minProperties": 2,
    "additionalProperties": False,
}
TEMPLATE: dict[str, Any] = {"oneOf": [_TEXT, FORMS]}  # a text, or its forms by number
COUNTED = ("count", "copies", "n", "names")  # the placeholders whose number chooses the form, first found


def form(template: str | Mapping[str, str], n: int) -> str:
    """The text of `template` for `n` things: its `one` or `two` form when it has one, else `many`."""
    if isinstance(template, str):
        return template
    key = {1: "one", 2: "two"}.get(n, "many")
    return template.get(key, template["many"])


def how_many(params: Mapping[str, object]) -> int:
    """The number a sentence speaks of: its count (« une voix »), else how many names it lists."""
    for name in COUNTED:
        value = params.get(name)
        if isinstance(value, (list, tuple)):
            return len(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return 1


def variants(template: str | Mapping[str, str]) -> list[tuple[str | None, str]]:
    """Every text of a template, with the form it is under (None for a plain text): for checks."""
    return [(None, template)] if isinstance(template, str) else list(template.items())
