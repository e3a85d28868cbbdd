"""Every spoken cue said once, in order, through « annule », a resume, « répète » and « stop»: the exact
lines a classic table hears around each of them (a scripted operator, scripted voices, a fake clock)."""

from __future__ import annotations

from pathlib import Path

from test_session import ClockSpeaker
from test_table_classic import classic_table

from narrator.app.family import resolve_record
from narrator.script.classic.narration import load_narration
from narrator.script.prompts import load_prompts
from narrator.script.templates import fill
from narrator.table import events as ev
from narrator.table.classic.session import ClassicSession
from narrator.table.host import Stopped
from narrator.table.journal import Journal, JournalError, finished, read_journal

# the table of the first point: two wolves, the voyante, the witch, the hunter, Cupidon
PLAYERS = ("Ana", "Ben", "Cleo", "Dan", "Eva", "Fay", "Gus", "Hugo")
DEAL = ("loup", "loup", "voyante", "sorciere", "chasseur", "cupidon", "villageois", "villageois")
NIGHT_1 = [
    ("cupidon", ["Ben", "Cleo"]),
    ("voyante", "Eva"),
    ("loup", "Gus"),
    ("sorciere", {"heal": False, "poison": None}),
]
# what the table hears of night 1 when nobody takes anything back
HEARD_NIGHT_1 = [
    "night_first",
    "cupidon_wake",
    "cupidon_sleep",
    "lovers_wake",
    "lovers_sleep",
    "voyante_wake",
    "voyante_sleep",
    "loups_wake",
    "loups_sleep",
    "sorciere_wake",
    "sorciere_sleep",
    "morning",
    "morning_deaths*",  # Gus, a villager: no hunter's shot, no grief
]


def header(players=PLAYERS, deal=DEAL) -> dict:
    return {"family": "classic", "game": "thiercelieux", "script": "", "players": list(players), "deal": list(deal),
            "options": {}, "voice": "fr"}  # fmt: skip


def table(operator, voices, journal: Journal | None = None, players=PLAYERS, deal=DEAL, captain=False):
    session, speaker, _ = classic_table(operator, voices, journal, captain=captain, players=players, deal=deal)
    return session, speaker


def ids(speaker: ClockSpeaker) -> list[str]:
    return [line_id for _, line_id, _ in speaker.heard]


def played_until_the_voices_end(session: ClassicSession, events: list[dict] | None = None) -> None:
    try:
        session.run(events)
    except EOFError:
        pass


def test_annule_at_the_witchs_prompt_ends_her_call_and_opens_the_morning() -> None:
    # the wolves' entry is taken back while the witch is called: the pack's choice is typed again, silently
    operator = [*NIGHT_1[:2], ("loup", "Hugo"), "annule", *NIGHT_1[2:]]
    session, speaker = table(operator, [])
    played_until_the_voices_end(session)
    assert ids(speaker)[: len(HEARD_NIGHT_1)] == HEARD_NIGHT_1
    assert "La nuit a coûté la vie à Gus, qui avait la carte villageois." in [t for _, _, t in speaker.heard]
    assert "Annulé : « loup », Hugo ; à nouveau." in session.operator.shown


def test_annule_at_the_wolves_prompt_sends_them_back_to_sleep() -> None:
    operator = [NIGHT_1[0], ("voyante", "Dan"), "annule", *NIGHT_1[1:]]
    session, speaker = table(operator, [])
    played_until_the_voices_end(session)
    assert ids(speaker)[: len(HEARD_NIGHT_1)] == HEARD_NIGHT_1
    assert "Annulé : « voyante », Dan ; à nouveau." in session.operator.shown
    # the voyante's look is the corrected one, on the screen only
    assert "La voyante regarde la carte de son choix : Eva a la carte chasseur." in session.operator.shown


def test_the_witchs_call_keeps_its_length_after_an_undo() -> None:
    operator = [*NIGHT_1[:2], ("loup", "Hugo"), "annule", *NIGHT_1[2:]]
    session, speaker = table(operator, [])
    played_until_the_voices_end(session)
    at = {line_id: t for t, line_id, _ in speaker.heard}
    call = next(c for c in load_narration().calls if "sorciere" in c.roles)
    assert at["sorciere_sleep"] - at["sorciere_wake"] >= call.wait


def test_a_night_stopped_in_the_wolves_call_resumes_at_that_call(tmp_path: Path) -> None:
    """The night at the call it was in: that call said again once, nothing before it."""
    path = tmp_path / "partie.jsonl"
    journal = Journal.create(header(), path)
    session, speaker = table(NIGHT_1[:2], [], journal)  # the operator's input ends in the wolves' call
    played_until_the_voices_end(session)
    journal.close()
    assert ids(speaker) == HEARD_NIGHT_1[: HEARD_NIGHT_1.index("loups_wake") + 1]
    _, events, _ = read_journal(path)
    journal, _ = Journal.resume(path)
    resumed, speaker = table(NIGHT_1[2:], [], journal)
    played_until_the_voices_end(resumed, events)
    journal.close()
    assert ids(speaker)[:7] == ["resumed_night", "loups_wake", "loups_sleep", "sorciere_wake", "sorciere_sleep"] + [
        "morning",
        "morning_deaths*",
    ]
    assert resumed.operator.asked == [("nuit 1", "loup"), ("nuit 1", "sorciere")]


def test_a_game_resumed_in_the_day_does_not_say_the_morning_again(tmp_path: Path) -> None:
    path = tmp_path / "partie.jsonl"
    journal = Journal.create(header(), path)
    session, speaker = table(NIGHT_1, [], journal)  # stops in day 1's debate
    played_until_the_voices_end(session)
    journal.close()
    assert ids(speaker)[: len(HEARD_NIGHT_1)] == HEARD_NIGHT_1
    _, events, _ = read_journal(path)
    journal, _ = Journal.resume(path)
    resumed, speaker = table([], [], journal)
    played_until_the_voices_end(resumed, events)
    journal.close()
    heard = ids(speaker)
    assert not set(heard) & set(HEARD_NIGHT_1)


# day 1 of that table (no captain): Gus was devoured; seven voters, Ben and Cleo the lovers
DAY_1 = ["on vote", "ana vote contre dan", "ben vote contre dan"]


def test_stop_asks_first_then_the_stopped_vote_resumes_with_what_it_held(tmp_path: Path) -> None:
    """RULINGS 22: "« stop » at the table pauses and asks for confirmation; a stopped game can always be
    resumed." A resumed vote says the ballots it already holds."""
    path = tmp_path / "partie.jsonl"
    journal = Journal.create(header(), path)
    voices = [*DAY_1[:2], "stop", "non", DAY_1[2], "stop", "oui"]
    session, speaker = table(NIGHT_1, voices, journal)
    try:
        session.run()
        raise AssertionError("the game should have stopped")
    except Stopped:
        pass
    journal.close()
    texts = [t for _, _, t in speaker.heard]
    prompts = load_prompts()
    question = next(t for _, line_id, t in speaker.heard if line_id == "votes*")
    check, cancelled = prompts.text("stop_check"), prompts.text("stop_cancelled")
    at = texts.index(check)
    so_far = [prompts.text("votes_so_far", count=n, total=7) for n in (1, 2)]
    assert texts[at - 1 : at + 3] == [so_far[0], check, cancelled, question]
    assert texts[-3:] == [so_far[1], check, prompts.text("stopped")]
    _, events, _ = read_journal(path)
    assert not finished(events)
    journal, _ = Journal.resume(path)
    resumed, speaker = table([], [], journal)
    played_until_the_voices_end(resumed, events)
    journal.close()
    texts = [t for _, _, t in speaker.heard]
    said = ["On reprend la partie, pendant le vote.", question]  # where the game is, then the vote asked again
    assert texts[:3] == [*said, "J'ai déjà 2 voix : Ana vote contre Dan et Ben vote contre Dan."]


def test_repete_in_the_classic_debate_says_its_opening_and_never_the_night() -> None:
    session, speaker = table(NIGHT_1, ["répète", "encore une minute", "répète", "répète la nuit", "on vote"])
    played_until_the_voices_end(session)
    texts = [t for _, _, t in speaker.heard]
    opening = [line.text for line in session.narration.debate_opening(session.prompts.duration(60))]
    # said again with the time left now: each line takes a second on this clock
    more = load_prompts().text("more_time", time="une minute", left="une minute et 59 secondes")
    now = [line.text for line in session.narration.debate_opening("une minute et 58 secondes")]
    at = texts.index(opening[0])
    refused = load_prompts().text("night_not_repeated")
    assert texts[at : at + 5] == [*opening, *opening, more, *now, refused]
    assert ids(speaker).count("night_first") == 1 and ids(speaker).count("loups_wake") == 1


def test_a_lovers_ballot_against_the_beloved_is_counted_as_said_and_shown_to_the_operator_alone() -> None:
    """RULINGS 19: "a ballot the rules forbid because of a secret (a lover against the beloved) is counted as
    said and shown to the operator alone, who may take it back"."""
    ballots = ["ana vote contre dan", "ben vote contre cleo", "cleo vote contre dan", "dan vote contre ana"]
    ballots += ["eva vote contre dan", "fay vote contre dan", "hugo vote contre ana"]
    session, speaker = table(NIGHT_1, ["on vote", *ballots, "oui"])
    played_until_the_voices_end(session)
    texts = [t for _, _, t in speaker.heard]
    assert not any("ne peut pas" in t or "son amour" in t for t in texts)
    so_far = [load_prompts().text("votes_so_far", count=n, total=7) for n in range(1, 7)]
    assert [t for t in texts if t in so_far] == so_far
    read_back = next(t for t in texts if t.startswith("J'ai compris"))
    assert "Ben vote contre Cleo" in read_back
    assert any(s.startswith("Ben vote contre Cleo, son amour") for s in session.operator.shown)
    votes = next(e for e in session.events if isinstance(e, ev.Answer) and e.key == "votes")
    assert votes.value["Ben"] == "Cleo"  # counted as said
    assert "Le village élimine Dan, qui avait la carte sorcière." in texts


def test_a_lovers_ballot_against_the_beloved_counts_so_the_tie_keeps_the_secret() -> None:
    """RULINGS thiercelieux 19: "A dealt record or a spoken table never hears a secret through a refusal: a
    ballot the rules forbid because of a secret (a lover against the beloved) is counted as said and shown
    to the operator alone, who may take it back; refusals the table may hear name public facts only (a
    dead voter, a pardoned idiot)." Counted blank, Cleo's ballot would break the 2-2 tie the table heard."""
    players, deal = ("Ana", "Ben", "Cleo", "Dan", "Eva"), ("cupidon", "loup", "villageois", "villageois", "voyante")
    operator = [("cupidon", ["Ben", "Cleo"]), ("voyante", "Ana"), ("loup", "Dan")]
    ballots = ["ana vote contre ben", "cleo vote contre ben", "ben vote contre eva", "eva vote contre eva"]
    session, speaker = table(operator, ["on vote", *ballots, "oui"], players=players, deal=deal)
    played_until_the_voices_end(session)
    texts = [t for _, _, t in speaker.heard]
    assert "Égalité entre Ben et Eva, avec 2 voix." in texts
    assert not any("le plus de voix" in t or "Le village élimine" in t or "son amour" in t for t in texts)
    assert any(s.startswith("Cleo vote contre Ben, son amour") for s in session.operator.shown)
    votes = next(e for e in session.events if isinstance(e, ev.Answer) and e.key == "votes")
    assert votes.value == {"Ana": "Ben", "Ben": "Eva", "Cleo": "Ben", "Eva": "Eva"}
    # the game as a record: `narrator resolve` hears the same tie
    record = session.record()
    record["phases"][-1]["day"]["revote"] = {"Ana": "Ben", "Ben": "Eva", "Cleo": "Eva", "Eva": "Ben"}
    assert "Égalité entre Ben et Eva, avec 2 voix." in resolve_record(record)["why"]


SERVANTE_TABLE = ("Ana", "Ben", "Cleo", "Dan", "Eva", "Fay")
SERVANTE_DEAL = ("loup", "voyante", "servante", "chasseur", "villageois", "villageois")


def test_the_servante_decides_before_the_card_is_said() -> None:
    """RULINGS 20: "the servante decides before the eliminated card is said […]: when she takes the place, the
    table hears that the servante takes it, and the eliminated card is not said"."""
    operator = [("voyante", "Ana"), ("loup", "Dan"), ("servante", "Dan")]
    session, speaker = table(operator, [], players=SERVANTE_TABLE, deal=SERVANTE_DEAL)
    played_until_the_voices_end(session)
    texts = [t for _, _, t in speaker.heard]
    morning = ids(speaker).index("morning")
    devoted = session.narration.reworded["devoted"].format(servante="Cleo", name="Dan")
    # her question first, aloud (the operator enters her answer): the card is not said before it
    assert texts[morning + 1 : morning + 3] == [
        fill(session.narration.operator_asks["servante"], choices="Dan"),
        devoted,
    ]
    assert not any("chasseur" in t for t in texts)  # Dan's card, now hers, is never said
    assert session.operator.asked[-1] == ("nuit 1", "servante")


def test_the_card_is_said_once_the_servante_has_declined() -> None:
    operator = [("voyante", "Ana"), ("loup", "Eva"), ("servante", None)]
    session, speaker = table(operator, [], players=SERVANTE_TABLE, deal=SERVANTE_DEAL)
    played_until_the_voices_end(session)
    texts = [t for _, _, t in speaker.heard]
    assert texts[ids(speaker).index("morning") + 2] == "La nuit a coûté la vie à Eva, qui avait la carte villageois."


def test_annule_after_the_captains_election_says_who_is_taken_back() -> None:
    voices = ["dan est élu capitaine", "oui", "annule", "eva est élue capitaine", "oui", "on vote"]
    session, speaker = table(NIGHT_1, voices, captain=True)
    played_until_the_voices_end(session)
    texts = [t for _, _, t in speaker.heard]
    at = texts.index("J'annule : Dan.")
    assert texts[at + 1] == texts[texts.index("J'ai compris : Dan. C'est bien ça ?") - 1]  # the question again
    assert "Le village élit Eva capitaine." in texts and "Le village élit Dan capitaine." in texts
    assert texts.count("Le village élit Eva capitaine.") == 1


def test_a_hunter_aiming_at_his_beloved_hears_no_reason() -> None:
    """RULINGS thiercelieux 19: "refusals the table may hear name public facts only"."""
    deal = ("loup", "loup", "voyante", "sorciere", "chasseur", "cupidon", "villageois", "villageois")
    night = [("cupidon", ["Eva", "Gus"]), ("voyante", "Ana"), ("loup", "Eva")]
    night += [("sorciere", {"heal": False, "poison": None})]
    session, speaker = table(night, ["je tire sur gus", "je tire sur ana", "oui"], deal=deal)
    played_until_the_voices_end(session)
    texts = [t for _, _, t in speaker.heard]
    refused = texts.index(load_prompts().text("choice_refused", target="Gus"))  # no reason: the lovers are a secret
    assert not any("amour" in t for t in texts[refused - 2 : refused + 3])
    assert any("pas Gus, son amour" in s for s in session.operator.shown)


IDIOT_TABLE = ("Ana", "Ben", "Cleo", "Dan", "Eva")
IDIOT_DEAL = ("loup", "idiot", "voyante", "villageois", "villageois")


def test_a_journaled_ballot_of_the_pardoned_idiot_is_refused_with_its_line(tmp_path: Path) -> None:
    """A vote cut short, its journal edited so that the pardoned idiot votes: refused when read back, the
    file and line named, before anything is said of it."""
    path = tmp_path / "partie.jsonl"
    journal = Journal.create(header(IDIOT_TABLE, IDIOT_DEAL), path)
    operator = [("voyante", "Ana"), ("loup", "Dan"), ("voyante", "Eva"), ("loup", "Eva")]
    day_1 = ["on vote", *(f"{v} vote contre ben" for v in ("ana", "ben", "cleo", "eva")), "oui"]
    voices = [*day_1, "on vote", "cleo vote contre ana", "stop", "oui"]
    session, _ = table(operator, voices, journal, players=IDIOT_TABLE, deal=IDIOT_DEAL)
    try:
        session.run()
        raise AssertionError("the game should have stopped")
    except Stopped:
        pass
    journal.close()
    lines = path.read_bytes().split(b"\n")[:-1]
    ballot = max(i for i, line in enumerate(lines) if b'"voter": "Cleo"' in line)
    lines[ballot] = lines[ballot].replace(b'"voter": "Cleo"', b'"voter": "Ben"')
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    _, events, _ = read_journal(path)
    journal, _ = Journal.resume(path)
    resumed, speaker = table([], ["oui"], journal, players=IDIOT_TABLE, deal=IDIOT_DEAL)
    try:
        resumed.run(events)
        raise AssertionError("the edited ballot should have been refused")
    except JournalError as exc:
        message = str(exc)
    finally:
        journal.close()
    assert message.startswith(f"{path}:{ballot + 1}: bulletin du journal refusé : jour 2.votes.Ben : attendu : ")
    assert "pas Ben : l'idiot" in message and "a perdu son droit de vote" in message, message
    assert not any("Ben vote" in t for _, _, t in speaker.heard)


def test_a_changed_ballot_is_said_and_replaces_the_first() -> None:
    ballots = ["ana vote contre cleo", "ana vote contre fay", "ben vote contre dan", "ben vote contre personne"]
    ballots += [f"{v} vote contre dan" for v in ("cleo", "dan", "eva", "fay", "hugo")]
    session, speaker = table(NIGHT_1, ["on vote", *ballots, "oui"])
    played_until_the_voices_end(session)
    texts = [t for _, _, t in speaker.heard]
    prompts = load_prompts()
    at = texts.index("Ana change son vote : contre Fay.")
    assert texts[at - 1] == prompts.text("votes_so_far", count=1, total=7)
    assert texts[at + 1] == prompts.text("votes_so_far", count=2, total=7)  # Ben's first ballot, not Ana's again
    assert "Ben change son vote : contre personne." in texts
    votes = next(e for e in session.events if isinstance(e, ev.Answer) and e.key == "votes")
    assert votes.value["Ana"] == "Fay" and votes.value["Ben"] is None
