"""The story of a one-night game, told once it is over: the deal, what each character did in the order
of the night, the cards at dawn and who changed card, the vote, the verdict (told in the past). Pure: what the game's
record or journal holds in (`Told`), French sentences out (scripts/story.yaml, the game's `texts`).

Everything may be told then: RULINGS 23 keeps the causes out of the mornings, not out of the story.
With physical cards the narrator saw neither the deal nor the night: the story says so and tells the
cards in play, the cards the players said at dawn, then the vote.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from narrator.rules.onenight import resolve_day
from narrator.rules.onenight.model import CENTER, COPY_PREFIX, Options, Power, Role, Ruleset, Vote
from narrator.rules.onenight.night import copy_wake
from narrator.rules.onenight.powers import ACTIONS, Table
from narrator.rules.onenight.record import parse_game
from narrator.script.onenight.explain import card_name, say
from narrator.script.plural import form
from narrator.script.story_words import StoryWords, load_story_words

__all__ = ["Told", "card_of", "dawn_reveal", "held_name", "story", "told_of_record"]


@dataclass(frozen=True)
class Told:
    """What is known of a finished one-night game: from its record, or from its journal."""

    players: tuple[str, ...]
    in_play: tuple[str, ...]  # the cards of the game
    counts: Mapping[str, int]  # the votes each player received
    pointing: Mapping[str, str | None]  # whom each voter pointed at, when known
    final: tuple[str, ...]  # each player's card at dawn
    options: Options
    deal: tuple[str, ...] | None = None  # each player's card then A, B, C, when the program dealt
    night: Mapping[str, Mapping[str, object]] = field(default_factory=dict)  # the night's choices, when known


def told_of_record(rules: Ruleset, raw: Mapping[str, object]) -> Told:
    """A one-night record (docs/record.md) as a story's input; `RecordError` for bad input."""
    game = parse_game(rules, raw)
    vote = Vote.from_ballots(game.players, game.votes)
    final = tuple(_night_cards(rules, game.players, game.deal, game.night)[0][: len(game.players)])
    return Told(game.players, game.deal, vote.counts, vote.pointing, final, game.options, game.deal, game.night)


def story(rules: Ruleset, told: Told, words: StoryWords | None = None) -> list[str]:
    """The game told in order, one sentence a line."""
    w = words or load_story_words()
    out = [w.text("story_title")]
    if told.deal is not None:
        n = len(told.players)
        out.append(w.text("deal", cards=_cards_held(rules, w, told.players, told.deal[:n])))
        out.append(w.text("center", cards=w.join([card_name(rules, c) for c in told.deal[n:]])))
        out += night_story(rules, w, told.players, told.deal, told.night)
        # the cards at dawn and who changed card, in the order of the game: before the vote they decided
        final = _night_cards(rules, told.players, told.deal, told.night)[0]
        out += dawn_reveal(rules, told.players, told.deal, final, w, kept="story_kept")
    else:
        names = [card_name(rules, c) for c in sorted(told.in_play, key=list(rules.roles).index)]
        out.append(w.text("in_play", cards=w.join(names)))
        out.append(w.text("unseen_night"))
        # the cards the players said at dawn, in the order of the game: before the vote they decided
        out.append(w.text("dawn_story", cards=_cards_held(rules, w, told.players, told.final)))
    out += _votes(w, told)
    dead, _, reasons = resolve_day(
        rules, told.options, told.players, list(told.final), Vote(told.counts, dict(told.pointing))
    )
    past = replace(rules, texts={**rules.texts, **w.one_night_told(rules.game)})  # the verdict, in the past
    out += [say(past, r) for r in reasons]
    out.append(w.text("story_end"))
    return out


def dawn_reveal(
    rules: Ruleset,
    players: Sequence[str],
    deal: Sequence[str],
    final: Sequence[str],
    words: StoryWords | None = None,
    kept: str = "dawn_kept",
) -> list[str]:
    """Every card at dawn, who changed card (« Ana : voleur au début de la nuit, loup-garou à la fin »), the
    middle's; `kept` says a card kept (« Cleo garde sa carte » at the table, in the past in the story)."""
    w = words or load_story_words()
    n = len(players)
    out = []
    for player, first, last in zip(players, deal, final):
        said = {"player": player, "first": card_name(rules, first), "last": held_name(rules, last, w)}
        if card_of(rules, last) == first:
            out.append(w.text(kept, **said))
        else:  # a copy said last, after its own comma: « à la fin Doppelgänger, qui a copié la carte voyante. »
            out.append(w.text("dawn_changed_copy" if last.startswith(COPY_PREFIX) else "dawn_changed", **said))
    out.append(w.text("dawn_center", cards=w.join([card_name(rules, c) for c in final[n:]])))
    return out


def card_of(rules: Ruleset, card: str) -> str:
    """The card itself, as dealt: a Doppelgänger's copy is still his card (« doppelganger:voyante »)."""
    if not card.startswith(COPY_PREFIX):
        return card
    return next(r.id for r in rules.roles.values() if r.power is Power.COPY)


def held_name(rules: Ruleset, card: str, words: StoryWords | None = None) -> str:
    """A card at dawn as a game master says it: a copy is the card and what it copied (« Doppelgänger, qui a
    copié la carte voyante »), not a name made by the machine (« Doppelgänger-voyante »)."""
    if not card.startswith(COPY_PREFIX):
        return card_name(rules, card)
    w = words or load_story_words()
    copied = card_name(rules, card[len(COPY_PREFIX) :])
    return w.text("copy_of", card=card_name(rules, card_of(rules, card)), copied=copied)


def _cards_held(rules: Ruleset, w: StoryWords, players: Sequence[str], cards: Sequence[str]) -> str:
    items = [{"player": p, "card": card_name(rules, c)} for p, c in zip(players, cards)]
    return w.listed("dealt_first", "dealt_next", items)


def _votes(w: StoryWords, told: Told) -> list[str]:
    """Each ballot when every one is known, else the votes each player received."""
    if all(p in told.pointing for p in told.players):
        return [w.ballots([(voter, told.pointing[voter]) for voter in told.players])]
    got = [(p, told.counts[p]) for p in told.players if told.counts.get(p)]
    out = []
    if got:
        tallies = [_counted(w, "tally_one", c, target=p) for p, c in got]
        out.append(w.text("tallies", tallies=w.join(tallies)))
    blank = len(told.players) - sum(told.counts.values())
    if blank > 0:
        out.append(_counted(w, "blank_votes", blank))
    return out


def _counted(w: StoryWords, key: str, n: int, **params: object) -> str:
    """A template in the form of its number, the count in words (« deux votes blancs »)."""
    template = form(w.texts[key], n)  # type: ignore[arg-type]
    return template.format(count=w.number(n), **params)


# -- the night, action by action ----------------------------------------------------------------------


def _actions(
    rules: Ruleset, players: Sequence[str], deal: Sequence[str], night: Mapping[str, Mapping[str, object]]
) -> list[tuple[int, int, Role, dict[str, object], bool]]:
    """Each action of the night in the engine's order (narrator/rules/onenight/night.py): (wake, seat,
    acting role, choice, whether it is a Doppelgänger's copy)."""
    out = []
    for seat, name in enumerate(players):
        role = rules.roles[deal[seat]]
        choice = dict(night.get(name) or {})
        if role.power is None:
            continue
        if role.power is Power.COPY:
            out.append((role.wake or 0, seat, role, choice, True))
            target = choice.get("copy")
            if isinstance(target, str) and target in players:
                copied = rules.roles[deal[players.index(target)]]
                if copied.power is not None:
                    out.append((copy_wake(role, copied), seat, copied, _mapping(choice.get("then")), False))
        else:
            out.append((role.wake or 0, seat, role, choice, False))
    return sorted(out, key=lambda a: (a[0], a[1]))


def _mapping(value: object) -> dict[str, object]:
    return dict(value) if isinstance(value, Mapping) else {}


def _night_cards(
    rules: Ruleset, players: Sequence[str], deal: Sequence[str], night: Mapping[str, Mapping[str, object]]
) -> tuple[list[str], list[tuple[int, Role, dict[str, object], bool, list[str], list[str], Table]]]:
    """The cards at dawn, and each action with the cards just before and just after it."""
    table = Table(tuple(players), list(deal), rules)
    done = []
    for _, seat, role, choice, is_copy in _actions(rules, players, deal, night):
        before = list(table.cards)
        if is_copy:
            target = choice.get("copy")
            if isinstance(target, str) and target in players:
                table.cards[seat] = COPY_PREFIX + table.cards[players.index(target)]
        elif role.power in ACTIONS and choice:
            ACTIONS[role.power](table, seat, choice, ("night", players[seat]))
        done.append((seat, role, choice, is_copy, before, list(table.cards), table))
    return table.cards, done


def night_story(
    rules: Ruleset,
    w: StoryWords,
    players: Sequence[str],
    deal: Sequence[str],
    night: Mapping[str, Mapping[str, object]],
) -> list[str]:
    """What each character did, in the order of the night."""
    _, done = _night_cards(rules, players, deal, night)
    n = len(players)
    acting = {seat: role for seat, role, _, is_copy, _, _, _ in done if not is_copy}
    groups_told: set[str] = set()
    out = []

    def name(card: str) -> str:
        return card_name(rules, card)

    for seat, role, choice, is_copy, before, after, table in done:
        player = players[seat]
        held = deal[seat] if role.id == deal[seat] or is_copy else COPY_PREFIX + role.id
        said = {"player": player, "held": name(held)}
        if is_copy:
            target = str(choice.get("copy"))
            said_target = {"of_target": w.of(target), "card": name(before[players.index(target)])}
            out.append(w.text("copied", **said, **said_target))
            continue
        power = role.power
        if power is Power.RECOGNIZE:
            group = role.group or role.id
            members = [
                players[s]
                for s, r in sorted(acting.items())
                if r.power is Power.RECOGNIZE and (r.group or r.id) == group
            ]
            if group not in groups_told:
                groups_told.add(group)
                if len(members) > 1:
                    cards = list(dict.fromkeys(acting[players.index(m)].name for m in members))
                    out.append(w.text("recognized", names=w.join(members), cards=w.join(cards)))
                else:
                    out.append(w.text("alone", **said))
            if "peek" in choice:
                place = str(choice["peek"])
                out.append(w.text("peeked", player=player, place=place, card=name(before[n + CENTER.index(place)])))
        elif power is Power.SEE_WOLVES:
            wolves = [players[s] for s, r in sorted(acting.items()) if r.wolf]
            wolf = next(r for r in rules.roles.values() if r.wolf)
            if wolves:
                out.append(w.text("saw_wolves", **said, wolf=wolf.name, names=w.join(wolves)))
            else:
                out.append(w.text("saw_no_wolf", **said, wolf=wolf.name))
        elif not choice and power is not Power.SEE_SELF_FINAL:
            out.append(w.text("did_nothing", **said))
        elif power is Power.LOOK:
            looked = choice["look"]
            if isinstance(looked, list):
                seen = [name(before[n + CENTER.index(str(p))]) for p in looked]
                out.append(w.text("looked_center", **said, cards=w.join(seen)))
            else:
                target = str(looked)
                out.append(w.text("looked", **said, of_target=w.of(target), card=name(before[players.index(target)])))
        elif power is Power.SWAP_SELF_OTHER_LOOK:
            target = str(choice["swap_with"])
            out.append(w.text("swapped_with", **said, of_target=w.of(target), taken=name(after[seat])))
        elif power is Power.SWAP_TWO_OTHERS:
            pair = choice["swap"]
            a, b = (str(p) for p in pair) if isinstance(pair, list) else ("", "")
            out.append(w.text("swapped_two", **said, of_first=w.of(a), of_second=w.of(b)))
        elif power is Power.SWAP_SELF_CENTER_BLIND:
            place = str(choice["take"])
            out.append(w.text("took_center", **said, place=place, taken=name(before[n + CENTER.index(place)])))
        elif power is Power.CENTER_TO_PLAYER:
            place, to = str(choice["look"]), str(choice["give_to"])
            taken = name(before[n + CENTER.index(place)])
            if to == player:
                out.append(w.text("kept_center", **said, place=place, taken=taken))
            else:
                out.append(w.text("gave_center", **said, place=place, taken=taken, target=to))
        elif power is Power.REVEAL:
            target = str(choice["reveal"])
            key = "revealed" if target in table.visible else "revealed_hidden"
            out.append(w.text(key, **said, of_target=w.of(target), card=name(before[players.index(target)])))
        elif power is Power.SEE_SELF_FINAL:
            out.append(w.text("saw_self", **said, card=name(after[seat])))
    return out
