"""The keyboard is for a person, maybe with a screen reader: a short prompt that says what to type now,
and on the operator's screen a player keeps one number, his seat, in every list of the game."""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import subprocess
import sys
from functools import partial
from pathlib import Path

from narrator.rules.classic.asks import Ask, Kind
from narrator.rules.classic.deal import RandomDecider, random_record
from narrator.rules.classic.engine import play_phase, start
from narrator.rules.classic.record import parse_record
from narrator.rules.phase import PhaseId
from narrator.rules.reason import Reason
from narrator.script.classic.script import load_classic, say
from narrator.table.classic.operator import KeyboardOperator

NIGHT_1 = PhaseId("night", 1)
WORDS = partial(say, load_classic())  # the reasons of the rules in the script's words


def narrator(*args: str, typed: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NARRATOR_STATE_DIR": str(cwd), "PULSE_SERVER": "unix:/nonexistent"}
    return subprocess.run(
        [sys.executable, "-m", "narrator", *args, "--ear", "keyboard", "--no-wait", "--wav", str(cwd / "n.wav")],
        input=typed, capture_output=True, text=True, timeout=120, env=env, cwd=cwd,
    )  # fmt: skip


def prompts(stderr: str) -> list[str]:
    """The keyboard's prompts, in order (each ends with « > », the answer is typed after it)."""
    return [part.rsplit("\n", 1)[-1].strip() for part in stderr.split(" > ")[:-1]]


def test_the_spoken_setup_prompts_what_each_question_wants(tmp_path: Path) -> None:
    typed = "poudlard\nvingt\n\n3\nAna\nnon\nAna\noui\n"
    run = narrator(typed=typed, cwd=tmp_path)
    shown = prompts(run.stderr)
    assert shown[:6] == [
        "Le jeu : Poudlard, Loup-Garou pour une nuit, ou Thiercelieux",
        "Le nombre de joueurs, de 3 à 13",  # the game's range, for « Combien de joueurs êtes-vous ? »
        "Le nombre de joueurs, de 3 à 13",
        "Le nombre de joueurs, de 3 à 13",
        "Le nom, tel qu'on le dit",
        "oui ou non",
    ], run.stderr
    assert all(len(p) < 100 for p in shown)  # a screen reader says it in a breath, not the vocabulary
    assert "accélère" not in run.stderr


def test_the_vote_and_the_cards_prompt_their_own_answers(tmp_path: Path) -> None:
    roles = "mangemort,mangemort,hermione,sirius,eleve,eleve"
    typed = "on vote\nAna vote contre Ben\nBen vote contre Ana\nCleo vote contre Ben\noui\neleve\nmangemort\nhermione\noui\n"
    run = narrator("play", "poudlard", "--players", "Ana,Ben,Cleo", "--roles", roles, "--minutes", "1",
                   "--no-legend", typed=typed, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    shown = prompts(run.stderr)
    assert "Un vote à la fois : « Ana vote contre Ben », ou « trois voix pour Ben »" in shown
    assert "La carte, par exemple « Mangemort »" in shown
    assert shown.count("oui ou non") == 3  # the votes, the cards, then the story offered at the end


def test_the_one_night_prompts_show_this_games_cards_and_players(tmp_path: Path) -> None:
    roles = "loup,loup,voyante,villageois,villageois,voleur"
    typed = "on vote\nLea vote contre Max\nMax vote contre Lea\nZoe vote contre Max\noui\nloup-garou\nvillageois\nvoyante\noui\n"
    run = narrator("play", "onuw", "--players", "Lea,Max,Zoe", "--roles", roles, "--minutes", "1",
                   "--no-legend", typed=typed, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    shown = prompts(run.stderr)
    assert shown[1:5] == ["Un vote à la fois : « Lea vote contre Max », ou « trois voix pour Max »"] * 3 + [
        "oui ou non"
    ]
    assert shown[5:8] == ["La carte, par exemple « loup-garou »"] * 3  # not a Poudlard card


def test_a_player_keeps_his_seat_number_in_every_list_of_the_operator() -> None:
    seats = ("Ana", "Ben", "Cleo", "Dan", "Eva")
    typed = iter(["3", "4", "2", "5"])
    screen = io.StringIO()
    operator = KeyboardOperator(lambda: next(typed), screen, seats=seats)
    woken = Reason("ask_she_wakes", {"role": "voyante", "name": "Ana"})
    seer = Ask("voyante", Kind.PLAYER, woken, Reason("expect_see", {"role": "voyante"}), choices=("Ben", "Cleo", "Dan"))
    wolves = Ask("loup", Kind.PLAYER, Reason("ask_devour"), Reason("expect_devour"), choices=("Cleo", "Dan", "Eva"))
    assert operator.answer(seer, NIGHT_1, WORDS) == "Cleo"
    assert operator.answer(wolves, NIGHT_1, WORDS) == "Dan"  # 4 is Dan in both lists
    assert "Choix : 2 Ben, 3 Cleo, 4 Dan." in screen.getvalue()
    assert "Choix : 3 Cleo, 4 Dan, 5 Eva." in screen.getvalue()
    # a seat this question does not offer is that player, and the record's check says why not
    assert operator.answer(wolves, NIGHT_1, WORDS) == "Ben"
    assert operator.answer(seer, NIGHT_1, WORDS) == "Eva"


class Watching(RandomDecider):
    """Random legal answers, remembering every question the rules asked."""

    def __init__(self, rng: random.Random, seen: list[Ask]) -> None:
        super().__init__(rng)
        self.seen = seen

    def __getattribute__(self, name: str):
        method = super().__getattribute__(name)
        if name in ("player", "pair", "potions", "spy", "ballots", "players", "option", "yes"):

            def watched(ask: Ask):
                self.seen.append(ask)
                return method(ask)

            return watched
        return method


def _screen(ask: Ask) -> str:
    """What the operator's screen shows for `ask` up to its first prompt."""
    screen = io.StringIO()

    def no_more() -> str:
        raise EOFError

    with contextlib.suppress(EOFError):
        KeyboardOperator(no_more, screen).answer(ask, NIGHT_1, WORDS)
    return screen.getvalue().replace("[opérateur] ", "")


def test_the_operators_screen_asks_in_plain_french_never_in_a_records_notation() -> None:
    rules = load_classic()
    seen: list[Ask] = []
    for seed in range(60):
        rng = random.Random(seed)
        record = random_record(rules, rng, 8, seed, max_phases=1)
        state = start(rules, parse_record(rules, record))
        for i in range(12):
            if state.winner is not None:
                break
            state, _ = play_phase(rules, state, "night" if i % 2 == 0 else "day", i // 2 + 1, Watching(rng, seen))
    keys = {ask.key for ask in seen}
    assert {"infect", "voleur", "servante", "joueur_de_flute", "pyromane", "comedien"} <= keys
    notation = re.compile(r"[{}\[\]]|\b(true|false|null|True|False)\b")
    assert [(a.key, _screen(a)) for a in seen if notation.search(_screen(a))] == []
    infect = next(a for a in seen if a.key == "infect")
    victim = infect.context.params["victim"]
    assert _screen(infect).splitlines()[-1] == (
        f"L'infect père des loups infecte-t-il {victim} : o, la victime survit "
        "et rejoint les loups-garous ; n, elle est dévorée ? (o/n) > "
    )
    thief = next(a for a in seen if a.key == "voleur" and not a.forced)
    assert _screen(thief).splitlines()[-1] == (
        "la carte que le voleur prend ; sinon, il garde la sienne (numéro, Entrée : rien) > "
    )
