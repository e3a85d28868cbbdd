"""The vote: tally, ties, the one-vote-each exception, Luna, and deaths that drag another (hunter, Ginny)."""

from __future__ import annotations

from narrator.rules.onenight.model import DayPower, Options, Ruleset, Vote
from narrator.rules.reason import Reason


class PointingNeeded(LookupError):
    """A player who drags another in his death died, and whom he pointed at is not known yet."""

    def __init__(self, player: str) -> None:
        super().__init__(player)
        self.player = player


def lynch(
    rules: Ruleset, options: Options, players: tuple[str, ...], cards: list[str], vote: Vote
) -> tuple[list[str], dict[str, str], list[Reason]]:
    """Who dies at the vote, in order; who was dragged by whom; and the reasons, in order."""
    counts = {p: vote.counts.get(p, 0) for p in players}
    top = max(counts.values())
    why: list[Reason] = []
    if top == 0:
        why.append(Reason("no_votes"))
        return [], {}, why
    if options.one_vote_each_saves_all and all(c == 1 for c in counts.values()):
        # 001: "Exception : Si chaque joueur recueille exactement 1 voix contre lui, personne ne meurt !"
        why.append(Reason("one_vote_each"))
        return [], {}, why
    tied = [p for p in players if counts[p] == top]
    by_card = rules.by_card
    power = {p: by_card[card].day for p, card in zip(players, cards)}
    # 001: "Luna ne peut pas être capturée … En cas d'égalité, seuls les autres personnages ex aequo avec
    # elles sont capturés." The vote's line then says the count alone, never that she is captured.
    spared = [p for p in tied if power[p] is DayPower.UNCAPTURABLE]
    if len(tied) == 1:
        why.append(Reason("most_votes_spared" if spared else "most_votes", {"name": tied[0], "count": top}))
    else:
        # 000: "Si plusieurs joueurs ont le nombre de voix le plus élevé (genre 3-3-2), ILS MEURENT TOUS"
        why.append(Reason("tie_spared" if spared else "tie", {"names": tied, "count": top}))
    why += [Reason("spared", {"name": p}) for p in spared]
    queue = [p for p in tied if p not in spared]
    if spared and queue:
        why.append(Reason("captured", {"names": list(queue)}))  # a copy: the queue is emptied below

    dead: list[str] = []
    dragged_by: dict[str, str] = {}
    while queue:
        victim = queue.pop(0)
        if victim in dead:
            continue
        if power[victim] is DayPower.UNCAPTURABLE:
            # 001: "Luna ne peut pas être capturée … Personne n'est capturé non plus à sa place."
            why.append(Reason("spared", {"name": victim}))
            continue
        dead.append(victim)
        if power[victim] is not DayPower.DRAG:
            continue
        if victim not in vote.pointing:
            raise PointingNeeded(victim)
        target = vote.pointing[victim]
        if target is not None and target not in dead:
            # 000: "Si le chasseur est lynché, le joueur pour qui il a voté meurt automatiquement."
            # 001: "si elle est capturée, le joueur qu'elle pointait du doigt est aussi capturé."
            if power[target] is not DayPower.UNCAPTURABLE:
                dragged_by[target] = victim
                card = cards[players.index(victim)]
                # a target tied with the victim dies at the vote already: that death is not said twice
                said = "drag_tied" if target in queue else "drag"
                why.append(Reason(said, {"name": victim, "role": card, "target": target}))
            queue.append(target)
    return dead, dragged_by, why
