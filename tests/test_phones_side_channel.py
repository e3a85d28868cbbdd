"""No side channel between the seats: everything a phone is sent depends on its own seat alone. Two
games whose deals differ only in another seat's card (and that player's own choices) send every other
seat the same whole stream of screens: the same questions, numbers, decoys, statuses and secrets, in the
same order. (A shared question counter did not: when only the Doppelgänger's phone got a second question,
the others saw the number jump and learned that he had copied a card that acts at once.)

The stream is the hub's: the server sends a seat nothing but `screen_json` of that seat's screen on each
change, and its own replies (tests/test_phones_server.py), so the screens below are what each socket
carries. Rulebook quoted: 000 is tests/rulebooks/000_ebff617422767dd2.txt (onuw).
"""

from __future__ import annotations

import copy
import json

from test_onenight_phones import ONUW, Phones, chooser, day, game, narration

from narrator.phones.screen_json import screen_json


def streams(record: dict) -> dict[str, list[str]]:
    """Every screen each seat was shown during the whole game, as its phone receives it."""
    session, _, hub, _ = game(record, day(record))
    with Phones(hub, chooser(record)) as phones:
        session.run(narration(record))
    # until the game is over: its end screen tells every card and the story, the same on every phone
    return {
        seat: [json.dumps(screen_json(s, hub.seats), ensure_ascii=False) for s in shown if s.end is None]
        for seat, shown in phones.seen.items()
    }


def test_every_other_seat_gets_the_same_stream_whatever_card_the_doppelganger_copied() -> None:
    """000, 3a i: "Le Doppelgänger agit s’il est voyante, voleur, merdeux ou saoulon." — he copies Cleo:
    a voyante (he looks at once, on the second step every phone shows) or, with Cleo's card swapped with
    the middle's villageois, a villageois (nothing more). Only Ben and Cleo may tell the two games apart."""
    voyante = copy.deepcopy(ONUW)  # Ben copies Cleo's voyante and looks at Ana's card
    villageois = copy.deepcopy(ONUW)
    villageois["deal"]["Cleo"] = "villageois"
    villageois["deal"]["center"] = ["loup", "merdeux", "voyante"]
    villageois["night"]["Ben"] = {"copy": "Cleo"}
    del villageois["night"]["Cleo"]
    first, second = streams(voyante), streams(villageois)
    assert first["Ben"] != second["Ben"]  # the test sees a difference where there is one to see
    for seat in ("Ana", "Dan", "Eva", "Fay"):
        assert first[seat] == second[seat], seat
        assert len(first[seat]) > 10  # a whole game: the deal, every call, the day


def test_the_same_game_twice_sends_each_seat_the_same_stream() -> None:
    """The comparison above is not luck of timing: one game played twice gives every seat the same stream."""
    assert streams(copy.deepcopy(ONUW)) == streams(copy.deepcopy(ONUW))
