"""Game scripts are validated at load: every problem at once, each at file:line:column."""

from __future__ import annotations

import pytest

from narrator.resources import data_dir
from narrator.rules.onenight.model import Power
from narrator.script.marks import YamlError
from narrator.script.onenight.script import load_game, load_script

POUDLARD = (data_dir("scripts") / "poudlard.yaml").read_text(encoding="utf-8")
FILE = "scripts/poudlard.yaml"


def problems(text: str) -> list[str]:
    with pytest.raises(YamlError) as caught:
        load_script(text, FILE)
    return [str(p) for p in caught.value.problems]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_poudlard_characters_reuse_the_one_night_powers() -> None:
    # the Poudlard edition is YAML over the onuw vocabulary, plus Dumbledore, Harry and Luna
    onuw, poudlard = load_game("onuw"), load_game("poudlard")
    pairs = {
        "sirius": "voleur", "neville": "merdeux", "ron": "saoulon", "hermione": "voyante",
        "minerva": "insomniaque", "fred": "macon", "george": "macon", "mangemort": "loup",
        "eleve": "villageois", "ginny": "chasseur",
    }  # fmt: skip
    for character, role in pairs.items():
        assert poudlard.roles[character].power == onuw.roles[role].power, character
        assert poudlard.roles[character].day == onuw.roles[role].day, character
    assert poudlard.roles["dumbledore"].power is Power.CENTER_TO_PLAYER
    assert poudlard.roles["harry"].power is Power.REVEAL
    # 001: wake order "Mangemorts 1 … Minerva 9"
    wakes = {r.id: r.wake for r in poudlard.roles.values() if r.wake}
    assert sorted(wakes, key=wakes.get) == [
        "mangemort", "fred", "george", "hermione", "sirius", "dumbledore", "neville", "ron", "harry", "minerva",
    ]  # fmt: skip


def test_every_error_is_reported_with_its_position() -> None:
    text = POUDLARD.replace("power: swap_self_other_look", "power: swap_lok").replace(
        "    symbol: Cible\n", "    symbol: Cible\n    colour: red\n"
    )
    found = problems(text)
    assert found == [
        f"{FILE}:{line_of(text, 'swap_lok')}:12: roles.sirius.power: attendu : une de copy, recognize, "
        "see_wolves, look, swap_self_other_look, swap_two_others, swap_self_center_blind, "
        'center_to_player, reveal, see_self_final ; trouvé : "swap_lok"',
        f"{FILE}:{line_of(text, 'colour')}:5: roles.harry.colour: clé inconnue « colour » ; attendu : une de "
        "as_copy, card, copies, day, group, lone_peek, name, power, stars, symbol, team, wake, wolf",
    ]


def test_wrong_types_missing_keys_and_duplicates() -> None:
    text = POUDLARD.replace("    wake: 3\n", "    wake: trois\n").replace("    name: Ron Weasley\n", "")
    found = problems(text)
    assert (
        f'{FILE}:{line_of(text, "trois")}:11: roles.hermione.wake: attendu : un nombre entier ; trouvé : "trois"'
        in found
    )
    assert any(p.endswith("roles.ron: clé manquante « name »") for p in found)
    dup = POUDLARD.replace("  harry:\n", "  ron:\n")
    assert any("roles.ron: clé en double" in p for p in problems(dup))


def test_each_missing_key_is_said_once() -> None:
    # jsonschema gives one `required` error per missing key; each used to list them all (8 keys, 64 lines)
    found = problems("foo: 1\n")
    missing = [p for p in found if "clé manquante" in p]
    assert len(missing) == len(set(missing)) == 8


def test_cross_checks_templates_and_together() -> None:
    text = POUDLARD.replace("[fred, george]", "[fred, weasley]").replace(
        'winners: {one: "{names} gagne."', 'winners: {one: "{nom} gagne."'
    )
    found = problems(text)
    assert any("together.0.1: personnage inconnu « weasley »" in p for p in found)
    assert any("texts.winners.one: {nom} inconnu ; attendu : {names}" in p for p in found)


@pytest.mark.parametrize("text", ["", "- a\n- b\n", "roles: {}\n", "\x00\x01", "a: [\n", "a: *nope\n"])
def test_garbage_is_a_yaml_error_not_a_crash(text: str) -> None:
    found = problems(text)
    assert found and all(p.startswith(f"{FILE}:") for p in found)
