"""Whole games as a table plays them with phones: `narrator play … --phones` and one headless chromium page
per player, each taking its seat on the join page, seeing its card only when it asks, and answering
its night by touching the page. The game's record must end as `narrator resolve` says.

The pages are driven in one thread, round after round: each phone that shows a question answers it
(a real question as its player decides, a decoy by touching anything, as a player would).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import yaml
from phones_browser import BrowserPhone, plain
from test_classic_phones import CLI_CARDS as CARDS
from test_classic_phones import CLI_SEED as SEED
from test_classic_phones import PLAYERS, village_wins_at_dawn
from test_phones_table import Table as CommandLine

from narrator.app.classic import Classic
from narrator.app.family import resolve_record
from narrator.app.startup import TableRequest
from narrator.script.classic.script import load_classic

PENDING = """() => {
  const form = document.getElementById('question');
  if (form.hidden) return null;
  const inputs = [...document.querySelectorAll('#choices input')];
  return {
    text: document.getElementById('question-text').textContent,
    type: inputs.length ? inputs[0].type : null,
    values: inputs.map(i => i.value),
    buttons: [...document.querySelectorAll('#actions button')].map(b => b.textContent),
  };
}"""

Decide = Callable[[str, dict], object]  # a seat and the question its page shows -> what it touches


def touch_anything(question: dict) -> object:
    """What a player touches on a decoy: the first name (two for a pair), or « Oui »."""
    values = question["values"]
    if not values:
        return True if "Oui" in question["buttons"] else None
    return values[:2] if question["type"] == "checkbox" else values[0]


def play_night(
    table: CommandLine, phones: dict[str, BrowserPhone], decide: Decide, timeout: float = 150
) -> dict[str, list[str]]:
    """Answer every question the pages show until the narrator ends; the questions each page answered."""
    answered: dict[str, list[str]] = {seat: [] for seat in phones}
    themes: set[str] = set()  # the pages' looks while they showed a question: the night's, on every one
    deadline = time.monotonic() + timeout
    while table.process.poll() is None:
        assert time.monotonic() < deadline, "".join(table.out + table.err)
        for seat, phone in phones.items():
            try:
                question = phone.page.evaluate(PENDING)
            except Exception:  # the page is reconnecting or the server has stopped: look again next round
                continue
            if question is None:
                continue
            themes.add(phone.page.evaluate("() => document.body.className"))
            value = decide(seat, question)
            try:
                phone.answer(value)
                phone.wait_answered()
            except Exception:  # the question changed under the finger: it shows again next round
                continue
            answered[seat].append(question["text"])
        time.sleep(0.05)
    assert themes == {"night"}, themes
    return answered


def test_a_classic_game_of_eight_plays_from_deal_to_verdict_on_eight_browser_phones(tmp_path: Path, browser) -> None:
    """No operator: the eight players take their seats on the join page, each sees its own card, and the
    night is chosen on the pages. Cupidon unites the two wolves, the pack devours the villager, the witch
    poisons a wolf, whose beloved dies of grief (002, Cupidon: « Si l'un des Amoureux est éliminé,
    l'autre meurt de chagrin immédiatement. »): at dawn the village has no enemy left."""
    dealt = Classic().table("thiercelieux", TableRequest(players=PLAYERS, roles=sorted(CARDS))).dealt(SEED).record
    card = dict(zip(PLAYERS, dealt.roles))
    wolves = [p for p in PLAYERS if card[p] == "loup"]
    villager = next(p for p in PLAYERS if card[p] == "villageois")
    night = village_wins_at_dawn(card)

    def decide(seat: str, question: dict) -> object:
        """As the player's card says when it is the one called; a decoy (the same words and look as the
        call's question), anything of its form."""
        wanted = night(seat, question["values"], question["type"] is None)  # no checkbox, no radio: oui/non
        if question["type"] == "checkbox":
            ok = isinstance(wanted, list) and all(v in question["values"] for v in wanted)
            return wanted if ok else touch_anything(question)
        if question["type"] == "radio":
            return wanted if wanted in question["values"] else touch_anything(question)
        return wanted

    journal = tmp_path / "partie.jsonl"
    quiet = tmp_path / "voix.txt"
    quiet.write_text("", encoding="utf-8")
    args = ["play", "thiercelieux", "--players", ",".join(PLAYERS), "--roles", ",".join(sorted(CARDS))]
    args += ["--seed", str(SEED), "--phones", "--bind", "127.0.0.1", "--port", "0"]
    table = CommandLine(tmp_path, [*args, "--ear", f"script:{quiet}", "--no-wait", "--journal", str(journal)], journal)
    try:
        phones: dict[str, BrowserPhone] = {}
        for seat in PLAYERS:
            phone = browser.phone(f"http://127.0.0.1:{table.port}/")
            phone.join(seat)
            phones[seat] = phone
        names = {seat: phone.show_card() for seat, phone in phones.items()}
        for phone in phones.values():
            phone.hide_card()
        answered = play_night(table, phones, decide)
        assert table.process.wait(30) == 0, "".join(table.out + table.err)
    finally:
        if table.process.poll() is None:
            table.process.kill()
    roles = load_classic().roles
    for seat in PLAYERS:  # each page showed its own card, and nobody else's
        assert roles[card[seat]].name.capitalize() in names[seat]
        assert not any(roles[card[o]].name.capitalize() in names[seat] for o in PLAYERS if card[o] != card[seat])
    # the villager has nothing to choose, yet his page asked for touches like everyone's, in the same words
    called = {t for seat in PLAYERS if seat != villager for t in answered[seat]}
    assert answered[villager] and set(answered[villager]) <= called
    header, *events = table.events()
    assert header["deal"] == list(dealt.roles) and header["phones"]["bind"] == "127.0.0.1"
    assert {e["key"]: e["by"] for e in events if e["type"] == "answer"} == dict.fromkeys(
        ["cupidon", "voyante", "petite_fille", "loup", "sorciere"], "phone"
    )
    assert [e["seat"] for e in events if e["type"] == "seat_taken"] == PLAYERS
    record = yaml.safe_load(journal.with_suffix(".record.yaml").read_text(encoding="utf-8"))
    result = resolve_record(record)
    assert result["camp"] == "village" and result["dead"] == [villager, wolves[0], wolves[1]]
    heard = table.heard()
    offer = heard.index("Voulez-vous l'histoire de la partie ?")  # after the verdict; the answers end: no story
    assert heard[offer - 2] == "Le village n'a plus d'ennemi en vie : le village gagne."
    lovers = f"Cupidon unit {wolves[0]} et {wolves[1]} pour toujours."
    knew = {seat for seat, phone in phones.items() if any(lovers in s for s in phone.secrets())}
    assert knew == {*wolves, next(p for p in PLAYERS if card[p] == "cupidon")}
    terminal = "".join(table.out + table.err)
    assert "Cupidon unit" not in terminal
    # every page shows the end: the winners as said, and every card (the one dealt: nobody changed card)
    for phone in phones.values():
        phone.page.locator("#end:not([hidden])").wait_for()
        assert plain(phone.page.locator("#end-winners").inner_text()) == " ".join(heard[offer - 2 : offer])
        rows = [" ".join(r.split()) for r in phone.page.locator("#end-card-rows tr").all_inner_texts()]
        assert rows == [f"{p} {roles[card[p]].name.capitalize()}" for p in PLAYERS]
        assert phone.page.evaluate("() => document.body.className") == "day"
    # no error in any page, but its attempts to reconnect once the narrator has ended and its server with it
    assert [e for phone in phones.values() for e in phone.errors if "ERR_CONNECTION_REFUSED" not in e] == []
