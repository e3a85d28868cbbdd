"""The one error a record can raise: where it is wrong and what was expected."""

from __future__ import annotations

import json


class RecordError(ValueError):
    """Bad input in a game record: a key path, what was expected, what was found."""

    def __init__(self, path: tuple[object, ...], expected: str, found: object = None, *, has_found: bool = True):
        self.path = tuple(path)
        self.expected = expected
        self.found = found
        self.has_found = has_found
        super().__init__(self.describe())

    def describe(self) -> str:
        where = ".".join(str(p) for p in self.path) or "(enregistrement)"
        text = f"{where} : attendu : {self.expected}"
        if self.has_found:
            text += f" ; trouvé : {_show(self.found)}"
        return text


def missing(path: tuple[object, ...], expected: str) -> RecordError:
    """A key the record lacks."""
    return RecordError(path, expected, has_found=False)


def _show(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
