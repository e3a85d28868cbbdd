"""The evening's scores (`narrator scores`): the finished games of the journals' folder, the wins of each
player and of each camp. The count itself (`tally`) is pure; the camps of a one-night game's winners
are their cards at dawn, as the table told them (the `cards` event)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from narrator.rules.onenight.model import Team
from narrator.script.games import CLASSIC, family_of
from narrator.table.events import Cards, Event, Outcome
from narrator.table.journal import JournalError, begun_at, finished, journal_dir, read_journal


@dataclass(frozen=True)
class Played:
    """One finished game, as its journal tells it."""

    game: str
    started: float  # seconds since 1970
    players: tuple[str, ...]
    winners: tuple[str, ...]
    camps: tuple[str, ...]  # the winning camps (classic: the outcome's; one-night: the winners' cards at dawn)


@dataclass
class Scores:
    games: int = 0
    by_game: Counter[str] = field(default_factory=Counter)
    played: Counter[str] = field(default_factory=Counter)  # games each player sat at
    wins: Counter[str] = field(default_factory=Counter)
    camps: Counter[str] = field(default_factory=Counter)
    nobody: int = 0  # games nobody won


def tally(games: Iterable[Played]) -> Scores:
    """Games, and the wins of each player and each camp."""
    scores = Scores()
    for game in games:
        scores.games += 1
        scores.by_game[game.game] += 1
        scores.played.update(set(game.players))
        scores.wins.update(set(game.winners))
        scores.camps.update(set(game.camps))
        scores.nobody += not game.winners
    return scores


def started(path: Path) -> float:
    """When a journal's game began: its name says it (« partie-20261205-213000 »), else its file's date."""
    begun = begun_at(path)
    return path.stat().st_mtime if begun is None else begun


EVENING_HOURS = 12  # --soir: the games begun in the last twelve hours


def since_date(text: str) -> float:
    """--depuis AAAA-MM-JJ: the start of that day, local time; `ValueError` (French) otherwise."""
    try:
        return time.mktime(time.strptime(text, "%Y-%m-%d"))
    except (ValueError, OverflowError):
        raise ValueError(f"--depuis : attendu : une date AAAA-MM-JJ ; trouvé : {text}") from None


def read_games(folder: Path | None = None, since: float | None = None) -> tuple[list[Played], list[str]]:
    """The finished games of `folder` (the journals' folder by default) begun at `since` or later, oldest
    first; and the journals that could not be read, each a French line (skipped, never fatal)."""
    folder = folder or journal_dir()
    games: list[Played] = []
    skipped: list[str] = []
    if not folder.is_dir():
        return games, skipped
    for path in sorted(folder.glob("*.jsonl")):
        try:
            begun = started(path)
            if since is not None and begun < since:
                continue
            header, events, _ = read_journal(path)
        except (JournalError, OSError) as exc:
            skipped.append(f"{path.name} : {exc}")
            continue
        if not finished(events):
            continue
        played = _played(header, events, begun)
        if played is not None:
            games.append(played)
    games.sort(key=lambda g: g.started)
    return games, skipped


def _played(header: dict, events: list[Event], begun: float) -> Played | None:
    outcome = next((e for e in reversed(events) if isinstance(e, Outcome)), None)
    if outcome is None:
        return None
    game = str(header.get("game"))
    camps: tuple[str, ...]
    if family_of(game) == CLASSIC:
        camps = (outcome.camp,) if outcome.camp else ()
    else:
        camps = _one_night_camps(game, outcome.winners, events)
    return Played(game, begun, tuple(header.get("players", ())), tuple(outcome.winners), camps)


def _one_night_camps(game: str, winners: list[str], events: list[Event]) -> tuple[str, ...]:
    """The camps of a one-night game's winners: the team of each one's card at dawn, as the table told it."""
    from narrator.script.onenight.script import load_game

    cards = next((e.cards for e in reversed(events) if isinstance(e, Cards)), {})
    roles = load_game(game).by_card
    wolves = load_game(game).wolf_group  # « mangemorts » at Poudlard
    teams = [roles[cards[w]].team for w in winners if w in cards and cards[w] in roles]
    return tuple(dict.fromkeys(wolves if t is Team.WOLVES else t.value for t in teams if t is not None))


def printed(scores: Scores, when: str) -> list[str]:
    """The scores as `narrator scores` prints them, in French."""
    from narrator.script.role_names import title_of

    if not scores.games:
        return [f"{when} : aucune partie terminée."]
    games = "une partie terminée" if scores.games == 1 else f"{scores.games} parties terminées"
    kinds = " ; ".join(f"{title_of(game)} : {n}" for game, n in scores.by_game.most_common())
    lines = [f"{when} : {games} ({kinds})."]
    if scores.nobody:
        lines.append(f"Sans vainqueur : {scores.nobody}.")
    lines.append("Victoires par joueur :")
    for name, sat in sorted(scores.played.items(), key=lambda p: (-scores.wins[p[0]], p[0].casefold())):
        won = scores.wins[name]
        lines.append(f"  {name} : {won} sur {sat}")
    lines.append("Victoires par camp :")
    for camp, won in scores.camps.most_common():
        lines.append(f"  {camp.replace('_', ' ')} : {won}")
    return lines
