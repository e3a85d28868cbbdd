"""The vote: tally, ties, the one-vote-each exception, Luna, and deaths that drag another (hunter, Ginny)."""

from __future__ import annotations

from narrator.rules.model import DayPower, Game, Reason, Ruleset


def lynch(rules: Ruleset, game: Game, cards: list[str]) -> tuple[list[str], dict[str, str], list[Reason]]:
    """Who dies at the vote, in order; who was dragged by whom; and the reasons, in order."""
    players = game.players
    counts = dict.fromkeys(players, 0)
    for target in game.votes.values():
        if target is not None:
            counts[target] += 1
    top = max(counts.values())
    why: list[Reason] = []
    if top == 0:
        why.append(Reason("no_votes"))
        return [], {}, why
    if game.options.one_vote_each_saves_all and all(c == 1 for c in counts.values()):
        # 001: "Exception : Si chaque joueur recueille exactement 1 voix contre lui, personne ne meurt !"
        why.append(Reason("one_vote_each"))
        return [], {}, why
    tied = [p for p in players if counts[p] == top]
    if len(tied) == 1:
        why.append(Reason("most_votes", {"name": tied[0], "count": top}))
    else:
        # 000: "Si plusieurs joueurs ont le nombre de voix le plus élevé (genre 3-3-2), ILS MEURENT TOUS"
        why.append(Reason("tie", {"names": tied, "count": top}))

    by_card = rules.by_card
    power = {p: by_card[card].day for p, card in zip(players, cards)}
    dead: list[str] = []
    dragged_by: dict[str, str] = {}
    queue = list(tied)
    while queue:
        victim = queue.pop(0)
        if victim in dead:
            continue
        if power[victim] is DayPower.UNCAPTURABLE:
            # 001: "Luna ne peut pas être capturée … Personne n'est capturé non plus à sa place."
            why.append(Reason("spared", {"name": victim}))
            continue
        dead.append(victim)
        target = game.votes.get(victim)
        if power[victim] is DayPower.DRAG and target is not None and target not in dead:
            # 000: "Si le chasseur est lynché, le joueur pour qui il a voté meurt automatiquement."
            # 001: "si elle est capturée, le joueur qu'elle pointait du doigt est aussi capturé."
            if power[target] is not DayPower.UNCAPTURABLE:
                dragged_by[target] = victim
                card = cards[players.index(victim)]
                why.append(Reason("drag", {"name": victim, "role": card, "target": target}))
            queue.append(target)
    return dead, dragged_by, why
