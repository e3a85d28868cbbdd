"""Command line: argparse and wiring only."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from narrator import __version__
from narrator.script.marks import YamlError, load_marked

EXIT_BAD_INPUT = 2


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except BadInput as exc:
        print(f"narrator: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("narrator: interrompu.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`narrator resolve … | head`): no traceback at exit either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


class BadInput(Exception):
    """A file or argument the user must fix; one French line."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="narrator", description="Meneur de jeu vocal pour Loups-Garous.")
    parser.add_argument("--version", action="version", version=f"narrator {__version__}")
    sub = parser.add_subparsers(metavar="COMMANDE")
    resolve = sub.add_parser("resolve", help="résoudre une partie décrite dans un fichier (JSON sur stdout)")
    resolve.add_argument("file", help="fichier YAML ou JSON : un enregistrement de partie, ou une liste ; - pour stdin")
    resolve.set_defaults(run=_resolve)
    check = sub.add_parser("check", help="valider le script YAML d'un jeu")
    check.add_argument("file")
    check.set_defaults(run=_check)
    return parser


def _read(name: str) -> tuple[str, str]:
    if name == "-":
        return sys.stdin.read(), "<stdin>"
    path = Path(name)
    try:
        return path.read_text(encoding="utf-8"), name
    except FileNotFoundError:
        raise BadInput(f"{name} : fichier introuvable") from None
    except IsADirectoryError:
        raise BadInput(f"{name} : c'est un dossier, pas un fichier") from None
    except UnicodeDecodeError as exc:
        raise BadInput(f"{name} : ce n'est pas du texte UTF-8 (octet {exc.start})") from None
    except OSError as exc:
        raise BadInput(f"{name} : lecture impossible ({exc.strerror})") from None


def _resolve(args: argparse.Namespace) -> int:
    from narrator.resolve import resolve_record
    from narrator.rules.errors import RecordError

    text, file = _read(args.file)
    try:
        doc = load_marked(text, file)
    except YamlError as exc:
        raise BadInput(str(exc.problems[0])) from None
    records = doc.data if isinstance(doc.data, list) else [doc.data]
    results = []
    for i, record in enumerate(records):
        prefix = (i,) if isinstance(doc.data, list) else ()
        try:
            results.append(resolve_record(record))
        except RecordError as exc:
            line, column = doc.where(prefix + exc.path)
            rid = record.get("id") if isinstance(record, dict) else None
            name = f"« {rid} »" if rid is not None else f"n° {i + 1}"
            raise BadInput(f"{file}:{line}:{column}: enregistrement {name} : {exc}") from None
    out = results if isinstance(doc.data, list) else results[0]
    json.dump(out, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _check(args: argparse.Namespace) -> int:
    from narrator.script.game import load_script

    text, file = _read(args.file)
    try:
        rules = load_script(text, file)
    except YamlError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{file} : correct ({rules.game}, {len(rules.roles)} personnages).")
    return 0
