"""Command line: argparse and wiring only."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from narrator import __version__
from narrator.argparse_fr import FrenchParser, in_french, number
from narrator.resources import french_reason
from narrator.script.games import DEMO_GAMES, GAMES, ONE_NIGHT, family_of
from narrator.script.marks import YamlError, load_marked

# Each command imports the part of the program it runs inside its function: `narrator resolve` or
# `narrator --help` do not load the speech recognizer, the voice and the table.
if TYPE_CHECKING:
    from narrator.app.startup import Options, TableRequest

EXIT_BAD_INPUT = 2
VOICE_HELP = "profil de voix : un nom de voices/, un fichier YAML ou le dossier d'une voix enregistrée"
_LISTED = ", ".join(GAMES[:-1]) + " ou " + GAMES[-1]  # « onuw, poudlard ou thiercelieux »


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for arg in argv:
        if not _is_text(arg):
            return _fail(f"argument illisible (octets qui ne sont pas de l'UTF-8) : {os.fsencode(arg)!r}")
    with in_french():  # argparse's own words too: « utilisation », its errors, « -h »
        parser = _parser()
        args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        args.run = _spoken  # no command: the spoken setup, then the game
    else:
        misplaced = _options_before_command(parser, argv)
        if misplaced:
            option, command = misplaced
            return _fail(
                f"{option} : placée avant « {command} », cette option est celle de la mise en place à la voix"
                f" (narrator sans commande) ; mettez-la après la commande si elle l'accepte (narrator {command} --help)"
            )
    from narrator.table.journal import JournalError
    from narrator.table.setup import SetupError

    try:
        code = args.run(args)
        try:
            sys.stdout.flush()  # a full disk behind stdout is said here, not at exit
        except OSError as exc:
            raise OSError(exc.errno, f"sortie standard : écriture impossible ({french_reason(exc)})") from None
        return code
    except (BadInput, SetupError, JournalError) as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        _fail("interrompu.")
        return 130
    except BrokenPipeError:
        # the reader went away (`narrator resolve … | head`): no traceback at exit either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:  # a folder or file the program needs, unusable
        _silence_stdout()
        if exc.filename:
            return _fail(f"{exc.filename} : {french_reason(exc)}")
        if exc.strerror and exc.strerror.startswith("sortie standard"):  # raised above, already French
            return _fail(exc.strerror)
        return _fail(f"écriture impossible ({french_reason(exc)})")


def _options_before_command(parser: argparse.ArgumentParser, argv: list[str]) -> tuple[str, str] | None:
    """The first option given before a command (`narrator --sans-musique demo`), and the command: the
    command's own parser sets its options, so one given before it would be silently lost."""
    options = parser._option_string_actions
    commands = next(a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    first, index = None, 0
    while index < len(argv):
        arg = argv[index]
        if arg in commands:
            return (first, arg) if first else None
        name = arg.split("=", 1)[0]
        if name in options:
            first = first or name
            if "=" not in arg and options[name].nargs != 0:
                index += 1  # its value
        index += 1
    return None


def _is_text(arg: str) -> bool:
    """Whether an argument came as UTF-8 (Python keeps other bytes as lone surrogates)."""
    try:
        arg.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _fail(message: str) -> int:
    """One French line on stderr (if stderr can take it), and the exit status of bad input."""
    try:
        print(f"narrator: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())
    return EXIT_BAD_INPUT


def _take_silence(text: str) -> float:
    """--silence: a take ends after this much quiet; 0 or less would cut every line at its first pause."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0.1 <= seconds <= 5:
        raise argparse.ArgumentTypeError(f"attendu : des secondes, de 0.1 à 5 ; trouvé : {text}")
    return seconds


def _silence_stdout() -> None:
    """Stdout could not be written: what is left in its buffer goes nowhere rather than fail at exit."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class BadInput(Exception):
    """A file or argument the user must fix; one French line."""


def _parser() -> argparse.ArgumentParser:
    parser = FrenchParser(
        prog="narrator",
        description="Meneur de jeu vocal pour Loups-Garous."
        " Sans commande : la mise en place à la voix, puis la partie.",
        epilog="« narrator COMMANDE --help » : l'aide d'une commande.",
    )
    parser.add_argument(
        "--version", action="version", version=f"narrator {__version__}", help="afficher la version et quitter"
    )
    parser.add_argument("--voice", metavar="VOIX", default="fr", help=VOICE_HELP)
    _session_arguments(parser)
    _phones_arguments(parser)
    parser.add_argument(
        "--journal", metavar="FICHIER", help="le fichier journal de la partie (défaut : dans $NARRATOR_STATE_DIR)"
    )
    sub = parser.add_subparsers(metavar="COMMANDE", title="commandes")
    resolve = sub.add_parser("resolve", help="résoudre une partie décrite dans un fichier (JSON sur stdout)")
    resolve.add_argument(
        "file",
        metavar="FICHIER",
        help="fichier YAML ou JSON : un enregistrement de partie, ou une liste ; - pour stdin",
    )
    resolve.set_defaults(run=_resolve)
    story = sub.add_parser(
        "story",
        aliases=["raconte"],
        help="raconter une partie terminée : qui a fait quoi chaque nuit, les votes, les morts",
    )
    story.add_argument("file", metavar="FICHIER", help="le journal d'une partie terminée, ou un enregistrement")
    story.set_defaults(run=_story)
    check = sub.add_parser(
        "check",
        help="valider un fichier de scripts/ : le script d'un jeu, table.yaml, phones.yaml, demo.yaml"
        " ou listen.fr.yaml",
    )
    check.add_argument("file", metavar="FICHIER", help="le fichier YAML à valider")
    check.set_defaults(run=_check)
    render = sub.add_parser("render", help="écrire la légende, la nuit et le début du jour dans un WAV")
    _table_arguments(render)
    render.add_argument("--out", metavar="FICHIER", required=True, help="le fichier WAV à écrire")
    _music_argument(render)
    render.set_defaults(run=_render)
    play = sub.add_parser("play", help="mener la partie à voix haute : nuit, débat minuté, appel au vote")
    _table_arguments(play, spoken=True)
    _session_arguments(play)
    _phones_arguments(play)
    play.add_argument(
        "--journal", metavar="FICHIER", help="le fichier journal de la partie (défaut : dans $NARRATOR_STATE_DIR)"
    )
    play.add_argument("--captain", action="store_true", help="thiercelieux : avec un capitaine élu le premier jour")
    play.add_argument(
        "--seed",
        metavar="N",
        type=number,
        help="avec --phones : le tirage de la donne, que le programme distribue (défaut : un tirage nouveau)",
    )
    resume = sub.add_parser("resume", help="reprendre une partie interrompue là où elle s'était arrêtée")
    resume.add_argument(
        "journal", metavar="JOURNAL", nargs="?", help="le journal de la partie (défaut : la dernière inachevée)"
    )
    resume.add_argument(
        "--voice",
        metavar="VOIX",
        help="profil de voix : un nom de voices/, un fichier YAML ou le dossier d'une voix enregistrée"
        " (défaut : celle de la partie)",
    )
    resume.add_argument(
        "--avant-ligne",
        type=number,
        dest="before_line",
        metavar="N",
        help="reprendre des lignes avant la ligne N du journal (une ligne abîmée : ses octets gardés à part)",
    )
    _session_arguments(resume)
    resume.set_defaults(run=_resume)
    demo = sub.add_parser("demo", help="une partie complète jouée par des joueurs simulés qui parlent")
    demo.add_argument(
        "game",
        metavar="JEU",
        nargs="?",
        default=DEMO_GAMES[0],
        choices=DEMO_GAMES,
        help=f"{DEMO_GAMES[0]} (défaut : cinq joueurs, cartes physiques)"
        f" ou {DEMO_GAMES[1]} (huit joueurs et un opérateur)",
    )
    demo.add_argument(
        "--seed",
        metavar="N",
        type=number,
        default=7,
        help="tirage de la donne, des choix de nuit et des votes (défaut : 7)",
    )
    demo.add_argument(
        "--out", metavar="FICHIER", default="demo.wav", help="le fichier WAV de toute la partie (défaut : demo.wav)"
    )
    demo.add_argument(
        "--model",
        metavar="DOSSIER",
        help="un modèle vosk français : les joueurs passent alors par la vraie reconnaissance",
    )
    _music_argument(demo)
    demo.set_defaults(run=_demo)
    model = sub.add_parser("model", help="le modèle de reconnaissance vocale")
    model_sub = model.add_subparsers(metavar="ACTION", title="actions", required=True)
    download = model_sub.add_parser("download", help="télécharger le petit modèle vosk d'une langue (fr)")
    download.add_argument("lang", metavar="LANGUE", nargs="?", default="fr", help="la langue (défaut : fr)")
    download.set_defaults(run=_download)
    model_check = model_sub.add_parser("check", help="les mots des grammaires que le modèle installé ne connaît pas")
    model_check.add_argument(
        "--model", metavar="DOSSIER", help="dossier du modèle vosk (sinon $NARRATOR_VOSK_MODEL, puis le cache de vosk)"
    )
    model_check.set_defaults(run=_model_check)
    parse = sub.add_parser("parse", help="ce que le narrateur comprend d'une phrase (JSON sur stdout)")
    parse.add_argument("--game", metavar="JEU", required=True, help=_LISTED)
    parse.add_argument("--players", metavar="NOMS", required=True, help="les noms des joueurs : Alice,Bob,…")
    parse.add_argument(
        "--phase",
        metavar="PHASE",
        default="any",
        choices=["vote", "tally", "reveal", "choose", "any"],
        help="la question posée : un vote (vote), un décompte (tally), les cartes (reveal), un nom (choose) ;"
        " défaut : any, toutes",
    )
    parse.add_argument("text", metavar="TEXTE", help="la phrase, entre guillemets")
    roles = sub.add_parser("roles", help="les personnages d'un jeu : ce que --roles accepte")
    roles.add_argument("game", metavar="JEU", choices=GAMES, help=_LISTED)
    roles.set_defaults(run=_roles)
    _compose_arguments(sub)
    _scores_arguments(sub)
    parse.set_defaults(run=_parse)
    play.set_defaults(run=_play)
    _voice_arguments(sub)
    return parser


def _voice_arguments(sub: argparse._SubParsersAction) -> None:
    voice = sub.add_parser("voice", help="enregistrer sa propre voix de narrateur, vérifier une voix enregistrée")
    actions = voice.add_subparsers(metavar="ACTION", title="actions", required=True)
    record = actions.add_parser("record", help="enregistrer au micro, une par une, les répliques fixes d'un jeu")
    check = actions.add_parser("check", help="les répliques manquantes ou périmées d'une voix enregistrée")
    for action in (record, check):
        action.add_argument("pack", metavar="DOSSIER", help="le dossier de la voix (créé s'il n'existe pas)")
        action.add_argument("--game", metavar="JEU", choices=GAMES, required=action is record, help=_LISTED)
        action.add_argument(
            "--roles", metavar="CARTES", help="seulement la légende et les appels de nuit de ces personnages"
        )
    record.add_argument(
        "--voice", metavar="VOIX", default="fr", help="le profil des répliques non enregistrées (défaut : fr)"
    )
    record.add_argument(
        "--input-device", metavar="N", type=number, help="le numéro du micro (défaut : celui du système)"
    )
    record.add_argument("--redo", metavar="ID", nargs="+", default=[], help="réenregistrer ces répliques")
    record.add_argument("--all", action="store_true", help="réenregistrer toutes les répliques")
    record.add_argument(
        "--silence",
        metavar="S",
        type=_take_silence,
        default=0.8,
        help="secondes de silence après la voix qui terminent une prise, de 0.1 à 5 (défaut : 0.8)",
    )
    record.set_defaults(run=_voice_record)
    check.set_defaults(run=_voice_check)


def _session_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--wav", metavar="FICHIER", help="enregistrer aussi toute la narration dans ce fichier WAV")
    parser.add_argument(
        "--ear",
        metavar="OREILLE",
        default="vosk",
        help="comment le narrateur entend : vosk (le micro, défaut), keyboard (le clavier),"
        " ou script:FICHIER (une réponse par ligne)",
    )
    parser.add_argument(
        "--model", metavar="DOSSIER", help="dossier du modèle vosk (sinon $NARRATOR_VOSK_MODEL, puis le cache de vosk)"
    )
    parser.add_argument(
        "--no-wait", action="store_true", help="sans carte son ni attente : le texte à l'écran, le son dans le WAV"
    )
    _music_argument(parser)


def _music_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sans-musique",
        "--no-music",
        dest="music",
        action="store_false",
        help="sans la musique de la nuit sous la narration (« coupe la musique » la coupe aussi en jeu)",
    )


def _phones_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--phones",
        action="store_true",
        help="chaque joueur joue sur son téléphone (un navigateur suffit) : sa carte et ses choix de nuit",
    )
    parser.add_argument(
        "--bind",
        metavar="ADRESSE",
        default="lan",
        help="avec --phones : où les téléphones trouvent le narrateur : lan (le réseau de la table, défaut)"
        " ou une adresse de cette machine (127.0.0.1 pour un essai)",
    )
    parser.add_argument(
        "--port", metavar="N", type=number, default=8080, help="avec --phones : le port du serveur (défaut : 8080)"
    )


def _table_arguments(parser: argparse.ArgumentParser, spoken: bool = False) -> None:
    parser.add_argument("game", metavar="JEU", help=_LISTED)
    players_help = "les noms, dans l'ordre autour de la table : Alice,Bob,…"
    if spoken:
        players_help += " (sans --players : la mise en place se fait à la voix)"
    parser.add_argument("--players", metavar="NOMS", required=not spoken, help=players_help)
    cards = parser.add_mutually_exclusive_group(required=not spoken)
    cards.add_argument(
        "--roles",
        metavar="CARTES",
        help="les cartes en jeu (joueurs + 3) : mangemort,harry,… ; thiercelieux : celle de chaque joueur ;"
        " « narrator roles JEU » les donne toutes",
    )
    cards.add_argument(
        "--scenario", metavar="SCÉNARIO", help="un jeu de cartes tout prêt du script (ex. premiere_annee)"
    )
    parser.add_argument(
        "--minutes", metavar="N", type=number, help="durée du débat en minutes (défaut : celle du script)"
    )
    parser.add_argument("--first-game", action="store_true", help="première partie : débat plus long (001 : 10 min)")
    parser.add_argument("--no-legend", action="store_true", help="ne pas lire la légende des personnages")
    parser.add_argument("--voice", metavar="VOIX", default="fr", help=VOICE_HELP)

    parser.add_argument(
        "--extra", metavar="CARTES", help="thiercelieux : les cartes non distribuées (voleur : 2, comédien : 3)"
    )
    parser.add_argument(
        "--groups", metavar="GROUPES", help="thiercelieux, avec le sectaire : le groupe de chaque joueur, Ana=1,Ben=2,…"
    )


def _read(name: str) -> tuple[str, str]:
    """A text file (`-`: stdin), at most `MAX_TEXT_BYTES`; `BadInput` when it cannot be read as UTF-8."""
    from narrator.resources import MAX_TEXT_BYTES, read_bounded

    try:
        data = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1) if name == "-" else read_bounded(name)
    except FileNotFoundError:
        raise BadInput(f"{name} : fichier introuvable") from None
    except IsADirectoryError:
        raise BadInput(f"{name} : c'est un dossier, pas un fichier") from None
    except OSError as exc:
        raise BadInput(f"{name} : lecture impossible ({french_reason(exc)})") from None
    file = "<stdin>" if name == "-" else name
    if len(data) > MAX_TEXT_BYTES:
        raise BadInput(f"{file} : plus de {MAX_TEXT_BYTES // 2**20} Mo : trop grand pour un script de jeu")
    try:
        return data.decode("utf-8"), file
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line, column = before.count(b"\n") + 1, exc.start - (before.rfind(b"\n") + 1) + 1
        raise BadInput(f"{file}:{line}:{column}: ce n'est pas du texte UTF-8 (octet 0x{data[exc.start]:02x})") from None


def _resolve(args: argparse.Namespace) -> int:
    import shutil

    from narrator.app.family import resolve_record
    from narrator.app.resolve import resolve_stream
    from narrator.records import InputError
    from narrator.resources import open_regular

    name = args.file
    try:
        stream = sys.stdin.buffer if name == "-" else open_regular(name)  # a FIFO or a device: refused
    except FileNotFoundError:
        raise BadInput(f"{name} : fichier introuvable") from None
    except IsADirectoryError:
        raise BadInput(f"{name} : c'est un dossier, pas un fichier") from None
    except OSError as exc:
        raise BadInput(f"{name} : lecture impossible ({french_reason(exc)})") from None
    try:
        with stream:
            out = resolve_stream(stream, "<stdin>" if name == "-" else name, resolve_record)
    except InputError as exc:
        raise BadInput(str(exc)) from None
    except IsADirectoryError:
        raise BadInput(f"{name} : c'est un dossier, pas un fichier") from None
    except OSError as exc:
        raise BadInput(f"{name} : lecture impossible ({french_reason(exc)})") from None
    with out:
        sys.stdout.flush()
        shutil.copyfileobj(out, sys.stdout.buffer)
    return 0


def _story(args: argparse.Namespace) -> int:
    from narrator.app.story import story_of_file

    stories = story_of_file(args.file)
    print("\n\n".join("\n".join(told) for told in stories))
    return 0


def _check(args: argparse.Namespace) -> int:
    text, file = _read(args.file)
    try:
        doc = load_marked(text, file)
        what = _checked(_kind(doc.data, file), text, file)
    except YamlError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{file} : correct ({what}).")
    return 0


# What a file of scripts/ is, told by a key only it has at its top: (kind, key)
_KINDS = (
    *(("phrasebook", "commands"), ("prompts", "ask_votes"), ("phone_prompts", "phones_address")),
    *(("story", "story_title"), ("demo", "say")),
)


def _kind(data: object, file: str) -> str:
    """Which of scripts/' files `data` is: by its keys, else by its name; a game's script (its family's
    name) by default."""
    if isinstance(data, dict):
        family = family_of(data.get("game"))
        if family is not None and "roles" in data:
            return family
        if "roles" in data and "texts" in data:
            return ONE_NIGHT
        for kind, key in _KINDS:
            if key in data:
                return kind
    name = Path(file).name
    by_name = {
        "listen.fr.yaml": "phrasebook",
        "table.yaml": "prompts",
        "phones.yaml": "phone_prompts",
        "story.yaml": "story",
        "demo.yaml": "demo",
        "compose.yaml": "compose",
    }
    return by_name.get(name) or family_of(Path(file).stem) or ONE_NIGHT


def _checked(kind: str, text: str, file: str) -> str:
    """Validate the file with its own loader (raise `YamlError`); say what it holds."""
    if kind == "phrasebook":
        from narrator.listen.ear_words import load_ear_words
        from narrator.listen.french import load_phrasebook

        book = load_phrasebook(text, file)
        load_ear_words(text, file)  # its go_on and respell sections, for the recognizer
        return f"vocabulaire d'écoute, {len(book.blocks)} groupes de phrases"
    if kind == "prompts":
        from narrator.script.prompts import parse_prompts

        return f"phrases de la table, {len(parse_prompts(text, file).texts)} modèles"
    if kind == "phone_prompts":
        from narrator.script.prompts import PHONE_PLACEHOLDERS, parse_prompts

        return f"phrases des téléphones, {len(parse_prompts(text, file, PHONE_PLACEHOLDERS).texts)} modèles"
    if kind == "story":
        from narrator.script.story_words import parse_story_words

        return f"fin de partie et histoire, {len(parse_story_words(text, file).texts)} modèles"
    if kind == "demo":
        from narrator.app.demo import parse_demo

        demo = parse_demo(text, file)
        return f"démonstration, {demo.config['game']}, {len(demo.names)} joueurs simulés"
    if kind == "compose":
        from narrator.app.compose import boxes
        from narrator.script.compose import parse_advice

        return f"conseils de composition, {len(parse_advice(text, file, boxes()))} jeux"
    from narrator.app.family import FAMILIES

    return FAMILIES[kind].check_script(text, file)


def _options(args: argparse.Namespace) -> Options:
    from narrator.app.startup import Options

    return Options(
        voice=args.voice,
        ear=args.ear,
        model=args.model,
        wav=args.wav,
        no_wait=args.no_wait,
        music=getattr(args, "music", True),
        phones=getattr(args, "phones", False),
        bind=getattr(args, "bind", "lan"),
        port=getattr(args, "port", 8080),
    )


def _names(text: str) -> list[str]:
    """A comma-separated list as typed, each item trimmed and in one Unicode form (NFC)."""
    return [unicodedata.normalize("NFC", item.strip()) for item in text.split(",")]


def _asked(args: argparse.Namespace) -> TableRequest:
    """The table the command line asks for (`play`, `render`): names in one Unicode form, cards as role ids."""
    from narrator.app.startup import TableRequest

    return TableRequest(
        players=_names(args.players) if args.players is not None else None,
        roles=_cards(args.game, args.roles) if args.roles is not None else None,
        scenario=args.scenario,
        minutes=args.minutes,
        first_game=args.first_game,
        legend=not args.no_legend,
        captain=getattr(args, "captain", False),
        extra=_cards(args.game, args.extra) if args.extra else None,
        groups=_groups(args.groups) if args.groups else None,
        seed=getattr(args, "seed", None),
    )


def _groups(given: str) -> dict[str, int]:
    """`--groups Ana=1,Ben=2`: each player's group."""
    groups = {}
    for item in given.split(","):
        name, _, group = item.partition("=")
        if not group.strip().isdigit():
            raise BadInput(f"--groups : attendu : Nom=1 ou Nom=2, séparés par des virgules ; trouvé : {item}")
        groups[unicodedata.normalize("NFC", name.strip())] = int(group)
    return groups


def _render(args: argparse.Namespace) -> int:
    from narrator.app.family import family
    from narrator.app.startup import (
        Options,
        check_request,
        check_writable,
        make_night_music,
        profile_of,
        renderer,
        warn_other_game,
    )
    from narrator.voice import VoiceError, WavSpeaker

    games, asked = family(args.game), _asked(args)
    check_request(asked)
    check_writable(args.out)
    profile_of(args.voice)
    items, begins, ends = games.night(args.game, asked)
    bed = make_night_music(Options(voice=args.voice, music=args.music))
    voice = renderer(args.voice)
    warn_other_game(voice, args.game)
    render = voice.render
    parts = ((items[:begins], False), (items[begins:ends], True), (items[ends:], False))
    try:
        rendered = [(render(part), night) for part, night in parts]  # all of it, before the file is made
        # written as the table hears it: the music fades in with the night's first line, out at the day
        with WavSpeaker(args.out, bed=bed) as out:
            for audio, night in rendered:
                if bed is not None:
                    bed.night(night)
                out.play(audio)
    except VoiceError as exc:
        raise BadInput(str(exc)) from None
    except OSError as exc:
        raise BadInput(f"{args.out} : écriture impossible ({french_reason(exc)})") from None
    for seg in out.segments:
        print(f"{seg.line_id}\t{seg.text}\t{seg.start_s:.3f}\t{seg.end_s:.3f}")
    return 0


def _play(args: argparse.Namespace) -> int:
    from narrator.app.family import play
    from narrator.app.startup import check_options, check_request

    # every cheap option first: a mistyped one is refused before a table, a grammar or a voice is built
    asked, options = _asked(args), _options(args)
    check_request(asked)
    check_options(options, args.journal)
    return play(args.game, asked, options, args.journal)


def _cards(game: str, given: str) -> list[str]:
    """`--roles`/`--extra` as role ids: « sorcière » is sorciere, « Élève de Poudlard » eleve."""
    from narrator.script.role_names import role_ids

    return role_ids(game, [r.strip() for r in given.split(",")])


def _roles(args: argparse.Namespace) -> int:
    """`narrator roles GAME`: what `--roles` accepts, one character a line."""
    from narrator.script.role_names import characters, title_of

    title = title_of(args.game)  # « de Les Loups-Garous… » would be wrong: the title first
    print(f"{title} : les personnages, à donner à --roles (le nom, avec ou sans accents, va aussi) :")
    for rid, (name, copies) in characters(args.game).items():
        most = f" (jusqu'à {copies} cartes)" if copies > 1 else ""
        print(f"  {rid} : {name}{most}")
    return 0


def _compose_arguments(sub: argparse._SubParsersAction) -> None:
    compose = sub.add_parser("compose", help="des cartes proposées pour la table, selon les conseils des livrets")
    compose.add_argument("game", metavar="JEU", choices=GAMES, help=_LISTED)
    compose.add_argument("players", metavar="N", type=number, help="le nombre de joueurs")
    compose.add_argument(
        "--avec", metavar="CARTES", default="", help="des cartes à mettre en jeu, séparées par des virgules"
    )
    compose.add_argument("--sans", metavar="CARTES", default="", help="des cartes à laisser dans la boîte")
    compose.set_defaults(run=_compose)


def _compose(args: argparse.Namespace) -> int:
    """`narrator compose GAME N`: the proposed cards, what --roles takes, and why."""
    from narrator.app.compose import print_proposal, propose

    avec = _cards(args.game, args.avec) if args.avec.strip() else []
    sans = _cards(args.game, args.sans) if args.sans.strip() else []
    print_proposal(args.game, args.players, propose(args.game, args.players, avec, sans))
    return 0


def _scores_arguments(sub: argparse._SubParsersAction) -> None:
    scores = sub.add_parser("scores", help="les parties terminées et les victoires, par joueur et par camp")
    when = scores.add_mutually_exclusive_group()
    when.add_argument("--soir", action="store_true", help="seulement les parties des douze dernières heures")
    when.add_argument("--depuis", metavar="DATE", help="seulement les parties depuis ce jour (AAAA-MM-JJ)")
    scores.set_defaults(run=_scores)


def _scores(args: argparse.Namespace) -> int:
    """`narrator scores`: the finished games of the journals, the wins of each player and each camp."""
    import time

    from narrator.app.scores import EVENING_HOURS, printed, read_games, since_date, tally

    since, when = None, "Toutes les parties"
    if args.soir:
        since, when = time.time() - EVENING_HOURS * 3600, "Ce soir"
    elif args.depuis is not None:
        try:
            since, when = since_date(args.depuis), f"Depuis le {args.depuis}"
        except ValueError as exc:
            raise BadInput(str(exc)) from None
    games, skipped = read_games(since=since)
    for line in skipped:
        print(f"narrator: journal ignoré : {line}", file=sys.stderr)
    for line in printed(tally(games), when):
        print(line)
    return 0


def _spoken(args: argparse.Namespace) -> int:
    """`narrator` alone: everything by voice, from the first word (the game too)."""
    from narrator.app.family import setup_and_play
    from narrator.app.startup import check_options

    options = _options(args)
    check_options(options, args.journal)
    return setup_and_play(options, None, args.journal)


def _resume(args: argparse.Namespace) -> int:
    from narrator.app.family import resume
    from narrator.app.startup import check_options

    options = _options(args)
    options.voice, options.voice_chosen = args.voice or "fr", args.voice is not None
    check_options(options, voice=options.voice_chosen)  # the game's own voice is in its journal
    return resume(args.journal, options, args.before_line)


def _demo(args: argparse.Namespace) -> int:
    from narrator.app.family import family

    same = family(args.game).demo(args.seed, args.out, args.model, args.music)
    verdict = "le même" if same else "un AUTRE"
    print(f"\nPartie écrite dans {args.out}. Le narrateur a trouvé {verdict} résultat que « narrator resolve ».")
    return 0 if same else 1


def _parse(args: argparse.Namespace) -> int:
    from narrator.listen.compiled import table_parser
    from narrator.table.setup import check_names

    if args.game not in GAMES:
        raise BadInput(f"--game : jeu inconnu « {args.game} » ; attendu : {', '.join(GAMES)}")
    players = [p for p in _names(args.players) if p]
    check_names(args.game, players)
    commands = table_parser(args.game, players).parse(args.text, args.phase)
    json.dump([c.to_json() for c in commands], sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _voice_record(args: argparse.Namespace) -> int:
    from narrator.app.voice_pack import PackProblem, main_record

    try:
        return main_record(args)
    except PackProblem as exc:
        return _fail(str(exc))


def _voice_check(args: argparse.Namespace) -> int:
    from narrator.app.voice_pack import PackProblem, check_pack

    try:
        return check_pack(Path(args.pack), args.game, args.roles, sys.stdout)
    except PackProblem as exc:
        return _fail(str(exc))


def _model_check(args: argparse.Namespace) -> int:
    from narrator.listen.ear import ModelError
    from narrator.listen.model import find_model, load_model
    from narrator.listen.model_check import report

    try:
        path = find_model(args.model)
        lines = report(load_model(path), str(path))
        for line in lines:
            print(line)
    except ModelError as exc:
        return _fail(str(exc))
    return 0


def _download(args: argparse.Namespace) -> int:
    from narrator.listen.ear import ModelError
    from narrator.listen.model import download

    try:
        path = download(args.lang)
    except ModelError as exc:
        return _fail(str(exc))
    print(f"Modèle prêt : {path}")
    return 0
