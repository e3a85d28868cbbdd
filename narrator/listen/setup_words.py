"""French text -> the spoken setup's commands: the game, how many players, their names,
a scenario or the characters one by one; controls and settings everywhere.

The templates and words are in scripts/listen.fr.yaml, like the game's; a player's name alone
is read without a template: whatever is said in the name phase that is no command, once the
lead-ins ("je m'appelle", "c'est") and fillers around it are dropped, provided none of its words
is one the listener uses ("oui", "annule", "pas"…) and it holds no number.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from hassil import RangeSlotList
from hassil.intents import SlotList

from narrator.listen.commands import COMMANDS, GAMES, Command
from narrator.listen.controls import folded
from narrator.listen.french import (
    SETUP_PHASES,
    Listener,
    fold,
    number_words,
    phrasebook,
    script_titles,
    spoken_list,
    spoken_title,
    text_list,
    words,
)
from narrator.listen.tagger import role_forms
from narrator.script.games import ONE_NIGHT, family_of
from narrator.script.onenight.script import UnknownGame, load_shipped
from narrator.script.role_names import Character, characters, roles_of

__all__ = ["MAX_NAME_WORDS", "SetupParser", "plural"]

MAX_NAME_WORDS = 3  # "Marie Anne Sophie"; more is a sentence, not a name
MOST_SAID = 10  # the most copies of one card said in one answer, for a card the box has no limit of
# what only a game in progress hears
_GAME_ONLY = frozenset({"vote", "tally", "reveal", "more_time", "start_vote", "free_seat", "story"})
# commands that may come before a name in one breath: « non, Chloé »
_BEFORE_NAME = frozenset({"no", "undo"})
# a name is letters (NFC: « é » is one), its separators and end punctuation
_NAME_CHARS = re.compile(r"[\w\s'’.,;:!?…-]*")
_TOKEN = re.compile(r"[\w'’-]+")
_PREPOSITIONS = frozenset({"de", "du", "des", "d"})


class SetupParser(Listener):
    """Understands the spoken setup of one game (None: before it is chosen).

    parse(text, phase) for the phases of `SETUP_PHASES`: "game" (choose_game), "number" (number),
    "name" (name), "scenario" (scenario), "character" (scenario, character, done), "any" (controls
    and settings only). Controls (oui, non, annule, recommence, répète, pause, stop…), settings
    (plus lentement…), "rappelle les personnages" and "qu'est-ce que je peux dire" are heard in
    every phase. Never raises on any text.
    """

    phases = SETUP_PHASES
    commands = frozenset(COMMANDS) - _GAME_ONLY

    def __init__(self, game: str | None = None):
        if game is not None and game not in GAMES:
            raise UnknownGame(f"jeu inconnu « {game} » ; attendu : {', '.join(GAMES)}")
        self.game = game
        book = phrasebook()
        self.roles: Mapping[str, Character] = roles_of(game) if game is not None else {}
        # how many cards of each a deal may hold; a classic card of no limit (villageois) up to MOST_SAID at once
        # (« dix villageois »; more in two answers): each count is a phrase of every card in the grammar
        self._copies = {rid: copies if copies > 1 or _limited(game, rid) else MOST_SAID
                        for rid, (_, copies) in (characters(game) if game is not None else {}).items()}  # fmt: skip
        self._most = max(self._copies.values(), default=1)
        self._spoken = {
            "game": _unique(book.game_aliases()),
            "scenario": _unique(self._scenario_aliases()),
            "role": _unique(self._role_aliases()),
        }
        lists: dict[str, SlotList] = {
            name: text_list(name, [(" ".join(words(said, book.spellings)), value) for said, value in pairs])
            for name, pairs in self._spoken.items()
        }
        start, stop, step = book.ranges["players"]
        lists["players"] = RangeSlotList("players", start, stop, step, words=False)
        lists["count"] = RangeSlotList("count", 1, self._most, words=False)
        # a game without scenarios (or cards, before the game is chosen) never hears them
        empty = {"scenario": "scenario", "role": "character"}
        self.commands = frozenset(self.commands - {empty[name] for name in empty if not self._spoken[name]})
        self._prepare({}, lists)
        # a name is never one of the listener's words; one-letter words are elisions (« d' »)
        used = [*book.not_names, *book.nobody, *book.fillers, *book.name_lead_ins]
        self._reserved = frozenset(self._template_words | {w for text in used for w in fold(text).split()})
        folded = {tuple(fold(text).split()) for text in (*book.name_lead_ins, *book.fillers)} - {()}
        self._lead_ins = sorted(folded, key=len, reverse=True)
        self._trailing = sorted({tuple(fold(text).split()) for text in book.fillers} - {()}, key=len, reverse=True)
        self._filler_names = frozenset(fold(text) for text in book.filler_names)
        # a card of the game is no player's name: « je suis mangemort » after a misheard answer
        cards = role_forms(book, game) if game is not None else {}
        self._cards = frozenset(" ".join(fold(said).split()) for said in cards)

    def _scenario_aliases(self) -> list[tuple[str, str]]:
        if self.game is None or family_of(self.game) != ONE_NIGHT:
            return []
        book = phrasebook()
        titles = script_titles(self.game)[1]
        aliases = book.scenarios.get(self.game, {})
        pairs = []
        for sid in load_shipped(self.game).announce.scenarios:
            pairs += [(spoken_title(titles.get(sid, "")), sid), *((a.lower(), sid) for a in aliases.get(sid, ()))]
        return pairs

    def _role_aliases(self) -> list[tuple[str, str]]:
        """Each card of the game as said, in the plural too when the box holds several."""
        book = phrasebook()
        said = book.roles.get(self.game or "", {})
        pairs = []
        for rid, role in self.roles.items():
            aliases = [a.lower() for a in (*said.get(rid, ()), role.name)]
            # « deux sœurs » is the count and the card said in the plural: as one alias it would be two readings
            aliases = [a for a in aliases if not words(a, book.spellings)[0].isdigit()]
            if self._copies.get(rid, 1) > 1:
                aliases += [plural(a) for a in aliases]
            pairs += [(a, rid) for a in aliases]
        return pairs

    def spoken_lists(self) -> dict[str, SlotList]:
        lists: dict[str, SlotList] = {name: spoken_list(name, pairs) for name, pairs in self._spoken.items()}
        start, stop, step = self.book.ranges["players"]
        lists["players"] = number_words("players", start, stop, step)
        lists["count"] = number_words("count", 1, self._most, 1)
        return lists

    def most(self, role_id: str) -> int:
        """How many cards of this one an answer may give (« deux mangemorts »; 0: not a card of the game)."""
        return self._copies.get(role_id, 0)

    def _accept(self, command: Command) -> bool:
        if command.command == "character":  # "deux hermione": the box holds one
            return command.count is not None and 1 <= command.count <= self._copies.get(command.role or "", 0)
        return True

    def parse(self, text: str, phase: str = "any") -> list[Command]:
        """The commands in `text`, in order; [] unless every word is understood one way only."""
        commands = list(folded(super().parse(text, phase)))
        if commands or phase != "name" or not isinstance(text, str):
            return commands
        return self._named(text)

    # -- a player's name ----------------------------------------------------------------------

    def name_refusal(self, name: str) -> str | None:
        """Why a typed name (--players) cannot be a player's: the table would hear it as one of its
        words (« Oui », « Personne », « Stop ») or as a character of the game; None if it can."""
        what = self.name_clash(name)
        if what is None:
            return None
        fix = f"ajoutez-lui une initiale pour qu'on l'entende comme un nom (« {name} B. »)"
        return f"« {name} » est {WHAT[what]} : {fix}"

    def name_clash(self, name: str) -> str | None:
        """What the table would take this name for: "card" (a character of the game), "command" (a word
        the narrator listens for), or None: it is a name."""
        said = fold(name).split()
        if not said or " ".join(said) in self._filler_names:  # « Ben » is a name said alone
            return None
        if " ".join(said) in self._cards:
            return "card"
        if all(w in self._reserved or w in self._cards for w in said):
            return "command"
        return None

    def refused_name(self, text: str) -> str | None:
        """The name said in answer to « quel est ton nom ? » that the table would take for a card or a
        command (« Harry » at a Poudlard table), capitalized; None if `text` is no such name."""
        text = unicodedata.normalize("NFC", text) if isinstance(text, str) else ""
        if self.parse(text, "name") or not _NAME_CHARS.fullmatch(text):
            return None
        tokens = [t for t in (t.strip("'’-") for t in _TOKEN.findall(text)) if t]
        spoken = [(w, i) for i, t in enumerate(tokens) for w in fold(t).split()]
        flat = [w for w, _ in spoken]
        for start in range(len(flat)):  # after its lead-in: « je m'appelle Harry » is Harry
            rest = " ".join(flat[start:])
            if rest in self._cards and (start == 0 or tuple(flat[:start]) in self._lead_ins):
                if start and spoken[start][1] == spoken[start - 1][1]:
                    return " ".join(_capitalized(t) for t in rest.split())  # inside a word: as folded
                # as said, accents kept: « Sorcière », not « Sorciere »
                return " ".join(_capitalized(t) for t in tokens[spoken[start][1] :])
        return None

    def _named(self, text: str) -> list[Command]:
        """« Chloé », « je m'appelle Chloé », « non, c'est Chloé »: [no?, name] or []."""
        text = unicodedata.normalize("NFC", text)  # a decomposed « é » is one letter
        if not _NAME_CHARS.fullmatch(text):
            return []
        tokens = [t.strip("'’-") for t in _TOKEN.findall(text)]
        tokens = [t for t in tokens if t]
        if not tokens or len(tokens) > MAX_NAME_WORDS + 8:
            return []
        for k in range(min(len(tokens) - 1, 3) + 1):  # the first words may be « non » or « annule »
            before = super().parse(" ".join(tokens[:k]), "name") if k else []
            if k and (not before or any(c.command not in _BEFORE_NAME for c in before)):
                continue
            name = self._name_in(tokens[k:])
            if name:
                return [*before, Command("name", player=name)]
        if len(tokens) == 1 and fold(tokens[0]) in self._filler_names:
            # a filler said alone, as the whole answer to « quel est ton nom ? », is a name: « Ben »
            return [Command("name", player=_capitalized(tokens[0]))]
        return []

    def _name_in(self, tokens: Sequence[str]) -> str | None:
        """The name in these words once lead-ins and fillers are off, capitalized; None if not a name."""
        flat = [(w, i) for i, token in enumerate(tokens) for w in fold(token).split()]
        said = [w for w, _ in flat]

        def boundary(j: int) -> bool:  # between two of the spoken words, not inside one
            return j in (0, len(flat)) or flat[j][1] != flat[j - 1][1]

        start, end = 0, len(flat)
        while start < end:
            lead = next((s for s in self._lead_ins if tuple(said[start : start + len(s)]) == s), None)
            if lead is None or not boundary(start + len(lead)):
                break
            start += len(lead)
        while start < end:
            tail = next((s for s in self._trailing if tuple(said[end - len(s) : end]) == s), None)
            if tail is None or end - len(tail) < start or not boundary(end - len(tail)):
                break
            end -= len(tail)
        if start >= end:
            return None
        kept = tokens[flat[start][1] : flat[end - 1][1] + 1]
        if len(kept) > MAX_NAME_WORDS or " ".join(said[start:end]) in self._cards:  # « loup garou »
            return None
        initial = _initial(kept)
        if initial:  # « Harry B », as a card's name is given to a player (name_refusal)
            kept = kept[:-1]
            if all(w in self._reserved for t in kept for w in fold(t).split()):
                return None
        for token in kept:
            said = fold(token).split()
            if sum(len(w) for w in said) < 2 or any(len(w) > 1 and w in self._reserved for w in said):
                return None
            if not initial and any(w in self._cards for w in said):  # « Mangemort », « Jean Mangemort »
                return None
            if any(w.isdigit() for w in words(token, self.book.spellings)):  # « deux », « 2 »
                return None
        return " ".join([*(_capitalized(t) for t in kept), *([initial.upper() + "."] if initial else [])])


def plural(said: str) -> str:
    """A card's name in the plural: « loup-garou » -> « loups-garous », « élève de X » -> « élèves de X »."""
    out: list[str] = []
    for i, word in enumerate(said.split()):
        if word in _PREPOSITIONS:
            return " ".join(out + said.split()[i:])
        out.append("-".join(p if p[-1:] in ("s", "x", "z") else p + "s" for p in word.split("-")))
    return " ".join(out)


WHAT = {"card": "un personnage du jeu", "command": "un mot que le narrateur écoute (une commande)"}


def _limited(game: str | None, role_id: str) -> bool:
    """Whether a card of one copy is one in the box (a one-night card, a classic character) or one of a
    classic card the table takes as many of as it needs (loup, villageois: `copies` None)."""
    if game is None or family_of(game) == ONE_NIGHT:
        return True
    return roles_of(game)[role_id].copies is not None  # type: ignore[attr-defined]


def _initial(tokens: Sequence[str]) -> str | None:
    """The last word's letter when it is an initial after a name (« Harry B »), else None."""
    last = fold(tokens[-1]) if len(tokens) > 1 else ""
    return last if len(last) == 1 and last.isalpha() and len(fold(tokens[-2])) > 1 else None


def _capitalized(token: str) -> str:
    return "-".join(p[:1].upper() + p[1:].lower() for p in token.replace("’", "'").split("-"))


def _unique(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return list(dict.fromkeys((said, value) for said, value in pairs if said.strip()))
