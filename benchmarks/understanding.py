"""How much of a folder of utterances the narrator understands: the rate per file, every miss, and
the worst misses apart — a command taken from a sentence that must give nothing, and a ballot or a
reveal taken that was not said.

Each file is a YAML list of cases in the format of tests/utterances/ (text, game, players — null
for the spoken setup —, phase, expect). A case is understood when the parser gives exactly
`expect`.

Run: .venv/bin/python benchmarks/understanding.py DIR [DIR…]   (or YAML files)
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from narrator.listen.french import Listener, Parser  # noqa: E402
from narrator.listen.setup_words import SetupParser  # noqa: E402

TAKEN = ("vote", "tally", "reveal", "choose")  # what changes the game when it is wrong


@cache
def _listener(game: str | None, players: tuple[str, ...] | None) -> Listener:
    return SetupParser(game) if players is None else Parser(game, players)


def _files(args: list[str]) -> list[Path]:
    out: list[Path] = []
    for arg in args:
        path = Path(arg)
        out += sorted(path.glob("*.yaml")) if path.is_dir() else [path]
    return out


def main(args: list[str]) -> int:
    if not args:
        print(__doc__)
        return 2
    total = understood = nothing_cases = wrong_from_nothing = wrong_taken = 0
    for path in _files(args):
        cases = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        ok = 0
        misses = []
        for case in cases:
            players = None if case.get("players") is None else tuple(case["players"])
            listener = _listener(case.get("game"), players)
            got = [c.to_json() for c in listener.parse(str(case["text"]), case.get("phase", "any"))]
            expect = case.get("expect") or []
            if not expect:
                nothing_cases += 1
            if got == expect:
                ok += 1
                continue
            misses.append((case["text"], expect, got))
            worst = ""
            if not expect and got:
                wrong_from_nothing += 1
                worst = "  ← COMMANDE PRISE d'une phrase qui n'en est pas une"
            elif any(c["command"] in TAKEN and c not in expect for c in got):
                wrong_taken += 1
                worst = "  ← VOTE/RÉVÉLATION FAUSSE"
            misses[-1] = (*misses[-1], worst)
        total += len(cases)
        understood += ok
        rate = 100 * ok / len(cases) if cases else 100.0
        print(f"{path.name}: {ok}/{len(cases)} ({rate:.1f} %)")
        for text, expect, got, worst in misses:
            print(f"  - « {text} »\n      attendu : {expect}\n      obtenu  : {got}{worst}")
    rate = 100 * understood / total if total else 100.0
    print(f"\nTOTAL : {understood}/{total} compris ({rate:.1f} %)")
    print(f"commandes prises d'une phrase qui ne doit rien donner : {wrong_from_nothing} (sur {nothing_cases})")
    print(f"autres votes/révélations/choix faux pris : {wrong_taken}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
