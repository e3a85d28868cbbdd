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
        ("Ana", "Vote refusé. Ana ne vote pas contre soi-même."),
        ("Ana", "Vote compté : contre Ben."),
        ("Ben", "Vote compté : vote blanc."),  # a blank vote is said so, not « contre personne »
        ("Cleo", "Vote compté : contre Ben."),
    ]
    table._ballot_box(True)  # the next vote: nothing said yet of its ballots
    assert [hub.screen(s).ballot for s in PLAYERS] == ["", "", ""]
    hub.type_line("Ana", "Ana vote contre Cleo")
    table._ballot_box(False)  # closed before Ana's ballot was heard
    assert hub.screen("Ana").ballot == "Vote non compté : le vote était déjà fini quand il est arrivé."
    assert hub.screen("Ben").ballot == ""


def phone_host(answers: list[str | None]) -> tuple[Host, Hub]:
    """A table with the phones beside it: each ballot's fate goes to its voter's phone."""
    table, _ = host(answers)
    hub = table.phones = Hub(PLAYERS)
    table.readback.collecting, table.readback.counted = table._ballot_box, table._ballot_fate
    table.readback.again = table._ballots_again
    return table, hub


def test_no_at_the_read_back_tells_every_phone_that_the_votes_restart() -> None:
    """Issue 26: « Vote compté » only for a ballot that counts; after « non » at the read-back none does, and
    every phone's ballot form is open and empty again (a new `vote`)."""
    first = ["Ana vote contre Ben", "Ben vote contre Ana", "Cleo vote contre Ana", "non"]
    table, hub = phone_host([*first, "Ana vote contre Cleo", "Ben vote contre Cleo", "Cleo vote contre Ana", "oui"])
    seen: list[tuple[str, str, int]] = []
    hub.watch(lambda seats: seen.extend((s, hub.screen(s).ballot, hub.screen(s).vote) for s in sorted(seats)))
    table.readback.collect(poll())
    again = [(s, v) for s, text, v in seen if text == "Le vote recommence : votez à nouveau."]
    assert {s for s, _ in again} == set(PLAYERS)  # every phone, those that showed « Vote compté » first
    assert len({v for _, v in again}) == 1 and again[0][1] == hub.screen("Ben").vote
    at = seen.index(("Ana", "Le vote recommence : votez à nouveau.", again[0][1]))
    assert ("Ana", "Vote compté : contre Ben.", 1) in seen[:at]
    assert ("Ana", "Vote compté : contre Cleo.", again[0][1]) in seen[at:]


def test_the_votes_restart_only_on_the_phones_of_those_who_vote() -> None:
    hub = Hub(PLAYERS)
    hub.public(living=("Ana", "Ben"))  # Cleo is dead: her phone has no ballot to restart
    hub.ballots_again("Le vote recommence : votez à nouveau.")
    assert [hub.screen(s).ballot for s in PLAYERS] == ["Le vote recommence : votez à nouveau."] * 2 + [""]
    assert {hub.screen(s).vote for s in PLAYERS} == {1}


def test_annule_after_a_ballot_was_counted_takes_it_off_its_phone() -> None:
    """« annule » takes the last ballot back: its phone no longer says it was counted; a ballot the voter
    said before it counts again, and the phone says that one."""
    table, hub = phone_host(
        ["Ana vote contre Ben", "annule", "Ben vote contre Ana", "Ben vote contre Cleo", "annule"]
        + ["Ana vote contre Cleo", "Cleo vote contre Ana", "oui"]
    )
    fates: list[tuple[str, str]] = []
    hub.watch(lambda seats: fates.extend((s, hub.screen(s).ballot) for s in sorted(seats) if hub.screen(s).ballot))
    ballots = table.readback.collect(poll())
    assert tally(ballots)[0] == {"Ben": "Ana", "Ana": "Cleo", "Cleo": "Ana"}
    assert fates[:2] == [("Ana", "Vote compté : contre Ben."), ("Ana", "Vote annulé : votez à nouveau.")]
    assert fates[2:5] == [
        ("Ben", "Vote compté : contre Ana."),
        ("Ben", "Vote compté : contre Cleo."),
        ("Ben", "Vote compté : contre Ana."),  # « annule »: the ballot before it counts again
    ]


def test_the_same_fate_twice_is_said_twice() -> None:
    """Issue 26: a second identical refusal is a new thing to say: the phone is told it again."""
    hub = Hub(PLAYERS)
    hub.ballot("Ana", "Vote refusé. Ana ne vote pas contre soi-même.")
    first = hub.screen("Ana").ballot_said
    hub.ballot("Ana", "Vote refusé. Ana ne vote pas contre soi-même.")
    assert hub.screen("Ana").ballot_said == first + 1
