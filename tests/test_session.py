"""Whole one-night games at a table with physical cards, driven by a scripted ear on a fake clock."""

from __future__ import annotations

import numpy as np
import pytest

from narrator.app.family import resolve_record
from narrator.listen.commands import Command
from narrator.listen.french import Parser
from narrator.listen.grammar import phrases
from narrator.listen.simple_ears import ScriptedEar
from narrator.script.onenight.script import load_shipped
from narrator.script.prompts import load_prompts
from narrator.table import events as ev
from narrator.table.clock import FakeClock
from narrator.table.journal import Journal, finished, read_journal
from narrator.table.onenight.announcer import plan
from narrator.table.onenight.progress import progress
from narrator.table.onenight.session import Session, Stopped
from narrator.table.voice import Voice
from narrator.voice import Rendered, Say, assemble

RATE = 100  # fake audio: one second per line, silence for waits


def fake_render(items) -> Rendered:
    return assemble(items, [np.ones(RATE, np.int16) for i in items if isinstance(i, Say)], RATE)


class ClockSpeaker:
    """Playing takes the audio's length on the fake clock; remembers when each line began."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.heard: list[tuple[float, str, str]] = []

    def play(self, rendered: Rendered) -> None:
        start = self.clock.now()
        self.heard += [(start + s.start_s, s.line_id, s.text) for s in rendered.segments]
        self.clock.advance(rendered.duration_s)

    def close(self) -> None:
        pass


def table(game: str, players: list[str], in_play: list[str], answers: list[str | None], **kwargs):
    script = load_shipped(game)
    clock = FakeClock()
    speaker = ClockSpeaker(clock)
    parser = Parser(game, players)
    session = Session(
        script=script,
        prompts=load_prompts(),
        players=tuple(players),
        in_play=in_play,
        voice=Voice(fake_render, speaker),
        ear=ScriptedEar(answers),
        clock=clock,
        parser=parser,
        phrases=lambda phase: phrases(parser, phase),
        **kwargs,
    )
    return session, speaker, clock


def spoken(card: str) -> str:
    """How a player says his card: the role id, a Doppelgänger as « doppelganger voyante »."""
    return card.replace(":", " ")


RECORDS = [
    {
        "id": "poudlard-full",
        "ruleset": "poudlard",
        "players": ["Ana", "Ben", "Chloé", "Dan", "Eva"],
        "deal": {
            "Ana": "mangemort",
            "Ben": "sirius",
            "Chloé": "hermione",
            "Dan": "ginny",
            "Eva": "luna",
            "center": ["eleve", "mangemort", "harry"],
        },  # fmt: skip
        "night": {"Ben": {"swap_with": "Ana"}, "Chloé": {"look": "Ana"}},
        "votes": {"Ana": "Ben", "Ben": "Dan", "Chloé": "Dan", "Dan": "Ben", "Eva": "Dan"},
    },
    {
        "id": "onuw-full",
        "ruleset": "onuw",
        "players": ["Ana", "Ben", "Chloé", "Dan", "Eva", "Fay"],
        "deal": {
            "Ana": "loup",
            "Ben": "doppelganger",
            "Chloé": "chasseur",
            "Dan": "voleur",
            "Eva": "tannelier",
            "Fay": "villageois",
            "center": ["loup", "voyante", "insomniaque"],
        },  # fmt: skip
        "night": {"Ben": {"copy": "Chloé"}, "Dan": {"swap_with": "Ana"}},
        "votes": {"Ana": "Dan", "Ben": "Chloé", "Chloé": "Dan", "Dan": "Chloé", "Eva": "Chloé", "Fay": "Dan"},
    },
]


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_a_whole_game_by_voice_ends_as_narrator_resolve_says(record: dict) -> None:
    expected = resolve_record(record)
    players = record["players"]
    in_play = [record["deal"][p] for p in players] + record["deal"]["center"]
    answers: list[str | None] = [None, "on vote"]  # some silence in the debate, then the vote
    answers += [f"{voter.lower()} vote contre {target.lower()}" for voter, target in record["votes"].items()]
    answers += ["oui"]
    answers += [spoken(expected["final"][p]) for p in players]
    answers += ["oui"]
    session, speaker, _ = table(record["ruleset"], players, in_play, answers)
    script = session.script
    outcome = session.run(plan(script.announce, in_play, minutes=5))
    assert set(outcome.dead) == set(expected["dead"])
    assert set(outcome.winners) == set(expected["winners"])
    assert outcome.why == expected["why"]  # the narrator says what `narrator resolve` explains
    said = [text for _, _, text in speaker.heard]
    offer = said.index("Voulez-vous l'histoire de la partie ?")  # the verdict, then the story offered
    assert said[offer - len(expected["why"]) : offer] == expected["why"]
    kinds = [e.kind for e in session.events]
    n = len(players)
    assert kinds == ["night_done", "debate_over"] + ["vote_input"] * n + ["vote"] + ["card"] * n + [
        "cards",
        "outcome",
        "story_offered",
        "story",  # the answers ended at the offer: no story, the game is over
    ]
    assert session.events[1] == ev.DebateOver(1, early=True)  # « on vote »


def test_tallies_and_asking_whom_ginny_pointed_at() -> None:
    # 001 Ginny: "si elle est capturée, le joueur qu'elle pointait du doigt est aussi capturé."
    players = ["Ana", "Ben", "Chloé", "Dan"]
    in_play = ["mangemort", "ginny", "eleve", "eleve", "harry", "ron", "luna"]
    answers: list[str | None] = [
        "on vote",
        "trois voix pour ben",  # Ben: Ginny at dawn
        "une voix pour ana",
        "oui",
        "mangemort",
        "ginny",
        "eleve",
        "eleve",  # fmt: skip
        "oui",
        "ana",  # Ginny pointed at Ana
    ]
    session, speaker, _ = table("poudlard", players, in_play, answers)
    session.debate(plan(session.script.announce, in_play).debate)
    vote = session.collect_vote()
    assert vote.counts == {"Ben": 3, "Ana": 1} and vote.pointing == {}
    cards = session.collect_cards()
    outcome = session.conclude(vote, cards)
    assert outcome.dead == ["Ben", "Ana"]
    assert set(outcome.winners) == {"Ben", "Chloé", "Dan"}
    assert any(line == "ask_pointing*" for _, line, _ in speaker.heard)
    assert session.events[-2:] == [
        ev.Pointing("Ben", "Ana"),
        ev.Outcome(["Ben", "Chloé", "Dan"], dead=["Ben", "Ana"]),
    ]


def test_annule_of_on_vote_in_the_vote_goes_back_to_the_debate() -> None:
    players = ["Ana", "Ben", "Chloé"]
    in_play = ["mangemort", "eleve", "eleve", "harry", "ron", "luna"]
    answers: list[str | None] = ["on vote", "annule", "répète", "encore une minute", "on vote"]
    answers += ["ana vote contre ben", "ben vote contre ben", "chloé vote contre ben", "oui"]
    answers += ["mangemort", "eleve", "harry", "oui"]
    session, speaker, _ = table("poudlard", players, in_play, answers)
    session.run(plan(session.script.announce, in_play))
    texts = [t for _, _, t in speaker.heard]
    at = texts.index("J'annule : on vote.")
    assert texts[at + 1].startswith("On reprend. Il reste ")  # the table hears it is back in the debate
    # « répète » there is the debate's opening with the time left, not the vote's question taken back
    assert texts[at + 2] in texts[:at] and texts[at + 2].startswith("Réveillez-vous tous")
    assert not any(t.startswith("Dites-moi les votes") for t in texts[at : at + 6])
    assert any(t.startswith("D'accord, une minute de plus.") for t in texts)  # heard in the debate, not the vote
    assert [e for e in session.events if isinstance(e, (ev.DebateOver, ev.MoreTime, ev.Undo))] == [
        ev.DebateOver(1, early=True),
        ev.Undo(),
        ev.MoreTime(60),
        ev.DebateOver(1, early=True),
    ]


def test_corrections_refusals_and_repeat() -> None:
    players = ["Ana", "Ben", "Chloé"]
    in_play = ["mangemort", "eleve", "eleve", "harry", "ron", "luna"]
    answers: list[str | None] = [
        "on vote",
        "ana vote contre ben",
        "annule",  # the last input is taken back
        "ana vote contre chloé",
        "ben vote contre chloé",
        "chloe vote contre ana",  # no accent: still Chloé
        "non",  # the read-back was wrong: start again
        "ana vote contre ben",
        "ben vote contre ben",
        "chloé vote contre ben",  # fmt: skip
        "oui",
        "répète",  # Ana's card question again
        "dumbledore",  # not in this game
        "blablabla",  # not understood
        "mangemort",
        "mangemort",  # Ben: only one Mangemort card in play, already claimed
        "élève",
        "eleve",
        "non",
        "ana harry",  # the correction
        "oui",
    ]
    session, speaker, _ = table("poudlard", players, in_play, answers)
    outcome = session.run(plan(session.script.announce, in_play))
    assert outcome.vote.pointing == {"Ana": "Ben", "Ben": "Ben", "Chloé": "Ben"}
    assert outcome.cards == {"Ana": "harry", "Ben": "eleve", "Chloé": "eleve"}
    assert [e for e in session.events if isinstance(e, ev.Undo)] == [ev.Undo()]
    lines = [line for _, line, _ in speaker.heard]
    assert "votes_again" in lines
    texts = [text for _, _, text in speaker.heard]
    # what « annule » took back is said, and the vote goes on there: no question again, no count again
    at = texts.index("J'annule : Ana vote contre Ben.")
    assert lines[at - 1 : at + 2] == ["votes_so_far*", "undone_what*", "votes_so_far*"]
    assert texts[at + 1] == load_prompts().text("votes_so_far", count=1, total=3)
    assert (
        texts.count(load_prompts().text("ask_votes", voter="Ana", target="Ben")) == 2
    )  # the vote's question, and again after the read-back's « non »
    assert lines.count("ask_card*") >= 4  # asked, repeated on « répète », and after each refusal
    texts = [text for _, _, text in speaker.heard]
    assert "Il n'y a pas de carte Albus Dumbledore en jeu." in texts
    assert "Je n'ai pas compris « blablabla »." in texts
    assert "Il n'y a qu'une carte Mangemort en jeu, et elle est déjà annoncée." in texts


def test_debate_timer_pause_more_time_and_reminders_on_the_fake_clock() -> None:
    players = ["Ana", "Ben", "Chloé"]
    in_play = ["mangemort", "eleve", "eleve", "harry", "ron", "luna"]
    # each listening turn lasts `listen_s` of silence on the fake clock unless something is said
    answers: list[str | None] = ["pause", None, None, "reprends", "encore une minute"] + [None] * 200
    session, speaker, clock = table("poudlard", players, in_play, answers, listen_s=10.0)
    narration = plan(session.script.announce, in_play, minutes=3)
    start = clock.now()
    session.debate(narration.debate)
    heard = {line: t for t, line, _ in speaker.heard}
    # 3 minutes + 1 more minute + the pause: the « pause » line (1 s on this clock) and two silent
    # 10-second turns before « reprends »; the other lines are said while the debate's time runs
    assert clock.now() - start == pytest.approx(3 * 60 + 60 + 21)
    assert heard["one_minute_left"] == pytest.approx(clock.now() - 60, abs=1)
    assert heard["ten_seconds_left"] == pytest.approx(clock.now() - 10, abs=1)
    assert session.events == [ev.Pause(), ev.Resume(), ev.MoreTime(60), ev.DebateOver(1)]


def test_stop_asks_first_and_a_stopped_game_resumes(tmp_path) -> None:
    # RULINGS 22: "« stop » at the table pauses and asks for confirmation; a stopped game can always be
    # resumed. Nothing a single misheard word triggers is irreversible."
    in_play = ["loup"] * 2 + ["villageois"] * 3 + ["voyante"]
    path = tmp_path / "partie.jsonl"
    header = {"family": "onenight", "game": "onuw", "script": "", "players": ["Ana", "Ben", "Chloé"]}
    journal = Journal.create({**header, "in_play": in_play, "voice": "fr"}, path)
    session, speaker, clock = table("onuw", ["Ana", "Ben", "Chloé"], in_play, ["stop", "non", "stop", "oui"])
    session.journal = journal
    narration = plan(session.script.announce, session.in_play, minutes=3)
    start = clock.now()
    with pytest.raises(Stopped):
        session.debate(narration.debate)
    journal.close()
    texts = [t for _, _, t in speaker.heard]
    prompts = load_prompts()
    check = prompts.text("stop_check")
    assert check.startswith("Voulez-vous arrêter la partie ?")
    assert texts.count(check) == 2
    assert texts[texts.index(check) + 1] == prompts.text("stop_cancelled")
    assert texts[texts.index(check) + 2].startswith("On reprend. Il reste 3 minutes")  # the question's time given back
    assert texts[-1] == prompts.text("stopped")
    assert clock.now() - start < 60
    _, events, _ = read_journal(path)
    # the heartbeat may note the debate's time (every real second) whatever the fake clock says
    assert [e for e in events if not isinstance(e, ev.Tick)] == [ev.Stop()]
    assert not finished(events)
    assert progress(events).stage == "night"  # not « done »: `narrator resume` goes on


def test_the_demo_plays_a_whole_game_without_a_sound_card(tmp_path) -> None:
    # issue 4: "narrator demo … writes demo.wav and the transcript when there is no sound card"
    import os
    import subprocess
    import sys

    from narrator.voice import read_wav

    env = {**os.environ, "PULSE_SERVER": "unix:/nonexistent", "NARRATOR_VOSK_MODEL": str(tmp_path / "none")}
    env.pop("XDG_RUNTIME_DIR", None)
    run = subprocess.run(
        [sys.executable, "-m", "narrator", "demo", "--seed", "3", "--out", str(tmp_path / "demo.wav")],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Pas de carte son" in run.stderr
    assert "La nuit se joue sur sa musique d'ambiance" in run.stdout  # a new user hears the mix at once
    out = run.stdout
    assert "Fermez tous les yeux." in out and "Dites-moi les votes" in out
    assert " gagne." in out or " gagnent." in out or "Personne ne gagne." in out
    assert "le même résultat que « narrator resolve »" in out
    pcm, rate = read_wav(tmp_path / "demo.wav")
    assert len(pcm) / rate > 60  # the night, the players' voices and the verdict


def test_a_resumed_night_restarts_at_the_call_it_was_in() -> None:
    # issue 7: "the night resumes at the current role's announcement"
    in_play = ["mangemort", "mangemort", "hermione", "sirius", "eleve", "eleve"]
    session, speaker, _ = table("poudlard", ["Ana", "Ben", "Chloé"], in_play, [])
    narration = plan(session.script.announce, in_play, legend=False)
    rendered = fake_render(narration.opening)
    hermione = next(s for s in rendered.segments if s.line_id == "hermione_wake")
    session.night(narration, at=hermione.start_s + 3.0)  # 3 s into Hermione's wait
    said = [line for _, line, _ in speaker.heard]
    assert said[0] == "hermione_wake" and "mangemorts_wake" not in said
    assert said[-1] == "discussion_start*"
    assert session.events == [ev.NightDone()]


def test_a_resumed_debate_keeps_the_time_that_was_left() -> None:
    session, speaker, clock = table("poudlard", ["Ana", "Ben", "Chloé"], ["mangemort"] * 2 + ["eleve"] * 4, [None] * 20)
    narration = plan(session.script.announce, session.in_play, minutes=5)
    start = clock.now()
    session.debate(narration.debate, left=30.0)
    assert clock.now() - start == pytest.approx(30.0)
    said = [line for _, line, _ in speaker.heard]
    assert said == ["ten_seconds_left"]  # the one-minute reminder had already been said


def test_a_resumed_game_says_where_it_is_as_a_classic_one_does() -> None:
    # issue 23, 6: « A one-night resume says nothing until « répète »; the classic one says where it is »
    # (tests/test_table_classic.py: « On reprend. Il reste 42 secondes. »)
    in_play = ["mangemort"] * 2 + ["eleve"] * 4
    session, speaker, _ = table("poudlard", ["Ana", "Ben", "Chloé"], in_play, ["stop", "oui"])
    narration = plan(session.script.announce, in_play, minutes=5)
    with pytest.raises(Stopped):
        session.run(narration, [ev.NightDone(), ev.Tick("debate", left=42.0)])
    texts = [t for _, _, t in speaker.heard]
    assert texts[0] == "On reprend la partie. Il reste 42 secondes de débat."


def test_a_resumed_night_closes_every_eye_before_its_call() -> None:
    # ear.md 1: a resumed night must not wake a character while the table looks around; every game says
    # it the same way (scripts/table.yaml `resumed_night`, the classic game's too)
    in_play = ["mangemort", "mangemort", "hermione", "sirius", "eleve", "eleve"]
    session, speaker, _ = table("poudlard", ["Ana", "Ben", "Chloé"], in_play, ["stop", "oui"])
    narration = plan(session.script.announce, in_play, legend=False)
    hermione = next(s for s in fake_render(narration.opening).segments if s.line_id == "hermione_wake")
    with pytest.raises(Stopped):
        session.run(narration, [ev.Tick("night", at=hermione.start_s + 3.0)])
    heard = [(line, text) for _, line, text in speaker.heard]
    assert heard[0][1] == "On reprend la partie. C'est la nuit : tout le monde ferme les yeux."
    assert heard[1][0] == "hermione_wake"


def test_physical_cards_are_dealt_and_looked_at_before_the_night() -> None:
    # ear.md 4: « nobody is told to take and look at a card » before « Fermez tous les yeux »
    in_play = ["mangemort", "mangemort", "hermione", "sirius", "eleve", "eleve"]
    session, speaker, _ = table("poudlard", ["Ana", "Ben", "Chloé"], in_play, ["stop", "oui"])
    with pytest.raises(Stopped):
        session.run(plan(session.script.announce, in_play))
    texts = [t for _, _, t in speaker.heard]
    deal = texts.index(
        "Distribuez une carte par personne et posez les 3 autres au milieu, face cachée. "
        "Regardez votre carte sans la montrer, puis reposez-la devant vous, face cachée."
    )
    assert deal < texts.index("Fermez tous les yeux.")


def test_progress_replays_the_journal() -> None:
    from narrator.table.onenight.progress import progress

    events = [
        ev.Tick("night", at=12.5),
        ev.NightDone(),
        ev.Tick("debate", left=200.0),
        ev.MoreTime(60),
        ev.DebateOver(1, early=True),
        ev.VoteInput("Ana", "Ben"),
        ev.VoteInput(target="Ben", count=2),
        ev.Undo(),  # takes back the tally
    ]
    state = progress(events)
    assert state.stage == "vote" and state.debate_left == 260.0 and state.night_at == 12.5
    assert [c.to_json() for c in state.inputs] == [{"command": "vote", "voter": "Ana", "target": "Ben"}]
    state = progress(events + [ev.VotesAgain(), ev.Vote({"Ben": 3}, {})])
    assert state.stage == "cards" and state.inputs == [] and state.vote.counts == {"Ben": 3}
    # « annule » just after « non » at the read-back reaches no ballot of the round thrown away (the outside
    # test of issue 26: « J'annule : Ana vote contre Ben » named one): it is « annule » before any ballot
    from narrator.table.onenight.progress import UNDO
    from narrator.table.replay import undoable

    assert undoable(events + [ev.VotesAgain()], UNDO) == ev.DebateOver(1, early=True)
    confirmed = events + [ev.Vote({"Ben": 1}, {"Ana": "Ben"})]
    assert progress(confirmed).stage == "cards"
    back = progress(confirmed + [ev.Undo()])  # « annule » after the read-back: the vote is asked again
    assert back.stage == "vote" and back.vote is None and len(back.inputs) == 1
    state = progress([ev.Cards({"Ana": "eleve"}), ev.Pointing("Ana", None)])
    assert state.stage == "verdict" and state.cards_confirmed and state.pointing == {"Ana": None}


def test_a_journal_cut_by_a_crash_is_read_to_its_last_whole_line(tmp_path) -> None:
    from narrator.table.journal import Journal, read_journal

    header = {"family": "onenight", "game": "poudlard", "script": "", "players": ["Ana"], "in_play": [], "voice": "fr"}
    journal = Journal.create(header, tmp_path / "j.jsonl")
    journal.append(ev.NightDone())
    journal.close()
    with open(tmp_path / "j.jsonl", "a", encoding="utf-8") as f:
        f.write('{"type": "vote_in')  # the power went off mid-line
    header, events, warnings = read_journal(tmp_path / "j.jsonl")
    assert header["game"] == "poudlard" and events == [ev.NightDone()]
    assert warnings == [
        f"{tmp_path / 'j.jsonl'}:3: ligne coupée (arrêt brutal pendant l'écriture) : le journal est lu jusqu'à la ligne 2."
    ]


def test_a_card_said_for_another_player_is_answered_with_whose_card_comes_first() -> None:
    # issue 23: « a card said by the wrong player is asked again without a reason »
    players = ["Ana", "Ben", "Éva"]
    session, speaker, _ = table("poudlard", players, ["mangemort", "eleve", "eleve", "harry", "ron", "luna"],
                                ["ben est élève", "mangemort"])  # fmt: skip
    assert session._ask_card("Éva", {}) == "mangemort"
    texts = [t for _, _, t in speaker.heard]
    assert texts.count("J'attends d'abord la carte d'Éva.") == 1, texts
    assert texts.count(load_prompts().text("ask_card", player="Éva")) == 2  # then the question again


def test_a_doppelganger_said_alone_is_asked_what_it_copied() -> None:
    # issue 22: « the Doppelgänger alone (« David doppelgänger ») » was not understood; its copy is then asked
    players = ["Ana", "Ben", "Éva"]
    deal = ["doppelganger", "voyante", "loup", "villageois", "villageois", "noiseuse"]
    session, speaker, _ = table("onuw", players, deal, ["ana doppelgänger", "la voyante", "éva doppelgänger",
                                                        "le chasseur", "doppelgänger"])  # fmt: skip
    assert session._ask_card("Ana", {}) == "doppelganger:voyante"
    # what a keyboard shows for that question (the outside test: it showed « par exemple « Ben Doppelgänger » »)
    assert session.talk.typed("reveal") == load_prompts().text("typed_ask_copy")
    # nothing copied: the card lay in the middle all night; a card not in play is refused with its name
    assert session._ask_card("Éva", {}) == "doppelganger"
    texts = [t for _, _, t in speaker.heard]
    asked = load_prompts().text("ask_copy", player="Ana", role="Doppelgänger")
    assert asked == "Ana, quelle carte ton Doppelgänger a-t-il copiée ? S'il n'a rien copié, redis « Doppelgänger »."
    assert asked in texts and "Il n'y a pas de carte chasseur en jeu." in texts, texts


def test_after_three_misunderstandings_the_keyboard_is_offered_for_that_question() -> None:
    # issue 7: "after three failures the keyboard is offered"
    from narrator.listen.simple_ears import ScriptedEar as Keyboard

    players = ["Ana", "Ben", "Chloé"]
    session, speaker, _ = table("poudlard", players, ["mangemort", "eleve", "eleve", "harry", "ron", "luna"],
                                ["brouhaha", "grmbl", "pfff", "oui"],  # fmt: skip
                                keyboard=Keyboard(["ana mangemort"]))  # fmt: skip
    cards = session._ask_card("Ana", {})
    assert cards == "mangemort"
    assert "Je n'ai toujours pas compris : vous pouvez aussi taper la réponse au clavier." in [
        t for _, _, t in speaker.heard
    ]
    assert session.talk.ear is session.ear  # back to the voice for the next question


def test_a_typed_answer_is_awaited_a_minute_a_spoken_one_the_table_s_patience() -> None:
    # the outside test of issue 23: at the keyboard, the question came again every 8 s (a slow typist, a
    # screen reader's user), and three such « silences » ended the story's offer
    from narrator.listen.simple_ears import ScriptedEar
    from narrator.table.conversation import TYPED_LISTEN_S

    class Spoken(ScriptedEar):
        def __init__(self, answers: list[str]) -> None:
            super().__init__(answers)
            self.waited: list[float] = []

        def listen(self, phrases, timeout_s):
            self.waited.append(timeout_s)
            return super().listen(phrases, timeout_s)

    class Typed(Spoken):
        def expect(self, hint: str) -> None:  # what makes an ear a keyboard
            pass

    players = ["Ana", "Ben", "Chloé"]
    session, _, _ = table("poudlard", players, ["mangemort", "eleve", "eleve", "harry", "ron", "luna"], [])
    session.talk.ear = spoken = Spoken(["ana élève"])
    assert session._ask_card("Ana", {}) == "eleve"
    session.talk.ear = typed = Typed(["ben mangemort"])
    assert session._ask_card("Ben", {}) == "mangemort"
    assert spoken.waited == [session.talk.listen_s] and typed.waited == [TYPED_LISTEN_S] > spoken.waited


def test_a_broken_demo_table_is_refused_at_its_line(tmp_path) -> None:
    from narrator.app.demo import parse_demo
    from narrator.resources import data_dir
    from narrator.script.marks import YamlError

    text = (data_dir("scripts") / "demo.yaml").read_text(encoding="utf-8")
    broken = text.replace("scenario: premiere_annee", "scenario: inconnu").replace("name: Bruno", "name: Alice")
    with pytest.raises(YamlError) as caught:
        parse_demo(broken, "scripts/demo.yaml")
    found = [str(p) for p in caught.value.problems]
    assert "scripts/demo.yaml:9:12: players.1.name: nom en double « Alice »" in found
    assert any("scenario: attendu : un scénario de poudlard pour 5 joueurs" in p for p in found), found


def test_repete_in_the_debate_says_the_days_opening_and_the_night_only_by_name() -> None:
    # « répète » repeats the last thing said to the table; the night is replayed only when asked by name
    in_play = ["mangemort", "eleve", "eleve", "harry", "ron", "luna"]
    answers = ["répète", "répète la nuit", "répète", "on vote"]
    session, speaker, clock = table("poudlard", ["Ana", "Ben", "Chloé"], in_play, answers)
    narration = plan(session.script.announce, in_play, minutes=3)
    session.night(narration)
    heard = len(speaker.heard)
    session.debate(narration.debate)
    after = [line_id for _, line_id, _ in speaker.heard[heard:]]
    day = [item.line_id for item in narration.opening[narration.sections[-1] :] if isinstance(item, Say)]
    night = [
        item.line_id for item in narration.opening[narration.night : narration.sections[-1]] if isinstance(item, Say)
    ]
    assert not any(line.startswith(("setup_", "legend_")) for line in night)  # the legend is not the night
    # « répète », « répète la nuit », « répète »: the day's opening says the time left now, not its length
    now = [line for line in day if line != "discussion_start*"] + ["time_left*"]
    assert after == now + night + now


def test_repete_after_more_time_says_the_time_left_not_the_debates_first_length() -> None:
    in_play = ["mangemort", "eleve", "eleve", "harry", "ron", "luna"]
    answers = ["encore une minute", "répète", "on vote"]
    session, speaker, clock = table("poudlard", ["Ana", "Ben", "Chloé"], in_play, answers)
    narration = plan(session.script.announce, in_play, minutes=5)
    session.night(narration)
    heard = len(speaker.heard)
    session.debate(narration.debate)
    texts = [text for _, _, text in speaker.heard[heard:]]
    assert texts == [
        "D'accord, une minute de plus. Il reste 6 minutes.",
        "Réveillez-vous tous et ouvrez les yeux.",
        "Il reste 5 minutes et 59 secondes.",
    ]


def test_a_resumed_vote_says_what_it_already_holds() -> None:
    in_play = ["mangemort", "eleve", "eleve", "harry", "ron", "luna"]
    answers = ["chloé vote contre ana", "oui"]
    session, speaker, _ = table("poudlard", ["Ana", "Ben", "Chloé"], in_play, answers)
    held = [Command("vote", voter="Ana", target="Ben"), Command("tally", target="Ana", count=1)]
    vote = session.collect_vote(held)
    texts = [t for _, _, t in speaker.heard]
    prompts = load_prompts()
    held = prompts.join(
        [prompts.text("vote_one", voter="Ana", target="Ben"), prompts.text("tally_one", count=1, target="Ana")]
    )
    assert texts[:2] == [prompts.text("ask_votes", voter="Ana", target="Ben"), f"J'ai déjà 2 voix : {held}."]
    assert vote.counts == {"Ben": 1, "Ana": 2}


def test_a_changed_ballot_is_said_and_replaces_the_first() -> None:
    players = ["Ana", "Ben", "Chloé"]
    in_play = ["mangemort", "eleve", "eleve", "harry", "ron", "luna"]
    answers: list[str | None] = ["on vote", "ana vote contre ben", "ana vote contre chloé", "ana vote contre chloé"]
    answers += ["ben vote contre personne", "ben vote contre chloé", "chloé vote contre ben", "oui"]
    session, speaker, _ = table("poudlard", players, in_play, answers)
    vote = session.collect_vote()
    texts = [text for _, _, text in speaker.heard]
    prompts = load_prompts()
    changed = [t for t in texts if "change son vote" in t]
    assert changed == ["Ana change son vote : contre Chloé.", "Ben change son vote : contre Chloé."]
    assert changed == [
        prompts.text("vote_changed", voter="Ana", target="Chloé"),
        prompts.text("vote_changed", voter="Ben", target="Chloé"),
    ]
    at = texts.index(changed[0])
    assert texts[at - 1] == prompts.text("votes_so_far", count=1, total=3)  # counted once, then changed
    assert texts[at + 1] != prompts.text("votes_so_far", count=1, total=3)  # nothing new to count
    assert vote.pointing == {"Ana": "Chloé", "Ben": "Chloé", "Chloé": "Ben"}


def _verdict(cards: list[str], ballots: list[str]):
    """A three-player onuw day (Ana, Ben, Chloé dealt `cards`, the rest in the middle): the outcome and
    the verdict's sentences."""
    in_play = [*cards, "voyante", "voleur", "villageois"]
    answers = ["on vote", *ballots, "oui", *cards, "oui"]
    session, speaker, _ = table("onuw", ["Ana", "Ben", "Chloé"], in_play, answers)
    session.debate(plan(session.script.announce, in_play).debate)
    outcome = session.conclude(session.collect_vote(), session.collect_cards())
    return outcome, [text for _, line, text in speaker.heard if line.startswith("why_")]


def test_a_lynched_hunters_card_is_said_once_with_whom_he_dragged() -> None:
    ballots = ["ana vote contre ben", "ben vote contre ana", "chloé vote contre ben"]
    outcome, said = _verdict(["loup", "chasseur", "villageois"], ballots)
    assert outcome.dead == ["Ben", "Ana"]
    assert said[1:3] == [
        "Ben avait la carte chasseur et votait contre Ana, qui meurt aussi.",
        "Ana avait la carte loup-garou : le village gagne.",
    ]
    assert sum("Ben avait la carte chasseur" in text for text in said) == 1


def test_a_hunter_tied_with_whom_they_voted_against_says_that_death_once() -> None:
    # 000: "Si plusieurs joueurs ont le nombre de voix le plus élevé (genre 3-3-2), ILS MEURENT TOUS" and
    # "Si le chasseur est lynché, le joueur pour qui il a voté meurt automatiquement." — Ben dies at the tie
    # already: Ben is not dragged, and his death is said once (Ana, first in the tie, is the hunter)
    ballots = ["ana vote contre ben", "ben vote contre ana", "chloé vote contre personne"]
    outcome, said = _verdict(["chasseur", "loup", "villageois"], ballots)
    assert outcome.dead == ["Ana", "Ben"]
    assert said[0] == "Égalité à une voix entre Ana et Ben, qui meurent."
    assert not any("meurt aussi" in text for text in said), said
    assert sum("Ana avait la carte chasseur" in text for text in said) <= 1, said


def test_blank_votes_in_a_tally_count_toward_the_votes_and_resume() -> None:
    # « deux votes blancs »: two of the four votes went to nobody; they are read back, journaled as a
    # tally with no target, and never counted against a player

    in_play = ["mangemort", "eleve", "eleve", "eleve", "harry", "ron", "luna"]
    players = ["Ana", "Ben", "Chloé", "Dan"]
    prompts = load_prompts()
    session, speaker, _ = table("poudlard", players, in_play, ["deux votes blancs", "deux voix pour ben", "oui"])
    vote = session.collect_vote()
    assert vote.counts == {"Ben": 2} and vote.pointing == {}
    blank = prompts.text("tally_blank", count=2)
    assert blank != prompts.text("tally_blank", count=1)  # forms by number
    summary = prompts.join([prompts.text("tally_one", count=2, target="Ben"), blank])
    assert prompts.text("read_back", summary=summary) in [t for _, _, t in speaker.heard]
    said = [e for e in session.events if isinstance(e, ev.VoteInput)]
    assert said[0] == ev.VoteInput(target=None, count=2)
    for event in session.events:
        assert ev.check(ev.to_json(event)) == event  # a blank tally passes the journal's check

    # resumed after the first input: the blank votes are held and count toward the four
    held = progress([ev.NightDone(), ev.DebateOver(1, early=True), said[0]]).inputs
    again, speaker, _ = table("poudlard", players, in_play, ["ben deux voix", "oui"])
    vote = again.collect_vote(held)
    texts = [t for _, _, t in speaker.heard]
    assert texts[1] == f"J'ai déjà 2 voix : {blank}."
    assert vote.counts == {"Ben": 2}
    assert prompts.text("read_back", summary=summary) in texts
