"""French commands: the utterance table, names, the grammar's phrases, a broken phrasebook, fuzzing.

The spoken setup's own tests are in tests/test_setup_words.py; its utterances are in the table here
(a case with `players: null` is read by the setup's parser).
"""

from __future__ import annotations

import json
import os
import unicodedata
from functools import cache
from pathlib import Path

import pytest
import table_yaml
from hassil import sample_intents
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narrator.listen.commands import COMMANDS, SETTINGS, Command
from narrator.listen.french import PHASES, SETUP_PHASES, Listener, Parser, load_phrasebook, phrasebook
from narrator.listen.grammar import bigram_cover, phrases, spoken_lists
from narrator.listen.setup_words import SetupParser
from narrator.resources import data_dir
from narrator.script.marks import YamlError
from narrator.script.onenight.script import UnknownGame

UTTERANCES = Path(__file__).parent / "utterances"
CASE_KEYS = {"text", "game", "players", "phase", "expect"}
OPTIONAL_KEYS = {"typed"}  # true: written as a keyboard or a free recognizer would (tests/test_grammar_coverage.py)
# examples per fuzz test; NARRATOR_FUZZ=10000 for the long run
FUZZ = int(os.environ.get("NARRATOR_FUZZ", "1000"))


def _cases() -> list:
    out = []
    for path in sorted(UTTERANCES.glob("*.yaml")):
        for i, case in enumerate(table_yaml.load(path.read_text(encoding="utf-8"))):
            out.append(pytest.param(case, id=f"{path.stem}:{i + 1}:{case['phase']}:{case['text'][:40]}"))
    return out


CASES = _cases()


@cache
def parser(game: str, players: tuple[str, ...]) -> Parser:
    return Parser(game, players)


@cache
def setup_parser(game: str | None) -> SetupParser:
    return SetupParser(game)


def listener(case: dict) -> Listener:
    """A case's parser: the table's, or the setup's when nobody is seated yet (`players: null`)."""
    if case["players"] is None:
        return setup_parser(case["game"])
    return parser(case["game"], tuple(case["players"]))


# --- the utterance table ---------------------------------------------------------------------


def test_the_table_is_big_enough_and_holds_refusals() -> None:
    cases = [p.values[0] for p in CASES]
    assert len(cases) >= 400
    assert sum(1 for c in cases if c["expect"] == []) >= 100
    for game in ("onuw", "poudlard", "thiercelieux"):  # every game, at its table and at the setup
        assert sum(1 for c in cases if c["game"] == game and c["players"]) >= 60, game
    setup = [c for c in cases if c["players"] is None]
    assert len(setup) >= 80 and sum(1 for c in setup if c["expect"] == []) >= 20
    # the settings are heard by a game in progress, in each of its phases, and by the setup
    for name in (*SETTINGS, "legend", "help"):
        heard = {(c["players"] is None, c["phase"]) for c in cases if c["expect"][:1] == [{"command": name}]}
        assert {(False, p) for p in PHASES} | {(True, "any")} <= heard, name
    assert all(CASE_KEYS <= set(c) <= CASE_KEYS | OPTIONAL_KEYS for c in cases), (
        "each case: text, game, players, phase, expect"
    )
    heard = {c["expect"][0]["command"] for c in cases if c["expect"]}
    assert heard == set(COMMANDS), "every command is in the table"


@pytest.mark.parametrize("case", CASES)
def test_utterance(case: dict) -> None:
    got = listener(case).parse(case["text"], case["phase"])
    assert [c.to_json() for c in got] == [Command(**c).to_json() for c in case["expect"]]


# --- the value type --------------------------------------------------------------------------


def test_command_json_holds_only_its_own_keys() -> None:
    assert Command("vote", voter="Alice", target=None).to_json() == {
        "command": "vote",
        "voter": "Alice",
        "target": None,
    }
    assert Command("tally", target="Bob", count=3).to_json() == {"command": "tally", "target": "Bob", "count": 3}
    assert Command("reveal", player="Dan", role="doppelganger:voyante").to_json() == {
        "command": "reveal",
        "player": "Dan",
        "role": "doppelganger:voyante",
    }
    assert Command("more_time", seconds=60).to_json() == {"command": "more_time", "seconds": 60}
    assert Command("pause").to_json() == {"command": "pause"}
    assert Command("choose_game", game="poudlard").to_json() == {"command": "choose_game", "game": "poudlard"}
    assert Command("number", count=5).to_json() == {"command": "number", "count": 5}
    assert Command("name", player="Chloé").to_json() == {"command": "name", "player": "Chloé"}
    assert Command("scenario", scenario="decouverte").to_json() == {"command": "scenario", "scenario": "decouverte"}
    assert Command("character", role="eleve", count=2).to_json() == {
        "command": "character",
        "role": "eleve",
        "count": 2,
    }
    for bare in ("done", "restart", *SETTINGS, "legend", "help"):
        assert Command(bare).to_json() == {"command": bare}
    json.dumps([Command("vote", voter="Chloé", target="Zoë").to_json()], ensure_ascii=False)


def test_command_refuses_unknown_kinds_and_foreign_fields() -> None:
    with pytest.raises(ValueError, match="commande inconnue"):
        Command("dance")
    with pytest.raises(ValueError, match="pause ne prend pas"):
        Command("pause", seconds=3)
    with pytest.raises(ValueError, match="tally sans « count »"):
        Command("tally", target="Bob")
    with pytest.raises(ValueError, match="vote sans « voter »"):
        Command("vote", target="Bob")
    assert Command("vote", voter="Alice").target is None  # a vote for nobody
    with pytest.raises(ValueError, match="choose_game sans « game »"):
        Command("choose_game")
    with pytest.raises(ValueError, match="jeu inconnu « belote »"):
        Command("choose_game", game="belote")
    with pytest.raises(ValueError, match="character sans « count »"):
        Command("character", role="eleve")
    with pytest.raises(ValueError, match="slower ne prend pas « scenario »"):
        Command("slower", scenario="decouverte")
    with pytest.raises(AttributeError):
        Command("pause").command = "stop"  # type: ignore[misc]


# --- the table's names -----------------------------------------------------------------------


def test_the_output_keeps_the_seated_spelling() -> None:
    [vote] = Parser("onuw", ["CHLOÉ", "zoë"]).parse("chloe vote contre zoe", "vote")
    assert (vote.voter, vote.target) == ("CHLOÉ", "zoë")


def test_names_that_sound_the_same_are_refused_at_setup() -> None:
    with pytest.raises(ValueError, match="se prononcent pareil"):
        Parser("onuw", ["Zoé", "Zoe"])
    with pytest.raises(ValueError, match="illisible"):
        Parser("onuw", ["Alice", "?!"])


def test_unknown_game_and_phase() -> None:
    with pytest.raises(UnknownGame):
        Parser("belote", ["Alice"])
    with pytest.raises(ValueError, match="phase inconnue"):
        Parser("onuw", ["Alice"]).parse("pause", "night")


def test_a_character_named_like_a_player_is_read_by_its_place() -> None:
    table = Parser("poudlard", ["Harry", "Hermione", "Luna"])
    assert table.parse("harry hermione hermione harry luna luna", "reveal") == [
        Command("reveal", player="Harry", role="hermione"),
        Command("reveal", player="Hermione", role="harry"),
        Command("reveal", player="Luna", role="luna"),
    ]


def test_a_name_within_the_fuzzy_margin_of_two_players_is_never_guessed() -> None:
    table = Parser("onuw", ["Marie", "Maria", "Bob"])
    for heard in ("mari", "mariah", "marié", "mario"):
        assert table.parse(f"{heard} vote contre bob", "vote") in (
            [],
            [Command("vote", voter="Marie", target="Bob")],
            [Command("vote", voter="Maria", target="Bob")],
        )
    assert table.parse("mari vote contre bob", "vote") == []


# --- the grammar -----------------------------------------------------------------------------


TABLE = ("Alice", "Chloé", "Jean-Marc")


@pytest.mark.parametrize("phase", PHASES)
def test_phrases_are_lowercase_nfc_unique_and_survive_json(phase: str) -> None:
    said = phrases(parser("onuw", TABLE), phase)
    assert said == sorted(set(said))
    assert all(p == p.lower() == unicodedata.normalize("NFC", p) and p == p.strip() for p in said)
    assert json.loads(json.dumps(said, ensure_ascii=False)) == said
    assert {"répète", "pause", "oui", "non", "stop", "euh", "pas", "ne"} <= set(said)


def test_phrases_follow_the_phase() -> None:
    table = parser("onuw", TABLE)
    vote, tally, reveal = (set(phrases(table, p)) for p in ("vote", "tally", "reveal"))
    assert {"alice vote contre chloé", "alice chloé", "alice vote pour personne", "jean-marc contre alice"} <= vote
    assert {"jean marc contre alice", "trois voix pour chloé", "chloé deux", "zéro pour alice"} <= vote ^ tally
    assert {"chloé doppelgänger voyante", "alice est loup-garou", "alice est loup garou"} <= reveal
    assert "alice chloé" not in tally | reveal
    assert "trois voix pour chloé" in tally and "quatre voix pour chloé" not in tally  # 3 players
    assert "encore une minute" in vote & tally & reveal


@pytest.mark.parametrize("phase", PHASES)
def test_every_phrase_of_the_grammar_is_understood_as_its_command(phase: str) -> None:
    table = parser("poudlard", ("Alice", "Harry"))
    book = table.book
    wrong = []  # hassil's own expansion, with the intent each phrase came from
    intents = book.intents(phase, spoken=True, commands=table.commands)
    for intent, text in sample_intents(intents, slot_lists=spoken_lists(table)):
        got = table.parse(text, phase)
        if [c.command for c in got] != [intent]:
            wrong.append((text, intent, got))
    assert wrong == []
    for word in (*book.fillers, *book.not_names):
        assert table.parse(word, phase) == []


def _pairs(said: list[str]) -> set[tuple[str, str]]:
    return {pair for text in said for pair in zip(["<s>", *text.split()], [*text.split(), "</s>"])}


@pytest.mark.parametrize("phase", PHASES)
def test_the_compact_grammar_keeps_every_word_pair_in_far_fewer_phrases(phase: str) -> None:
    table = parser("onuw", ("Alice", "Bob", "Chloé", "Dan", "Éric", "Jean-Marc"))
    full, compact = phrases(table, phase), phrases(table, phase, compact=True)
    assert set(compact) <= set(full) and compact == sorted(compact)
    assert _pairs(compact) == _pairs(full)
    assert len(compact) * 4 < len(full)
    assert bigram_cover(["a b", "a b", "b a", "a b a"]) == ["a b", "b a"]


# --- the phrasebook file ---------------------------------------------------------------------


SHIPPED = (data_dir("scripts") / "listen.fr.yaml").read_text(encoding="utf-8")


def _broken(old: str, new: str) -> str:
    assert old in SHIPPED
    return SHIPPED.replace(old, new, 1)


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_the_shipped_phrasebook_loads() -> None:
    book = phrasebook()
    assert {b.command for b in book.blocks} == set(COMMANDS) - {"name"}  # a name has no template
    assert set(book.roles) == {"onuw", "poudlard", "thiercelieux"}
    assert set(book.games) == {"onuw", "poudlard", "thiercelieux"}
    assert book.name_lead_ins and set(book.scenarios) == {"onuw", "poudlard"}


def test_a_game_in_progress_hears_no_setup_command_and_the_setup_no_vote() -> None:
    table = parser("poudlard", ("Alice", "Harry"))
    assert not {"choose_game", "number", "name", "scenario", "character", "done", "restart"} & table.commands
    assert table.parse("recommence", "any") == table.parse("poudlard", "any") == []
    assert table.parse("c'est tout", "any") == []
    assert table.parse("plus lentement", "vote") == [Command("slower")]
    setup = setup_parser("poudlard")
    assert not {"vote", "tally", "reveal", "more_time", "start_vote"} & setup.commands
    assert setup.parse("on vote", "any") == setup.parse("encore une minute", "any") == []


@pytest.mark.parametrize(
    "old, new, needle, message",
    [
        ('  "yes":', "  yes:", "  yes:", "clé inconnue « True » ; attendu : une de character, choose"),
        (
            "    - phases: [vote]\n",
            "    - phases: [vote, nuit]\n",
            "phases: [vote, nuit]",
            "attendu : une de vote, tally",
        ),
        ('"{player:voter} {target}"', '"{player:voter} {cible}"', "{cible}", "{cible:cible} : vote prend"),
        ('"{player:voter} {target}"', '"{player:voter} ({target}"', "({target}", "modèle illisible"),
        ('"{player:voter} {target}"', '"{player:voter} <voix> {target}"', "<voix>", "règle <voix> inconnue"),
        (
            "    tannelier: [tannelier, tanneur, tanneuse]",
            "    tanner: [tanneur]",
            "tanner:",
            "attendu : doppelganger, loup",
        ),
        (
            "    luna: [luna, luna lovegood, lovegood, loufoca, loufoca lovegood]\n",
            "",
            "  poudlard:",
            "rôle « luna » sans nom parlé",
        ),
        ("fillers:", "remplissage:", "remplissage:", "clé inconnue"),
        ("  seconds: {from: 5, to: 120, step: 5}", "  seconds: {from: 50, to: 12}", "seconds: {from: 50", "from ≤ to"),
        ("      slots: {count: 0}", "      slots: {count: zéro}", "slots: {count: zéro}", "attendu : un nombre entier"),
        ("  players: {from: 1, to: 30}\n", "", "  minutes: {from", "clé manquante « players »"),
        ('        - "{players:count}"\n', '        - "{players:joueurs}"\n', "{players:joueurs}", "number prend count"),
        ("    - phases: [game]", "    - phases: [jeu]", "phases: [jeu]", "attendu : une de vote, tally"),
        (
            "  stop:\n",
            "  name:\n    - sentences: [{player}]\n  stop:\n",
            "  name:",
            "clé inconnue « name » ; attendu : une de character",
        ),
        ("  thiercelieux:\n", "  belote:\n", "  belote:", "attendu : une de onuw, poudlard, thiercelieux"),
        ("    complet: [", "    complete: [", "    complete:", "attendu : decouverte, complet"),
        ("name_lead_ins:\n", "name_lead_ins: []\nx_lead_ins:\n", "name_lead_ins: []", "attendu : une valeur non vide"),
    ],
)
def test_a_broken_phrasebook_says_where_and_what(old: str, new: str, needle: str, message: str) -> None:
    text = _broken(old, new)
    with pytest.raises(YamlError) as error:
        load_phrasebook(text, "scripts/listen.fr.yaml")
    line = _line_of(text, needle)
    assert any(p.line == line and message in p.message for p in error.value.problems), str(error.value)
    assert str(error.value).startswith("scripts/listen.fr.yaml:")


def test_a_phrasebook_that_is_not_yaml() -> None:
    with pytest.raises(YamlError, match=r"^x\.yaml:2:\d+: YAML illisible"):
        load_phrasebook("fillers: [euh\nnobody: ]", "x.yaml")


# --- fuzzing: any text gives a list of commands, never an exception ---------------------------


FUZZ_TABLES = [("onuw", ("Alice", "Bob", "Chloé", "Jean-Marc")), ("poudlard", ("Harry", "Luna", "Marie", "Maria"))]
FUZZ_SETUPS = (None, "onuw", "poudlard", "thiercelieux")


@cache
def _vocabulary() -> list[str]:
    """Words and whole phrases the parser knows, numbers, near-names and separators, to mix (built once,
    when the first fuzz test draws from it: not while pytest collects)."""
    book = phrasebook()
    said = {w for t in (*book.fillers, *book.not_names, *book.nobody) for w in t.split()}
    said |= {w for b in book.blocks for s in b.sentences for w in s.replace("|", " ").split()}
    said |= {a for roles in book.roles.values() for aliases in roles.values() for a in aliases}
    said |= {p for table in FUZZ_TABLES for p in phrases(parser(*table), "any", compact=True)}
    said |= {p for game in FUZZ_SETUPS for ph in SETUP_PHASES for p in phrases(setup_parser(game), ph, compact=True)}
    said |= {a for aliases in (*book.games.values(), book.name_lead_ins) for a in aliases}
    numbers = [
        "zéro",
        "zero",
        "un",
        "une",
        "deux",
        "trois",
        "dix-sept",
        "vingt et un",
        "cent",
        "mille",
        "3",
        "99",
        "1er",
    ]
    names = ["Alice", "alixe", "Chloé", "chloe", "Jean-Marc", "harry", "mari", "Zoë", "O'Brien", "-", "'", "  ", "."]
    return sorted(said) + numbers + names


@settings(max_examples=FUZZ, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=200), table=st.sampled_from(FUZZ_TABLES), phase=st.sampled_from(PHASES))
def test_any_unicode_gives_commands_or_nothing(text: str, table: tuple, phase: str) -> None:
    got = parser(*table).parse(text, phase)
    assert isinstance(got, list) and all(isinstance(c, Command) for c in got)


@settings(max_examples=FUZZ, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    said=st.lists(st.deferred(lambda: st.sampled_from(_vocabulary())), max_size=14),
    table=st.sampled_from(FUZZ_TABLES),
    phase=st.sampled_from(PHASES),
    sep=st.sampled_from([" ", "  ", "-", ", ", "'"]),
)
def test_any_mix_of_known_words_gives_commands_or_nothing(said: list, table: tuple, phase: str, sep: str) -> None:
    players = parser(*table)
    got = players.parse(sep.join(said), phase)
    assert isinstance(got, list) and all(isinstance(c, Command) for c in got)
    seated = set(players.players)
    for command in got:  # never a player who is not seated
        assert {command.voter, command.player} - {None} <= seated
        assert command.target is None or command.target in seated
        assert command.count is None or 0 <= command.count <= len(seated)


SETUP_PAIRS = [(game, phase) for game in FUZZ_SETUPS for phase in SETUP_PHASES]


@settings(max_examples=FUZZ, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=200), at=st.sampled_from(SETUP_PAIRS))
def test_the_setup_gives_commands_or_nothing_for_any_unicode(text: str, at: tuple) -> None:
    got = setup_parser(at[0]).parse(text, at[1])
    assert isinstance(got, list) and all(isinstance(c, Command) for c in got)


@settings(max_examples=FUZZ, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    said=st.lists(st.deferred(lambda: st.sampled_from(_vocabulary())), max_size=14),
    at=st.sampled_from(SETUP_PAIRS),
    sep=st.sampled_from([" ", "  ", "-", ", ", "'"]),
)
def test_the_setup_gives_commands_or_nothing_for_any_mix_of_known_words(said: list, at: tuple, sep: str) -> None:
    game, phase = at
    setup = setup_parser(game)
    got = setup.parse(sep.join(said), phase)
    assert isinstance(got, list) and all(isinstance(c, Command) for c in got)
    for command in got:  # only what the game holds, in the phase that asks for it
        assert command.command in setup.commands
        if command.command == "name":
            assert phase == "name" and command.player and command.player == command.player.strip()
            assert not any(ch.isdigit() for ch in command.player)
        if command.command == "character":
            assert phase == "character" and 1 <= (command.count or 0) <= setup.roles[command.role or ""].copies
        if command.command == "scenario":
            assert phase in ("scenario", "character")
        if command.command in ("choose_game", "number"):
            assert phase == {"choose_game": "game", "number": "number"}[command.command]
