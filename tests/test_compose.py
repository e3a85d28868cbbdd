"""Cards proposed for a table (`narrator compose`) and the advice checked at setup: every proposal is
legal for the engine and follows the rulebooks' advice written in scripts/compose.yaml."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from cli_rig import narrator_here
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.app.compose import (
    _SEATED,
    advice_against,
    box_of,
    boxes,
    load_shipped_advice,
    propose,
    said,
    warn_against,
)
from narrator.rules.compose import ComposeError, compose, most_players, wolves_for
from narrator.rules.onenight.record import check_setup
from narrator.script.compose import parse_advice
from narrator.script.games import GAMES
from narrator.script.marks import YamlError
from narrator.script.onenight.script import load_game
from narrator.table.classic.setup import check_deal
from narrator.table.setup import SetupError

SIZES = [(game, n) for game in GAMES for n in range(3, most_players(load_shipped_advice()[game], box_of(game)) + 1)]


def engine_accepts(game: str, cards: tuple[str, ...], undealt: tuple[str, ...]) -> None:
    """The engine's own setup check, called here and not through the module under test."""
    if game == "thiercelieux":
        names = list(_SEATED[: len(cards)])
        groups = {name: 1 + i % 2 for i, name in enumerate(names)} if "sectaire" in cards else None
        check_deal(names, list(cards), extra=list(undealt) or None, groups=groups)
    else:
        check_setup(load_game(game), list(_SEATED[: len(cards) - 3]), list(cards))


def test_the_sizes_go_from_three_to_the_box() -> None:
    # 000: « Il y a donc 16 rôles en tout. » and n + 3 cards: 13 players at most; 001 likewise
    most = {game: max(n for g, n in SIZES if g == game) for game in GAMES}
    assert most == {"onuw": 13, "poudlard": 13, "thiercelieux": 18}


@pytest.mark.parametrize(("game", "players"), SIZES)
def test_every_proposal_is_legal_and_follows_its_advice(game: str, players: int) -> None:
    proposal = propose(game, players)
    engine_accepts(game, proposal.cards, proposal.undealt)
    count = Counter(proposal.cards)
    box = box_of(game)
    assert all(count[c] <= (box.copies[c] or players) for c in count)
    assert advice_against(game, proposal.cards, proposal.undealt) == []
    advice = load_shipped_advice()[game]
    reasons = [said(r, advice, box) for r in proposal.reasons]
    assert reasons and all(r.strip() and "{" not in r for r in reasons)
    if game in ("onuw", "poudlard"):
        # 000: « À chaque partie, il y a 3 rôles de plus que le nombre de joueurs. »
        # 001: « Il doit toujours y avoir 3 cartes Personnage de plus que le nombre de joueurs. »
        assert len(proposal.cards) == players + 3
    if game == "poudlard":
        # 001: « Conseil : n'utilisez Minerva McGonagall que si Sirius Black et/ou Neville Londubat sont en jeu. »
        assert not count["minerva"] or count["sirius"] or count["neville"]
        # 001: « Conseil : Commencez de préférence par le scénario intitulé « Première année à Poudlard »
        # pour 3 à 5 joueurs, même si vous êtes plus que 5. »
        first_year = box.scenarios["premiere_annee"]
        if players in first_year:
            assert Counter(proposal.cards) == Counter(first_year[players])
            assert any("Première année à Poudlard" in r for r in reasons)
        else:  # beyond five, the five players' cards stay in
            assert not Counter(first_year[5]) - count
    if game == "thiercelieux":
        # 002: « Ils sont 1, 2, 3 ou 4 suivant le nombre de joueurs et les variantes appliquées. »
        wolves = sum(count[c] for c in box.wolves)
        assert 1 <= wolves <= 4 and wolves == wolves_for(load_shipped_advice()[game], players)
        assert wolves < players - wolves  # else the wolves would have won before the first night
        assert len(proposal.cards) == players


def test_the_wolves_grow_with_the_table() -> None:
    # 002: « Ils sont 1, 2, 3 ou 4 suivant le nombre de joueurs »: every count is used, never fewer for more players
    advice = load_shipped_advice()["thiercelieux"]
    counts = [wolves_for(advice, n) for n in range(3, 19)]
    assert counts == sorted(counts) and set(counts) == {1, 2, 3, 4}


GAME_CARDS = {game: sorted(box_of(game).copies) for game in GAMES}


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_avec_and_sans_are_honoured_or_refused_in_french(data: st.DataObject) -> None:
    game, players = data.draw(st.sampled_from(SIZES))
    cards = GAME_CARDS[game]
    avec = data.draw(st.lists(st.sampled_from(cards), max_size=4))
    sans = data.draw(st.lists(st.sampled_from(cards), max_size=3))
    try:
        proposal = propose(game, players, avec, sans)
    except SetupError as exc:
        message = str(exc)
        assert message.startswith(("compose : ", "--roles : ")) and "\n" not in message
        assert "Traceback" not in message and "{" not in message
        return
    engine_accepts(game, proposal.cards, proposal.undealt)
    assert not Counter(avec) - Counter(proposal.cards)  # every card asked for, as many times
    assert not set(sans) & set(proposal.cards + proposal.undealt)
    assert advice_against(game, proposal.cards, proposal.undealt) == []  # what was asked, completed as advised


def test_minerva_without_sirius_nor_neville_is_refused_with_the_reason() -> None:
    with pytest.raises(SetupError) as caught:
        propose("poudlard", 4, ["minerva"], ["sirius", "neville"])
    assert str(caught.value) == (
        "compose : Minerva sans Sirius ni Neville : le livret le déconseille. "
        "Or --sans écarte Sirius Black et Neville Londubat."
    )
    proposal = propose("poudlard", 4, ["minerva"], ["sirius"])
    assert "neville" in proposal.cards and "sirius" not in proposal.cards


def test_the_voleur_and_the_comedien_get_their_undealt_cards() -> None:
    # 003, Voleur: « il consulte les deux cartes non distribuées »; Comédien: « Trois cartes de
    # personnages sont posées au centre. »
    thief = propose("thiercelieux", 8, ["voleur"])
    assert thief.undealt == ("villageois", "villageois")
    actor = propose("thiercelieux", 8, ["comedien"])
    assert len(set(actor.undealt)) == 3 and not set(actor.undealt) & set(actor.cards)
    with pytest.raises(SetupError, match="ne jouent pas ensemble"):
        propose("thiercelieux", 8, ["voleur", "comedien"])


def test_sisters_and_brothers_come_whole() -> None:
    # 003: « Deux joueuses qui se reconnaissent… », « Trois joueurs qui se reconnaissent… »
    proposal = propose("thiercelieux", 9, ["soeur", "frere"])
    count = Counter(proposal.cards)
    assert (count["soeur"], count["frere"]) == (2, 3)
    with pytest.raises(SetupError, match="sœur"):
        propose("thiercelieux", 9, ["soeur", "soeur"])  # a third sister is not in the box


def test_the_advice_against_a_composition() -> None:
    assert advice_against("poudlard", ["minerva", "mangemort", "mangemort", "hermione", "eleve", "eleve"]) == [
        "Minerva sans Sirius ni Neville : le livret le déconseille."
    ]
    assert advice_against("poudlard", ["minerva", "neville", "mangemort", "hermione", "eleve", "eleve"]) == []
    # 003's sœur alone or voleur without undealt cards: the engine refuses them, they are no advice
    assert advice_against("thiercelieux", ["soeur", "loup", "loup", "voleur", "villageois"]) == []
    # two wolves at five: 002 (« 1, 2, 3 ou 4 suivant le nombre de joueurs ») does not say it is too many
    assert advice_against("thiercelieux", ["loup", "loup", "voyante", "villageois", "villageois"]) == []


def test_a_table_is_told_the_advice_and_plays_all_the_same(capsys) -> None:
    cards = ["minerva", "mangemort", "mangemort", "hermione", "eleve", "eleve"]
    assert warn_against("poudlard", cards) == ["Minerva sans Sirius ni Neville : le livret le déconseille."]
    assert capsys.readouterr().err == (
        "Conseil des livrets : Minerva sans Sirius ni Neville : le livret le déconseille. La partie se joue quand même.\n"
    )
    assert warn_against("poudlard", propose("poudlard", 3).cards) == [] and capsys.readouterr().err == ""


def test_a_table_too_large_or_too_small() -> None:
    advice, box = load_shipped_advice()["onuw"], box_of("onuw")
    for players in (2, 14):
        with pytest.raises(ComposeError) as caught:
            compose(advice, box, players)
        assert caught.value.reason.params == {"least": 3, "most": 13, "players": players, "why": None}
        assert said(caught.value.reason, advice, box) == f"de 3 à 13 joueurs pour ce jeu ; demandé : {players}"


SHIPPED = (Path(__file__).resolve().parent.parent / "scripts" / "compose.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("any_of: [sirius, neville]", "any_of: [sirius, nevile]", "poudlard.needs.0.any_of.1: personnage inconnu"),
        ("  filler: villageois", "  filler: villageois\n  colour: red", "clé inconnue « colour »"),
        ("scenario: premiere_annee", "scenario: deuxieme_annee", "scénario inconnu « deuxieme_annee »"),
        (
            '      advice: "Minerva sans',
            '      advice: "Minerva sans',
            None,  # unchanged: the shipped file loads
        ),
    ],
)
def test_the_advice_file_is_checked_at_file_line(old: str, new: str, where: str | None) -> None:
    assert old in SHIPPED
    text = SHIPPED.replace(old, new)
    if where is None:
        assert set(parse_advice(text, "compose.yaml", boxes())) == set(GAMES)
        return
    with pytest.raises(YamlError) as caught:
        parse_advice(text, "compose.yaml", boxes())
    line = next(i for i, row in enumerate(text.splitlines(), 1) if new.splitlines()[-1] in row)
    assert f"compose.yaml:{line}:" in str(caught.value) and where in str(caught.value)


def test_a_rule_without_its_source_is_refused() -> None:
    text = SHIPPED.replace(
        '    source: "Il doit toujours y avoir 3 cartes Personnage de plus que le nombre de joueurs."\n', ""
    )
    with pytest.raises(YamlError, match=r"compose.yaml:\d+:\d+: poudlard.center"):
        parse_advice(text, "compose.yaml", boxes())


def test_the_command_prints_the_cards_and_why(capsys) -> None:
    run = narrator_here(capsys, "compose", "poudlard", "5")
    assert run.returncode == 0, run.stderr
    assert (
        "2 × Mangemort, Hermione Granger, Sirius Black, Harry Potter, Ron Weasley, 2 × élève de Poudlard" in run.stdout
    )
    assert "--roles mangemort,mangemort,hermione,sirius,harry,ron,eleve,eleve" in run.stdout
    assert "« Conseil : Commencez de préférence par le scénario intitulé « Première année à Poudlard »" in run.stdout
    run = narrator_here(capsys, "compose", "thiercelieux", "8", "--avec", "Voleur")
    assert "--extra villageois,villageois" in run.stdout
    run = narrator_here(capsys, "compose", "onuw", "5", "--avec", "tintin")
    assert run.returncode == 2
    assert run.stderr == "narrator: compose : « tintin » n'est pas un personnage de ce jeu (narrator roles onuw)\n"


def test_more_cards_than_the_box_is_refused() -> None:
    # 000: « le jeu officiel ne contient que 3 simples villageois. Le reste sont des loups (2) »
    with pytest.raises(SetupError) as caught:
        propose("onuw", 4, ["loup", "loup", "loup"])
    assert str(caught.value) == "compose : loup-garou : la boîte n'en a que 2"


def test_mutants_of_the_advice_load_or_fail_with_a_french_line_each() -> None:
    from test_fuzz_scripts import mutate  # the shipped files' mutator (keys dropped, types changed, noise…)

    broken = 0
    for seed in range(60):
        text, _ = mutate(SHIPPED, f"compose:{seed}")
        try:
            parse_advice(text, "compose.yaml", boxes())
        except YamlError as exc:
            broken += 1
            assert all(re.match(r"compose\.yaml:\d+:\d+: ", line) for line in str(exc).splitlines()), str(exc)
    assert broken >= 30  # the mutator does break the file


def test_a_table_size_that_is_no_number_was_a_crash() -> None:
    text = SHIPPED.replace("from: {3: 1,", "from: {~: 1, 3: 1,")
    with pytest.raises(YamlError, match="thiercelieux.wolves.from.None: attendu : un nombre de joueurs"):
        parse_advice(text, "compose.yaml", boxes())


def test_narrator_check_knows_the_advice_file(capsys, tmp_path: Path) -> None:
    run = narrator_here(capsys, "check", str(Path(__file__).resolve().parent.parent / "scripts" / "compose.yaml"))
    assert run.returncode == 0 and "conseils de composition, 3 jeux" in run.stdout
    bad = tmp_path / "compose.yaml"
    bad.write_text(SHIPPED.replace("any_of: [sirius, neville]", "any_of: [sirius, nevile]"), encoding="utf-8")
    run = narrator_here(capsys, "check", str(bad))
    assert run.returncode == 2
    assert f"{bad}:" in run.stderr and "personnage inconnu de poudlard « nevile »" in run.stderr


# -- the evening's scores (narrator scores) ------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_games(tmp_path_factory) -> dict[str, bytes]:
    """A poudlard game and a thiercelieux game played to their end through the CLI: their journals."""
    from journal_rig import FAMILIES, whole_game

    tmp = tmp_path_factory.mktemp("games")
    return {name: whole_game(family, tmp)[0] for name, family in FAMILIES.items()}


def _outcome(journal: bytes) -> dict:
    import json

    return next(e for e in map(json.loads, journal.splitlines()) if e.get("type") == "outcome")


def test_the_scores_count_the_finished_games(finished_games, tmp_path: Path, capsys, monkeypatch) -> None:
    import time

    state = tmp_path / "state"
    state.mkdir()
    monkeypatch.setenv("NARRATOR_STATE_DIR", str(state))
    now = time.time()

    def named(hours_ago: float) -> Path:
        return state / time.strftime("partie-%Y%m%d-%H%M%S.jsonl", time.localtime(now - hours_ago * 3600))

    named(30).write_bytes(finished_games["poudlard"])  # yesterday
    named(2).write_bytes(finished_games["poudlard"])
    named(1).write_bytes(finished_games["thiercelieux"])
    unfinished = (Path(__file__).parent / "journals" / "poudlard-vote-v3.jsonl").read_bytes()
    named(0.5).write_bytes(unfinished)  # a game still going: not counted
    named(0.2).write_bytes(b"pas un journal\n")

    run = narrator_here(capsys, "scores")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(
        "Toutes les parties : 3 parties terminées (Loup-Garou pour une nuit, édition Poudlard : 2 ; "
    )
    assert "journal ignoré" in run.stderr and "Traceback" not in run.stderr
    wins: Counter[str] = Counter()
    for journal in (finished_games["poudlard"], finished_games["poudlard"], finished_games["thiercelieux"]):
        wins.update(_outcome(journal)["winners"])
    for name, won in wins.items():
        assert f"\n  {name} : {won} sur " in run.stdout
    camp = _outcome(finished_games["thiercelieux"])["camp"]
    assert f"\n  {camp.replace('_', ' ')} : " in run.stdout.split("Victoires par camp :")[1]

    tonight = narrator_here(capsys, "scores", "--soir")
    assert tonight.stdout.startswith("Ce soir : 2 parties terminées")
    since = narrator_here(capsys, "scores", "--depuis", time.strftime("%Y-%m-%d", time.localtime(now + 86400)))
    assert "aucune partie terminée" in since.stdout
    bad = narrator_here(capsys, "scores", "--depuis", "hier")
    assert bad.returncode == 2 and bad.stderr == "narrator: --depuis : attendu : une date AAAA-MM-JJ ; trouvé : hier\n"


def test_a_one_night_win_counts_for_the_camp_of_the_winners_cards_at_dawn() -> None:
    from narrator.app.scores import Played, _one_night_camps, tally
    from narrator.table.events import Cards

    # 001: « soit tous les membres d'une équipe l'emportent, soit personne »: the winners' cards say the team
    events = [Cards({"Ana": "eleve", "Ben": "mangemort", "Cléo": "harry"})]
    assert _one_night_camps("poudlard", ["Ana", "Cléo"], events) == ("village",)
    assert _one_night_camps("poudlard", ["Ben"], events) == ("mangemorts",)
    scores = tally(
        [
            Played("poudlard", 0, ("Ana", "Ben", "Cléo"), ("Ana", "Cléo"), ("village",)),
            Played("poudlard", 1, ("Ana", "Ben", "Cléo"), (), ()),
        ]
    )
    assert (scores.games, scores.nobody, scores.wins["Ana"], scores.played["Ben"]) == (2, 1, 1, 2)


def test_a_table_against_the_advice_hears_it_and_plays_to_the_end(tmp_path: Path) -> None:
    # 001: « Conseil : n'utilisez Minerva McGonagall que si Sirius Black et/ou Neville Londubat sont en
    # jeu. » — a conseil: the game is played all the same
    import crash_rig
    from journal_rig import run_cli

    from narrator.table.events import Outcome
    from narrator.table.journal import read_journal

    roles = ["mangemort", "mangemort", "hermione", "minerva", "eleve", "eleve", "harry"]
    cards = {**crash_rig.CARDS, "Dan": "minerva"}
    said = crash_rig.vote_words(None, crash_rig.VOTES) + [cards[p] for p in crash_rig.PLAYERS] + ["oui"]
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(said) + "\n", encoding="utf-8")
    journal = tmp_path / "game.jsonl"
    table = ["--players", ",".join(crash_rig.PLAYERS), "--roles", ",".join(roles), "--no-legend", "--minutes", "2"]
    common = ["--ear", f"script:{answers}", "--no-wait", "--wav", str(tmp_path / "out.wav"), "--journal", str(journal)]
    run = run_cli(["play", "poudlard", *table, *common])
    assert run.code == 0, run.out
    assert (
        "Conseil des livrets : Minerva sans Sirius ni Neville : le livret le déconseille. La partie se joue quand même."
        in run.out
    )
    _, events, _ = read_journal(journal)
    assert any(isinstance(e, Outcome) for e in events)
