"""The day's prompts (scripts/table.yaml): French templates the session fills with names and numbers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from narrator.resources import data_dir
from narrator.script.line import Line
from narrator.script.marks import Marked, Problem, YamlError, load_marked
from narrator.script.plural import TEMPLATE, form, how_many
from narrator.script.schema import schema_problems
from narrator.script.templates import fill, join_names, template_problems

# key -> the placeholders its template may use
PLACEHOLDERS: dict[str, set[str]] = {
    "paused": set(),
    "resumed": {"time"},
    "deal_cards": {"count"},
    "raven_marked": {"name"},
    "resumed_night": set(),
    "resumed_debate": {"time"},
    "resumed_vote": set(),
    "resumed_day": {"number"},
    "resumed_game": set(),
    "more_time": {"time", "left"},
    "time_left": {"time"},
    "minutes": {"n"},
    "seconds": {"n"},
    "ask_votes": {"voter", "target"},
    "votes_so_far": {"count", "total"},
    "vote_one": {"voter", "target"},
    "vote_nobody": {"voter"},
    "vote_changed": {"voter", "target"},
    "tally_one": {"count", "target"},
    "tally_blank": {"count"},
    "and": set(),
    "read_back": {"summary"},
    "too_many_votes": {"count", "total"},
    "votes_again": set(),
    "ask_cards": set(),
    "ask_card": {"player"},
    "card_other_player": {"player"},
    "ask_copy": {"player", "role"},
    "card_one": {"player", "role"},
    "no_such_card": {"role"},
    "card_taken": {"copies", "role"},
    "cards_again": set(),
    "ask_pointing": {"player"},
    # the classic game's spoken decisions (narrator/table/classic/)
    "nobody": set(),
    "choice_needed": set(),
    "choice_refused": {"target"},
    "choice_refused_because": {"target", "why"},
    "not_a_voter": {"voter"},
    "not_a_voter_because": {"voter", "why"},
    "not_alive": set(),
    "not_tied": set(),
    "ballot_refused": {"voter", "target", "why"},
    "not_a_target": set(),
    "characters_in_play": {"characters"},
    "help_classic": set(),
    "not_understood": {"text"},
    "unknown_player": {"name"},
    "not_yes_no": set(),
    "not_heard": set(),
    "keyboard": set(),
    "nothing_to_undo": set(),
    "yes_or_no": set(),
    "stopped": set(),
    "welcome": set(),
    "ask_game": set(),
    "game_chosen": {"title"},
    "game_unavailable": set(),
    "ask_count": set(),
    "count_range": {"low", "high"},
    "ask_name": {"seat"},
    "name_check": {"name"},
    "name_taken": {"name"},
    "ask_cards_mode": {"example", "total"},
    "no_scenario": {"count"},
    "characters_so_far": {"count", "total"},
    "characters_count": {"count", "total"},
    "setup_read_back": {"count", "players", "characters"},
    "setup_again": set(),
    # the spoken setup: each card by its name, a refused answer's reason, each question's help, the classic game
    "classic_title": set(),
    "classic_needs_phones": set(),
    "ask_cards_listed": {"total", "example"},
    "example_two": {"cards"},
    "not_a_card": {"name"},
    "card_added": {"count", "role", "so_far", "total"},
    "cards_of": {"count", "role"},
    "characters_missing": {"count", "given", "total"},
    "too_many": {"count"},
    "box_holds": {"copies", "role"},
    "played_together": {"copies", "role"},
    "no_wolf": set(),
    "too_many_wolves": set(),
    "one_taker": set(),
    "ask_extra_voleur": {"total"},
    "ask_extra_comedien": {"total"},
    "extra_refused": {"role"},
    "extra_not_lendable": {"role"},
    "extra_different": set(),
    "ask_group": {"player"},
    "ask_group_first": {"player"},
    "groups_both": {"group"},
    "group_said": {"player", "group"},
    "typed_group": set(),
    "ask_captain": set(),
    "read_back_extra": {"cards"},
    "read_back_group": {"group", "players"},
    "read_back_captain": set(),
    "read_back_no_captain": set(),
    "captain_said": set(),
    "no_captain_said": set(),
    "name_is_a_card": {"name"},
    "no_characters_yet": set(),
    "characters_given": {"characters"},
    "help_game": {"games"},
    "help_count": {"low", "high"},
    "help_name": set(),
    "help_scenarios": {"count", "scenarios"},
    "help_scenario": {"count", "scenarios"},  # when there is one
    "help_characters": {"characters"},
    "help_characters_first": {"characters", "count"},
    "help_cards": set(),
    "help_group": set(),
    "help_yes_no": set(),
    "help_setup": set(),
    "slower": set(),
    "faster": set(),
    "louder": set(),
    "quieter": set(),
    "longer_waits": set(),
    "setting_limit": set(),
    "music_off": set(),
    "music_on": set(),
    "music_on_later": set(),
    "music_louder": set(),
    "music_softer": set(),
    "music_louder_limit": set(),
    "music_softer_limit": set(),
    "no_music": set(),
    "help": set(),
    # « stop », « annule », « répète la nuit » and a resumed vote: what the table hears of each
    "stop_check": set(),
    "stop_cancelled": set(),
    "setup_stop_check": set(),
    "setup_restart_check": set(),
    "setup_unfinished": {"what"},
    "game_unfinished": set(),
    "hello": set(),
    "read_back_no": set(),
    "setup_stopped": set(),
    "undone_what": {"what"},
    "undo_start_vote": set(),
    "undo_vote": set(),
    "undo_cards": set(),
    "players_count": {"count"},
    "votes_held": {"count", "summary"},
    "night_not_repeated": set(),
    # what to type, shown to a keyboard (narrator/table/conversation.py): for a phase, or a question
    "typed_any": set(),
    "typed_yes_no": set(),
    "typed_game": set(),
    "typed_number": set(),
    "typed_count": {"low", "high"},
    "typed_name": set(),
    "typed_character": set(),
    "typed_vote": {"example"},
    "typed_reveal": {"player", "card"},
    "typed_choose": set(),
    "typed_choose_or_nobody": set(),
    "typed_ask_pointing": set(),
    "typed_ask_votes": {"voter", "target"},
    "typed_ask_card": {"card"},
    "typed_ask_copy": set(),
}
# what the narrator says of the players' phones (scripts/phones.yaml): a file of its own, so that a game
# played without them keeps its scripts' version (narrator/app/startup.py's `script_version`)
PHONE_PLACEHOLDERS: dict[str, set[str]] = {
    "and": set(),
    "setup_read_back_phones": {"count", "players", "characters"},
    "setup_phones": set(),
    "setup_no_phones": set(),
    "phones_address": {"address"},
    "phones_resumed": {"address"},
    "phones_address_again": {"address"},
    "phones_joined": {"names", "count"},
    "phones_back": {"names", "count"},
    "phones_missing": {"names"},
    "phones_all": set(),
    "free_seat_check": {"player"},
    "seat_freed": {"player"},
    "seat_taken_again": {"player"},
    "no_phones": set(),
    # the night: a decoy question of each form, and a slow answer asked again aloud
    "phone_decoy_one": set(),
    "phone_decoy_pair": set(),
    "phone_decoy_some": set(),
    "phone_decoy_yes_no": set(),
    "phone_ballot_counted": {"target"},
    "phone_ballot_refused": {"why"},
    "phone_ballot_blank": set(),
    "phone_ballot_dropped": set(),
    "phone_ballot_again": set(),
    "phone_ballot_undone": set(),
    "waiting_answer": set(),
    "status_night": {"number"},
    "status_morning": {"number"},
    "status_debate": {"number"},
    "status_the_night": set(),
    "status_vote": {"number"},
    "status_day": set(),
    "status_day_vote": set(),
    "camp_village": set(),
    "camp_copy": set(),
    "camp_loups": set(),
    "camp_ange": set(),
    "camp_joueur_de_flute": set(),
    "camp_loup_blanc": set(),
    "camp_sectaire": set(),
}


def _schema(placeholders: dict[str, set[str]]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {key: TEMPLATE for key in placeholders},  # a text, or its forms by number
        "required": list(placeholders),
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class Prompts:
    """Fills the day's templates; a line's id is its key, so a voice pack can record the fixed ones."""

    texts: dict[str, Any]

    def line(self, key: str, **params: object) -> Line:
        """The filled line; a filled template's id ends in "*", so no recorded voice pack replaces it."""
        return Line(key + ("*" if params else ""), self.text(key, **params))

    def text(self, key: str, **params: object) -> str:
        """The template filled; in the form of its number when it has forms (« 1 carte », « 2 cartes »)."""
        return fill(form(self.texts[key], how_many(params)), **params)

    def join(self, parts: list[str]) -> str:
        """ "a", "a et b", "a, b et c"."""
        return join_names(self, parts)

    def duration(self, seconds: float) -> str:
        """ "4 minutes et 30 secondes", "une minute", "45 secondes"."""
        whole = max(0, round(seconds))
        minutes, rest = divmod(whole, 60)
        parts = [self._plural("minutes", minutes)] if minutes else []
        if rest or not minutes:
            parts.append(self._plural("seconds", rest))
        return self.join(parts)

    def _plural(self, key: str, n: int) -> str:
        return self.text(key, n=n)


@cache
def load_prompts() -> Prompts:
    """The shipped prompts, validated."""
    path = data_dir("scripts") / "table.yaml"
    return parse_prompts(path.read_text(encoding="utf-8"), f"scripts/{path.name}")


@cache
def load_phone_prompts() -> Prompts:
    """The shipped prompts of the players' phones (scripts/phones.yaml), validated."""
    path = data_dir("scripts") / "phones.yaml"
    return parse_prompts(path.read_text(encoding="utf-8"), f"scripts/{path.name}", PHONE_PLACEHOLDERS)


def parse_prompts(text: str, file: str, placeholders: dict[str, set[str]] = PLACEHOLDERS) -> Prompts:
    """Validate a prompts file (the table's, or with `PHONE_PLACEHOLDERS` the phones'); raise `YamlError`
    with every problem at file:line:column."""
    doc = load_marked(text, file)
    problems = schema_problems(doc, _schema(placeholders)) or _placeholder_problems(doc, placeholders)
    if problems:
        raise YamlError(problems)
    return Prompts(cast(dict, doc.data))


def _placeholder_problems(doc: Marked, placeholders: dict[str, set[str]]) -> list[Problem]:
    texts = cast(dict, doc.data)
    return [p for key, allowed in placeholders.items() for p in template_problems(doc, (key,), texts[key], allowed)]
