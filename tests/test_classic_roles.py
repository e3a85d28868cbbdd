"""003's other characters in the classic engine: setup checks, interactions, the questions asked.

Each test quotes the rulebook sentence it checks (003_e5aaed9cd0406014.txt unless said otherwise).
The scenario tables (tests/scenarios/thiercelieux_roles.yaml) hold one case per character; here are
the interactions tables ask about, the setup a table expects, and the shape of the engine's questions.
"""

from __future__ import annotations

import pytest

from narrator.app.family import resolve_record
from narrator.rules.classic.asks import Ask, Kind
from narrator.rules.classic.deal import RandomDecider
from narrator.rules.errors import RecordError

NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eva", "Fay", "Gus", "Hal"]


def game(deal: dict, *phases: dict, options: dict | None = None, players: int | None = None) -> dict:
    names = NAMES[: players or len([k for k in deal if k not in ("extra", "groups")])]
    record = {"id": "t", "ruleset": "thiercelieux", "players": names, "deal": deal, "phases": list(phases)}
    if options:
        record["options"] = options
    return resolve_record(record)


def error(deal: dict, *phases: dict, players: int | None = None, options: dict | None = None) -> str:
    with pytest.raises(RecordError) as caught:
        game(deal, *phases, players=players, options=options)
    return str(caught.value)


def night(**choices: object) -> dict:
    return {"night": choices}


def day(**choices: object) -> dict:
    return {"day": choices}


VILLAGE = {"Cleo": "villageois", "Dan": "villageois", "Eva": "villageois", "Fay": "villageois"}

# ------------------------------------------------------------------------------------ the setup a table expects

SETUP = [
    # "Deux Sœurs … Deux joueuses qui se reconnaissent"
    ({"Ana": "soeur", "Ben": "loup", **VILLAGE}, "deal : attendu : 2 cartes soeur ou aucune : ce personnage se joue à 2"),
    # "Trois Frères … Trois joueurs qui se reconnaissent"
    ({"Ana": "frere", "Ben": "loup", "Cleo": "frere", "Dan": "villageois", "Eva": "villageois", "Fay": "villageois"},
     "deal : attendu : 3 cartes frere ou aucune : ce personnage se joue à 3 ; trouvé : 2"),
    # one card of each character, the undealt ones included
    ({"Ana": "voleur", "Ben": "loup", **VILLAGE, "Cleo": "salvateur", "extra": ["salvateur", "loup"]},
     "deal : attendu : au plus 1 carte(s) salvateur, distribuées ou non ; trouvé : 2"),
    ({"Ana": "salvateur", "Ben": "loup", "Cleo": "salvateur", "Dan": "villageois", "Eva": "villageois",
      "Fay": "villageois"}, "deal : attendu : au plus 1 carte(s) salvateur ; trouvé : 2"),
    # "il consulte les deux cartes non distribuées"
    ({"Ana": "voleur", "Ben": "loup", **VILLAGE}, "deal.extra : attendu : les 2 cartes non distribuées du voleur"),
    ({"Ana": "voleur", "Ben": "loup", **VILLAGE, "extra": ["loup"]},
     "deal.extra : attendu : les 2 cartes non distribuées du voleur : une liste de 2 personnages"),
    # "Trois cartes de personnages sont posées au centre."
    ({"Ana": "comedien", "Ben": "loup", **VILLAGE, "extra": ["voyante", "salvateur"]},
     "deal.extra : attendu : les 3 cartes non distribuées du comédien : une liste de 3 personnages"),
    ({"Ana": "comedien", "Ben": "loup", **VILLAGE, "extra": ["voyante", "salvateur", "loup"]},
     "deal.extra.2 : attendu : un personnage du village à pouvoir dont le comédien peut prendre le pouvoir"),
    ({"Ana": "comedien", "Ben": "voleur", "Cleo": "loup", "Dan": "villageois", "Eva": "villageois",
      "Fay": "villageois", "extra": ["voyante", "salvateur", "renard"]},
     "deal : attendu : un seul personnage qui prend les cartes non distribuées, pas comédien et voleur"),
    ({"Ana": "villageois", "Ben": "loup", **VILLAGE, "extra": ["loup", "villageois"]},
     "deal.extra : attendu : rien : des cartes non distribuées ne vont qu'avec le voleur (2) ou le comédien (3)"),
    ({"Ana": "voleur", "Ben": "loup", **VILLAGE, "extra": ["soeur", "loup"]},
     "deal.extra.0 : attendu : une carte qui se joue seule"),
    # "Le village est séparé en deux groupes."
    ({"Ana": "sectaire", "Ben": "loup", **VILLAGE}, "deal.groups : attendu : les deux groupes du sectaire"),
    ({"Ana": "sectaire", "Ben": "loup", **VILLAGE, "groups": dict.fromkeys(NAMES[:6], 1)},
     "deal.groups : attendu : deux groupes : des joueurs dans le groupe 1 et dans le groupe 2"),
    ({"Ana": "sectaire", "Ben": "loup", **VILLAGE, "groups": {"Ana": 1, "Ben": 2}},
     "deal.groups.Cleo : attendu : le groupe de Cleo : 1 ou 2"),
    ({"Ana": "sectaire", "Ben": "loup", **VILLAGE, "groups": {**dict.fromkeys(NAMES[:5], 1), "Fay": 3}},
     "deal.groups.Fay : attendu : 1 ou 2 ; trouvé : 3"),
    ({"Ana": "ange", "Ben": "loup", **VILLAGE, "groups": {"Ana": 1}},
     "deal.groups : attendu : rien : les groupes ne vont qu'avec le sectaire"),
    # the voleur may take the sectaire: then he plays, and the groups are needed
    ({"Ana": "voleur", "Ben": "loup", **VILLAGE, "extra": ["sectaire", "villageois"]},
     "deal.groups : attendu : les deux groupes du sectaire"),
]  # fmt: skip


@pytest.mark.parametrize("deal,message", SETUP, ids=[f"setup{i}" for i in range(len(SETUP))])
def test_setup_is_refused_with_one_french_sentence(deal: dict, message: str) -> None:
    assert message in error(deal)


def test_a_complete_setup_plays() -> None:
    deal = {"Ana": "soeur", "Ben": "loup", "Cleo": "soeur", "Dan": "frere", "Eva": "frere", "Fay": "frere"}
    deal |= {"Gus": "sectaire", "Hal": "voleur", "extra": ["villageois", "loup"]}
    deal["groups"] = {"Ana": 1, "Ben": 2, "Cleo": 1, "Dan": 2, "Eva": 1, "Fay": 2, "Gus": 1, "Hal": 2}
    out = game(deal, night(loup="Dan"))
    # "Deux joueuses qui se reconnaissent la première nuit", "Trois joueurs qui se reconnaissent…"
    learned = out["phases"][0]["learned"]
    assert learned["Ana"] == learned["Cleo"] == {"soeurs": ["Ana", "Cleo"]}
    assert learned["Dan"] == learned["Eva"] == learned["Fay"] == {"freres": ["Dan", "Eva", "Fay"]}


# ------------------------------------------------------------------------------------ interactions


def test_the_infected_ancien_joins_the_wolves_with_his_life() -> None:
    # Infect Père des Loups: "il infecte la victime des Loups-Garous : elle survit et rejoint le camp des
    # Loups." Ancien: "Il survit à la première attaque des Loups-Garous." The infected ancien is not
    # attacked: his extra life is still his when the white wolf devours him on night 2 (RULINGS 8, 9, 18).
    deal = {"Ana": "ancien", "Ben": "infect", "Cleo": "loup_blanc"} | {p: "villageois" for p in NAMES[3:]}
    out = game(
        deal,
        night(loup="Ana", infect=True),
        day(
            votes={
                "Ana": "Dan",
                "Ben": "Dan",
                "Cleo": "Dan",
                "Dan": "Eva",
                "Eva": "Fay",
                "Fay": "Gus",
                "Gus": "Dan",
                "Hal": "Dan",
            }
        ),  # fmt: skip
        night(loup="Eva", loup_blanc="Ana"),
    )
    assert out["state"]["roles"]["Ana"] == "ancien" and out["state"]["camps"]["Ana"] == "loups"
    assert out["phases"][0]["dead"] == [] and out["phases"][2]["dead"] == ["Eva"]
    assert "Ana, qui a la carte ancien, survit à la première attaque des loups-garous." in out["why"]
    # infected, he is no villager: he kept his power, and an ancien killed by the wolves curses nobody
    assert not any("perdent leurs pouvoirs" in line for line in out["why"])


def test_the_salvateur_protecting_the_chevalier_spares_the_wolf() -> None:
    # Salvateur: "il protège un joueur de l'attaque des Loups-Garous." Chevalier: "S'il est dévoré, le
    # premier Loup-Garou à sa gauche meurt de la septicémie la nuit suivante." Protected, he is not devoured.
    deal = {"Ana": "chevalier", "Ben": "loup", "Cleo": "salvateur"} | {p: "villageois" for p in NAMES[3:6]}
    votes = {"Ana": "Dan", "Ben": "Dan", "Cleo": "Dan", "Dan": "Eva", "Eva": "Dan", "Fay": "Dan"}
    out = game(deal, night(salvateur="Ana", loup="Ana"), day(votes=votes), night(loup="Eva"))
    assert out["dead"] == ["Dan", "Eva"] and "Ben" in out["alive"]
    # unprotected, the first wolf on his left (Ben, the next name) dies the next night, revealed after it
    out = game(deal, night(loup="Ana"), day(votes={v: t for v, t in votes.items() if v != "Ana"}), night(loup="Eva"))
    assert out["phases"][2]["dead"] == ["Eva", "Ben"]
    assert "Ben, qui avait la carte loup-garou, meurt de la septicémie de l'épée rouillée." in out["why"]


def test_the_chevalier_wounds_the_first_living_wolf_on_his_left() -> None:
    # RULINGS thiercelieux 11: "left" is the next name, the dead skipped
    deal = {"Ana": "chevalier", "Ben": "villageois", "Cleo": "villageois", "Dan": "loup", "Eva": "villageois"}
    deal |= {"Fay": "loup", "Gus": "villageois", "Hal": "villageois"}
    out = game(deal, night(loup="Ana"))
    assert "L'épée rouillée d'Ana a blessé le premier loup-garou à sa gauche, Dan, qui mourra la nuit " \
        "prochaine." in out["why"]  # fmt: skip


def test_lovers_and_the_white_wolf() -> None:
    # Loup-Garou Blanc: "Il doit rester seul survivant." In love with a villager, his goal is the lovers'
    # (002: "le but de la partie change pour eux"): alone with his beloved, the lovers win, not he.
    deal = {"Ana": "loup_blanc", "Ben": "loup", "Cleo": "cupidon", "Dan": "villageois", "Eva": "villageois"}
    deal |= {"Fay": "villageois"}
    out = game(
        deal,
        night(cupidon=["Ana", "Dan"], loup="Eva"),
        day(votes={"Ana": "Cleo", "Ben": "Cleo", "Cleo": "Ben", "Dan": "Cleo", "Fay": "Cleo"}),
        night(loup="Fay", loup_blanc="Ben"),
    )
    assert out["camp"] == "amoureux" and out["winners"] == ["Ana", "Dan"]
    # in love with a wolf (two camps: loup_blanc and loups), he never devours his beloved, a choice his
    # alone (options.lovers_spare_each_other)
    message = error(
        deal,
        night(cupidon=["Ana", "Ben"], loup="Eva"),
        day(votes={"Ana": "Cleo", "Ben": "Cleo", "Cleo": "Ben", "Dan": "Cleo", "Fay": "Cleo"}),
        night(loup="Fay", loup_blanc="Ben"),
    )
    assert message == (
        "phases.2.night.loup_blanc : attendu : rien : ce choix n'a pas lieu d'être (le loup-garou blanc n'a aucun "
        'autre loup-garou à dévorer (jamais son amour)) ; trouvé : "Ben"'
    )


def test_the_angel_devoured_the_first_night_wins_alone_and_ends_the_game() -> None:
    # Ange: "Il gagne s'il est éliminé dès le premier tour de vote ou dévoré la première nuit." (RULINGS 14)
    deal = {"Ana": "ange", "Ben": "loup", "Cleo": "villageois", "Dan": "villageois", "Eva": "villageois"}
    out = game(deal, night(loup="Ana"))
    assert out["camp"] == "ange" and out["winners"] == ["Ana"]
    assert "Ana, qui avait la carte ange, meurt dès le début de la partie : l'ange gagne seul." in out["why"]
    # poisoned, he is not devoured: no win; after day 1's vote he is a simple villager (RULINGS 15)
    deal = {"Ana": "ange", "Ben": "loup", "Cleo": "sorciere", "Dan": "villageois", "Eva": "villageois"}
    votes = {"Ben": "Cleo", "Cleo": "Ben", "Eva": "Ben"}
    out = game(deal, night(loup="Dan", sorciere={"poison": "Ana"}), day(votes=votes))
    assert out["camp"] == "village" and "Ana" in out["winners"] and out["state"]["roles"]["Ana"] == "villageois"


def test_the_servante_taking_the_hunters_place() -> None:
    # Servante Dévouée: "Juste avant qu'une carte éliminée ne soit révélée, elle peut prendre la place et le
    # rôle de ce joueur." The card is hers before it is revealed: the hunter leaves without shooting, and
    # she is the hunter, who shoots when she dies (RULINGS 12).
    deal = {"Ana": "loup", "Ben": "chasseur", "Cleo": "servante", "Dan": "villageois", "Eva": "villageois"}
    deal |= {"Fay": "villageois"}
    out = game(
        deal,
        night(loup="Ben", servante=True),
        day(votes={"Ana": "Dan", "Cleo": "Dan", "Dan": "Ana", "Eva": "Dan", "Fay": "Dan"}),
        night(loup="Cleo", chasseur="Ana"),
    )
    assert out["phases"][0]["dead"] == ["Ben"]
    assert "Cleo, qui avait la carte servante dévouée, remplace Ben et prend la carte chasseur." in out["why"]
    assert out["phases"][2]["dead"] == ["Cleo", "Ana"] and out["camp"] == "village"
    # a shot for Ben himself is refused: his card went to her
    message = error(deal, night(loup="Ben", servante=True, chasseur="Dan"))
    assert message.startswith("phases.0.night.chasseur : attendu : rien : ce choix n'a pas lieu d'être")


def test_the_servante_waits_for_a_later_death_in_the_phase() -> None:
    # docs/record.md: "`servante: P` when several were eliminated in the phase"; RULINGS 12
    deal = {"Ana": "loup", "Ben": "chasseur", "Cleo": "servante", "Dan": "voyante", "Eva": "villageois"}
    deal |= {"Fay": "villageois"}
    out = game(deal, night(loup="Ben", chasseur="Dan", servante="Dan"))
    assert out["dead"] == ["Ben", "Dan"] and out["state"]["roles"]["Cleo"] == "voyante"
    # `true` names the only one: with two at once, the record must say whom
    deal["Gus"] = "sorciere"
    message = error(deal, night(loup="Ben", sorciere={"poison": "Dan"}, servante=True), players=7)
    assert message.startswith("phases.0.night.servante : attendu : true, ou le joueur éliminé")
    assert ": un de Ben, Dan ; trouvé : true" in message


def test_the_comedien_answers_under_the_cards_key() -> None:
    # Comédien: "Chaque nuit, il en choisit une et en prend le pouvoir pour la nuit."
    deal = {"Ana": "comedien", "Ben": "loup", **VILLAGE, "extra": ["voyante", "chasseur", "renard"]}
    out = game(deal, night(comedien={"use": 0}, voyante="Ben", loup="Cleo"))
    assert out["phases"][0]["learned"] == {"Ana": {"Ben": "loup"}}
    message = error(deal, night(comedien={"use": 2}, voyante="Ben", loup="Cleo"))
    assert message == (
        "phases.0.night.voyante : attendu : rien : ce choix n'a pas lieu d'être (le comédien n'a pas pris le "
        'pouvoir de la carte voyante cette nuit) ; trouvé : "Ben"'
    )


def test_the_pyromane_douses_or_ignites_not_both() -> None:
    # Pyromane: "il asperge des joueurs d'essence puis peut y mettre le feu."
    deal = {"Ana": "pyromane", "Ben": "loup", **VILLAGE}
    votes = {"Ana": None, "Ben": "Cleo", "Cleo": None, "Eva": None, "Fay": None}
    out = game(deal, night(pyromane={"douse": "Ben"}, loup="Dan"), day(votes=votes), night(pyromane={"ignite": True},
               loup="Eva"))  # fmt: skip
    assert out["phases"][2]["dead"] == ["Eva", "Ben"] and out["camp"] == "village"
    message = error(deal, night(pyromane={"douse": "Ben"}, loup="Dan"), day(votes=votes),
                    night(pyromane={"ignite": True, "douse": "Fay"}, loup="Eva"))  # fmt: skip
    assert message.startswith("phases.2.night.pyromane.douse : attendu : rien : ce choix n'a pas lieu d'être (le "
                              "pyromane met le feu cette nuit : il n'asperge personne)")  # fmt: skip
    message = error(deal, night(pyromane={"ignite": True}, loup="Dan"))
    assert "phases.0.night.pyromane.ignite : attendu : rien" in message and "aucun joueur aspergé" in message


def test_the_bear_growls_each_morning_and_the_state_says_it() -> None:
    # Montreur d'Ours: "Chaque matin, si l'un de ses voisins directs est Loup-Garou, l'ours grogne."
    deal = {"Ana": "montreur_ours", "Ben": "loup", "Cleo": "villageois", "Dan": "villageois", "Eva": "villageois"}
    out = game(deal, night(loup="Cleo"))
    assert out["state"]["growl"] is True and "L'ours d'Ana grogne : un voisin d'Ana est un loup-garou." in out["why"]
    deal = {"Ana": "montreur_ours", "Ben": "villageois", "Cleo": "loup", "Dan": "villageois", "Eva": "villageois"}
    assert game(deal, night(loup="Dan"))["state"]["growl"] is False
    # his neighbour Ben devoured, the wolf Cleo is his neighbour by morning (RULINGS 11)
    assert game(deal, night(loup="Ben"))["state"]["growl"] is True


def test_the_pardoned_idiot_is_known_and_does_not_vote() -> None:
    # Idiot du Village: "il est gracié : il reste en vie mais perd son droit de vote." Villageois-Villageois:
    # "tout le village sait avec certitude qu'il est un vrai villageois."
    deal = {"Ana": "idiot", "Ben": "loup", "Cleo": "villageois_villageois", "Dan": "villageois", "Eva": "villageois"}
    deal |= {"Fay": "villageois"}
    out = game(deal, night(loup="Fay"), day(votes={"Ana": "Ben", "Ben": "Ana", "Cleo": "Ana", "Dan": "Ana",
                                                   "Eva": "Ana"}))  # fmt: skip
    assert out["alive"] == ["Ana", "Ben", "Cleo", "Dan", "Eva"]
    assert out["state"]["known_roles"] == {"Ana": "idiot", "Cleo": "villageois_villageois"}
    assert out["state"]["voters"] == ["Ben", "Cleo", "Dan", "Eva"]
    message = error(deal, night(loup="Fay"), day(votes={"Ana": "Ben", "Ben": "Ana", "Cleo": "Ana", "Dan": "Ana",
                    "Eva": "Ana"}), night(loup="Eva"), day(votes={"Ana": "Ben"}))  # fmt: skip
    assert message == (
        "phases.3.day.votes.Ana : attendu : seuls votent les joueurs en vie : Ben, Cleo, Dan ; pas Ana : l'idiot "
        'du village a perdu son droit de vote (003) ; trouvé : "Ana"'
    )


def test_forced_decisions_name_the_phase_and_the_key() -> None:
    # docs/record.md: a decision the rules force that the record lacks names the phase and the key
    cases = [
        # Enfant Sauvage: "Il choisit un modèle la première nuit."
        ({"Ana": "enfant_sauvage", "Ben": "loup", **VILLAGE}, [night(loup="Cleo")],
         "phases.0.night : nuit 1 : l'enfant sauvage Ana choisit son modèle la première nuit ; attendu : "
         "enfant_sauvage"),
        # Chien-Loup: "La première nuit, il choisit d'être Simple Villageois ou Loup-Garou"
        ({"Ana": "chien_loup", "Ben": "loup", **VILLAGE}, [night(loup="Cleo")],
         "phases.0.night : nuit 1 : le chien-loup Ana choisit son camp pour toute la partie ; attendu : chien_loup"),
        # Voleur: "S'il y a deux Loups-Garous, il doit en prendre un."
        ({"Ana": "voleur", "Ben": "loup", **VILLAGE, "extra": ["loup", "infect"]}, [night(voleur={}, loup="Cleo")],
         "phases.0.night.voleur : nuit 1 : le voleur Ana consulte les cartes non distribuées : loup, infect ; deux "
         "loups-garous, il doit en prendre un ; attendu : take"),
        # Bouc Émissaire: "Il décide alors qui pourra voter le lendemain."
        ({"Ana": "bouc_emissaire", "Ben": "loup", **VILLAGE},
         [night(loup="Fay"), day(votes={"Ana": "Ben", "Ben": "Cleo", "Cleo": "Ben", "Dan": "Cleo", "Eva": None})],
         "phases.1.day : jour 1 : le bouc émissaire Ana est éliminé : il décide qui pourra voter demain ; attendu : "
         "bouc_emissaire"),
        # Juge Bègue: "il peut provoquer un second vote immédiatement après le premier."
        ({"Ana": "juge_begue", "Ben": "loup", **VILLAGE},
         [night(loup="Fay"), day(votes={"Ana": "Ben", "Ben": "Cleo", "Cleo": "Dan", "Dan": "Cleo", "Eva": "Cleo"},
                                 juge_begue=True)],
         "phases.1.day : jour 1 : le village vote une seconde fois (juge bègue) ; attendu : second_votes"),
    ]  # fmt: skip
    for deal, phases, message in cases:
        assert error(deal, *phases) == message


def test_one_shot_and_first_night_powers_are_refused_later() -> None:
    deal = {"Ana": "infect", "Ben": "loup", **VILLAGE, "Gus": "villageois", "Hal": "villageois"}
    votes = {"Ana": "Fay", "Ben": "Fay", "Cleo": "Fay", "Dan": "Fay", "Eva": "Ana", "Fay": "Ana", "Gus": "Fay",
             "Hal": "Fay"}  # fmt: skip
    # "Une fois par partie, il infecte la victime des Loups-Garous"
    message = error(deal, night(loup="Cleo", infect=True), day(votes=votes), night(loup="Dan", infect=True))
    assert message == (
        "phases.2.night.infect : attendu : rien : ce choix n'a pas lieu d'être (infect père des loups : un pouvoir à "
        "usage unique, déjà utilisé) ; trouvé : true"
    )
    # Loup-Garou Blanc: "une nuit sur deux" (RULINGS 8: nights 2, 4…)
    deal = {"Ana": "loup_blanc", "Ben": "loup", **VILLAGE, "Gus": "villageois", "Hal": "villageois"}
    assert "le loup-garou blanc ne dévore qu'une nuit sur deux" in error(deal, night(loup="Cleo", loup_blanc="Ben"))


# ------------------------------------------------------------------------------------ the questions


def test_every_new_kind_is_documented_and_answered_by_the_generator() -> None:
    import ast
    import inspect
    import random

    from narrator.rules.classic import asks

    # each new Kind has its one-line docstring (for the operator's keyboard table, which reads the kinds)
    body = next(n for n in ast.parse(inspect.getsource(asks)).body if isinstance(n, ast.ClassDef) and n.name == "Kind")
    documented = {
        a.targets[0].id
        for a, doc in zip(body.body, body.body[1:])
        if isinstance(a, ast.Assign) and isinstance(a.targets[0], ast.Name)
        and isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and "\n" not in doc.value.value
    }  # fmt: skip
    assert {"PLAYERS", "OPTION", "YES_NO"} <= documented

    rng = RandomDecider(random.Random(1))
    option = Ask("voleur", Kind.OPTION, "ctx", "exp", forced=True, field="take", options=((0, "loup"), (1, "voyante")))
    assert rng.option(option) in (0, 1) and set(rng.answers["voleur"]) == {"take"}  # type: ignore[arg-type]
    picks = rng.players(Ask("joueur_de_flute", Kind.PLAYERS, "ctx", "exp", forced=True, choices=("A", "B", "C"),
                            count=2))  # fmt: skip
    assert picks is not None and len(set(picks)) == 2


def test_the_captain_twice_eliminated_on_the_juges_day_names_two_heirs() -> None:
    # 002: "Si un des joueurs est Capitaine, il désigne son successeur." On a juge bègue's day the captain
    # may die in both votes: the phase's one `successor` key then holds both heirs, in order.
    deal = {"Ana": "loup", "Ben": "juge_begue", **VILLAGE, "Gus": "villageois"}
    first = {"Ana": "Cleo", "Ben": "Cleo", "Cleo": "Ana", "Dan": "Cleo", "Eva": "Cleo", "Fay": "Cleo"}
    second = {"Ana": "Dan", "Ben": "Dan", "Dan": "Ana", "Eva": "Dan", "Fay": "Dan"}
    choices = {"captain": "Cleo", "votes": first, "juge_begue": True, "second_votes": second}
    out = game(deal, night(loup="Gus"), day(**choices, successor=["Dan", "Eva"]), options={"captain": True})
    assert out["phases"][1]["dead"] == ["Cleo", "Dan"] and out["state"]["captain"] == "Eva"
    message = error(deal, night(loup="Gus"), day(**choices, successor="Dan"), options={"captain": True})
    assert message.startswith("phases.1.day.successor : attendu : […] : une réponse par question, la 2e")
