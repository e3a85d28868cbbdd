"""Who wins, and why, once the dead are known (000 "LE VOTE" and its win list; 001 "Fin de la partie")."""

from __future__ import annotations

from narrator.rules.onenight.model import Options, Ruleset, Team, Victory
from narrator.rules.reason import Reason


def decide(
    rules: Ruleset,
    options: Options,
    players: tuple[str, ...],
    cards: list[str],
    dead: list[str],
    dragged_by: dict[str, str],
) -> tuple[list[str], list[Reason]]:
    """The winners in seating order, and the reasons to read after the vote's."""
    card = dict(zip(players, cards))
    role = {p: rules.by_card[c] for p, c in card.items()}
    dead_set = set(dead)
    why: list[Reason] = []
    decisive: str | None = None  # the dead player whose card decides, said with the verdict

    if any(role[p].wolf for p in players):
        wolves_dead = [p for p in dead if role[p].wolf]
        village_wins = bool(wolves_dead)
        wolves_win = not village_wins
        if village_wins:
            decisive = wolves_dead[0]
            key = "village_wins" if options.victory is Victory.INDIVIDUAL else "village_wins_team"
            verdict = Reason(key, {"name": decisive, "role": card[decisive]})
        elif options.tanner_blocks_wolves and any(role[p].team is Team.TANNER for p in dead):
            wolves_win = False
            verdict = Reason("tanner_blocks_wolves")
        elif any(role[p].team is Team.WOLVES and not role[p].wolf for p in players):
            verdict = Reason("wolves_and_traitor_win")  # the traitor is named only when one plays
        else:
            verdict = Reason("wolves_win")
    else:
        traitors = [p for p in players if role[p].team is Team.WOLVES]
        if traitors:
            # 000: "Dans ce cas, le village gagne s'il tue le traître." (RULINGS onuw 3: he then loses)
            dead_traitors = [p for p in dead if p in traitors]
            village_wins = bool(dead_traitors)
            if village_wins:
                decisive = dead_traitors[0]
                verdict = Reason("no_wolf_traitor_dead", {"name": decisive, "role": card[decisive]})
            else:
                verdict = Reason("no_wolf_traitor_alive")
        else:
            # 000: "le village ne peut gagner que si personne ne meurt"; 001: "Poudlard ne gagne que
            # si aucun résident de Poudlard n'est accusé."
            village_wins = not dead
            verdict = Reason("no_wolf_nobody_dead") if village_wins else Reason("no_wolf_someone_dead", {"names": dead})
        wolves_win = not village_wins

    said = set(dragged_by.values())  # a hunter's or Ginny's card was said with whom it dragged
    for p in dead:
        if role[p].team is Team.TANNER:
            # 000: "LE TANNELIER … Il gagne s'il meurt." His card said with his win
            why.append(Reason("tanner_wins", {"name": p, "role": card[p]}))
        elif p != decisive and p not in said:
            why.append(Reason("dead_card", {"name": p, "role": card[p]}))
    why.append(verdict)  # after every dead card: no winner is said before a card still to reveal

    individual = options.victory is Victory.INDIVIDUAL
    winners = []
    for p in players:
        team = role[p].team
        if team is Team.VILLAGE:
            if not village_wins:
                continue
            if individual and p in dead_set:
                # 000 Chasseur: "b) S'il est lynché et tue un loup, il gagne."
                if any(by == p and role[victim].wolf for victim, by in dragged_by.items()):
                    why.append(Reason("hunter_shot_wolf", {"name": p}))
                else:
                    continue
            winners.append(p)
        elif team is Team.WOLVES:
            # 000: "Le traître gagne même s'il meurt, si aucun loup n'est lynché."
            if wolves_win:
                winners.append(p)
        elif p in dead_set:  # the tanner, whose win is said with his card
            winners.append(p)
    why.append(Reason("winners", {"names": winners}) if winners else Reason("no_winner"))
    return winners, why
