"""What the narrator says names only what is in play, and its French holds with 1 and with 2 of everything."""

from __future__ import annotations

import pytest

from narrator.resolve import resolve_record
from narrator.resources import data_dir
from narrator.script.announce import Line
from narrator.script.game import load_script, load_shipped
from narrator.script.marks import YamlError

ONUW = load_shipped("onuw")


def spoken(steps) -> str:
    return " ".join(s.text for s in steps if isinstance(s, Line))


def test_the_wolves_call_names_the_doppelganger_only_when_it_is_in_play() -> None:
    without = spoken(ONUW.announce.night_steps(["loup", "loup", "traitre", "macon", "macon", "voyante", "voleur"]))
    assert "Doppelgänger" not in without
    assert "Loups-garous, réveillez-vous et reconnaissez-vous." in without
    assert "Traître, réveille-toi." in without and "levez le pouce" in without
    # in the center counts as in play for the calls: the night is the same wherever the card lies
    with_it = spoken(ONUW.announce.night_steps(["loup", "traitre", "macon", "macon", "doppelganger", "voyante"]))
    for role in ("loup-garou", "traître", "franc-maçon"):
        assert f"Doppelgänger, si tu es devenu {role}, réveille-toi aussi." in with_it


def _onuw_verdict(deal: dict, votes: dict) -> list[str]:
    players = list(votes)
    record = {"id": "t", "ruleset": "onuw", "players": players, "deal": deal, "votes": votes}
    return resolve_record(record)["why"]


def test_the_wolves_verdict_names_the_traitor_only_when_one_plays() -> None:
    votes = {"Ana": "Ben", "Ben": "Cleo", "Cleo": "Ben", "Dan": "Ben"}
    center = ["villageois", "villageois", "voleur"]
    alone = _onuw_verdict(
        {"Ana": "loup", "Ben": "voyante", "Cleo": "villageois", "Dan": "tannelier", "center": center}, votes
    )
    assert "Aucun loup-garou n'est mort : les loups-garous gagnent." in alone
    assert not any("traître" in line for line in alone)
    with_traitor = _onuw_verdict(
        {"Ana": "loup", "Ben": "voyante", "Cleo": "traitre", "Dan": "villageois", "center": center}, votes
    )
    assert "Aucun loup-garou n'est mort : les loups-garous et le traître gagnent." in with_traitor


def test_a_line_only_for_an_unknown_character_is_refused_at_its_place() -> None:
    text = (data_dir("scripts") / "onuw.yaml").read_text(encoding="utf-8")
    bad = text.replace(
        'only: [doppelganger], say: "Doppelgänger, si tu es devenu loup', 'only: [doppel], say: "X loup', 1
    )
    with pytest.raises(YamlError) as caught:
        load_script(bad, "scripts/onuw.yaml")
    line = bad[: bad.index("only: [doppel]")].count("\n") + 1
    assert [str(p) for p in caught.value.problems] == [
        f"scripts/onuw.yaml:{line}:{bad.splitlines()[line - 1].index('doppel]') + 1}: "
        "night.2.lines.1.only.0: personnage inconnu « doppel »"
    ]
