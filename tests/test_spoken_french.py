"""What the narrator says names only what is in play, and its French holds with 1 and with 2 of everything."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from narrator.app.family import resolve_record
from narrator.resources import data_dir
from narrator.script.line import Line
from narrator.script.marks import YamlError
from narrator.script.onenight.script import load_script, load_shipped

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
        assert f"Doppelgänger, si ta nouvelle carte est {role}, réveille-toi aussi." in with_it


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
        'only: [doppelganger], say: "Doppelgänger, si ta nouvelle carte est loup', 'only: [doppel], say: "X loup', 1
    )
    with pytest.raises(YamlError) as caught:
        load_script(bad, "scripts/onuw.yaml")
    line = bad[: bad.index("only: [doppel]")].count("\n") + 1
    assert [str(p) for p in caught.value.problems] == [
        f"scripts/onuw.yaml:{line}:{bad.splitlines()[line - 1].index('doppel]') + 1}: "
        "night.2.lines.1.only.0: personnage inconnu « doppel »"
    ]


# ---------------------------------------------------------------- every template with 1 and 2 of everything
# Names start with a vowel so that a missing elision (« de Ana », « que Eva ») shows.
ONE, TWO = ["Ana"], ["Ana", "Eva"]
NUMBERS = {"count", "copies", "n", "number", "seat"}
AT_LEAST = {"total": 6, "low": 3, "high": 10}  # a table's size and its range: never 1 or 2
WORDS = {
    "time": "une minute", "left": "deux minutes", "why": "les règles ne le permettent pas",
    "summary": "Ana vote contre Eva", "text": "euh", "title": "Poudlard", "characters": "deux loups-garous",
    "choices": "Ana et Eva", "example": "Ana vote contre Eva", "players": "Ana, Eva et Ugo",
}  # fmt: skip


def _params(allowed: set[str], n: int, role: str) -> dict:
    params: dict = {}
    for name in allowed:
        if name == "names":
            params[name] = ONE if n == 1 else TWO
        elif name in NUMBERS:
            params[name] = n
        elif name in AT_LEAST:
            params[name] = AT_LEAST[name]
        elif name == "role":
            params[name] = role
        else:
            params[name] = WORDS.get(name, "Ana" if name != "target" else "Eva")
    return params


def _prompt_params(allowed: set[str], n: int) -> dict:
    return _params(allowed, n, "loup-garou")  # the table's prompts get a card's name, not its id


def _every_filled_sentence() -> list[tuple[str, int, str]]:
    """(where, n, sentence) for every template of every script, filled with 1 and with 2."""
    from narrator.rules.reason import Reason
    from narrator.script.classic import script as classic
    from narrator.script.classic.narration import ASK_PLACEHOLDERS, load_narration
    from narrator.script.onenight.explain import say
    from narrator.script.onenight.script import _PLACEHOLDERS
    from narrator.script.prompts import PLACEHOLDERS, load_prompts

    out = []
    for n in (1, 2):
        for game in ("onuw", "poudlard"):
            rules = load_shipped(game).rules
            for key in rules.texts:
                params = _params(_PLACEHOLDERS.get(key, set()), n, "voyante" if game == "onuw" else "hermione")
                out.append((f"{game}.texts.{key}", n, say(rules, Reason(key, params))))
        rules = classic.load_classic()
        narration = load_narration()
        aloud = {**rules.texts, **narration.reworded}
        for key in rules.texts:
            params = _params(classic.PLACEHOLDERS[key], n, "sorciere")
            out.append((f"thiercelieux.texts.{key}", n, classic.say(rules, Reason(key, params))))
            if key in narration.reworded:
                table_rules = type(rules)(rules.game, rules.roles, rules.options, aloud)
                out.append((f"thiercelieux.reworded.{key}", n, classic.say(table_rules, Reason(key, params))))
        for key, text in narration.asks.items():
            out.append((f"thiercelieux.asks.{key}", n, text.format(**_params(ASK_PLACEHOLDERS, n, ""))))
        prompts = load_prompts()
        for key, allowed in PLACEHOLDERS.items():
            out.append((f"table.{key}", n, prompts.text(key, **_prompt_params(allowed, n))))
    return out


SENTENCES = _every_filled_sentence()


def test_every_template_agrees_in_number_with_one_and_with_two() -> None:
    wrong = []
    for where, n, text in SENTENCES:
        # espeak reads « 1 voix » « un voix »: one of a feminine noun is written « une »
        if re.search(r"\b1 (voix|cartes?|minutes?|secondes?)\b", text) and where not in NEVER_ONE:
            wrong.append((where, n, text))
        if re.search(r"\b([2-9]|\d\d+) (carte|minute|seconde|joueur|personnage)\b", text):
            wrong.append((where, n, text))
        # the verb after the names agrees with them
        if n == 1 and re.search(r"\bAna (ont|sont|meurent|gagnent|se font|forment|restent|se reconnaissent)\b", text):
            wrong.append((where, n, text))
        if n == 2 and re.search(r"\bAna et Eva (a|est|meurt|gagne|se fait|reste)\b", text):
            wrong.append((where, n, text))
    assert not wrong
    assert len(SENTENCES) > 2 * 150  # every template of every script, twice
    said = {(where, n): text for where, n, text in SENTENCES}
    assert (said[("onuw.texts.winners", 1)], said[("onuw.texts.winners", 2)]) == ("Ana gagne.", "Ana et Eva gagnent.")
    assert said[("table.card_taken", 1)] == "Il n'y a qu'une carte loup-garou en jeu, et elle est déjà annoncée."
    assert said[("table.card_taken", 2)] == "Il n'y a que 2 cartes loup-garou en jeu, et elles sont déjà annoncées."
    assert said[("table.votes_so_far", 1)] == "J'ai une voix sur 6. Continuez."
    assert said[("poudlard.texts.tie", 1)] == "Égalité à une voix entre Ana, qui se font capturer."  # names: one…
    assert said[("poudlard.texts.tie", 2)] == "Égalité à 2 voix entre Ana et Eva, qui se font capturer."


# a count that is never 1: more ballots than players
NEVER_ONE = {"table.too_many_votes"}
# words that agree with a noun, not with a player: a card (« elle est déjà annoncée »), « personne
# n'est capturé », « aucun loup-garou n'est mort », « celles du corbeau » (the votes), a verb
# (« je choisis »), « tout prêt » (a scenario)
NOT_ABOUT_A_PLAYER = {
    "mort": {"onuw.texts.wolves_win", "onuw.texts.wolves_and_traitor_win", "onuw.texts.no_wolf_nobody_dead",
             "onuw.texts.tanner_wins", "onuw.texts.tanner_blocks_wolves", "poudlard.texts.tanner_wins",
             "poudlard.texts.tanner_blocks_wolves", "thiercelieux.texts.quiet_night"},
    "capturé": {"poudlard.texts.no_votes", "poudlard.texts.one_vote_each", "poudlard.texts.spared",
                "poudlard.texts.wolves_win", "poudlard.texts.no_wolf_nobody_dead"},
    "éliminé": {"thiercelieux.texts.no_votes", "thiercelieux.texts.still_tied"},
    "celles": {"thiercelieux.texts.raven_votes"},
    "choisis": {"table.help_classic"},
    "prêt": {"table.ask_cards_mode"},
    "elle": {"table.card_taken"},
    "elles": {"table.card_taken"},
    "seul": {"thiercelieux.texts.lovers_win", "thiercelieux.texts.angel_wins"},  # the couple, l'ange
    "aspergés": {"thiercelieux.texts.ignite"},  # « les joueurs aspergés »
    "enchantées": {"thiercelieux.texts.piper_wins"},  # « les personnes »
}  # fmt: skip


# a pronoun, participle or adjective that would agree with a player, whose gender no record holds
GENDERED = re.compile(
    r"\b(elle|elles|ceux|celui|celle|celles|chacun|chacune|seuls|seule|seules|morte?s?|éliminée?s?|"
    r"capturée?s?|choisie?s?|choisis|prête?s?|devenue?s?|graciée?s?|nommée?s?|tous les deux|eux|"
    r"lui-même|elle-même|eux-mêmes|elles-mêmes|vivante?s?|infectée?s?|sauvée?s?|amoureuse?s?|seul|"
    r"lynchée?s?|condamnée?s?|élue?s?|enchantée?s?|aspergée?s?)\b"
)


def test_no_template_guesses_a_players_gender_nor_forgets_an_elision() -> None:
    from narrator.script.classic.script import ON_SCREEN

    wrong = []
    for where, _, text in SENTENCES:
        if where.removeprefix("thiercelieux.texts.") in ON_SCREEN:
            continue  # the operator's screen and a record's errors: never said to the table
        wrong += [
            (where, word, text) for word in GENDERED.findall(text) if where not in NOT_ABOUT_A_PLAYER.get(word, ())
        ]
        if re.search(r"\b(de|que|le|la|ne|se|je|ce|lorsque|puisque|jusque) (Ana|Eva)\b", text):
            wrong.append((where, "élision", text))
        if re.search(r"\bils? (gagnent|gagne|meurt|est|a|reste|perd|mourra)\b", text):
            if not text.startswith("Les loups-garous sont aussi nombreux"):  # ils: the wolves
                wrong.append((where, "il", text))
    assert not wrong


def _every_fixed_line() -> list[tuple[str, str]]:
    """(id, text) of every line the scripts speak as written: legend, night, day."""
    from narrator.script.classic.narration import load_narration

    out = []
    for game in ("onuw", "poudlard"):
        announce = load_shipped(game).announce
        roles = list(load_shipped(game).rules.roles)
        steps = announce.setup_steps(roles) + announce.night_steps(roles) + announce.opening_steps(5)
        steps += [r.line for r in announce.reminders] + list(announce.vote)
        out += [(f"{game}.{s.id}", s.text) for s in steps if isinstance(s, Line)]
    narration = load_narration()
    lines = [*narration.first, *narration.morning, *narration.opening, *narration.vote, *narration.dusk]
    lines += [line for call in narration.calls for line in (*call.wake, *call.sleep)]
    lines += [r.line for r in narration.reminders]
    return out + [(f"thiercelieux.{line.id}", line.text) for line in lines]


def test_nothing_written_for_the_eye_is_read_aloud() -> None:
    eye = re.compile(r"/|\(s\)|\betc\b|\b[A-Z] \d|\bex\.|\bn°|&|\+")
    lines = _every_fixed_line()
    assert len(lines) > 100
    wrong = [(where, text) for where, text in lines if eye.search(text)]
    wrong += [(where, text) for where, _, text in SENTENCES if eye.search(text)]
    assert not wrong


def test_no_refusal_note_of_the_classic_rules_guesses_a_players_gender() -> None:
    # the rules' notes are said to the table after a player's name: « Pas Eva : on ne se choisit pas soi-même. »
    # The rules give each as a Reason's key; its words are the script's.
    import ast

    from narrator.rules.classic import asks
    from narrator.script.classic.narration import load_narration
    from narrator.script.classic.script import load_classic

    folder = Path(asks.__file__).parent
    notes = []
    for source in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            held = [k.value for k in getattr(node, "keywords", []) if k.arg in ("notes", "no_heal", "no_poison")]
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "notes.append":
                held += node.args
            if isinstance(node, ast.Assign | ast.AugAssign):
                names = [
                    t.id for t in getattr(node, "targets", [getattr(node, "target", None)]) if isinstance(t, ast.Name)
                ]
                held += [node.value] if set(names) & {"notes", "no_heal", "no_poison", "SELF", "SPARED"} else []
            for tree in held:
                notes += [
                    (source.name, c.value)
                    for c in ast.walk(tree)
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                ]
    assert len(notes) > 10 and ("asks.py", asks.SELF.key) in notes
    texts, aloud = load_classic().texts, load_narration().reworded
    worded = [(key, str(texts[key])) for _, key in notes] + [(key, aloud[key]) for _, key in notes if key in aloud]
    assert [(key, text) for key, text in worded if GENDERED.search(text)] == []
