"""Classic Thiercelieux (rulebooks 002 and 003): the scenario table, the format's example, the script, the CLI."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml
from scenario_table import RULEBOOKS, load_cases, normalize, resolve_case

from narrator.app.family import resolve_record
from narrator.resources import data_dir
from narrator.rules.classic.model import Camp, Options, Power, State
from narrator.rules.classic.victory import check
from narrator.rules.errors import RecordError
from narrator.script.classic.script import PLACEHOLDERS, load_classic, load_classic_script, say
from narrator.script.marks import YamlError

ROOT = Path(__file__).resolve().parent.parent
TABLE = "thiercelieux.yaml"
# 002 and 003's general rules; 003's other characters; an adversarial audit of both
CASES = load_cases(TABLE) + load_cases("thiercelieux_roles.yaml") + load_cases("thiercelieux_audit.yaml")
SCRIPT = (data_dir("scripts") / "thiercelieux.yaml").read_text(encoding="utf-8")
FILE = "scripts/thiercelieux.yaml"


# ------------------------------------------------------------------------------------ the table


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_scenario(case: dict) -> None:
    expect, out = resolve_case(case)
    if out is None:
        return  # the expected error was checked
    if "phases" in expect:
        assert out["phases"] == expect["phases"]
    if "dead" in expect:
        assert out["dead"] == expect["dead"]  # in the order they died
    if "alive" in expect:
        assert out["alive"] == expect["alive"]
    assert out["camp"] == expect["camp"]
    if "winners" in expect:
        assert set(out["winners"]) == set(expect["winners"])
    for key, value in expect.get("state", {}).items():
        assert out["state"][key] == value, key
    for line in expect.get("why", []):
        assert line in out["why"]
    assert out["why"] and all(isinstance(line, str) and line for line in out["why"])


def test_table_is_complete_and_quotes_the_rulebooks() -> None:
    assert len(CASES) >= 45
    ids = Counter(c["id"] for c in CASES)
    assert [i for i, n in ids.items() if n > 1] == []
    texts: dict[str, str] = {}
    for case in CASES:
        source = case["source"]
        if source not in texts:
            texts[source] = normalize((RULEBOOKS / source).read_text(encoding="utf-8"))
        assert normalize(case["passage"]) in texts[source], (case["id"], case["passage"])
    # both rulebooks are cited, and every case says what it expects
    assert {c["source"] for c in CASES} >= {"002_e447aa202eb5d4a8.txt", "003_e5aaed9cd0406014.txt"}
    assert all(c["expect"] for c in CASES)


def test_rulebook_copies_are_the_seeds() -> None:
    shared = Path("/work/shared/seeds")
    if not shared.is_dir():
        pytest.skip("the steering repository is not beside this checkout")
    for name in ("002_e447aa202eb5d4a8.txt", "003_e5aaed9cd0406014.txt"):
        assert (RULEBOOKS / name).read_bytes() == (shared / name).read_bytes()


# ------------------------------------------------------------------------------------ the format's example

EXAMPLE = ROOT / "examples" / "classic.yaml"


def test_the_documented_example_gives_the_documented_output() -> None:
    # docs/record.md, "Multi-night games (thiercelieux)": classic-1 and its output
    out = resolve_record(yaml.safe_load(EXAMPLE.read_text(encoding="utf-8")))
    assert list(out) == ["id", "phases", "dead", "alive", "camp", "winners", "state", "why"]
    assert out["id"] == "classic-1"
    assert out["phases"] == [
        {"phase": "nuit 1", "dead": ["Hal", "Fay"], "learned": {"Cleo": {"Ana": "loup"}}},
        {"phase": "jour 1", "dead": ["Ana"]},
        {"phase": "nuit 2", "dead": ["Eva", "Ben"], "learned": {"Cleo": {"Ben": "loup"}}},
    ]
    assert out["dead"] == ["Hal", "Fay", "Ana", "Eva", "Ben"]
    assert out["alive"] == ["Cleo", "Dan", "Gus"]
    assert out["camp"] == "village"
    assert set(out["winners"]) == {"Cleo", "Dan", "Eva", "Fay", "Gus", "Hal"}
    state = out["state"]
    assert state["roles"]["Ana"] == "loup" and state["camps"]["Ana"] == "loups"
    assert state["lovers"] == ["Fay", "Hal"] and state["captain"] == "Dan"
    assert state["charmed"] == [] and state["growl"] is None and state["known_roles"] == {}
    assert state["voters"] == ["Cleo", "Dan", "Gus"]
    # the format's first line, said without the lovers' gender (a record does not give it)
    assert out["why"][1:5] == [
        "Cupidon unit Fay et Hal pour toujours.",
        "La voyante regarde la carte de son choix : Ana a la carte loup-garou.",
        "Les loups-garous ont dévoré Hal, qui avait la carte villageois.",
        "Fay, qui avait la carte Cupidon, meurt de chagrin : son amour, Hal, n'est plus.",
    ]
    assert "Dan, capitaine, a une voix qui compte double." in out["why"]
    assert out["why"][-2:] == [
        "Le village n'a plus d'ennemi en vie : le village gagne.",
        "Cleo, Dan, Eva, Fay, Gus et Hal gagnent.",
    ]


def _narrator(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True, timeout=60)


def test_cli_resolves_the_example() -> None:
    run = _narrator("resolve", str(EXAMPLE))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["camp"] == "village"


def test_cli_names_the_phase_and_the_missing_decision(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    broken = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("      chasseur: Ben"))
    assert broken != text
    path = tmp_path / "game.yaml"
    path.write_text(broken, encoding="utf-8")
    run = _narrator("resolve", str(path))
    assert run.returncode == 2 and run.stdout == ""
    (line,) = run.stderr.splitlines()
    night2 = broken[: broken.index("      voyante: Ben")].count("\n") + 1
    assert line == (
        f"narrator: {path}:{night2}:7: enregistrement « classic-1 » : phases.2.night : "
        "nuit 2 : le chasseur Eva est mort ; attendu : chasseur"
    )


def test_cli_points_at_the_refused_choice(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace("      loup: Eva\n", "      loup: Ben\n")
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    run = _narrator("resolve", str(path))
    assert run.returncode == 2 and run.stdout == ""
    where = text[: text.index("loup: Ben")].count("\n") + 1
    assert run.stderr.startswith(
        f"narrator: {path}:{where}:13: enregistrement « classic-1 » : phases.2.night.loup : attendu : "
    )


# ------------------------------------------------------------------------------------ records

BASE = {
    "id": "r",
    "ruleset": "thiercelieux",
    "players": ["Ana", "Ben", "Cleo", "Dan"],
    "deal": {"Ana": "loup", "Ben": "voyante", "Cleo": "villageois", "Dan": "villageois"},
    "phases": [{"night": {"loup": "Dan"}}],
}

BAD_RECORDS = [
    ({"night": 1}, "night : attendu : une des clés id, ruleset, players, deal, options, phases"),
    ({"players": []}, "players : attendu : une liste non vide de noms"),
    ({"players": ["Ana", "Ana", "Cleo", "Dan"]}, "players.1 : attendu : des noms tous différents"),
    ({"deal": {"Ana": "loup", "Ben": "voyante", "Cleo": "villageois", "Dan": "villageois", "Zed": "loup"}}, "deal.Zed"),
    ({"deal": {"Ana": "loup", "Ben": "voyante", "Cleo": "villageois", "Dan": "villageois", "extra": ["loup"]}},
     "deal.extra : attendu : rien : des cartes non distribuées"),
    ({"options": {"captain": "yes"}}, 'options.captain : attendu : true ou false ; trouvé : "yes"'),
    ({"options": {"salvateur": True}}, "options.salvateur : attendu : une des options captain, witch_self_heal"),
    ({"phases": None}, "phases : attendu : la liste des phases"),
    ({"phases": {"night": {}}}, "phases : attendu : une liste de phases"),
    ({"phases": [{"night": {}, "day": {}}]}, "phases.0 : attendu : night: {…}"),
    ({"phases": [{"night": [1]}]}, "phases.0.night : attendu : les choix de la phase"),
    ({"phases": [{"night": {"loup": None}}]}, "phases.0.night.loup : attendu : la victime des loups-garous"),
    ({"phases": [{"night": {"loup": "Dan", "voyante": 3}}]}, "phases.0.night.voyante : attendu : le joueur dont"),
    ({"phases": [{"night": {"loup": "Dan", "voyante": "Zed"}}]}, "; trouvé : \"Zed\""),
]  # fmt: skip


@pytest.mark.parametrize("change,message", BAD_RECORDS, ids=[f"bad{i}" for i in range(len(BAD_RECORDS))])
def test_bad_records_say_where_and_what_was_expected(change: dict, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        resolve_record({**BASE, **change})
    assert message in str(caught.value)


def test_an_empty_game_is_a_game_not_yet_played() -> None:
    out = resolve_record({**BASE, "phases": []})
    assert out["phases"] == [] and out["dead"] == [] and out["camp"] is None
    assert out["alive"] == ["Ana", "Ben", "Cleo", "Dan"] and out["why"] == [
        "Personne n'a encore gagné : la partie continue."
    ]


def test_a_null_optional_choice_is_not_used() -> None:
    out = resolve_record({**BASE, "phases": [{"night": {"loup": "Dan", "voyante": None}}]})
    assert out["phases"][0]["learned"] == {}


def test_other_rulesets_are_refused_by_name() -> None:
    with pytest.raises(RecordError) as caught:
        resolve_record({"ruleset": "zombie"})
    assert str(caught.value) == 'ruleset : attendu : onuw, poudlard ou thiercelieux ; trouvé : "zombie"'


# ------------------------------------------------------------------------------------ victory, unit by unit


def _state(camps: dict[str, Camp], alive: set[str], lovers: tuple[str, ...] = ()) -> State:
    players = tuple(camps)
    return State(
        players,
        tuple("villageois" for _ in players),
        tuple(camps.values()),
        tuple(p in alive for p in players),
        lovers=lovers,
        options=Options(),
    )


V, W, L = Camp.VILLAGE, Camp.WOLVES, Camp.LOVERS


@pytest.mark.parametrize(
    "camps,alive,lovers,winner",
    [
        ({"a": W, "b": V, "c": V}, {"a", "b", "c"}, (), None),
        ({"a": W, "b": V, "c": V}, {"a", "b"}, (), W),  # parity (RULINGS thiercelieux 1)
        ({"a": W, "b": V, "c": V}, {"b", "c"}, (), V),
        ({"a": W, "b": V, "c": V}, set(), (), V),  # nobody left: the wolves are all dead
        ({"a": L, "b": L, "c": V, "d": W}, {"a", "b"}, ("a", "b"), L),
        ({"a": L, "b": L, "c": V, "d": W}, {"a", "b", "c"}, ("a", "b"), None),  # the wolf in love blocks the village
        ({"a": L, "b": L, "c": V, "d": W}, {"a", "b", "d"}, ("a", "b"), None),  # one wolf, two others
        ({"a": L, "b": L, "c": W, "d": W}, {"a", "b", "c", "d"}, ("a", "b"), W),  # two against the two lovers
    ],
)
def test_victory_conditions(camps: dict, alive: set, lovers: tuple, winner: Camp | None) -> None:
    assert check(_state(camps, alive, lovers)) is winner


# ------------------------------------------------------------------------------------ the script


def test_the_shipped_script_loads_with_every_role_of_the_format() -> None:
    rules = load_classic()
    # formats/game-record.md, "Role ids (rulebooks 002 and 003)"
    ids = """loup, villageois, voyante, sorciere, chasseur, cupidon, petite_fille, voleur, salvateur, ancien,
    bouc_emissaire, idiot, renard, enfant_sauvage, comedien, chevalier, juge_begue, montreur_ours, soeur, frere,
    villageois_villageois, servante, corbeau, pyromane, gitane, grand_mechant_loup, infect, joueur_de_flute,
    loup_blanc, sectaire, ange, chien_loup"""
    assert set(rules.roles) == {i.strip() for i in ids.split(",")}
    # 002's order: "1 – … la Voyante", "2 – … les Loups-Garous", "3 – … la Sorcière"; Cupidon first among
    # 002's; the published game's for 003's others (RULINGS thiercelieux 18)
    order = [r.id for r in rules.night_order()]
    assert [r for r in order if r in ("cupidon", "voyante", "petite_fille", "loup", "sorciere")] == [
        "cupidon",
        "voyante",
        "petite_fille",
        "loup",
        "sorciere",
    ]
    assert order == [
        "voleur", "cupidon", "enfant_sauvage", "chien_loup", "soeur", "frere", "comedien", "salvateur", "voyante",
        "renard", "petite_fille", "loup", "infect", "loup_blanc", "grand_mechant_loup", "sorciere",
        "joueur_de_flute", "corbeau", "pyromane",
    ]  # fmt: skip
    # the sœurs and frères wake without a choice: no record key for them
    assert [r.id for r in rules.night_roles()] == [r for r in order if r not in ("soeur", "frere")]
    assert rules.options == Options(
        captain=False,
        witch_self_heal=True,
        lovers_spare_each_other=True,
        salvateur_self=True,
        comedien_cards_once=True,
    )


def test_every_template_renders() -> None:
    rules = load_classic()
    params = {"name": "Ana", "names": ["Ana", "Ben"], "role": "loup", "number": 2, "count": 3}
    params |= {"captain": "Cleo", "hunter": "Dan", "lover": "Eva", "model": "Fay", "knight": "Gus", "servante": "Hal"}
    # the questions' lists, said as a record lists them (« Ana, Ben »)
    params |= {"victim": "Ivy", "cards": ["loup", "voyante"], "tied": ["Ana", "Ben"], "targets": ["Ana", "Ben"]}
    params |= {"eliminated": ["Ana"], "camp": "loups", "phase": "nuit 2", "roles": ["voyante", "loup"]}
    from narrator.rules.reason import Reason

    for key, allowed in PLACEHOLDERS.items():
        text = say(rules, Reason(key, {k: params[k] for k in allowed}))
        assert text and not re.search(r"\{\w*\}", text.replace("{}", "")), key  # {} alone: a record's empty mapping


def test_the_classic_rules_hold_no_french_of_their_own() -> None:
    # The engine gives reasons (a key and its parameters); their words are the script's `texts`. Only the
    # record parser's own errors (record.py, as the one-night parser's) are written in the code.
    import ast

    from narrator.rules.classic import asks

    found = []
    for source in sorted(Path(asks.__file__).parent.glob("*.py")):
        if source.name == "record.py":
            continue
        tree = ast.parse(source.read_text(encoding="utf-8"))
        docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        found += [
            (source.name, node.lineno, node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            if re.search(r"[a-zà-ÿ]+ [a-zà-ÿ]+", node.value)  # two words: a sentence, not a key
        ]
    assert found == []


def test_a_refusal_the_table_hears_names_no_rulebook_nor_option() -> None:
    # a note the narration makes public is said after a player's name (« Pas Eva : … »): in the words a
    # table says it, without the reference the operator's screen and a record's errors give
    from narrator.script.classic.narration import load_narration
    from narrator.script.classic.script import NOTES

    rules, narration = load_classic(), load_narration()
    aloud = {**rules.texts, **narration.reworded}
    heard = {key: str(aloud[key]) for key in NOTES if key in narration.public}
    assert {"note_self", "note_pardoned_voter"} <= set(heard) and "note_spared" not in heard  # the lovers: a secret
    assert [text for text in heard.values() if re.search(r"\(|options\.", text)] == []
    assert "(003)" in str(rules.texts["note_pardoned_voter"])  # what a record's error says


def _problems(text: str) -> list[str]:
    with pytest.raises(YamlError) as caught:
        load_classic_script(text, FILE)
    return [str(p) for p in caught.value.problems]


def _line(text: str, needle: str, after: str = "") -> int:
    return text[: text.index(needle, text.index(after))].count("\n") + 1


def test_script_errors_are_all_reported_at_their_place() -> None:
    text = SCRIPT.replace("    power: see ", "    power: look").replace(
        "  witch_self_heal: true\n", "  witch_heal: true\n"
    )
    text = text.replace('  quiet_night: "Au matin, personne n\'est mort."', '  quiet_night: "Au matin, {name} dort."')
    assert _problems(text) == [
        f"{FILE}:{_line(text, '  captain: false')}:3: options: clé manquante « witch_self_heal »",
        f"{FILE}:{_line(text, 'witch_heal')}:3: options.witch_heal: clé inconnue « witch_heal » ; attendu : une de "
        "captain, comedien_cards_once, loners_block_village, lovers_spare_each_other, salvateur_self, "
        "witch_self_heal",
        f"{FILE}:{_line(text, 'power: look')}:12: roles.voyante.power: attendu : une de "
        + ", ".join(p.value for p in Power)
        + ' ; trouvé : "look"',
    ]
    # once the shape is right, the cross-checks: templates, night order, one card per chooser
    text = SCRIPT.replace('  quiet_night: "Au matin, personne n\'est mort."', '  quiet_night: "Au matin, {name} dort."')
    text = text.replace("    wake: 15\n", "    wake: 2\n").replace(
        "    copies: 1\n  chasseur:", "    copies: 2\n  chasseur:"
    )
    witch = _line(text, "  sorciere:") + 1
    assert _problems(text) == [
        f"{FILE}:{witch}:5: roles.sorciere: copies: 1 attendu : un personnage qui choisit est désigné par son id",
        f"{FILE}:{_line(text, 'wake: 2', after='  sorciere:')}:11: roles.sorciere.wake: attendu : "
        "un réveil après les loups (11) ; trouvé : 2",
        # the comédien takes the card's power before it wakes; the sorcière knows whether the victim was infected
        f"{FILE}:{_line(text, 'wake: 7', after='  comedien:')}:11: roles.comedien.wake: attendu : "
        "un réveil avant sorciere (2) ; trouvé : 7",
        f"{FILE}:{_line(text, 'wake: 12', after='  infect:')}:11: roles.infect.wake: attendu : "
        "un réveil avant sorciere (2) ; trouvé : 12",
        f"{FILE}:{_line(text, 'quiet_night')}:16: texts.quiet_night: {{name}} inconnu ; attendu : aucun {{…}}",
    ]


def test_unknown_keys_are_refused_everywhere() -> None:
    text = SCRIPT.replace("game: thiercelieux\n", "game: thiercelieux\nnights: []\n")
    text = text.replace("    camp: village    # 002:", "    camp: village\n    symbol: x    # 002:")
    found = _problems(text)
    assert len(found) == 2
    assert found[0].startswith(f"{FILE}:{_line(text, 'nights: []')}:1: nights: clé inconnue « nights »")
    assert found[1].startswith(f"{FILE}:{_line(text, 'symbol: x')}:5: roles.villageois.symbol: clé inconnue")


# 100 line mutants by default (tests/test_fuzz_scripts.py mutates this file 60 more ways, key by key); `-m full` 300
@pytest.mark.parametrize("count", [100, pytest.param(300, marks=pytest.mark.full)], ids=["sampled", "every"])
def test_mutated_scripts_load_or_fail_with_positions(count: int) -> None:
    # any damage gives YamlError with file:line:column problems, never another exception
    rng = random.Random(5)
    lines = SCRIPT.splitlines(keepends=True)
    for _ in range(count):
        mutant = list(lines)
        i = rng.randrange(len(mutant))
        choice = rng.random()
        if choice < 0.3:
            del mutant[i]
        elif choice < 0.6:
            j = rng.randrange(len(mutant[i]) + 1)
            mutant[i] = (
                mutant[i][:j] + rng.choice([":", "- ", "{", "}", "[", "'", '"', "#", "  ", "\t", "x"]) + mutant[i][j:]
            )
        else:
            mutant[i], mutant[-1 - i] = mutant[-1 - i], mutant[i]
        try:
            load_classic_script("".join(mutant), FILE)
        except YamlError as exc:
            assert exc.problems and all(str(p).startswith(f"{FILE}:") for p in exc.problems)
