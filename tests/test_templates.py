"""One template check for every script: each bad `{…}` refused when the file is read, at its place."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from narrator.app.demo import parse_demo
from narrator.resources import data_dir
from narrator.rules.classic.model import Options as ClassicOptions
from narrator.rules.classic.model import Rules
from narrator.rules.onenight.model import Options, Ruleset
from narrator.script.classic.script import load_classic_script
from narrator.script.marks import YamlError
from narrator.script.onenight.script import load_script
from narrator.script.prompts import Prompts, parse_prompts
from narrator.script.templates import TemplateError, fields, join_names

ROOT = Path(__file__).resolve().parent.parent


def shipped(name: str) -> str:
    return (data_dir("scripts") / name).read_text(encoding="utf-8")


def changed(name: str, old: str, new: str) -> tuple[str, str]:
    """The shipped file with `old` (a regular expression, found once at least) replaced by `new` once;
    and where the change starts, as `file:line:` for the messages."""
    text = shipped(name)
    found = re.search(old, text, re.MULTILINE)
    assert found, old
    line = text[: found.start()].count("\n") + 1
    return re.sub(old, new, text, count=1, flags=re.MULTILINE), f"scripts/{name}:{line}:"


def problems(load: Callable[[str, str], object], text: str, name: str) -> list[str]:
    with pytest.raises(YamlError) as caught:
        load(text, f"scripts/{name}")
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize(
    "text,said",
    [
        ("Nuit {number:%}.", "{number:%} : ni « ! » ni « : » dans un {…} ; attendu {number}"),
        ("{name:>3} meurt.", "{name:>3} : ni « ! » ni « : » dans un {…} ; attendu {name}"),
        ("{name!r} meurt.", "{name!r} : ni « ! » ni « : » dans un {…} ; attendu {name}"),
        ("{name:{width}}", "{name:{width}} : ni « ! » ni « : » dans un {…} ; attendu {name}"),
        ("Gagnants : {}.", "{} : un nom attendu entre les accolades, comme {nom}"),
        ("Gagnants : {0}.", "{0} : un nom attendu entre les accolades, comme {nom}"),
        ("{name.upper}", "{name.upper} : un nom attendu entre les accolades, comme {nom}"),
        ("{names[0]} gagne", "{names[0]} : un nom attendu entre les accolades, comme {nom}"),
        ("{ name } meurt", "{ name } : un nom attendu entre les accolades, comme {nom}"),
        ("{name meurt", "accolade { ou } seule : attendu {nom} ; écrire {{ ou }} pour une accolade"),
        ("name} meurt", "accolade { ou } seule : attendu {nom} ; écrire {{ ou }} pour une accolade"),
    ],
)
def test_a_template_takes_plain_names_only(text: str, said: str) -> None:
    with pytest.raises(TemplateError) as caught:
        fields(text)
    assert str(caught.value) == said


def test_the_names_a_template_fills() -> None:
    assert fields("{name} vote contre {target} ({{{name}}})") == {"name", "target"}
    assert fields("Personne ne meurt.") == set()


def test_a_format_spec_in_the_classic_texts_was_spoken() -> None:
    # « Nuit {number:%}. » loaded, and the table heard « Nuit 100.000000% »
    text, at = changed("thiercelieux.yaml", r'^  night: "Nuit \{number\}\."', '  night: "Nuit {number:%}."')
    assert problems(load_classic_script, text, "thiercelieux.yaml") == [
        f"{at}10: texts.night: {{number:%}} : ni « ! » ni « : » dans un {{…}} ; attendu {{number}}"
    ]
    text, at = changed("thiercelieux.yaml", r"^(  healed: .*)\{name\}", r"\1{name:>3}")
    assert problems(load_classic_script, text, "thiercelieux.yaml") == [
        f"{at}11: texts.healed: {{name:>3}} : ni « ! » ni « : » dans un {{…}} ; attendu {{name}}"
    ]


def test_a_classic_fixed_line_takes_no_brace() -> None:
    text, at = changed("thiercelieux.yaml", r'(sleep: \[\{id: voleur_sleep, say: ")Le Voleur', r"\1{name}, le Voleur")
    assert problems(load_classic_script, text, "thiercelieux.yaml") == [
        f"{at}39: night.calls.0.sleep.0.say: ce texte est dit tel quel : aucune accolade, aucun {{…}}"
    ]
    text, at = changed("thiercelieux.yaml", r'(  dusk:\n    - \{id: \w+, say: ")', r"\1{{")
    assert problems(load_classic_script, text, "thiercelieux.yaml") == [
        f"scripts/thiercelieux.yaml:{int(at.split(':')[1]) + 1}:23: day.dusk.0.say: ce texte est dit tel quel :"
        " aucune accolade, aucun {…}"
    ]


def test_the_debate_opening_and_the_asks_fill_their_own_names() -> None:
    text = shipped("thiercelieux.yaml")
    opening = re.search(r"^  opening:\n    - \{id: \w+, say: \"[^\"]*\{time\}", text, re.MULTILINE)
    assert opening, "the classic debate opening says its length"
    text = text.replace("{time}", "{temps}", 1)
    found = problems(load_classic_script, text, "thiercelieux.yaml")
    assert len(found) == 1 and found[0].endswith("day.opening.0.say: {temps} inconnu ; attendu : {time}")
    text, _ = changed("thiercelieux.yaml", r"^(    \w+: .*)\{choices\}", r"\1{choix}")
    found = problems(load_classic_script, text, "thiercelieux.yaml")
    assert len(found) == 1 and found[0].endswith(" {choix} inconnu ; attendu : {choices}, {example}, {who}")


def test_a_classic_line_id_is_said_once() -> None:
    text, at = changed("thiercelieux.yaml", r"\{id: cupidon_sleep,", "{id: voleur_sleep,")
    assert problems(load_classic_script, text, "thiercelieux.yaml") == [
        f"{at}20: night.calls.1.sleep.0.id: identifiant « voleur_sleep » déjà pris"
    ]


def test_the_one_night_calls_follow_the_wake_order() -> None:
    # the voyante (wake 5) called before the traître (wake 3): the table would hear another night
    # than the one the engine plays
    text = shipped("onuw.yaml")
    text = text.replace("  - call: [traitre]", "  - call: [TMP]").replace("  - call: [voyante]", "  - call: [traitre]")
    text = text.replace("  - call: [TMP]", "  - call: [voyante]")
    macon, traitre = (text[: text.index(f"  - call: [{rid}]")].count("\n") + 1 for rid in ("macon", "traitre"))
    late = "mais « voyante » est appelé plus haut (roles.voyante.wake : 5)"
    assert problems(load_script, text, "onuw.yaml") == [
        f"scripts/onuw.yaml:{macon}:11: night.4.call: appel mal placé : « macon » se réveille à 4 (roles.macon.wake), {late}",
        f"scripts/onuw.yaml:{traitre}:11: night.5.call: appel mal placé : « traitre » se réveille à 3 (roles.traitre.wake), {late}",
    ]


def test_only_the_doppelganger_is_called_twice() -> None:
    text, at = changed("onuw.yaml", r"^  - call: \[insomniaque\]", "  - call: [voleur]")
    found = problems(load_script, text, "onuw.yaml")
    assert f"{at}11: night.9.call: « voleur » est déjà appelé plus haut" in found
    # after the Doppelgänger's last call, nobody wakes
    text = shipped("onuw.yaml")
    last = text.rindex("  - call: [doppelganger]")
    insomniaque = text.index("  - call: [insomniaque]")
    end = text.index("\n# 000", last) + 1
    text = text[:insomniaque] + text[last:end] + text[insomniaque:last] + text[end:]
    line = text[: text.index("  - call: [insomniaque]")].count("\n") + 1
    assert problems(load_script, text, "onuw.yaml") == [
        f"scripts/onuw.yaml:{line}:11: night.10.call: appel mal placé : « insomniaque » se réveille à 9"
        " (roles.insomniaque.wake), mais « doppelganger » est appelé plus haut pour la fin de la nuit"
    ]


def test_a_one_night_fixed_line_takes_no_brace() -> None:
    text, at = changed("poudlard.yaml", r"(\{id: \w+_sleep, say: \")", r"\1{name} ")
    found = problems(load_script, text, "poudlard.yaml")
    assert len(found) == 1 and found[0].startswith(at)
    assert found[0].endswith(".say: ce texte est dit tel quel : aucune accolade, aucun {…}")


def test_the_demo_players_sentences_are_checked() -> None:
    text, at = changed(
        "demo.yaml", r'^  vote: "\{voter\} vote contre \{target\}"', '  vote: "{voter} vote contre {cible}"'
    )
    assert problems(parse_demo, text, "demo.yaml") == [
        f"{at}9: say.vote: {{cible}} inconnu ; attendu : {{target}}, {{voter}}"
    ]
    text, at = changed("demo.yaml", r'^  card: "\{role\}"', '  card: "{role!s}"')
    assert problems(parse_demo, text, "demo.yaml") == [
        f"{at}9: say.card: {{role!s}} : ni « ! » ni « : » dans un {{…}} ; attendu {{role}}"
    ]


def test_table_forms_are_checked_form_by_form() -> None:
    text, at = changed("table.yaml", r'^(minutes: \{one: "une minute", many: ")\{n\}', r"\1{n:d}")
    assert problems(parse_prompts, text, "table.yaml") == [
        f"{at}36: minutes.many: {{n:d}} : ni « ! » ni « : » dans un {{…}} ; attendu {{n}}"
    ]


def test_one_join_for_every_list_said() -> None:
    said = {"and": "et"}
    scripts = (
        Ruleset(game="onuw", roles={}, options=Options(), texts=said),
        Rules(game="thiercelieux", roles={}, options=ClassicOptions(), texts=said),
        Prompts(said),
    )
    for script in scripts:
        assert [join_names(script, names) for names in ([], ["Ana"], ["Ana", "Ben"], ["Ana", "Ben", "Cleo"])] == [
            "",
            "Ana",
            "Ana et Ben",
            "Ana, Ben et Cleo",
        ]
    assert Prompts({"and": "and"}).join(["a", "b"]) == "a and b"


def test_check_refuses_a_format_spec_with_its_place(tmp_path: Path) -> None:
    text, at = changed("thiercelieux.yaml", r'^  night: "Nuit \{number\}\."', '  night: "Nuit {number:%}."')
    bad = tmp_path / "thiercelieux.yaml"
    bad.write_text(text, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "narrator", "check", str(bad)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    line = at.split(":")[1]
    assert run.returncode == 2 and run.stdout == ""
    assert (
        run.stderr
        == f"{bad}:{line}:10: texts.night: {{number:%}} : ni « ! » ni « : » dans un {{…}} ; attendu {{number}}\n"
    )


def test_a_role_called_again_with_another_is_refused_too() -> None:
    text, at = changed("onuw.yaml", r"^  - call: \[insomniaque\]", "  - call: [insomniaque, loup]")
    assert problems(load_script, text, "onuw.yaml") == [f"{at}11: night.9.call: « loup » est déjà appelé plus haut"]
