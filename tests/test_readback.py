"""The day's read-back loop both families share, on its own: a family gives only a `Poll`."""

from __future__ import annotations

from test_session import ClockSpeaker, table

from narrator.listen.commands import Command
from narrator.phones.hub import Hub
from narrator.script.line import Line
from narrator.table import events as ev
from narrator.table.host import Host
from narrator.table.readback import Poll, ballot, counted, tally

PLAYERS = ["Ana", "Ben", "Cleo"]


def host(answers: list[str | None]) -> tuple[Host, ClockSpeaker]:
    """A table whose ear says `answers`; the loop uses only what every family's host has."""
    session, speaker, _ = table(
        "onuw", PLAYERS, ["loup", "voyante", "villageois", "villageois", "voleur", "merdeux"], answers
    )
    return session, speaker


def poll(**family) -> Poll:
    return Poll(
        question=Line("ask*", "Qui vote contre qui ?"),
        total=3,
        **family,
    )


def said(speaker: ClockSpeaker) -> list[str]:
    return [text for _, _, text in speaker.heard]


def test_each_ballot_is_journaled_before_it_counts_and_the_read_back_follows_the_seats() -> None:
    table, speaker = host(
        ["Cleo vote contre Ana", "Ana vote contre Ben", "Ana vote contre Cleo", "Ben vote contre Ana", "oui"]
    )
    shown: list[Command] = []
    ballots = table.readback.collect(poll(seats=tuple(PLAYERS), on_count=shown.append))
    assert tally(ballots)[0] == {"Cleo": "Ana", "Ana": "Cleo", "Ben": "Ana"}
    assert shown == ballots  # the family hears of every ballot counted, in order
    assert table.events == [
        ev.VoteInput("Cleo", "Ana"),
        ev.VoteInput("Ana", "Ben"),
        ev.VoteInput("Ana", "Cleo"),
        ev.VoteInput("Ben", "Ana"),
    ]
    lines = said(speaker)
    assert "Ana change son vote : contre Cleo." in lines
    assert "J'ai 2 voix sur 3. Continuez." in lines
    assert (
        lines[-1] == "J'ai compris : Ana vote contre Cleo, Ben vote contre Ana et Cleo vote contre Ana. C'est bien ça ?"
    )


def test_the_phones_ballot_box_is_open_only_while_the_ballots_are_collected() -> None:
    table, _ = host(["Ana vote contre Ben", "Ben vote contre Ana", "Cleo vote contre Ana", "oui"])
    hub = Hub(PLAYERS)
    table.readback.collecting = hub.ballots
    open_at_each_ballot: list[bool] = []
    table.readback.collect(poll(on_count=lambda ballot: open_at_each_ballot.append(hub.voting())))
    assert open_at_each_ballot == [True, True, True] and not hub.voting()


def test_a_refused_ballot_is_said_and_never_journaled() -> None:
    table, speaker = host(
        ["Ana vote contre Ana", "Ana vote contre Ben", "Ben vote contre personne", "Cleo vote contre Ben", "oui"]
    )

    def refusal(said: Command) -> Line | None:
        return Line("refused*", "Pas contre soi-même.") if said.voter == said.target else None

    ballots = table.readback.collect(poll(refusal=refusal))
    assert "Pas contre soi-même." in said(speaker)
    assert table.events == [ev.VoteInput("Ana", "Ben"), ev.VoteInput("Ben", None), ev.VoteInput("Cleo", "Ben")]
    assert counted(ballots) == 3


def test_no_at_the_read_back_asks_every_ballot_again_from_nothing() -> None:
    first = ["Ana vote contre Ben", "Ben vote contre Ana", "Cleo vote contre Ana", "non"]
    table, speaker = host([*first, "Ana vote contre Cleo", "Ben vote contre Cleo", "Cleo vote contre Ana", "oui"])
    ballots = table.readback.collect(poll())
    assert tally(ballots)[0] == {"Ana": "Cleo", "Ben": "Cleo", "Cleo": "Ana"}
    assert table.events[3] == ev.VotesAgain()
    assert said(speaker).count("Qui vote contre qui ?") == 2
    assert table.readback.open is None  # « annule » after the vote takes back the whole vote


def test_a_held_vote_goes_on_and_tallies_count_only_when_the_family_takes_them() -> None:
    table, speaker = host(["trois voix pour Ben", "Cleo vote contre Ana", "oui"])
    ballots = table.readback.collect(poll(), [ballot("Ana", "Ben"), ballot("Ben", None)])
    assert "J'ai déjà 2 voix : Ana vote contre Ben et Ben ne vote contre personne." in said(speaker)
    assert tally(ballots) == ({"Ana": "Ben", "Ben": None, "Cleo": "Ana"}, {})
    tallied, _ = host(["trois voix pour Ben", "oui"])
    assert tally(tallied.readback.collect(poll(tallies=True)))[1] == {"Ben": 3}


def test_each_phone_says_what_became_of_its_voters_ballot() -> None:
    """Issue 26: « Vote envoyé » only for a ballot the narrator counted; a refused ballot says why on its
    phone, a dropped one says it was not counted."""
    table, speaker = host(
        ["Ana vote contre Ana", "Ana vote contre Ben", "Ben vote contre personne", "Cleo vote contre Ben", "oui"]
    )
    hub = table.phones = Hub(PLAYERS)
    table.readback.collecting, table.readback.counted = table._ballot_box, table._ballot_fate
    fates: list[tuple[str, str]] = []
    hub.watch(lambda seats: fates.extend((s, hub.screen(s).ballot) for s in sorted(seats) if hub.screen(s).ballot))

    def refusal(said: Command) -> Line | None:
        return Line("refused*", "Ana ne vote pas contre soi-même.") if said.voter == said.target else None

    table.readback.collect(poll(refusal=refusal))
    assert fates == [
        ("Ana", "Vote refusé : Ana ne vote pas contre soi-même."),
        ("Ana", "Vote compté : contre Ben."),
        ("Ben", "Vote compté : contre personne."),
        ("Cleo", "Vote compté : contre Ben."),
    ]
    table._ballot_box(True)  # the next vote: nothing said yet of its ballots
    assert [hub.screen(s).ballot for s in PLAYERS] == ["", "", ""]
    hub.type_line("Ana", "Ana vote contre Cleo")
    table._ballot_box(False)  # closed before Ana's ballot was heard
    assert hub.screen("Ana").ballot == "Vote non compté : le vote était déjà fini quand il est arrivé."
    assert hub.screen("Ben").ballot == ""
