"""The classic night on phones: what the phone operator adds between the last needed answer and the game.

A table of 20 seats; a phone thread answers the voyante's question 2 ms after it appears. Measured
from that answer (`Hub.answer`) to the return of `PhoneOperator.answer` — the question and its 19
decoys put on the screens, the answers gathered, the screens rested — and, for comparison, to the
return of a bare `Hub.wait` on the same question: the ratio is the operator's own cost.

Run: python benchmarks/classic_phones.py [--seats 20] [--rounds 300]
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable
from functools import partial

from narrator.phones.hub import Hub
from narrator.phones.screens import Choice, Form, Question
from narrator.rules.classic.asks import Ask, Kind
from narrator.rules.phase import PhaseId
from narrator.rules.reason import Reason
from narrator.script.classic.narration import load_narration
from narrator.script.classic.script import load_classic, say
from narrator.script.prompts import load_phone_prompts
from narrator.table.classic.phones import PhoneOperator


def rounds(hub: Hub, seat: str, count: int, ask_once: Callable[[], object]) -> list[float]:
    """Milliseconds from each answer to the return of `ask_once`, a phone thread answering `seat`."""
    answered: list[float] = []
    stop = threading.Event()

    def phone() -> None:
        done = 0
        while not stop.is_set():
            screen = hub.screen(seat)
            if screen.question is not None and screen.asked > done and not screen.answered:
                done = screen.asked
                time.sleep(0.002)
                answered.append(time.perf_counter())
                hub.answer(seat, screen.asked, screen.question.choices[0].value)
            time.sleep(0.0002)

    thread = threading.Thread(target=phone, daemon=True)
    thread.start()
    took = []
    for _ in range(count):
        ask_once()
        took.append((time.perf_counter() - answered[-1]) * 1000)
    stop.set()
    thread.join()
    return sorted(took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    seats = [f"J{i}" for i in range(args.seats)]
    seer, others = seats[0], tuple(seats[1:])
    ask = Ask(
        "voyante",
        Kind.PLAYER,
        Reason("ask_she_wakes", {"role": "voyante", "name": seer}),
        Reason("expect_see", {"role": "voyante"}),
        forced=False,
        choices=others,
        by=(seer,),
    )
    words = partial(say, load_classic())
    hub = Hub(seats)
    operator = PhoneOperator(hub, load_narration().phones, load_phone_prompts(), lambda: None)
    phoned = rounds(hub, seer, args.rounds, lambda: operator.answer(ask, PhaseId("night", 1), words))
    bare_hub = Hub(seats)
    question = Question(Form.ONE, "?", tuple(Choice(p, p) for p in others), optional=True)

    def bare() -> None:
        bare_hub.ask({seer: question})
        bare_hub.wait(10)

    plain = rounds(bare_hub, seer, args.rounds, bare)
    p95 = int(len(phoned) * 0.95)
    print(f"{args.seats} sièges, {args.rounds} questions de la voyante")
    print(f"réponse -> PhoneOperator.answer rendu : p50 {phoned[len(phoned) // 2]:.3f} ms, p95 {phoned[p95]:.3f} ms")
    print(f"réponse -> Hub.wait rendu (sans leurres) : p50 {plain[len(plain) // 2]:.3f} ms, p95 {plain[p95]:.3f} ms")
    print(f"rapport p95 : {phoned[p95] / max(plain[p95], 1e-9):.1f}")


if __name__ == "__main__":
    main()
