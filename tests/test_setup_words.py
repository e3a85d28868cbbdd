"""The spoken setup's words: one test per phase, names, plurals, the grammar of each phase.

The setup's utterance table is tests/utterances/setup.yaml and settings.yaml (run by
tests/test_french.py, with the fuzzing of every setup phase).
"""

from __future__ import annotations

import json
import random
import unicodedata
from functools import cache

import pytest
from hassil import recognize_all, sample_intents

from narrator.listen.commands import SETTINGS, Command
from narrator.listen.french import PHASES, SETUP_PHASES, Parser, fold, phrasebook, script_titles
from narrator.listen.grammar import phrases, setup_phrases, spoken_lists
from narrator.listen.setup_words import MAX_NAME_WORDS, SetupParser, plural
from narrator.script.onenight.script import UnknownGame, load_shipped

GAMES = (None, "onuw", "poudlard", "thiercelieux")


@cache
def setup(game: str | None) -> SetupParser:
    return SetupParser(game)


def said(game: str | None, text: str, phase: str) -> list[dict]:
    return [c.to_json() for c in setup(game).parse(text, phase)]


# --- one test per phase ----------------------------------------------------------------------


def test_game_phase_names_each_game_and_its_title() -> None:
    for text, game in [
        ("Poudlard", "poudlard"),
        ("on veut jouer à harry potter", "poudlard"),
        ("une nuit", "onuw"),
        ("loup-garou pour une nuit", "onuw"),
        ("les loups-garous de Thiercelieux", "thiercelieux"),
        ("le jeu classique", "thiercelieux"),
    ]:
        assert said(None, text, "game") == [{"command": "choose_game", "game": game}], text
    for game in ("onuw", "poudlard"):  # each script's title is understood as it is written
        title = script_titles(game)[0]
        assert said(None, title, "game") == [{"command": "choose_game", "game": game}], title
    assert said(None, "loup-garou", "game") == said(None, "poudlard", "number") == []


def test_number_phase_reads_the_count_in_words_or_digits() -> None:
    for text, count in [("cinq", 5), ("5", 5), ("nous sommes cinq", 5), ("cinq joueurs", 5), ("il y a six joueurs", 6)]:
        assert said("onuw", text, "number") == [{"command": "number", "count": count}], text
    assert said("onuw", "vingt et un joueurs", "number") == [{"command": "number", "count": 21}]
    low, high, _ = phrasebook().ranges["players"]
    assert said("onuw", str(high + 1), "number") == said("onuw", str(low - 1), "number") == []
    assert said("onuw", "cinq", "any") == said("onuw", "cinq", "game") == []


def test_name_phase_reads_a_first_name_capitalized() -> None:
    for text, name in [
        ("chloé", "Chloé"),
        ("CHLOÉ", "Chloé"),
        ("jean marc", "Jean Marc"),
        ("jean-marc", "Jean-Marc"),
        ("je m'appelle chloé", "Chloé"),
        ("euh c'est Zoë", "Zoë"),
        ("il s’appelle o’brien", "O'brien"),
        ("elle s'appelle marie anne sophie", "Marie Anne Sophie"),
        ("Chloé.", "Chloé"),
    ]:
        assert said("poudlard", text, "name") == [{"command": "name", "player": name}], text
    got = setup("poudlard").parse("chloe\u0301", "name")  # decomposed accent: the name comes back NFC
    assert got == [Command("name", player="Chloé")] and unicodedata.is_normalized("NFC", got[0].player or "")
    assert said("poudlard", "non c'est chloé", "name") == [{"command": "no"}, {"command": "name", "player": "Chloé"}]
    assert said("poudlard", "chloé", "any") == said("poudlard", "chloé", "game") == []


def test_a_name_is_never_a_word_the_listener_uses() -> None:
    table = setup("poudlard")
    assert said("poudlard", "oui", "name") == [{"command": "yes"}]
    assert said("poudlard", "annule", "name") == [{"command": "undo"}]
    assert said("poudlard", "recommence", "name") == [{"command": "restart"}]
    assert said("poudlard", "stop", "name") == [{"command": "stop"}]
    book = table.book
    for text in (*book.fillers, *book.not_names, *book.nobody, *book.name_lead_ins):
        if text in book.filler_names:
            continue  # « ben » said alone is Ben: filler_names in scripts/listen.fr.yaml
        assert all(c.command != "name" for c in table.parse(text, "name")), text
    assert said("poudlard", "ben", "name") == [{"command": "name", "player": "Ben"}]
    assert said("poudlard", "euh ben", "name") == []
    fillers = {w for text in book.fillers for w in fold(text).split()}
    for word in sorted(table._reserved):  # every word of every template, alone or next to a name
        if len(word) > 1:
            if word not in book.filler_names:
                assert all(c.command != "name" for c in table.parse(word, "name")), word
            if word not in fillers:  # « Chloé, merci » is Chloé
                assert table.parse(f"chloé {word}", "name") == [], word
                assert table.parse(f"jean {word} marc", "name") == [], word
    assert table.parse("chloé merci", "name") == [Command("name", player="Chloé")]
    too_long = " ".join(["marie"] * (MAX_NAME_WORDS + 1))
    assert table.parse(too_long, "name") == []
    for text in ("chloé 2", "chloé deux", "zoé_1", "chloé 🐺", "a", "", "   ", "-", "'"):
        assert table.parse(text, "name") == [], text


def test_scenario_phase_reads_the_games_scenarios_by_title_and_alias() -> None:
    assert said("poudlard", "première année à poudlard", "scenario") == [
        {"command": "scenario", "scenario": "premiere_annee"}
    ]
    assert said("poudlard", "première année", "scenario") == [{"command": "scenario", "scenario": "premiere_annee"}]
    assert said("onuw", "découverte", "scenario") == [{"command": "scenario", "scenario": "decouverte"}]
    assert said("onuw", "toutes les cartes", "scenario") == [{"command": "scenario", "scenario": "complet"}]
    # the character phase also takes a scenario: either is an answer to « which cards? »
    assert said("onuw", "le scénario découverte", "character") == [{"command": "scenario", "scenario": "decouverte"}]
    assert said("onuw", "première année", "scenario") == said("thiercelieux", "découverte", "scenario") == []
    for game in ("onuw", "poudlard"):
        scenarios = load_shipped(game).announce.scenarios
        # the phase's own phrases: the ~8,300 every phase shares (its « any ») name no scenario (test below)
        own = set(phrases(setup(game), "scenario")) - set(phrases(setup(game), "any"))
        heard = {c.scenario for text in own for c in setup(game).parse(text, "scenario")}
        assert heard - {None} == set(scenarios)


def test_character_phase_reads_cards_and_how_many() -> None:
    assert said("poudlard", "un mangemort", "character") == [{"command": "character", "role": "mangemort", "count": 1}]
    assert said("poudlard", "deux mangemorts", "character") == [
        {"command": "character", "role": "mangemort", "count": 2}
    ]
    assert said("poudlard", "hermione", "character") == [{"command": "character", "role": "hermione", "count": 1}]
    assert said("poudlard", "trois élèves", "character") == [{"command": "character", "role": "eleve", "count": 3}]
    assert said("poudlard", "un mangemort et deux élèves", "character") == [
        {"command": "character", "role": "mangemort", "count": 1},
        {"command": "character", "role": "eleve", "count": 2},
    ]
    for text in ("c'est tout", "terminé", "c'est bon", "voilà"):
        assert said("poudlard", text, "character") == [{"command": "done"}], text
    assert said("poudlard", "deux hermione", "character") == []  # the box holds one
    assert said("poudlard", "un loup-garou", "character") == []  # another game's card
    # every card of each game can be said, as many times as the box holds it
    for game in ("onuw", "poudlard"):
        table = setup(game)
        for rid, role in table.roles.items():
            assert table.parse(role.name, "character") == [Command("character", role=rid, count=1)], role.name
            if role.copies > 1:
                text = f"{role.copies} {plural(role.name.lower())}"
                assert table.parse(text, "character") == [Command("character", role=rid, count=role.copies)], text
            assert table.parse(f"{role.copies + 1} {role.name}", "character") == []


def test_any_phase_hears_controls_and_settings_only() -> None:
    table = setup("poudlard")
    for text, command in [
        ("plus lentement", "slower"),
        ("parle moins vite", "slower"),
        ("plus vite", "faster"),
        ("parle plus vite", "faster"),
        ("plus fort", "louder"),
        ("moins fort", "quieter"),
        ("plus doucement", "quieter"),
        ("attends plus longtemps", "longer_waits"),
        ("plus de temps la nuit", "longer_waits"),
        ("rappelle les personnages", "legend"),
        ("rappelle-moi les personnages", "legend"),
        ("quels sont les personnages", "legend"),
        ("qu'est-ce que je peux dire ?", "help"),
        ("aide", "help"),
        ("que puis-je dire", "help"),
        ("recommence", "restart"),
        ("on recommence", "restart"),
        ("reprends depuis le début", "restart"),
        ("reprends", "resume"),
        ("répète", "repeat"),
        ("pause", "pause"),
        ("oui", "yes"),
        ("c'est bon", "yes"),
        ("non", "no"),
        ("annule", "undo"),
        ("stop", "stop"),
    ]:
        assert table.parse(text, "any") == [Command(command)], text
    for text in ("poudlard", "cinq", "chloé", "première année", "un mangemort", "c'est tout", "on vote"):
        assert table.parse(text, "any") == [], text


def test_settings_are_heard_by_a_game_in_progress_in_every_phase() -> None:
    game = Parser("onuw", ["Alice", "Bob", "Chloé"])
    for phase in PHASES:
        assert game.parse("plus lentement", phase) == [Command("slower")]
        assert game.parse("rappelle les personnages", phase) == [Command("legend")]
        assert game.parse("qu'est-ce que je peux dire", phase) == [Command("help")]
        assert {"plus lentement", "plus fort", "attends plus longtemps", "aide"} <= set(phrases(game, phase))
    assert game.parse("alice vote contre bob", "vote") == [Command("vote", voter="Alice", target="Bob")]


# --- the parser itself -----------------------------------------------------------------------


def test_unknown_game_and_phase() -> None:
    with pytest.raises(UnknownGame, match="jeu inconnu « belote »"):
        SetupParser("belote")
    with pytest.raises(ValueError, match="phase inconnue « vote »"):
        setup("onuw").parse("pause", "vote")
    with pytest.raises(ValueError, match="phase inconnue « name »"):
        Parser("onuw", ["Alice"]).parse("chloé", "name")


def test_a_game_without_scenarios_or_cards_never_hears_them() -> None:
    assert not {"scenario", "character"} & setup(None).commands
    assert "scenario" not in setup("thiercelieux").commands  # the classic game has cards, no scenario
    for game in (None, "thiercelieux"):
        assert setup(game).parse("deux mangemorts", "character") == []
        assert setup(game).parse("c'est tout", "character") == [Command("done")]
    assert {"scenario", "character"} <= setup("poudlard").commands


def test_plurals_of_card_names() -> None:
    assert plural("mangemort") == "mangemorts"
    assert plural("loup-garou") == "loups-garous"
    assert plural("loups-garous") == "loups-garous"
    assert plural("franc-maçon") == "francs-maçons"
    assert plural("élève de poudlard") == "élèves de poudlard"
    assert plural("simple villageois") == "simples villageois"


def test_the_classic_cards_are_heard_at_the_setup_with_their_numbers() -> None:
    # 002: "Ils sont 1, 2, 3 ou 4 suivant le nombre de joueurs" (the wolves); 003: "Deux Sœurs", "Trois Frères"
    for text, role, count in [
        ("deux loups-garous", "loup", 2),
        ("quatre loups", "loup", 4),
        ("une voyante", "voyante", 1),
        ("sept villageois", "villageois", 7),
        ("deux sœurs", "soeur", 2),
        ("trois frères", "frere", 3),
        ("une petite fille", "petite_fille", 1),
        ("l'abominable sectaire", "sectaire", 1),
    ]:
        assert said("thiercelieux", text, "character") == [{"command": "character", "role": role, "count": count}], text
    assert said("thiercelieux", "cinq loups-garous", "character") == []  # the box holds four
    assert said("thiercelieux", "deux voyantes", "character") == []


def test_a_name_said_that_is_a_card_is_known_for_what_it_is() -> None:
    # « Harry » at a Poudlard table is the card, not a name: the setup says so (refused_name) and an
    # initial makes it a name, as the command line asks (name_refusal: « Harry B. »)
    table = setup("poudlard")
    assert table.refused_name("harry") == table.refused_name("je m'appelle harry") == "Harry"
    assert table.refused_name("chloé") is table.refused_name("deux élèves") is table.refused_name("oui") is None
    assert said("poudlard", "harry b", "name") == [{"command": "name", "player": "Harry B."}]
    assert said("poudlard", "je suis harry b", "name") == [{"command": "name", "player": "Harry B."}]
    assert said("poudlard", "oui b", "name") == []  # an initial after a command word is no name
    assert table.name_refusal("Harry B.") is None and "Harry B." in (table.name_refusal("Harry") or "")


# --- the grammar of each phase ---------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("phase", SETUP_PHASES)
def test_setup_phrases_are_lowercase_nfc_unique_and_survive_json(game: str | None, phase: str) -> None:
    got = phrases(setup(game), phase)
    if phase == "name":
        assert got == [] == phrases(setup(game), phase, compact=True)  # any first name: no grammar
        return
    assert got == sorted(set(got)) and got
    assert all(p == p.lower() == unicodedata.normalize("NFC", p) and p == p.strip() for p in got)
    assert all("," not in p for p in got)
    assert json.loads(json.dumps(got, ensure_ascii=False)) == got
    assert {"oui", "non", "annule", "recommence", "répète", "pause", "stop", "plus lentement", "aide"} <= set(got)


def test_setup_phrases_follow_the_phase_and_the_game() -> None:
    game = set(phrases(setup(None), "game"))
    assert {"poudlard", "harry potter", "une nuit", "loup-garou pour une nuit édition poudlard", "thiercelieux"} <= game
    assert {"cinq joueurs", "nous sommes cinq", "il y a six joueurs", "cinq"} <= set(phrases(setup(None), "number"))
    scenario = set(phrases(setup("poudlard"), "scenario"))
    assert {"première année à poudlard", "première année"} <= scenario and "découverte" not in scenario
    character = set(phrases(setup("poudlard"), "character"))
    assert {"deux mangemorts", "hermione", "trois élèves", "c'est tout", "première année"} <= character
    assert "loup-garou" not in character and "cinq joueurs" not in character
    assert "deux loups-garous" in set(phrases(setup("onuw"), "character"))
    assert not {"poudlard", "cinq joueurs", "c'est tout"} & set(phrases(setup("poudlard"), "any"))


# of a phase's own phrases, the share the default run walks beyond those that bring a new word (a character
# phase holds every card at every count in every form: 29,581 phrases in thiercelieux's, 3,000 walked)
OWN_SHARE = 0.1
# an « any » phase walks one in ANY_TURNS of the shared phrases: every game's « any » takes its turn, the
# other turns are walked only in the 16 other phases
ANY_TURNS = 2 * len(GAMES)
WALKED = [(game, phase) for game in GAMES for phase in SETUP_PHASES if phase not in ("name", "any")]


# Some 39,000 phrases of the grammar are the commands every phase hears (its « any »: settings, help,
# « répète »…), the same in every game. The default run walks each of them in one of the 16 other phases
# (a sixteenth each), chosen by its rank in the grammar's order, and half of them a second time in one
# game's « any » phase (an eighth each); those other phases also walk their own phrases (OWN_SHARE).
# `-m full` walks every phrase in every phase.
@pytest.mark.parametrize("every", [False, pytest.param(True, marks=pytest.mark.full)], ids=["sampled", "every"])
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("phase", [p for p in SETUP_PHASES if p != "name"])
def test_every_phrase_of_the_setup_grammar_is_understood_as_its_command(
    game: str | None, phase: str, every: bool
) -> None:
    table = setup(game)
    intents = table.book.intents(phase, spoken=True, commands=table.commands)
    lists = spoken_lists(table)
    shared = {i.name for i in table.book.intents("any", spoken=True, commands=table.commands).intents.values()}
    # the shared phrases this phase walks: by rank, one in 8 in an « any » phase, one in 16 in the others
    turns, turn = (ANY_TURNS, GAMES.index(game)) if phase == "any" else (len(WALKED), WALKED.index((game, phase)))
    wrong, seen = [], 0  # seen: the shared phrases so far, in the grammar's order (the same in every phase)
    # the phase's own phrases: one in OWN_SHARE drawn with a fixed seed, and every phrase that brings a word no
    # phrase walked before had (so each card, count and form is still tried; the rest are their combinations)
    draw, heard = random.Random(f"{game}-{phase}"), set()
    for intent, text in sample_intents(intents, slot_lists=lists):
        if intent in shared and not every:
            seen += 1
            if seen % turns != turn:
                continue
        elif not every:
            said = set(text.split())
            if said <= heard and draw.random() >= OWN_SHARE:
                continue
            heard |= said
        got = table.parse(text, phase)
        if [c.command for c in got] == [intent]:
            continue
        # the grammar has one list of numbers for every card: "trois hermione" is heard, then refused
        values = [{e.name: e.value for e in r.entities_list} for r in recognize_all(text, intents, slot_lists=lists)]
        too_many = all(int(v.get("count", 1)) > table.most(v["role"]) for v in values if "role" in v)
        # … or read another way the box allows: « deux villageois-villageois » is two villageois and one more
        other = bool(got) and all(c.command == "character" and (c.count or 1) <= table.most(c.role or "") for c in got)
        if not (intent == "character" and (got == [] or other) and values and too_many):
            wrong.append((text, intent, got))
    assert wrong == []
    for word in (*table.book.fillers, *table.book.not_names):
        assert table.parse(word, phase) in ([], [Command("done")]), word  # "voilà" is done with the cards


def test_setup_vocabulary_is_folded_like_the_input() -> None:
    # the words a name may not hold are compared folded: accents and case never let one through
    table = setup("onuw")
    assert fold("Répète").strip() in table._reserved and "repete" in table._reserved
    assert table.parse("RÉPÈTE", "name") == table.parse("repete", "name") == [Command("repeat")]
    assert all(s in SETTINGS for s in ("slower", "faster", "louder", "quieter", "longer_waits"))


def test_setup_phrases_by_game_and_phase_and_the_parser_from_either_module() -> None:
    from narrator.listen import french

    assert french.SetupParser is SetupParser  # importable from either module
    compact = setup_phrases("poudlard", "character")
    assert compact == phrases(setup("poudlard"), "character", compact=True)
    assert setup_phrases("poudlard", "character", compact=False) == phrases(setup("poudlard"), "character")
    assert setup_phrases(None, "name") == []
    with pytest.raises(ValueError, match="phase inconnue « vote »"):
        setup_phrases(None, "vote")


def test_a_card_refused_as_a_name_keeps_its_accents() -> None:
    # the table hears « Sorcière B. », not « Sorciere B. » (espeak says the two differently)
    thiercelieux = SetupParser("thiercelieux")
    assert thiercelieux.refused_name("Sorcière") == "Sorcière"
    assert thiercelieux.refused_name("je suis Sorcière") == "Sorcière"
    assert thiercelieux.refused_name("petite-fille") == "Petite-Fille"
    assert SetupParser("poudlard").refused_name("je m'appelle ron weasley") == "Ron Weasley"
