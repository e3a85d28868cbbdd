"""The day's commands read from a tagged sentence, with a few rules over the kinds of its words.

Each tag has a kind of one letter (narrator/listen/tagger.py, KINDS); a sentence's kinds form a
string such as "N&NVCN" (« Paul et Zoé votent contre Max »), and each command is a small pattern
over it: a list of voters then a target; a count next to a name; a name next to a character.
« aussi » repeats the command before with other names, « chacun » gives each name of a list the
same count, and a correction (« non pardon ») takes back what it repeats. A sentence that can be
read two ways, or holds a word that turns a command around (« pas », « ou »), gives nothing.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from narrator.listen.commands import Command
from narrator.listen.tagger import Tag

__all__ = ["Reader"]

MAX_WAYS = 4  # ways to cut a sentence kept at each word (one more than needed to see two)
MAX_READINGS = 128  # a name that is also a card doubles the readings; a sentence holds a few
_LIST = r"N(?:&?N)*"  # voters: « Paul, Zoé et Léo »
_AND_LIST = r"N(?:&N)*"  # a card or a count for several names needs its « et »: « Ana et Ben »
_K = "[K=]"  # a link: « est », « c'est »
# vote: [vote de] voters [vote words] [contre] target; voters abstain; « … et Léo aussi »
# « moi c'est Léa et je vote contre Paul »: an « et » between the voter and the vote's verb
_VOTE = re.compile(rf"&?{_K}*(?:V[K=E]*)?(?P<L>{_LIST})(?P<mid>(?:&(?={_K}*V))?[K=VEC]*)(?P<T>[NO])S?[K=E]*")
_BARE = re.compile(rf"&?{_K}*(?P<L>N)(?P<T>[NO])")  # « Alice Bob », while the votes are collected
_ABSTAIN = re.compile(rf"&?{_K}*(?:V[K=E]*)?(?P<L>{_LIST})[K=VE]*A(?:[K=]*C[K=]*O)?[K=E]*")
_ALSO = re.compile(rf"&?{_K}*(?P<L>{_LIST}){_K}*S[K=E]*")
# the other constructions of a ballot: the passive (« Karim est visé par Léa », « Karim a reçu la voix
# de Léa »), the ballot as subject (« la voix de Timothée va à Lou »), the cleft (« contre Karim
# c'est Bérénice qui vote », « c'est Karim que Bérénice accuse »)
_PASSIVE = re.compile(rf"&?{_K}*(?P<T>N){_K}*Y{_K}*(?P<L>{_LIST})[K=E]*")
# « mon vote à moi, Nadia, il va à Paul », « le vote de Paul, c'est contre Nadia »
_BALLOT_OF = re.compile(rf"&?{_K}*W{_K}*(?P<L>N(?:&K*N)*)K*[GC=][K=GC]*(?P<T>[NO])[K=E]*")
_OWN_BALLOT = re.compile(rf"&?{_K}*(?P<L>N)K*WK*[GC=][K=GC]*(?P<T>[NO])[K=E]*")
_CLEFT = re.compile(rf"&?{_K}*C(?P<T>[NO])[K=Q]*(?P<L>{_LIST})[K=Q]*V[K=E]*")
_CLEFT_NAME = re.compile(rf"&?{_K}*=(?P<T>N){_K}*Q{_K}*(?P<L>{_LIST}){_K}*V[K=E]*")
# the cleft's other orders: « c'est contre Hugo que vote Inès » (the verb before its voter), « Romane,
# c'est Yves qu'elle désigne » (the voter said first), « contre Hugo c'est Nadia et Inès », « contre
# Romane c'est le vote de Paul » (no verb: « contre » says it)
_CLEFT_INVERTED = re.compile(rf"&?{_K}*C(?P<T>[NO])[K=]*Q[K=]*V[K=]*(?P<L>{_LIST})[K=E]*")
_CLEFT_TOPIC = re.compile(rf"&?{_K}*(?P<L>N)K*=(?P<T>N)K*QK*V[K=E]*")
_CLEFT_BARE = re.compile(rf"&?{_K}*C(?P<T>[NO])=K*W?(?P<L>{_LIST})[K=E]*")
# the vote's word after its target: « Yves montre Hugo du doigt », « Manon pointe Sarah du doigt »
_POINTED = re.compile(rf"&?{_K}*(?P<L>N)[KV](?P<T>N)V[K=E]*")
# tally: count [voix] [contre] names; [contre] names [a eu] count [voix]; « personne contre Dan »
_COUNT_FIRST = re.compile(rf"&?{_K}*(?P<n>[#Z])[K=BE]*C?[K=E]*(?P<L>{_AND_LIST})[K=E]*")
_NAMES_FIRST = re.compile(rf"&?{_K}*C?{_K}*(?P<L>{_AND_LIST})[K=BE]*(?P<n>[#Z])B?S?[K=BE]*")  # « … quatre aussi »
_NOBODY_AGAINST = re.compile(rf"&?{_K}*O[K=E]*C[K=E]*(?P<L>{_AND_LIST})[K=E]*")
# blank votes (target null): « deux votes blancs », « blanc deux voix » (a count « pour personne »
# is for no seated player: not understood)
_BLANK_COUNT_FIRST = re.compile(rf"&?{_K}*(?P<n>#)[K=B]*(?P<L>O)B?[K=E]*")
_BLANK_FIRST = re.compile(rf"&?{_K}*B?{_K}*(?P<L>O)[K=B]*(?P<n>[#Z])B?[K=BE]*")
# reveal: names [est] [un] card; card c'est names
_NAME_CARD = re.compile(rf"&?{_K}*(?P<L>{_AND_LIST})&?[K=#E]*(?P<R>R)S?[K=E]*")
_CARD_NAME = re.compile(rf"&?[K=#]*(?P<R>R)K*=[K=]*(?P<L>{_AND_LIST})[K=E]*")
# choose: one player, or nobody, among words of choosing
# (« le chasseur tue Dan », « aucun »); « Ana ou Ben… je choisis Ben »: hesitated between, then chosen
_CHOOSE = re.compile(r"(?:IN(?:&?N)*|N(?:\|N)+|(?:-N)+)?[K=VCR&]*(?P<T>[NOZ])[K=VC]*")

Pattern = tuple[re.Pattern[str], Callable[[re.Match[str], Sequence[Tag], list[Command]], list[Command] | None]]


@dataclass(frozen=True)
class Reader:
    """Reads one table's tagged sentences; counts are 0 to the number of players."""

    players: int

    def read(self, tokens: Sequence[Sequence[Tag]], phase: str) -> list[Command] | None:
        """The one reading of the sentence in `phase` (vote, tally, reveal, choose, any), or None."""
        found: dict[tuple[Command, ...], None] = {}
        for tags in itertools.islice(itertools.product(*tokens), MAX_READINGS):
            got = self._read_one([t for tag in tags for t in (tag.value if tag.kind == "+" else (tag,))], phase)
            if got:
                found[tuple(got)] = None
        return list(next(iter(found))) if len(found) == 1 else None

    def _read_one(self, tags: list[Tag], phase: str) -> list[Command] | None:
        # « Ana vote contre Ben parce qu'il ment »: the command is what comes before its reason, whatever
        # the reason says (a name, a doubt, a « pas »)
        tags = tags[: next((i for i, t in enumerate(tags) if t.kind == "/"), len(tags))]
        if not tags or any(t.kind in "!?" for t in tags):
            return None
        copied = _copies(tags)
        if copied is None:
            return None
        tags = copied
        readers = {
            "vote": [self._votes_bare],
            "tally": [self._tallies],
            "reveal": [self._reveals],
            "choose": [self._choose],
            "any": [self._votes, self._tallies, self._reveals],
        }[phase]
        found = {tuple(got): None for read in readers if (got := _corrected(tags, read))}
        return list(next(iter(found))) if len(found) == 1 else None

    # -- the commands -------------------------------------------------------------------------

    def _votes_bare(self, tags: Sequence[Tag]) -> list[Command] | None:
        return self._votes(tags, bare=True)

    def _votes(self, tags: Sequence[Tag], bare: bool = False) -> list[Command] | None:
        def vote(m: re.Match[str], tags: Sequence[Tag], before: list[Command]) -> list[Command] | None:
            voters = _names(m, "L", tags)
            told = "mid" not in m.groupdict() or "V" in m["mid"] or "C" in m["mid"]
            if not told and not m.group(0).lstrip("&K=").startswith("V"):
                return None  # « Alice Bob » is a vote only while votes are collected, and of one voter
            target = tags[m.start("T")].value if m["T"] == "N" else None
            return [Command("vote", voter=v, target=target) for v in voters]

        def abstain(m: re.Match[str], tags: Sequence[Tag], before: list[Command]) -> list[Command] | None:
            return [Command("vote", voter=v, target=None) for v in _names(m, "L", tags)]

        def turned(m: re.Match[str], tags: Sequence[Tag], before: list[Command]) -> list[Command] | None:
            target = tags[m.start("T")].value if m["T"] == "N" else None
            return [Command("vote", voter=v, target=target) for v in _names(m, "L", tags)]

        units: list[Pattern] = [(_VOTE, vote), (_ABSTAIN, abstain), (_ALSO, _also("voter"))]
        clefts = (_CLEFT, _CLEFT_NAME, _CLEFT_INVERTED, _CLEFT_TOPIC, _CLEFT_BARE, _POINTED)
        units += [(p, turned) for p in (_PASSIVE, _BALLOT_OF, _OWN_BALLOT, *clefts)]
        return _segment(tags, units + [(_BARE, vote)] if bare else units)

    def _tallies(self, tags: Sequence[Tag]) -> list[Command] | None:
        # « deux votes contre Max »; « deux abstentions » are blank votes
        tags = [Tag("B") if t.kind == "V" else Tag("O") if t.kind == "A" else t for t in tags]

        def tally(m: re.Match[str], tags: Sequence[Tag], before: list[Command]) -> list[Command] | None:
            names: list[str | None] = [None] if m["L"] == "O" else list(_names(m, "L", tags))
            each = "E" in m.group(0)
            count = 0 if "n" not in m.groupdict() or m["n"] != "#" else int(tags[m.start("n")].value)
            if names == [None] and count == 0:
                return None  # « aucun vote blanc » adds nothing: not a ballot to read back
            if len(names) > 1 and not each or not 0 <= count <= self.players:
                return None  # « Ana et Ben deux voix »: two each, or one between them?
            return [Command("tally", target=name, count=count) for name in names]

        counts = (_COUNT_FIRST, _NAMES_FIRST, _NOBODY_AGAINST, _BLANK_COUNT_FIRST, _BLANK_FIRST)
        units: list[Pattern] = [(pattern, tally) for pattern in counts]
        return _segment(tags, [*units, (_ALSO, _also("target"))])

    def _reveals(self, tags: Sequence[Tag]) -> list[Command] | None:
        def reveal(m: re.Match[str], tags: Sequence[Tag], before: list[Command]) -> list[Command] | None:
            roles = tags[m.start("R")].value
            if len(roles) != 1:
                return None  # « égal »: Fred or George
            return [Command("reveal", player=name, role=roles[0]) for name in _names(m, "L", tags)]

        return _segment(tags, [(_NAME_CARD, reveal), (_CARD_NAME, reveal), (_ALSO, _also("player"))])

    def _choose(self, tags: Sequence[Tag]) -> list[Command] | None:
        kinds = "".join(t.kind for t in tags)
        m = _CHOOSE.fullmatch(kinds)
        if not m:
            return None
        target = tags[m.start("T")].value if m["T"] == "N" else None
        return [Command("choose", target=target)]


def _names(m: re.Match[str], group: str, tags: Sequence[Tag]) -> list[str]:
    return [tags[i].value for i in range(m.start(group), m.end(group)) if tags[i].kind == "N"]


def _also(field: str) -> Callable[[re.Match[str], Sequence[Tag], list[Command]], list[Command] | None]:
    """« … et Léo aussi »: the command before, for these names too."""

    def also(m: re.Match[str], tags: Sequence[Tag], before: list[Command]) -> list[Command] | None:
        if not before:
            return None
        return [replace(before[-1], **{field: name}) for name in _names(m, "L", tags)]  # type: ignore[arg-type]

    return also


def _segment(tags: Sequence[Tag], units: list[Pattern]) -> list[Command] | None:
    """The sentence cut into units end to end; None unless exactly one cut reads."""
    kinds = "".join(t.kind for t in tags)
    # each way to cut the sentence so far -> its fewest units: « Ana, Ben et Élise contre Victor »
    # is one list of voters rather than « Ana Ben » and « Élise contre Victor »
    ways: list[dict[tuple[Command, ...], int]] = [{} for _ in range(len(kinds) + 1)]
    ways[0][()] = 0
    for pos in range(len(kinds)):
        for done, cuts in sorted(ways[pos].items(), key=lambda way: way[1])[:MAX_WAYS]:
            for pattern, build in units:
                m = pattern.match(kinds, pos)
                if not m or m.end() == pos:
                    continue
                got = build(m, tags, list(done))
                if got:
                    way = done + tuple(got)
                    ways[m.end()][way] = min(cuts + 1, ways[m.end()].get(way, cuts + 1))
    end = ways[len(kinds)]
    fewest = [way for way, cuts in end.items() if cuts == min(end.values())]
    return list(fewest[0]) if len(fewest) == 1 else None


def _copies(tags: list[Tag]) -> list[Tag] | None:
    """« doppelgänger (qui a copié) la voyante » -> one card, doppelganger:voyante; the card alone, last, as it is."""
    out: list[Tag] = []
    i = 0
    while i < len(tags):
        if tags[i].kind != "D":
            out.append(tags[i])
            i += 1
            continue
        j = i + 1
        # « j'ai copié la carte de Lou, c'était le loup »: after the copy, whose card it was
        while j < len(tags) and (tags[j].kind in "PK#&" or tags[j].kind in "N=" and "P" in kinds_of(tags[i + 1 : j])):
            j += 1
        skipped = "".join(t.kind for t in tags[i + 1 : j])
        if j < len(tags) and tags[j].kind == "R":
            told = "P" in skipped and "=" in skipped.split("&")[-1]  # « j'ai regardé la carte de Lou et c'était… »
            if "&" in skipped and "P" not in skipped.split("&")[-1] and not told:
                return None  # « … doppelgänger et (il a copié) la voyante »: the « et » needs its copy
            if len(tags[j].value) != 1:
                return None
            out.append(Tag("R", (f"doppelganger:{tags[j].value[0]}",)))
            i = j + 1
        elif j == len(tags) and "P" not in skipped:
            out.append(Tag("R", ("doppelganger",)))  # the card alone, last: the table is asked what it copied
            i = j
        else:
            return None  # « qui a copié » and no card, or a player: which card is not said
    return [t for t in out if t.kind != "P"]


def kinds_of(tags: Sequence[Tag]) -> str:
    return "".join(t.kind for t in tags)


def _corrected(tags: list[Tag], read: Callable[[Sequence[Tag]], list[Command] | None]) -> list[Command] | None:
    """Read with corrections: « Alice contre Bob, non pardon, contre Chloé » is Alice against Chloé.

    What follows a correction replaces the last command when it is one on its own, else the
    last part of the sentence that starts like it (« … contre Chloé » replaces « contre Bob »).
    """
    parts: list[list[Tag]] = [[]]
    for i, tag in enumerate(tags):
        if tag.kind == "X":
            if i and tags[i - 1].kind == "X":
                continue  # « pardon, je voulais dire »: one correction
            parts.append([])
        else:
            parts[-1].append(tag)
    done: list[Command] = []
    said = parts[0]
    for part in parts[1:]:
        if not part:
            return None  # « … non »: the correction is missing
        if not said:
            said = part  # « non pardon, Alice contre Chloé »
            continue
        left, right = read(said), read(part)
        if left and right:
            done += left[:-1]
            said = part
            continue
        first = next((t.kind for t in part if t.kind not in "K=&"), None)
        at = max((i for i, t in enumerate(said) if t.kind == first), default=None)
        if at is None:
            return None
        said = said[:at] + [t for t in part if t.kind not in "&"]
    last = read(said)
    return done + last if last else None
