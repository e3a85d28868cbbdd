"""A seat's screen as the JSON its own phone receives: nothing else is ever sent to a seat.

Whether a question is a decoy is never sent: a decoy must look, to the phone and to anyone looking
at it, exactly like a real question of the same form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from narrator.phones.screens import Card, Question, Screen


def screen_json(screen: Screen, players: Sequence[str]) -> dict[str, Any]:
    """`players` is the table's seats in order (public: who may be voted against)."""
    return {
        "seat": screen.seat,
        "players": list(players),
        "status": screen.status,
        "card": _card(screen.card) if screen.card is not None else None,
        "question": _question(screen.question, screen.asked, screen.answered) if screen.question else None,
        "secrets": list(reversed(screen.secrets)),  # newest first, as the page lists them
        "vibrate": screen.vibrate,
        "night": screen.night,
        "living": list(players if screen.living is None else screen.living),
        "end": screen.end,
        "ballot": screen.ballot,
        "ballot_said": screen.ballot_said,
        "vote": screen.vote,
    }


def _card(card: Card) -> dict[str, str]:
    return {"name": card.name, "text": card.text, "symbol": card.symbol, "camp": card.camp}


def _question(question: Question, asked: int, answered: bool) -> dict[str, Any]:
    return {
        "asked": asked,
        "form": question.form.value,
        "text": question.text,
        "choices": [{"value": c.value, "label": c.label} for c in question.choices],
        "optional": question.optional,
        "count": question.count,
        "answered": answered,
    }
