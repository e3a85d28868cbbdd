"""The words of one table, tagged: what each word or group of words of a sentence is.

A sentence is cut, longest match first, into seated names (exact, or a slip of one), characters
(every form: feminine, plural, short names, Poudlard's tactile symbols, the respellings), numbers,
the day's words of scripts/listen.fr.yaml (`day_words`) and common first names that nobody at the
table has (`decoy_names`). Fillers and pronouns are dropped; a word nobody knows is skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from narrator.listen.ear_words import ear_words
from narrator.listen.french import Phrasebook, closest_name, words
from narrator.listen.heard import symbol_of
from narrator.script.games import GAMES
from narrator.script.role_names import roles_of

__all__ = ["KINDS", "Lexicon", "Tag", "role_forms"]

# kind -> what it marks; a sentence's kinds are read as a string of these letters (reading.py)
KINDS = {
    "N": "a seated player",
    "?": "a first name nobody at the table has",
    "R": "a character (value: its role ids; two when one symbol is two cards)",
    "D": "the Doppelgänger, before what it copied",
    "#": "a number",
    "Z": "no vote (« aucune voix »)",
    "O": "nobody (« personne », « blanc »)",
    "V": "a word of voting or choosing",
    "C": "contre, pour",
    "B": "a ballot (« voix », as vosk writes it)",
    "A": "an abstention (« ne vote pas »)",
    "&": "and",
    "S": "aussi",
    "E": "chacun",
    "X": "a correction (« non pardon »)",
    "P": "the Doppelgänger's copy (« qui a copié »)",
    "K": "a link that says nothing alone (« est », « la carte de »)",
    "=": "a link that presents (« c'est », « ce sont »): « le Mangemort, c'est Bob »",
    "!": "a word that turns a command around (« pas », « ou »), or says the sentence is no command (« je crois »)",
    "Y": "the agent of a passive ballot (« est visé par », « a reçu la voix de »)",
    "W": "a ballot as a subject (« la voix de »)",
    "G": "where that ballot goes (« va à »)",
    "Q": "que: « c'est contre Karim que Bérénice vote »",
    "I": "among: « entre Jean et Jeanne (je choisis Jeanne) »",
    "|": "ou: no command reads it, but « Ana ou Ben… je choisis Ben »",
    "-": "pas: no command reads it, but « pas Thibault, je choisis Gaëlle »",
    "/": "why (« parce que »): what follows is a reason, not read",
    "+": "several tags read as one group's other cut (value: the tags): « Harry Potter » is Harry, then Potter",
}
# day_words kinds -> tag kinds ("more" is read with the durations, not tagged)
DAY_TAGS = {
    "vote": "V",
    "against": "C",
    "ballot": "B",
    "nobody": "O",
    "abstain": "A",
    "and": "&",
    "also": "S",
    "each": "E",
    "correct": "X",
    "zero": "Z",
    "copy": "P",
    "presents": "=",
    "link": "K",
    "choosing": "K",
    "block": "!",
    "passive": "Y",
    "ballot_of": "W",
    "goes": "G",
    "object": "Q",
    "among": "I",
    "or": "|",
    "not": "-",
    "reason": "/",
}
# a heard name this many letters longer or shorter than a seated one is another name (« Jeannette »
# at a table with Jeanne, « Maël » with Maëlle): a syllable, not a slip
OTHER_NAME_LETTERS = 2
# a card's alias that is a title alone (« le directeur »): also said before the card's name
TITLES = frozenset({"directeur", "directrice", "professeur", "professeure"})


@dataclass(frozen=True, slots=True)
class Tag:
    kind: str
    value: Any = None


Key = tuple[str, ...]


def role_forms(
    book: Phrasebook, game: str, respell: Mapping[str, Mapping[str, Sequence[str]]] | None = None
) -> dict[str, set[str]]:
    """Each way a card of `game` is said -> its role ids: names, aliases, plurals, symbols, respellings.

    respell: game -> role id -> respellings in common French words (default: the phrasebook's
    `respell` section, narrator/listen/ear_words.py).
    """
    if respell is None:
        respell = ear_words().respell
    from narrator.listen.setup_words import plural  # the setup's plural, one rule for both

    roles: Mapping[str, Any] = roles_of(game)
    out: dict[str, set[str]] = {}

    for rid, role in roles.items():
        for said in (role.name, *book.roles.get(game, {}).get(rid, ()), *respell.get(game, {}).get(rid, ())):
            # « les deux francs-maçons »: the plural of a card the box holds several of
            several = (getattr(role, "copies", 1) or 1) > 1
            forms = {said.lower(), plural(said.lower()) if several else said.lower()}
            forms |= {f[:-3] + "ière" for f in forms if f.endswith("ier")}  # « la tannelière »
            for form in forms:
                out.setdefault(form, set()).add(rid)
    for rids_forms in _by_role(out).values():  # « le directeur Dumbledore »: a title before the name
        titles = {f for f in rids_forms if f.split()[-1] in TITLES}
        for title in titles:
            for form in rids_forms - titles:
                out.setdefault(f"{title} {form}", set()).update(out[form])
    for rid in roles:  # 001, Adaptation: the card read with a finger
        symbol = symbol_of(game, rid)
        if symbol:
            out.setdefault(symbol, set()).add(rid)
    return out


def _by_role(forms: Mapping[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for form, rids in forms.items():
        if len(rids) == 1:
            out.setdefault(next(iter(rids)), set()).add(form)
    return out


class Lexicon:
    """Every known word group of one table -> its tags, and the tagging of a sentence."""

    def __init__(
        self,
        book: Phrasebook,
        game: str,
        names: Mapping[str, str],
        respell: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
    ):
        """names: the parser's words for each seated name -> its seated spelling; respell: see `role_forms`."""
        self.names = {tuple(said.split()): spelled for said, spelled in names.items()}
        self._name_list = list(names)
        lex: dict[Key, list[Tag]] = {}

        def put(texts: Iterable[str], tag: Tag, overwrite: bool = False) -> None:
            for text in texts:
                key = tuple(words(text, book.spellings))
                # « la voix de » is also said « la voix d'Élodie »
                for said in (key, key[:-1] + ("d",)) if key[-1:] == ("de",) else (key,):
                    if said and (overwrite or said not in lex):
                        lex[said] = [tag]

        forms = role_forms(book, game, respell)
        doppel = {f for f, rids in forms.items() if rids == {"doppelganger"}}
        for said, rids in forms.items():
            if said not in doppel:
                put([said], Tag("R", tuple(sorted(rids))))
        put(doppel, Tag("D"), overwrite=True)
        for kind, tag in DAY_TAGS.items():  # after the cards: « voleur d'identité » is the Doppelgänger
            put(book.day_words.get(kind, ()), Tag(tag))
        put(book.nobody, Tag("O"))
        foreign = {s for g in GAMES if g != game for s in role_forms(book, g)}
        put(foreign, Tag("!"))  # « loup » at a Poudlard table is a wrong card, not a word to skip
        self.skips = {tuple(words(t, book.spellings)) for t in (*book.fillers, *book.not_names)} - {()}
        self.skips -= set(lex)
        seated = set(self.names)
        decoys = {}  # the parser's words -> the name as written (« zoe » -> « Zoé »)
        for text in book.decoy_names:
            key = tuple(words(text, book.spellings))
            if key and key not in seated:
                decoys[key] = "-".join(part[:1].upper() + part[1:] for part in text.split("-"))
        for key, spelled in decoys.items():
            lex.setdefault(key, [Tag("?", spelled)])
        self._decoy_texts = [" ".join(k) for k in decoys]
        self.lex = lex
        self.longest = max((len(k) for k in (*lex, *self.names, *self.skips)), default=1)
        self._longest_name = max((len(k) for k in self.names), default=1)

    def tag(self, heard: Sequence[str]) -> list[list[Tag]]:
        """Each word group's possible tags, in order (a name that is also a card has two)."""
        out: list[list[Tag]] = []
        i, n = 0, len(heard)
        while i < n:
            found, size = self._longest(heard, i)
            if found and all(tag.kind == "?" for tag in found):  # « jean marque »: Jean-Marc, misheard
                slip = self._slip(heard, i)
                if slip is not None and slip[0].kind == "N" and slip[1] > size:
                    found, size = [slip[0]], slip[1]
            if found is not None:
                if found:
                    out.append(found)
                i += size
                continue
            if heard[i].isascii() and heard[i].isdigit():
                out.append([Tag("#", int(heard[i]))])
                i += 1
                continue
            slip = self._slip(heard, i)
            if slip is None:
                i += 1  # a word nobody knows: skipped
                continue
            out.append([slip[0]])
            i += slip[1]
        return out

    def _longest(self, heard: Sequence[str], i: int) -> tuple[list[Tag] | None, int]:
        """The longest known group at i: its tags ([] for a word to drop), or None."""
        for k in range(min(self.longest, len(heard) - i), 0, -1):
            key = tuple(heard[i : i + k])
            tags = []
            if key in self.names:
                tags.append(Tag("N", self.names[key]))
            tags += self.lex.get(key, [])
            if tags and key not in self.names:  # « Harry Potter » at a table with a Harry: also Harry, then Potter
                tags += [
                    Tag("+", (Tag("N", self.names[key[:m]]), *self.lex[key[m:]]))
                    for m in range(1, k)
                    if key[:m] in self.names and key[m:] in self.lex
                ]
            if tags:
                return tags, k
            if key in self.skips:
                return [], k
        return None, 0

    def _known(self, word: str) -> bool:
        return (word,) in self.lex or (word,) in self.skips or (word,) in self.names or word.isdigit()

    def _slip(self, heard: Sequence[str], i: int) -> tuple[Tag, int] | None:
        """A seated name misheard at i (and how many words it took), or a word that blocks the sentence."""
        found = closest_name(heard, i, self._name_list, self._longest_name, lambda j: self._known(heard[j]))
        if found is None:
            return None
        name, k = found
        if name is None:
            return Tag("!"), k  # two players fit: when in doubt, nothing
        said = " ".join(heard[i : i + k])
        if k == 1 and " " not in name and another_name(said, name):
            return Tag("?", "-".join(part[:1].upper() + part[1:] for part in heard[i : i + k])), k
        slip = Levenshtein.distance(said, name)
        other = process.extractOne(
            said, self._decoy_texts, scorer=Levenshtein.distance, score_cutoff=slip
        )  # another first name as close: « Léa » is not Léo
        if other is not None:
            return Tag("!"), k
        return Tag("N", self.names[tuple(name.split())]), k


def another_name(heard: str, seated: str) -> bool:
    """Whether a heard word is another first name built on a seated one rather than a slip of it:
    a syllable more or less (« Jeannette », « Maël » for Maëlle, « Hamida » for Hamid), or the same
    stem with another ending (« Baptistine » for Baptiste)."""
    short, long = sorted((heard, seated), key=len)
    common = len(os.path.commonprefix([short, long]))
    longer = len(long) - len(short)
    if longer >= OTHER_NAME_LETTERS:
        return common >= len(short) - 1
    # one letter more: a sounded vowel is a syllable (« Hamida »); a mute « e », an « h », a letter
    # typed twice are slips (« Paulin » for Pauline, « Leah », « Hugoo »)
    if not longer and common == len(short) - 1 and {short[-1], long[-1]} - set("aiouy") == {"e"}:
        return short[-1] != long[-1]  # a mute « e » sounded as a vowel: « Romano » for Romane, a syllable
    extra = long[len(short)] if common == len(short) and longer == 1 else ""
    return extra in "aiouy" and extra != "" and extra != short[-1:]
