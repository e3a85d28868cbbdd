"""Command line: argparse and wiring only."""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from narrator import __version__
from narrator.script.marks import YamlError, load_marked

if TYPE_CHECKING:
    from narrator.script.game import GameScript
    from narrator.table.announcer import Plan

EXIT_BAD_INPUT = 2


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except BadInput as exc:
        print(f"narrator: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("narrator: interrompu.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`narrator resolve … | head`): no traceback at exit either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


class BadInput(Exception):
    """A file or argument the user must fix; one French line."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="narrator", description="Meneur de jeu vocal pour Loups-Garous.")
    parser.add_argument("--version", action="version", version=f"narrator {__version__}")
    sub = parser.add_subparsers(metavar="COMMANDE")
    resolve = sub.add_parser("resolve", help="résoudre une partie décrite dans un fichier (JSON sur stdout)")
    resolve.add_argument("file", help="fichier YAML ou JSON : un enregistrement de partie, ou une liste ; - pour stdin")
    resolve.set_defaults(run=_resolve)
    check = sub.add_parser("check", help="valider le script YAML d'un jeu")
    check.add_argument("file")
    check.set_defaults(run=_check)
    render = sub.add_parser("render", help="écrire la légende, la nuit et le début du jour dans un WAV")
    _table_arguments(render)
    render.add_argument("--out", required=True, help="le fichier WAV à écrire")
    render.set_defaults(run=_render)
    play = sub.add_parser("play", help="mener la partie à voix haute : nuit, débat minuté, appel au vote")
    _table_arguments(play)
    _session_arguments(play)
    play.add_argument("--journal", help="le fichier journal de la partie (défaut : dans $NARRATOR_STATE_DIR)")
    resume = sub.add_parser("resume", help="reprendre une partie interrompue là où elle s'était arrêtée")
    resume.add_argument("journal", nargs="?", help="le journal de la partie (défaut : la dernière inachevée)")
    resume.add_argument("--voice", default="fr", help="profil de voix : un nom de voices/ ou un fichier YAML")
    _session_arguments(resume)
    resume.set_defaults(run=_resume)
    demo = sub.add_parser("demo", help="une partie de Poudlard complète, jouée par cinq joueurs simulés qui parlent")
    demo.add_argument("--seed", type=int, default=7, help="tirage de la donne, des choix de nuit et des votes")
    demo.add_argument("--out", default="demo.wav", help="le fichier WAV de toute la partie (défaut : demo.wav)")
    demo.add_argument("--model", help="un modèle vosk français : les joueurs passent alors par la vraie reconnaissance")
    demo.set_defaults(run=_demo)
    model = sub.add_parser("model", help="le modèle de reconnaissance vocale")
    model_sub = model.add_subparsers(metavar="ACTION", required=True)
    download = model_sub.add_parser("download", help="télécharger le petit modèle vosk d'une langue (fr)")
    download.add_argument("lang", nargs="?", default="fr")
    download.set_defaults(run=_download)
    parse = sub.add_parser("parse", help="ce que le narrateur comprend d'une phrase (JSON sur stdout)")
    parse.add_argument("--game", required=True, help="onuw ou poudlard")
    parse.add_argument("--players", required=True, help="Alice,Bob,…")
    parse.add_argument("--phase", default="any", choices=["vote", "tally", "reveal", "any"])
    parse.add_argument("text", metavar="TEXTE")
    parse.set_defaults(run=_parse)
    play.set_defaults(run=_play)
    return parser


def _session_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--wav", help="enregistrer aussi toute la narration dans ce fichier WAV")
    parser.add_argument(
        "--ear", default="vosk", help="vosk (micro, défaut), keyboard, ou script:FICHIER (une réponse par ligne)"
    )
    parser.add_argument("--model", help="dossier du modèle vosk (sinon $NARRATOR_VOSK_MODEL, puis le cache de vosk)")
    parser.add_argument(
        "--no-wait", action="store_true", help="sans carte son ni attente : le texte à l'écran, le son dans le WAV"
    )


def _table_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="JEU", help="onuw ou poudlard")
    parser.add_argument("--players", required=True, help="les noms, dans l'ordre autour de la table : Alice,Bob,…")
    cards = parser.add_mutually_exclusive_group(required=True)
    cards.add_argument("--roles", help="les cartes en jeu (joueurs + 3) : mangemort,harry,…")
    cards.add_argument("--scenario", help="un jeu de cartes tout prêt du script (ex. premiere_annee)")
    parser.add_argument("--minutes", type=int, help="durée du débat en minutes (défaut : celle du script)")
    parser.add_argument("--first-game", action="store_true", help="première partie : débat plus long (001 : 10 min)")
    parser.add_argument("--no-legend", action="store_true", help="ne pas lire la légende des personnages")
    parser.add_argument("--voice", default="fr", help="profil de voix : un nom de voices/ ou un fichier YAML")


def _read(name: str) -> tuple[str, str]:
    if name == "-":
        return sys.stdin.read(), "<stdin>"
    path = Path(name)
    try:
        return path.read_text(encoding="utf-8"), name
    except FileNotFoundError:
        raise BadInput(f"{name} : fichier introuvable") from None
    except IsADirectoryError:
        raise BadInput(f"{name} : c'est un dossier, pas un fichier") from None
    except UnicodeDecodeError as exc:
        raise BadInput(f"{name} : ce n'est pas du texte UTF-8 (octet {exc.start})") from None
    except OSError as exc:
        raise BadInput(f"{name} : lecture impossible ({exc.strerror})") from None


def _resolve(args: argparse.Namespace) -> int:
    from narrator.resolve import resolve_record
    from narrator.rules.errors import RecordError

    text, file = _read(args.file)
    try:
        doc = load_marked(text, file)
    except YamlError as exc:
        raise BadInput(str(exc.problems[0])) from None
    records = doc.data if isinstance(doc.data, list) else [doc.data]
    results = []
    for i, record in enumerate(records):
        prefix = (i,) if isinstance(doc.data, list) else ()
        try:
            results.append(resolve_record(record))
        except RecordError as exc:
            line, column = doc.where(prefix + exc.path)
            rid = record.get("id") if isinstance(record, dict) else None
            name = f"« {rid} »" if rid is not None else f"n° {i + 1}"
            raise BadInput(f"{file}:{line}:{column}: enregistrement {name} : {exc}") from None
    out = results if isinstance(doc.data, list) else results[0]
    json.dump(out, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _check(args: argparse.Namespace) -> int:
    from narrator.script.game import load_script

    text, file = _read(args.file)
    try:
        script = load_script(text, file)
    except YamlError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{file} : correct ({script.rules.game}, {len(script.rules.roles)} personnages).")
    return 0


@dataclass
class _Table:
    script: GameScript
    players: list[str]
    roles: list[str]
    narration: Plan


def _table(args: argparse.Namespace) -> _Table:
    """The game's script, the table and the narration plan the arguments describe."""
    from narrator.rules.errors import RecordError
    from narrator.rules.record import check_setup
    from narrator.script.game import UnknownGame, load_shipped
    from narrator.table.announcer import plan

    try:
        script = load_shipped(args.game)
    except UnknownGame as exc:
        raise BadInput(str(exc)) from None
    players = [p.strip() for p in args.players.split(",")]
    if args.scenario is not None:
        roles = _scenario_cards(script.announce.scenarios, args.scenario, len(players))
    else:
        roles = [r.strip() for r in args.roles.split(",")]
    try:
        check_setup(script.rules, players, roles)
    except RecordError as exc:
        option = "--players" if exc.path[:1] == ("players",) else "--roles"
        raise BadInput(f"{option} : attendu : {exc.expected} ; trouvé : {exc.found}") from None
    if args.minutes is not None and not 1 <= args.minutes <= 60:
        raise BadInput(f"--minutes : attendu : de 1 à 60 ; trouvé : {args.minutes}")
    minutes = args.minutes or (script.announce.first_game_minutes if args.first_game else None)
    return _Table(script, players, roles, plan(script.announce, roles, minutes, legend=not args.no_legend))


def _scenario_cards(scenarios, name: str, players: int) -> list[str]:
    if name not in scenarios:
        known = ", ".join(scenarios) or "aucun"
        raise BadInput(f"--scenario : scénario inconnu « {name} » ; attendu : {known}")
    by_count = scenarios[name]
    if players not in by_count:
        counts = ", ".join(str(n) for n in sorted(by_count))
        raise BadInput(f"--scenario {name} : prévu pour {counts} joueurs ; trouvé : {players} joueurs")
    return list(by_count[players])


def _renderer(args: argparse.Namespace):
    from narrator.voice import Renderer, VoiceError, find_profile, load_profile

    try:
        profile = load_profile(args.voice) if args.voice.endswith((".yaml", ".yml")) else find_profile(args.voice)
        return Renderer(profile)
    except VoiceError as exc:
        raise BadInput(str(exc)) from None


def _render(args: argparse.Namespace) -> int:
    from narrator.voice import VoiceError, write_wav

    narration = _table(args).narration
    try:
        rendered = _renderer(args).render(narration.opening)
        write_wav(args.out, rendered.pcm, rendered.rate)
    except VoiceError as exc:
        raise BadInput(str(exc)) from None
    except OSError as exc:
        raise BadInput(f"{args.out} : écriture impossible ({exc.strerror})") from None
    for seg in rendered.segments:
        print(f"{seg.line_id}\t{seg.text}\t{seg.start_s:.3f}\t{seg.end_s:.3f}")
    return 0


def _play(args: argparse.Namespace) -> int:
    from narrator.table.journal import Journal, JournalError

    table = _table(args)
    header = {
        "game": table.script.rules.game,
        "script": _fingerprint(table.script.rules.game),
        "players": table.players,
        "roles": table.roles,
        "minutes": table.narration.minutes,
        "legend": not args.no_legend,
        "voice": args.voice,
    }
    try:
        journal = Journal.create(header, Path(args.journal) if args.journal else None)
    except JournalError as exc:
        raise BadInput(str(exc)) from None
    print(f"Journal de la partie : {journal.path}", file=sys.stderr)
    return _run_table(args, table, journal)


def _resume(args: argparse.Namespace) -> int:
    from narrator.script.game import UnknownGame, load_shipped
    from narrator.table.announcer import plan
    from narrator.table.journal import Journal, JournalError, finished, last_unfinished, read_journal

    path = Path(args.journal) if args.journal else last_unfinished()
    if path is None:
        raise BadInput("aucune partie inachevée à reprendre")
    try:
        header, events, warnings = read_journal(path)
    except JournalError as exc:
        raise BadInput(str(exc)) from None
    for warning in warnings:
        print(f"Attention : {warning}", file=sys.stderr)
    if finished(events):
        raise BadInput(f"{path} : cette partie est déjà terminée")
    try:
        script = load_shipped(header["game"])
        players, roles = list(header["players"]), list(header["roles"])
        narration = plan(script.announce, roles, int(header["minutes"]), legend=bool(header["legend"]))
    except (KeyError, TypeError, ValueError, UnknownGame) as exc:
        raise BadInput(f"{path} : en-tête de journal incomplet ({exc})") from None
    if header.get("script") != _fingerprint(script.rules.game):
        print("Attention : les scripts du jeu ont changé depuis le début de cette partie.", file=sys.stderr)
    args.voice = header.get("voice", args.voice)
    print(f"Reprise de la partie : {path}", file=sys.stderr)
    return _run_table(args, _Table(script, players, roles, narration), Journal(path), events)


def _fingerprint(game: str) -> str:
    from narrator.resources import data_dir
    from narrator.table.journal import fingerprint

    folder = data_dir("scripts")
    return fingerprint(*((folder / name).read_text(encoding="utf-8") for name in (f"{game}.yaml", "table.yaml")))


def _run_table(args: argparse.Namespace, table: _Table, journal, events: list[dict] | None = None) -> int:
    """The session at a table: voice out, an ear, the journal; from the start or from a journal's `events`."""
    from narrator.listen.ear import ListenError
    from narrator.listen.french import Parser
    from narrator.listen.grammar import phrases
    from narrator.listen.simple_ears import KeyboardEar
    from narrator.listen.vosk_ear import VoskEar
    from narrator.script.prompts import load_prompts
    from narrator.table.clock import FakeClock, RealClock
    from narrator.table.journal import JournalError
    from narrator.table.session import Session, Stopped
    from narrator.table.speakers import Tee, table_speaker
    from narrator.table.voice import Voice
    from narrator.voice import ConsoleSpeaker, VoiceError, WavSpeaker

    narration = table.narration
    renderer = _renderer(args)
    try:
        # every line synthesized before the sound card is opened: nothing waits on synthesis later
        renderer.prepare(narration.opening + [i for _, items in narration.reminders for i in items] + narration.vote)
    except VoiceError as exc:
        raise BadInput(str(exc)) from None
    ear = _ear(args, table.players)
    try:
        if args.no_wait:
            speaker = Tee(WavSpeaker(args.wav or "narrateur.wav"), ConsoleSpeaker())
        else:
            speaker = table_speaker(args.wav)
    except OSError as exc:
        raise BadInput(f"{args.wav} : écriture impossible ({exc.strerror})") from None
    parser = Parser(table.script.rules.game, table.players)
    session = Session(
        script=table.script,
        prompts=load_prompts(),
        players=tuple(table.players),
        in_play=table.roles,
        voice=Voice(renderer.render, speaker),
        ear=ear,
        clock=FakeClock() if args.no_wait else RealClock(),
        parser=parser,
        # vosk turns a grammar into word pairs: the compact list keeps every pair, a tenth the size
        phrases=cache(lambda phase: phrases(parser, phase, compact=True)),
        journal=journal,
        keyboard=KeyboardEar() if isinstance(ear, VoskEar) else None,
    )
    try:
        session.run(narration, events)
    except Stopped:
        return 0
    except EOFError:
        raise BadInput(
            f"les réponses se sont arrêtées avant la fin de la partie ; « narrator resume {journal.path} » la reprendra"
        ) from None
    except (VoiceError, ListenError, JournalError) as exc:
        raise BadInput(str(exc)) from None
    finally:
        speaker.close()
        ear.close()
        journal.close()
    return 0


def _ear(args: argparse.Namespace, players: list[str]):
    """The ear asked for: the microphone with vosk (the keyboard when there is no model), a keyboard, a script."""
    from narrator.listen.ear import ListenError
    from narrator.listen.simple_ears import KeyboardEar, ScriptedEar
    from narrator.listen.vosk_ear import VoskEar, open_ear

    if args.ear == "keyboard":
        return KeyboardEar()
    if args.ear.startswith("script:"):
        try:
            return ScriptedEar.from_file(args.ear[len("script:") :])
        except ListenError as exc:
            raise BadInput(str(exc)) from None
    if args.ear != "vosk":
        raise BadInput(f"--ear : attendu : vosk, keyboard ou script:FICHIER ; trouvé : {args.ear}")
    ear = open_ear(args.model)
    if isinstance(ear, VoskEar):
        problems = ear.check_names(players)
        if problems:
            ear.close()
            raise BadInput(" ".join(p.message for p in problems))
    return ear


def _parse(args: argparse.Namespace) -> int:
    from narrator.listen.french import Parser
    from narrator.script.game import ONE_NIGHT_GAMES

    if args.game not in ONE_NIGHT_GAMES:
        raise BadInput(f"--game : jeu inconnu « {args.game} » ; attendu : {', '.join(ONE_NIGHT_GAMES)}")
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    commands = Parser(args.game, players).parse(args.text, args.phase)
    json.dump([c.to_json() for c in commands], sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _download(args: argparse.Namespace) -> int:
    from narrator.listen.ear import ModelError
    from narrator.listen.model import download

    try:
        path = download(args.lang)
    except ModelError as exc:
        print(f"narrator: {exc}", file=sys.stderr)
        return 1
    print(f"Modèle prêt : {path}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from narrator.listen.ear import ModelError
    from narrator.listen.french import Parser
    from narrator.listen.grammar import phrases
    from narrator.listen.model import find_model, load_model
    from narrator.resolve import resolve_record
    from narrator.resources import data_dir
    from narrator.script.game import load_shipped
    from narrator.script.prompts import load_prompts
    from narrator.table import demo as simulated
    from narrator.table.announcer import plan
    from narrator.table.clock import FakeClock, RealClock
    from narrator.table.session import Session
    from narrator.table.speakers import Tee
    from narrator.table.voice import Voice
    from narrator.voice import (
        ConsoleSpeaker,
        NoSoundCard,
        Renderer,
        SoundDeviceSpeaker,
        VoiceError,
        WavSpeaker,
        find_profile,
    )

    path = data_dir("scripts") / "demo.yaml"
    try:
        demo = simulated.parse_demo(path.read_text(encoding="utf-8"), f"scripts/{path.name}")
    except YamlError as exc:
        raise BadInput(str(exc.problems[0])) from None
    script = load_shipped(demo.config["game"])
    record = simulated.deal(demo, script, args.seed)
    expected = resolve_record(record)
    profile = replace(find_profile("fr"), wait_multiplier=demo.config["wait_multiplier"])
    try:
        model = load_model(find_model(args.model))
        print("Les joueurs simulés passent par la vraie reconnaissance vocale (vosk).", file=sys.stderr)
    except ModelError as exc:
        model = None
        print(f"Pas de reconnaissance vocale ({exc}) : les phrases des joueurs arrivent au narrateur en texte.",
              file=sys.stderr)  # fmt: skip
    try:
        card = SoundDeviceSpeaker()
        clock = RealClock()
    except NoSoundCard:
        print(f"Pas de carte son : la partie est écrite dans {args.out}, et son texte ci-dessous.", file=sys.stderr)
        card = None
        clock = FakeClock()  # no one listens in real time: the game runs as fast as it renders
    try:
        wav = WavSpeaker(args.out)
    except OSError as exc:
        raise BadInput(f"{args.out} : écriture impossible ({exc.strerror})") from None
    transcript = ConsoleSpeaker()
    speaker = Tee(wav, transcript, *([card] if card else []))
    players_out = Tee(wav, *([card] if card else []))
    in_play = list(script.announce.scenarios[demo.config["scenario"]][len(demo.names)])
    narration = plan(script.announce, in_play, demo.config["minutes"])
    parser = Parser(script.rules.game, demo.names)
    try:
        ear = simulated.DemoEar(
            simulated.answers(demo, script, record),
            simulated.player_voices(demo, profile),
            players_out,
            lambda line: print(f"          {line}", flush=True),
            model,
        )
        session = Session(
            script=script,
            prompts=load_prompts(),
            players=tuple(demo.names),
            in_play=in_play,
            voice=Voice(Renderer(profile).render, speaker),
            ear=ear,
            clock=clock,
            parser=parser,
            phrases=cache(lambda phase: phrases(parser, phase, compact=True)),
            listen_s=3.0,
        )
        outcome = session.run(narration)
    except VoiceError as exc:
        raise BadInput(str(exc)) from None
    except EOFError:
        raise BadInput("le narrateur n'a pas compris les joueurs simulés jusqu'au bout de la partie") from None
    finally:
        speaker.close()
    same = set(outcome.dead) == set(expected["dead"]) and set(outcome.winners) == set(expected["winners"])
    verdict = "le même" if same else "un AUTRE"
    print(f"\nPartie écrite dans {args.out}. Le narrateur a trouvé {verdict} résultat que « narrator resolve ».")
    return 0 if same else 1
