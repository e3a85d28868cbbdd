"""The family registry: every game belongs to one family, and the program reaches a game only through it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from narrator.app.family import FAMILIES, family, resolve_record
from narrator.rules.errors import RecordError
from narrator.script.games import FAMILY_NAMES, GAMES, family_of, games_of
from narrator.table.setup import SetupError

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def test_every_game_belongs_to_one_registered_family() -> None:
    assert set(FAMILIES) == set(FAMILY_NAMES)
    for name, registered in FAMILIES.items():
        assert registered.name == name
        assert games_of(name), f"{name} has no game"
    for game in GAMES:
        assert family(game).name == family_of(game)
    assert sorted(g for name in FAMILY_NAMES for g in games_of(name)) == sorted(GAMES)


def test_an_unknown_game_is_refused_with_the_games_listed() -> None:
    with pytest.raises(SetupError, match="^jeu inconnu « echecs » ; attendu : onuw, poudlard, thiercelieux$"):
        family("echecs")
    assert family_of("echecs") is None and family_of(None) is None


def test_each_family_checks_the_script_of_each_of_its_games() -> None:
    for game in GAMES:
        file = SCRIPTS / f"{game}.yaml"
        said = family(game).check_script(file.read_text(encoding="utf-8"), str(file))
        assert said.startswith(f"{game}, "), said


def test_a_record_is_resolved_by_the_family_of_its_ruleset() -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    one_night = yaml.safe_load((examples / "records.yaml").read_text(encoding="utf-8"))[0]
    classic = yaml.safe_load((examples / "classic.yaml").read_text(encoding="utf-8"))
    assert family_of(one_night["ruleset"]) != family_of(classic["ruleset"])
    assert "center" in resolve_record(one_night)["final"]  # the one-night outcome: every card at dawn
    assert resolve_record(classic)["phases"][0]["phase"] == "nuit 1"  # the classic one: phase by phase
    with pytest.raises(RecordError) as unknown:
        resolve_record({"ruleset": "echecs"})
    assert unknown.value.path == ("ruleset",)
    assert "onuw, poudlard ou thiercelieux" in str(unknown.value)
    with pytest.raises(RecordError) as missing:
        resolve_record({"players": []})
    assert missing.value.path == ("ruleset",)
