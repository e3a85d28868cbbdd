"""The words of a game's end (scripts/story.yaml): the cards at dawn, the offer, the story's sentences.

A file of its own, validated like the table's prompts, with the small helpers the story needs to say
French right: « de » elided before a vowel or an « h » (« d'Ana »), numbers and ordinals in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import cast

from narrator.resources import data_dir
from narrator.script.classic.script import PLACEHOLDERS as CLASSIC_PLACEHOLDERS
from narrator.script.onenight.script import _PLACEHOLDERS as ONE_NIGHT_PLACEHOLDERS
from narrator.script.prompts import Prompts, parse_prompts
from narrator.script.templates import elides

STORY_PLACEHOLDERS: dict[str, set[str]] = {
    "of": {"word"},
    "of_elided": {"word"},
    "and": set(),
    "numbers": set(),
    "night_ordinals": set(),
    "day_ordinals": set(),
    "dawn": set(),
    "dawn_changed": {"player", "first", "last"},
    "dawn_kept": {"player", "last"},
    "dawn_changed_copy": {"player", "first", "last"},
    "copy_of": {"card", "copied"},
    "story_kept": {"player", "last"},
    "dawn_center": {"cards"},
    "offer": set(),
    "no_story": set(),
    "offer_again": set(),
    "offer_last": set(),
    "no_answer": set(),
    "story_later": set(),
    "story_title": set(),
    "story_end": set(),
    "dealt_first": {"player", "card"},
    "dealt_next": {"player", "card"},
    "deal": {"cards"},
    "deal_classic": {"cards"},
    "center": {"cards"},
    "extra": {"cards"},
    "in_play": {"cards"},
    "unseen_night": set(),
    "dawn_story": {"cards"},
    "recognized": {"names", "cards"},
    "alone": {"player", "held"},
    "peeked": {"player", "place", "card"},
    "saw_wolves": {"player", "held", "wolf", "names"},
    "saw_no_wolf": {"player", "held", "wolf"},
    "copied": {"player", "held", "of_target", "card"},
    "looked": {"player", "held", "of_target", "card"},
    "looked_center": {"player", "held", "cards"},
    "swapped_with": {"player", "held", "of_target", "taken"},
    "swapped_two": {"player", "held", "of_first", "of_second"},
    "took_center": {"player", "held", "place", "taken"},
    "gave_center": {"player", "held", "place", "taken", "target"},
    "kept_center": {"player", "held", "place", "taken"},
    "revealed": {"player", "held", "of_target", "card"},
    "revealed_hidden": {"player", "held", "of_target", "card"},
    "saw_self": {"player", "held", "card"},
    "did_nothing": {"player", "held"},
    "ballot_first": {"voter", "target"},
    "ballot_next": {"voter", "target"},
    "blank_first": {"voter"},
    "blank_next": {"voter"},
    "ballots": {"ballots"},
    "tally_one": {"target", "count"},
    "tallies": {"tallies"},
    "blank_votes": {"count"},
    "night_title": {"ordinal"},
    "day_title": {"ordinal"},
}

# classic Thiercelieux's sentences told in the past by the story (`classic_KEY` for the engine's KEY, with
# its placeholders); the others (« Les loups-garous ont dévoré… », « Égalité entre… ») are already
CLASSIC_TOLD = (
    "lovers", "lovers_apart", "seen", "spied", "spared_by_girl", "healed", "quiet_night", "death_caught",
    "death_voted", "death_shot", "death_grief", "successor", "captain_elected", "captain_double", "no_votes",
    "most_votes", "tiebreak", "revote", "still_tied", "village_wins", "wolves_win", "lovers_win", "winners",
    "stolen", "model", "chose", "recognize", "perform", "guarded", "elder_resists", "elder_curse",
    "elder_curse_poisoned", "sniff_yes",
    "sniff_no", "infected", "charmed", "raven", "raven_votes", "doused", "ignite", "death_scapegoat",
    "death_sickness", "death_burned", "wounded", "growl", "no_growl", "devoted", "wild", "scapegoat_voters",
    "scapegoat_nobody", "pardoned", "angel_stays", "second_vote", "angel_wins", "piper_wins", "white_wolf_wins",
    "sect_wins",
)  # fmt: skip
STORY_PLACEHOLDERS |= {f"classic_{key}": CLASSIC_PLACEHOLDERS[key] for key in CLASSIC_TOLD}
# the one-night verdict told in the past (`GAME_KEY` for the game's KEY), each game its own words
ONE_NIGHT_TOLD = {
    "onuw": (
        "no_votes", "one_vote_each", "most_votes", "tie", "most_votes_spared", "tie_spared", "spared", "captured",
        "drag", "drag_tied", "village_wins",
        "village_wins_team", "hunter_shot_wolf", "wolves_win", "wolves_and_traitor_win", "no_wolf_traitor_dead",
        "no_wolf_traitor_alive", "no_wolf_nobody_dead", "no_wolf_someone_dead", "tanner_wins", "tanner_blocks_wolves",
        "winners", "no_winner",
    ),
    "poudlard": (
        "no_votes", "one_vote_each", "most_votes", "tie", "most_votes_spared", "tie_spared", "spared", "captured",
        "drag", "drag_tied", "village_wins",
        "village_wins_team", "hunter_shot_wolf", "wolves_win", "no_wolf_traitor_dead", "no_wolf_traitor_alive",
        "no_wolf_nobody_dead", "no_wolf_someone_dead", "tanner_wins", "tanner_blocks_wolves", "winners", "no_winner",
    ),
}  # fmt: skip
STORY_PLACEHOLDERS |= {
    f"{game}_{key}": ONE_NIGHT_PLACEHOLDERS.get(key, set()) for game, keys in ONE_NIGHT_TOLD.items() for key in keys
}


@dataclass(frozen=True)
class StoryWords:
    """Fills the templates of scripts/story.yaml."""

    prompts: Prompts

    @property
    def texts(self) -> dict[str, object]:
        return self.prompts.texts

    def text(self, key: str, **params: object) -> str:
        return self.prompts.text(key, **params)

    def of(self, word: str) -> str:
        """« de Ben », « d'Ana », « d'Hugo », « de Harry B. »: elided as every filled template is."""
        return self.text("of_elided" if elides(word) else "of", word=word)

    def classic_told(self) -> dict[str, str | Mapping[str, str]]:
        """Classic Thiercelieux's `texts` the story says in the past, by the engine's keys."""
        return {key: cast(str | Mapping[str, str], self.texts[f"classic_{key}"]) for key in CLASSIC_TOLD}

    def one_night_told(self, game: str) -> dict[str, str | Mapping[str, str]]:
        """A one-night game's verdict as the story says it, in the past, by the game's keys."""
        keys = ONE_NIGHT_TOLD.get(game, ())
        return {key: cast(str | Mapping[str, str], self.texts[f"{game}_{key}"]) for key in keys}

    def join(self, parts: Sequence[str]) -> str:
        return self.prompts.join(list(parts))

    def ballots(self, ballots: Sequence[tuple[str, str | None]]) -> str:
        """« Au vote, Ana a voté contre Ben, Ben contre Cleo et Cleo contre personne. » (both families)"""
        clauses = []
        for i, (voter, target) in enumerate(ballots):
            kind = "blank" if target is None else "ballot"
            params = {"voter": voter} if target is None else {"voter": voter, "target": target}
            clauses.append(self.text(f"{kind}_first" if i == 0 else f"{kind}_next", **params))
        return self.text("ballots", ballots=self.join(clauses))

    def number(self, n: int) -> str:
        """A count in words (« deux »), the feminine « une » (« une voix »); digits beyond twenty."""
        words = str(self.texts["numbers"]).split()
        return words[n] if 0 <= n < len(words) else str(n)

    def ordinal(self, n: int, kind: str) -> str:
        """« Première » (nuit), « Premier » (jour), « Deuxième »…, capitalized: a title's first word."""
        words = str(self.texts[f"{kind}_ordinals"]).split()
        word = words[n - 1] if 1 <= n <= len(words) else f"{n}e"
        return word[:1].upper() + word[1:]

    def listed(self, first: str, next_: str, items: Sequence[Mapping[str, object]]) -> str:
        """One clause per item, the verb said once: « Ana avait la carte voleur, Ben la carte loup-garou »."""
        return self.join([self.text(first if i == 0 else next_, **item) for i, item in enumerate(items)])


@cache
def load_story_words() -> StoryWords:
    """The shipped words of a game's end, validated."""
    path = data_dir("scripts") / "story.yaml"
    return parse_story_words(path.read_text(encoding="utf-8"), f"scripts/{path.name}")


def parse_story_words(text: str, file: str) -> StoryWords:
    """Validate the words of a game's end; raise `YamlError` with every problem at file:line:column."""
    return StoryWords(parse_prompts(text, file, STORY_PLACEHOLDERS))
