"""Every line the narrator can say or show a player, filled with awkward names, in correct spoken French.

Every template of every script (the engines' reasons, the classic narration's questions and phone
words, the table's and the phones' prompts, the one-night phones' words) is filled with players whose
names start with a vowel (« Ana », « Élodie »), a mute h (« Hugo »: « d'Hugo »), that carry an initial
(« Léa B. », as the setup suggests for a name the speech model cannot hear), with one and with two of
everything, and every card of the game; the end of a game and its story (scripts/story.yaml) too;
every fixed line is taken as it is. Each is checked for:
« de », « que »… not elided before a vowel; a bare card word after « était » (« Mélanie était
villageois »: records carry no gender, « avait la carte » needs none); a gendered article with a card
before a player (« Le chasseur Gaëlle »); a bracket or dots read aloud; « 1 » before a plural; a
gesture the narrator cannot make (RULINGS 24); a word that agrees with a player (« Ana est
éliminée »: no record has a gender); the cause of a night's death said in the morning
(RULINGS 23).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

import pytest

from narrator.rules.reason import Reason
from narrator.script.classic import script as classic
from narrator.script.classic.narration import ASK_PLACEHOLDERS, PHONE_PLACEHOLDERS, load_narration
from narrator.script.fixed_lines import fixed_lines
from narrator.script.onenight.explain import say as say_one_night
from narrator.script.onenight.phone_words import TEMPLATES as ONE_NIGHT_PHONES
from narrator.script.onenight.script import _PLACEHOLDERS as ONE_NIGHT_TEXTS
from narrator.script.onenight.script import load_shipped
from narrator.script.plural import form
from narrator.script.prompts import PHONE_PLACEHOLDERS as PHONE_PROMPTS
from narrator.script.prompts import PLACEHOLDERS as TABLE_PROMPTS
from narrator.script.prompts import load_phone_prompts, load_prompts
from narrator.script.story_words import STORY_PLACEHOLDERS, load_story_words
from narrator.script.templates import fill

# the tables: one player and two, each name awkward in its own way
TABLES = [["Ana"], ["Hugo", "Élodie"], ["Léa B."], ["Yves", "Ugo"]]
NAMED = {"name", "player", "voter", "target", "who", "hunter", "lover", "captain", "servante", "knight",
         "model", "victim", "eliminated", "tied", "example_player"}  # fmt: skip
AT_LEAST = {"total", "low", "high"}
TABLE_SIZE = {"players_count", "setup_read_back", "setup_read_back_phones", "no_scenario"}  # {count}: players
NUMBERS = {"count", "copies", "n", "number", "seat", "total", "low", "high", "minutes", "left_s"}
WORDS = {"time": "une minute", "left": "deux minutes", "why": "les règles ne le permettent pas",
         "text": "euh", "title": "Poudlard", "characters": "deux loups-garous", "address": "192 point 168",
         "group": "Loups-garous", "place": "Carte du milieu A", "first": "A", "second": "B",
         "proposals": "Ana propose Hugo", "summary": "Ana vote contre Hugo", "camp": "le village",
         "phase": "nuit 1", "cards": "voyante, loup-garou", "targets": "Ana, Hugo", "stars": "une étoile",
         "team": "Poudlard", "symbol": "Cœur"}  # fmt: skip


def _value(field: str, table: list[str], n: int, card: str) -> object:
    if field == "names":
        return table
    if field in ("players", "choices"):
        return " et ".join(table)
    if field in ("example",):
        return f"{table[0]} vote contre {table[-1]}"
    if field in NAMED:
        return table[-1] if field in ("target", "lover", "victim", "model") else table[0]
    if field in ("role", "card"):
        return card
    if field in AT_LEAST:
        return n + 2  # a table's size, its range, its ballots: never 1 nor 2
    if field in NUMBERS:
        return n
    return WORDS.get(field, table[0])


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _generic(where: str, template: object, card_names: list[str], sized: bool = False) -> Iterator[tuple[str, str]]:
    """A template of words (a prompt, a phone's words) filled by the production `fill` with every table."""
    assert isinstance(template, str | dict), where
    for table in TABLES:
        for n in (1, 2, 3):
            for card in card_names:
                chosen = form(template, n) if isinstance(template, dict) else template  # type: ignore[arg-type]
                values = {f: _value(f, table, n, card) for f in _fields(chosen)}
                if sized and "count" in values:
                    values["count"] = n + 2  # how many players: never 1 nor 2
                if "names" in values:
                    values["names"] = ", ".join(table[:-1]) + (" et " if len(table) > 1 else "") + table[-1]
                yield where, fill(chosen, **values)
                if not ({"role", "card"} & _fields(chosen)):
                    break


# the questions a phone shows in the engine's words (narrator/table/classic/phones.py): `screen_…`, else
# `expect_…`; the potions and the petite fille's spying have the script's own `phones:` words
OWN_WORDS = {"expect_potions", "expect_spy", "expect_perform_once", "expect_charm_last"}  # the last two: a screen_


def _plain(key: str) -> str:
    return "screen_" + key.removeprefix("expect_")


def _said() -> list[tuple[str, str]]:
    """(where, sentence) for every line a player hears or reads, filled every way."""
    out: list[tuple[str, str]] = []
    for game in ("onuw", "poudlard"):
        script = load_shipped(game)
        rules = script.rules
        for key in rules.texts:
            if key in ("and", "copied_name"):
                continue
            allowed = ONE_NIGHT_TEXTS.get(key, set())
            for table in TABLES:
                for n in (1, 2, 3):
                    for role in rules.roles if "role" in allowed else ["loup"]:
                        params = {f: _value(f, table, n, role) for f in allowed}
                        out.append((f"{game}.texts.{key}", say_one_night(rules, Reason(key, params))))
        words = script.phones
        assert words is not None
        names = [r.name for r in rules.roles.values()]
        for key in ONE_NIGHT_PHONES:
            template = getattr(words, "self_card" if key == "self" else key)
            if template:
                out += _generic(f"{game}.phones.{key}", template, names)
        out += [(f"{game}.phones.{k}", t) for k, t in (*words.questions.items(), ("missing", words.missing))]
        out += [(f"{game}.card.{rid}", text) for rid, text in words.cards.items()]
    rules = classic.load_classic()
    narration = load_narration()
    for key in rules.texts:
        shown = key.startswith("screen_") or (key.startswith("expect_") and _plain(key) not in rules.texts)
        if key not in narration.public and key not in narration.confided and not (shown and key not in OWN_WORDS):
            continue  # the operator's screen and a record's errors: not what the players hear or read
        said_as = {**rules.texts, **narration.reworded}
        for table in TABLES:
            for n in (1, 2, 3):
                for role in rules.roles if {"role", "roles"} & classic.PLACEHOLDERS[key] else ["loup"]:
                    params = {f: _value(f, table, n, role) for f in classic.PLACEHOLDERS[key]}
                    if "names" in params:
                        params["names"] = table
                    if "roles" in params:  # each name's card (the morning's dead)
                        params["roles"] = [role] * len(table)
                    if key not in narration.reworded:  # else its `texts` are the operator's alone
                        out.append((f"thiercelieux.texts.{key}", classic.say(rules, Reason(key, params))))
                    else:
                        aloud = type(rules)(rules.game, rules.roles, rules.options, said_as)
                        out.append((f"thiercelieux.reworded.{key}", classic.say(aloud, Reason(key, params))))
    gestures = type(rules)(rules.game, rules.roles, rules.options, {**rules.texts, **narration.gestures})
    for key in narration.gestures:  # the operator's gestures: he reads them, and may read them aloud to a player
        for table in TABLES:
            params = {f: _value(f, table, 2, "loup") for f in classic.PLACEHOLDERS[key]}
            if "names" in params:
                params["names"] = table
            out.append((f"thiercelieux.gestures.{key}", classic.say(gestures, Reason(key, params))))
    classic_cards = [r.name for r in rules.roles.values()]
    for key, text in narration.asks.items():
        assert _fields(text) <= ASK_PLACEHOLDERS
        out += _generic(f"thiercelieux.asks.{key}", text, ["loup-garou"])
    for key, text in narration.phones.items():
        assert _fields(text) <= PHONE_PLACEHOLDERS[key]
        out += _generic(f"thiercelieux.phones.{key}", text, classic_cards)
    out += [(f"thiercelieux.card.{rid}", r.card) for rid, r in rules.roles.items()]
    out += [(f"thiercelieux.operator.{i}", call.operator) for i, call in enumerate(narration.calls) if call.operator]
    for prompts, placeholders, file in (
        (load_prompts(), TABLE_PROMPTS, "table"),
        (load_phone_prompts(), PHONE_PROMPTS, "phones"),
    ):
        for key in placeholders:
            out += _generic(
                f"{file}.{key}", prompts.texts[key], ["loup-garou", "ancien", "Harry Potter"], key in TABLE_SIZE
            )
    for game in ("onuw", "poudlard", "thiercelieux"):
        out += [(f"{game}.line.{line.id}", line.text) for line in fixed_lines(game)]
    return out + _story()


# the words of a game's end (scripts/story.yaml) that are not said by themselves: the helpers' pieces
STORY_PIECES = {"of", "of_elided", "and", "numbers", "night_ordinals", "day_ordinals"}
STORY_CARDS = {"card", "held", "wolf", "taken", "first", "last"}  # a card's name, after « la carte »


def _story() -> list[tuple[str, str]]:
    """Every sentence of the end of a game and of its story, filled with every table and every card
    name that starts with a vowel, an « h » or neither."""
    w = load_story_words()
    cards = ["insomniaque", "Harry Potter", "élève de Poudlard", "loup-garou"]
    out = []
    for key, allowed in STORY_PLACEHOLDERS.items():
        if key in STORY_PIECES:
            continue
        for table in TABLES:
            for n in (1, 2, 3):
                for card in cards:
                    values: dict[str, object] = {}
                    for f in allowed:
                        if f in STORY_CARDS:
                            values[f] = card
                        elif f == "cards":
                            values[f] = w.join(cards[: n + 1])
                        elif f.startswith("of_"):
                            values[f] = w.of(table[-1] if f == "of_second" else table[0])
                        elif f == "names":
                            values[f] = w.join(table)
                        elif f == "place":
                            values[f] = "B"
                        elif f == "ordinal":
                            values[f] = w.ordinal(n, "night")
                        elif f == "count":
                            values[f] = w.number(n)
                        elif f == "ballots":
                            values[f] = w.join([w.text("ballot_first", voter=table[0], target=table[-1])])
                        elif f == "tallies":
                            values[f] = w.text("tally_one", target=table[-1], count=w.number(n))
                        else:
                            values[f] = _value(f, table, n, card)
                    template = w.texts[key]
                    chosen = form(template, n) if isinstance(template, dict) else template  # type: ignore[arg-type]
                    out.append((f"story.{key}", fill(str(chosen), **values)))
                    if not STORY_CARDS & allowed:
                        break
    return out


SAID = _said()
CARDS = sorted(
    {r.name.lower() for g in ("onuw", "poudlard") for r in load_shipped(g).rules.roles.values()}
    | {r.name.lower() for r in classic.load_classic().roles.values()}
    | {"villageois", "loup-garou", "simple villageois"},
    key=lambda name: (-len(name), name),  # longest first (a regex alternation), then a fixed order
)
NAMES = "|".join(re.escape(n) for t in TABLES for n in t)
# the words French elides, before a word starting with a vowel or a mute h (a name's « Hugo »)
NOT_ELIDED = re.compile(
    r"(?<![-'])\b(de|que|je|ne|se|me|te|le|la|lorsque|puisque|jusque) ([aeiouéèêëàâîïôûœ]\w*|Hugo|Yves)\b",
    re.IGNORECASE,
)
BARE_CARD = re.compile(r"\bétait (" + "|".join(re.escape(c) for c in CARDS) + r")\b", re.IGNORECASE)
CARD_BEFORE_NAME = re.compile(
    r"\b(le|la|l'|du|de la) ?(" + "|".join(re.escape(c) for c in CARDS) + r"),? (" + NAMES + r")\b", re.IGNORECASE
)
BRACKETS = re.compile(r"[()\[\]]")
DOTS = re.compile(r"(?<!\.)\.\.(?!\.)|\.[,:;!?]|\b[A-Z]\.\w")
ONE_PLURAL = re.compile(r"\b1 [a-zéèêàç]+s\b")
# a word that agrees with a player (« Ana est éliminée », « Hugo, qui était seul »): records carry no gender
GENDERED = re.compile(
    r"(?<!d')(?<!de )\b(?:" + NAMES + r")(?:, qui)? (?:est|était|sera|reste|restera|devient|a été|semble) "
    r"(?:\w+(?:é|ée|és|ées)|morte?|seule?|vivante?|amoureuse|prête?|sûre?|certaine?|contente?)\b",
    re.IGNORECASE,
)
GESTURE = re.compile(r"\bje (te |vous |lui |leur )?(touche|montre)\b", re.IGNORECASE)
# what the speech synthesis spells out or a table does not say (issue 23's ear: « Grrr », « ex-æquo »)
UNSPOKEN = re.compile(r"\bgrr+\b|ex-æquo", re.IGNORECASE)
# RULINGS 23: the morning's deaths, as the table hears them, never say who or what killed
CAUSE = re.compile(r"dévor|empoisonn|incendie|pyromane|sorcière|surpris|village a tué", re.IGNORECASE)


def test_every_line_is_filled_and_there_are_many() -> None:
    wheres = {where for where, _ in SAID}
    assert len(wheres) > 400 and len(SAID) > 5000
    # the end of a game and its story among them, every sentence
    assert {w for w in wheres if w.startswith("story.")} == {f"story.{k}" for k in STORY_PLACEHOLDERS} - {
        f"story.{k}" for k in STORY_PIECES
    }
    assert not [(w, t) for w, t in SAID if "{" in t or "}" in t]  # no field left unfilled


@pytest.mark.parametrize(
    "rule,pattern",
    [
        ("« de », « que », « le »… élidés devant une voyelle ou un h muet", NOT_ELIDED),
        ("pas de nom de carte nu après « était »", BARE_CARD),
        ("pas d'article genré avec une carte devant un joueur", CARD_BEFORE_NAME),
        ("pas de parenthèse lue à voix haute", BRACKETS),
        ("pas de points lus à voix haute", DOTS),
        ("pas de « 1 » devant un pluriel", ONE_PLURAL),
        ("pas de geste que le narrateur ne peut pas faire (RULINGS 24)", GESTURE),
        ("pas de mot genré sur un joueur", GENDERED),
        ("ni « Grrr » épelé ni « ex-æquo » : « à égalité »", UNSPOKEN),
    ],
    ids=lambda value: value if isinstance(value, str) else "",  # the rule, never the pattern's text
)
def test_no_line_breaks_the_rule(rule: str, pattern: re.Pattern[str]) -> None:
    wrong = sorted({(where, text) for where, text in SAID if pattern.search(text)})
    assert not wrong, rule


def test_the_morning_names_the_dead_and_their_cards_never_the_cause() -> None:
    # the night's deaths reach the table as one sentence, `morning_deaths` (narrator/rules/classic/death.py)
    aloud = [t for w, t in SAID if w == "thiercelieux.texts.morning_deaths"]
    assert aloud and [t for t in aloud if CAUSE.search(t.split("carte")[0])] == []
    assert "La nuit a coûté la vie à Hugo et Élodie, qui avaient respectivement les cartes ancien et ancien." in aloud
    assert "La nuit a coûté la vie à Ana, qui avait la carte ancien." in aloud
    # the ancien's curse follows a death that named him and his card: it says neither again, nor the cause
    assert {t for w, t in SAID if w == "thiercelieux.reworded.elder_curse"} == {
        "L'ancien n'est plus : les villageois perdent tous leurs pouvoirs."
    }
    assert {"morning_deaths", "elder_curse"} <= load_narration().public


def test_the_checks_catch_what_the_table_heard() -> None:
    # the sentences of issue 23, as the table heard them, are each caught
    heard = {
        "La carte de Ana": NOT_ELIDED,
        "Le téléphone de Hugo est revenu.": NOT_ELIDED,
        "Mélanie était villageois.": BARE_CARD,
        "Le chasseur Hugo réplique en mourant.": CARD_BEFORE_NAME,
        "Ana a le plus de voix (4).": BRACKETS,
        "Léa B.. a le plus de voix.": DOTS,
        "1 répliques à enregistrer": ONE_PLURAL,
        "Je touche la tête des deux amoureux.": GESTURE,
        "la Sorcière se réveille, je lui montre la victime": GESTURE,
        "Mélanie était villageois, et Ana est éliminée.": GENDERED,
        "Hugo, qui était seul, gagne.": GENDERED,
        "Ana avait la carte de insomniaque.": NOT_ELIDED,
        "Grrr ! L'ours grogne.": UNSPOKEN,
        "Dan, capitaine, départage les ex-æquo.": UNSPOKEN,
    }
    # and what needs no gender is let through: the card agrees, not the player
    assert not GENDERED.search("La carte d'Ana est retournée, face visible.")
    assert not GENDERED.search("Ana avait la carte simple villageois et meurt.")
    assert [text for text, pattern in heard.items() if not pattern.search(text)] == []
    assert fill("La carte de {p}.", p="Ana") == "La carte d'Ana."
    assert fill("Le téléphone de {p} et celui de {q}.", p="Hugo", q="Harry") == "Le téléphone d'Hugo et celui de Harry."
    assert fill("{p} a le plus de voix.", p="Léa B.") == "Léa B. a le plus de voix."


@pytest.mark.parametrize("game", ["onuw", "poudlard"])
def test_every_legend_line_says_something_for_every_card(game: str) -> None:
    # ear.md 7 and 21: « Doppelgänger : . » (a card without a camp), « symbole aucun »
    announce = load_shipped(game).announce
    lines = [step.text for step in announce.setup_steps(list(announce.legend)) if hasattr(step, "text")]
    assert len(lines) > len(announce.legend)  # the intro, then a line per card
    for line in lines:
        assert not re.search(r":\s*[.,]|,\s*[,.]|symbole aucun", line), line
    if game == "onuw":
        assert "Doppelgänger : le camp de la carte copiée." in lines
    else:
        assert any(line.endswith(", sans symbole.") for line in lines)
        assert any(", symbole Cœur." in line for line in lines)
