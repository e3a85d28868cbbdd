"""argparse's own words in French: « utilisation », « afficher cette aide et quitter », its errors.

argparse translates its messages through gettext, looked up in its module (`argparse._`,
`argparse.ngettext`) each time one is made; `in_french()` puts a French catalog there while the
command line is built and read, and gives the English ones back after. A message this table does
not know (a newer Python's) stays in English rather than failing.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

FRENCH = {
    "usage: ": "utilisation : ",
    "positional arguments": "arguments",
    "options": "options",
    "optional arguments": "options",
    "subcommands": "commandes",
    "show this help message and exit": "afficher cette aide et quitter",
    "show program's version number and exit": "afficher la version du programme et quitter",
    "%(prog)s: error: %(message)s\n": "%(prog)s : erreur : %(message)s\n",
    "argument %(argument_name)s: %(message)s": "argument %(argument_name)s : %(message)s",
    "the following arguments are required: %s": "il manque ces arguments, obligatoires : %s",
    "one of the arguments %s is required": "il faut l'un de ces arguments : %s",
    "unrecognized arguments: %s": "arguments inconnus : %s",
    "not allowed with argument %s": "incompatible avec l'argument %s",
    "ignored explicit argument %r": "cette option ne prend pas de valeur ; trouvé : %r",
    "expected one argument": "attendu : une valeur",
    "expected at most one argument": "attendu : une valeur au plus",
    "expected at least one argument": "attendu : une valeur au moins",
    "ambiguous option: %(option)s could match %(matches)s": "option ambiguë : %(option)s peut être %(matches)s",
    "unexpected option string: %s": "option inattendue : %s",
    "invalid %(type)s value: %(value)r": "attendu : %(type)s ; trouvé : %(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)": "attendu : une de %(choices)s ; trouvé : %(value)r",
    "unknown parser %(parser_name)r (choices: %(choices)s)": (
        "commande inconnue %(parser_name)r ; attendu : %(choices)s"
    ),
    "can't open '%(filename)s': %(error)s": "impossible d'ouvrir « %(filename)s » : %(error)s",
}
# ngettext's messages: (singular, plural) -> (French singular, French plural)
FRENCH_PLURALS = {
    ("expected %s argument", "expected %s arguments"): ("attendu : %s valeur", "attendu : %s valeurs"),
}


def french(message: str) -> str:
    return FRENCH.get(message, message)


def french_plural(singular: str, plural: str, n: int) -> str:
    one, many = FRENCH_PLURALS.get((singular, plural), (singular, plural))
    return one if n == 1 else many


class FrenchHelpFormatter(argparse.HelpFormatter):
    """French typography: a space before the colon of a heading (« options : »)."""

    def start_section(self, heading: str | None) -> None:
        super().start_section(f"{heading} " if heading else heading)

    def _split_lines(self, text: str, width: int) -> list[str]:
        # a line never starts with the « : » or « ; » of the word before it
        return super()._split_lines(text.replace(" :", "\u00a0:").replace(" ;", "\u00a0;"), width)


class FrenchParser(argparse.ArgumentParser):
    """An ArgumentParser whose help is laid out the French way; its subcommands' parsers are too."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", FrenchHelpFormatter)
        super().__init__(*args, **kwargs)


@contextmanager
def in_french() -> Iterator[None]:
    """argparse speaks French inside the block."""
    english = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = french, french_plural  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = english  # type: ignore[attr-defined]


def number(text: str) -> int:
    """An --option's whole number (`type=number`: its name is what an error says was expected)."""
    return int(text)


number.__name__ = "un nombre entier"
