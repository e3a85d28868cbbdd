"""The one way every YAML file of the program is validated: a JSON Schema over the marked YAML
(narrator/script/marks.py), each error in French at file:line:column."""

from __future__ import annotations

import json
import math
from functools import cache
from typing import TYPE_CHECKING, Any

from narrator.script.marks import Marked, Problem

if TYPE_CHECKING:
    import jsonschema

_TYPES = {
    "object": "un mapping (clé: valeur)",
    "array": "une liste",
    "string": "un texte",
    "integer": "un nombre entier",
    "number": "un nombre",
    "boolean": "true ou false",
    "null": "rien (~)",
}
SHOWN = 100  # characters of a found value quoted in a message
# What each pattern of the schemas asks for, in words
PATTERNS = {
    "^[a-z_]+$": "minuscules ASCII et _",
    "^[a-z0-9_]+$": "minuscules ASCII, chiffres et _",
    r"\S": "un texte non vide",
}


@cache
def _validator() -> Any:
    """jsonschema's validator, imported when a file is first checked (a start that reads its tables
    from the cache checks none)."""
    import jsonschema

    # YAML's 3.0 is not an integer here (jsonschema's default accepts it, then range(3.0) fails),
    # and .inf or .nan are no numbers (a wait of .inf seconds would never end).
    types = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many(
        {
            "integer": lambda _, value: isinstance(value, int) and not isinstance(value, bool),
            "number": lambda _, value: (
                isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            ),
        }
    )
    return jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=types)


def schema_problems(doc: Marked, schema: dict) -> list[Problem]:
    """Every place where `doc` breaks `schema`, in file order, with a French message."""
    validator = _validator()(schema)
    problems: list[Problem] = []
    for error in validator.iter_errors(doc.data):
        # jsonschema reports a `required` error per missing key, each naming them all: say each once
        problems.extend(p for p in _explain(doc, error) if p not in problems)
    problems.sort(key=lambda p: (p.line, p.column))
    return problems


def _explain(doc: Marked, error: jsonschema.ValidationError) -> list[Problem]:
    path = tuple(error.absolute_path)
    kind, expected, found = error.validator, error.validator_value, error.instance
    if "propertyNames" in error.schema_path:  # `found` is the key itself
        pattern = error.schema.get("pattern") if isinstance(error.schema, dict) else None
        wanted = _expected("pattern", pattern) if pattern else _expected(kind, expected)
        message = f"identifiant invalide « {found} » ; attendu : {wanted}"
        return [doc.problem(path + (found,), message, at_key=True)]
    if kind == "additionalProperties" and isinstance(found, dict):
        allowed = sorted(error.schema.get("properties", {}))
        extras = [k for k in found if k not in allowed]
        hint = ("attendu : une de " + ", ".join(allowed)) if allowed else "aucune clé attendue ici"
        return [doc.problem(path + (k,), f"clé inconnue « {k} » ; {hint}", at_key=True) for k in extras]
    if kind == "required":
        missing = [k for k in expected if isinstance(found, dict) and k not in found]
        return [doc.problem(path, f"clé manquante « {k} »") for k in missing]
    if kind == "oneOf":
        chosen = _chosen_alternative(error)
        if chosen is not None:  # the shape is clear (its keys are there): say what is wrong inside it
            return [p for sub in error.context if sub.schema_path[0] == chosen for p in _explain(doc, sub)]
        message = "attendu : " + _one_of(error.schema)
    else:
        message = "attendu : " + _expected(kind, expected)
    return [doc.problem(path, f"{message} ; trouvé : {_show(found)}")]


def _expected(kind: str, expected: object) -> str:
    """What one keyword of a schema asks for, in French."""
    if kind == "enum" and isinstance(expected, list):
        return "une de " + ", ".join(map(str, expected))
    if kind == "type":
        kinds = expected if isinstance(expected, list) else [expected]
        return " ou ".join(_TYPES.get(str(k), str(k)) for k in kinds)
    if kind == "pattern":
        return PATTERNS.get(str(expected), f"un texte de la forme {expected}")
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        sign = {"minimum": "≥", "maximum": "≤", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[kind]
        return f"un nombre {sign} {expected}"
    if kind in ("minLength", "minItems", "minProperties"):
        return "une valeur non vide"
    if kind == "uniqueItems":
        return "des valeurs toutes différentes"
    return f"{kind} {expected}"


def _show(value: object) -> str:
    """A found value as the file could say it (JSON where it can), cut short."""
    try:
        said = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # a date (YAML reads 2020-01-01 as one), bytes (!!binary), a key not text
        said = str(value)
    return said if len(said) <= SHOWN else said[: SHOWN - 1] + "…"


def _one_of(schema: dict) -> str:
    """What a oneOf accepts, said in French: the keys each alternative requires."""
    shapes = []
    for option in schema["oneOf"]:
        if option.get("type") == "string":
            shapes.append("un texte")
        else:
            keys = option.get("required", [])
            shapes.append("{" + ", ".join(f"{k}: …" for k in keys) + "}")
    return " ou ".join(shapes)


def _chosen_alternative(error: jsonschema.ValidationError) -> int | None:
    """The one oneOf alternative whose required keys the mapping has, if exactly one."""
    if not isinstance(error.instance, dict):
        return None
    fits = [
        i
        for i, option in enumerate(error.schema["oneOf"])
        if option.get("required") and all(k in error.instance for k in option["required"])
    ]
    return fits[0] if len(fits) == 1 else None
