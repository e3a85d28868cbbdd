"""The vosk speech model: finding it, a tuned private overlay, its vocabulary, downloading it."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
import unicodedata
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from narrator.resources import user_folder

from .ear import ModelError

ENV = "NARRATOR_VOSK_MODEL"
MODELS = {"fr": "vosk-model-small-fr-0.22"}  # language -> the small model, the only kind that takes a grammar
# Trailing silence after which vosk ends an utterance: the models' own 0.5. A complete command
# ends sooner, on the partial result (narrator/listen/endpoint.py); this is the room left to a
# sentence still going (« Paul et Zoé contre Max… et Léo aussi »): 0.3 cut a 0.3 s pause.
END_S = 0.5
LIST_URL = "https://alphacephei.com/vosk/models"
FRAMES_PER_CHUNK = 9  # see tuned_conf
OVERLAY_VERSION = 1  # bump when the overlay's layout or conf changes


def model_dirs() -> list[Path]:
    """The folders vosk's downloader uses, in its order of search."""
    vosk = sys.modules.get("vosk")  # not imported for this: it loads requests and tqdm (a start without a model)
    if vosk is not None:
        dirs: list[Any] = list(vosk.MODEL_DIRS)
    else:  # as vosk 0.3.45 lists them
        home = Path.home()
        dirs = [os.getenv("VOSK_MODEL_PATH"), "/usr/share/vosk", home / "AppData/Local/vosk", home / ".cache/vosk"]
    if sys.platform != "win32":  # vosk lists Windows' folder everywhere
        dirs = [d for d in dirs if d and "AppData" not in Path(d).parts]
    return [Path(d) for d in dirs if d]


def is_model(path: Path) -> bool:
    """A vosk model folder: an acoustic model, in the current or the old layout."""
    return (path / "am" / "final.mdl").is_file() or (path / "final.mdl").is_file()


def takes_grammar(path: Path) -> bool:
    """Only models with a runtime graph accept a grammar; big ones ignore it (and over-hear)."""
    return (path / "graph" / "HCLr.fst").is_file() and (path / "graph" / "Gr.fst").is_file()


def find_model(path: str | Path | None = None, lang: str = "fr") -> Path:
    """The model to use: `path` (--model), then $NARRATOR_VOSK_MODEL, then vosk's cache folders."""
    for given, origin in ((path, "--model"), (os.environ.get(ENV), f"${ENV}")):
        if given:
            return check_model(Path(given).expanduser(), origin)
    wanted = MODELS.get(lang, f"vosk-model-small-{lang}")
    found = []
    for folder in model_dirs():
        if folder.is_dir():
            found += [p for p in folder.iterdir() if p.name.startswith(f"vosk-model-small-{lang}")]
    found = [p for p in found if is_model(p) and takes_grammar(p)]
    if found:
        exact = [p for p in found if p.name == wanted]
        return (exact or sorted(found, key=lambda p: p.name))[-1]
    places = ", ".join(str(d) for d in model_dirs())
    raise ModelError(
        f"Aucun modèle de reconnaissance vocale ({wanted}) : ni --model, ni ${ENV}, ni dans {places}. "
        f"Téléchargez-le avec « narrator model download {lang} »."
    )


def check_model(path: Path, origin: str = "--model") -> Path:
    """`path` if it is a vosk model that accepts a grammar, else a French `ModelError`."""
    if not path.is_dir():
        raise ModelError(f"{origin} : le dossier de modèle {path} n'existe pas.")
    if not is_model(path):
        raise ModelError(f"{origin} : {path} n'est pas un modèle vosk (il n'y a pas de am/final.mdl).")
    if not takes_grammar(path):
        raise ModelError(
            f"{origin} : le modèle {path.name} n'accepte pas de grammaire (pas de graph/HCLr.fst) ; "
            f"prenez un petit modèle, par exemple {MODELS['fr']}."
        )
    return path


def cache_dir() -> Path:
    """Where tuned model overlays are kept: $NARRATOR_CACHE_DIR, else the user's cache folder."""
    if os.environ.get("NARRATOR_CACHE_DIR"):
        return Path(os.environ["NARRATOR_CACHE_DIR"]) / "vosk"
    return user_folder("XDG_CACHE_HOME", ".cache") / "narrator" / "vosk"


def tuned_model(path: Path, end_s: float = END_S) -> Path:
    """A private view of the model whose `conf/model.conf` ends utterances after `end_s` of silence.

    PyPI's vosk 0.3.45 has no endpointer API; the delays live in model.conf. The user's model is
    never edited: the overlay links every file except that one. Without symlinks (or without a
    model.conf) the model is used as it is.
    """
    source = path.resolve()
    conf = source / "conf" / "model.conf"
    if not conf.is_file():
        return source
    text = tuned_conf(conf.read_text(encoding="utf-8"), end_s)
    key = hashlib.sha256(f"{OVERLAY_VERSION}\n{source}\n{text}".encode()).hexdigest()[:12]
    target = cache_dir() / f"{source.name}-{key}"
    if (target / "conf" / "model.conf").is_file():
        return target
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=".building-", dir=target.parent))
    except OSError:  # no writable cache folder
        return source
    try:
        for entry in source.iterdir():
            if entry.name != "conf":
                (building / entry.name).symlink_to(entry.resolve())
        (building / "conf").mkdir()
        for entry in (source / "conf").iterdir():
            if entry.name != "model.conf":
                (building / "conf" / entry.name).symlink_to(entry.resolve())
        (building / "conf" / "model.conf").write_text(text, encoding="utf-8")
        building.rename(target)
    except OSError:
        # No symlinks here (some Windows setups), or another process built it first.
        shutil.rmtree(building, ignore_errors=True)
        return target if (target / "conf" / "model.conf").is_file() else source
    return target


def tuned_conf(text: str, end_s: float) -> str:
    """model.conf with the endpoint rules set as vosk >= 0.3.50's SetEndpointerDelays would."""
    options = {
        "--endpoint.rule2.min-trailing-silence": end_s,
        "--endpoint.rule3.min-trailing-silence": end_s + 0.5,
        "--endpoint.rule4.min-trailing-silence": end_s + 1.0,
        # The network then runs on 9-frame chunks instead of about 24: the end of speech is seen
        # up to 0.15 s sooner, for a few % of one core (measured with the Korean model).
        "--frames-per-chunk": FRAMES_PER_CHUNK,
    }
    kept = [line for line in text.splitlines() if line.split("=")[0].strip() not in options]
    return "\n".join(kept + [f"{option}={value:g}" for option, value in options.items()]) + "\n"


def load_model(path: str | Path, end_s: float = END_S) -> Any:
    """The loaded `vosk.Model` (a few seconds: load it once), through the tuned overlay."""
    source = check_model(Path(path).expanduser())
    vosk = _import_vosk()
    vosk.SetLogLevel(-1)  # Kaldi logs every grammar word it lacks; check_names says it in French
    for folder in dict.fromkeys((tuned_model(source, end_s), source)):
        try:
            return vosk.Model(str(folder))
        except Exception:  # a bare Exception("Failed to create a model"); the overlay may be the cause
            continue
    raise ModelError(f"le modèle {source} est illisible ou incomplet.")


def normalize(text: str) -> str:
    """How vosk's vocabulary spells words: NFC, lower case, single spaces."""
    return " ".join(unicodedata.normalize("NFC", text).lower().split())


def known_words(model: Any, words: Iterable[str]) -> set[str]:
    """The words (normalized) the model can hear."""
    return {w for w in (normalize(w) for w in words) if _knows(model, w)}


def _knows(model: Any, word: str) -> bool:
    # vosk looks up one exact token: lower case, NFC, no space (Model.vosk_model_find_word)
    return bool(word) and " " not in word and model.vosk_model_find_word(word) >= 0


@dataclass(frozen=True, slots=True)
class NameProblem:
    """A seated name the model cannot hear, with spellings it can hear."""

    seat: int
    name: str
    unknown: tuple[str, ...]
    spellings: tuple[str, ...]

    @property
    def message(self) -> str:
        """One French sentence for the table."""
        words = ", ".join(f"« {w} »" for w in self.unknown)
        other = " ou ".join(f"« {s} »" for s in self.spellings)
        instead = f"écrivez-le {other}, ou désignez" if other else "désignez"
        return (
            f"Le modèle de reconnaissance ne connaît pas {words} dans le nom « {self.name} » (place {self.seat}) : "
            f"{instead} ce joueur par son numéro de place ({self.seat})."
        )


def check_names(model: Any, names: Sequence[str]) -> list[NameProblem]:
    """Seated names (in seat order, from 1) the model cannot hear; empty when all can be heard."""
    problems = []
    for seat, name in enumerate(names, start=1):
        unknown = tuple(w for w in normalize(name).split() if not _knows(model, w))
        if unknown:
            spellings = tuple(s for s in _spellings(name) if all(_knows(model, w) for w in s.split()))
            problems.append(NameProblem(seat, name, unknown, spellings))
    return problems


def _spellings(name: str) -> list[str]:
    # Ways a French table would also write the name: unaccented, hyphens and apostrophes as
    # spaces or dropped, a doubled letter single, y as i, a silent h dropped.
    base = normalize(name)
    plain = "".join(c for c in unicodedata.normalize("NFD", base) if not unicodedata.combining(c))
    found: list[str] = []
    for form in (base, plain):
        for joined in (form.replace("-", " ").replace("'", " "), form.replace("-", "").replace("'", "")):
            found += [joined, joined.replace("y", "i"), joined.replace("h", ""), _undouble(joined)]
        found.append(form)
    return [normalize(s) for s in dict.fromkeys(found) if normalize(s) and normalize(s) != base]


def _undouble(word: str) -> str:
    return "".join(c for i, c in enumerate(word) if i == 0 or c != word[i - 1] or not c.isalpha())


def _nothing(self: object) -> None:
    pass


def download(lang: str = "fr", out: TextIO | None = None) -> Path:
    """Fetch a model with vosk's own downloader (and progress bar) into vosk's cache; its folder."""
    name = MODELS.get(lang, lang)
    if not name.startswith("vosk-model"):
        known = ", ".join(MODELS)
        raise ModelError(f"langue « {lang} » inconnue : langues prévues {known}, ou le nom complet d'un modèle vosk.")
    vosk = _import_vosk()

    # vosk's Model with its downloader only: no model loaded by __init__, none freed by __del__
    fetcher = type("Fetcher", (vosk.Model,), {"__init__": _nothing, "__del__": _nothing})

    dest = Path(vosk.MODEL_DIRS[-1]) / name  # where vosk 0.3.45 downloads (its last folder)
    existed = dest.exists()
    try:
        # vosk prints "does not exist" on stdout, then calls sys.exit(1)
        with contextlib.redirect_stdout(out if out is not None else sys.stderr):
            found = Path(fetcher().get_model_by_name(name))
    except SystemExit:
        raise ModelError(f"vosk ne connaît pas de modèle « {name} » (liste : {LIST_URL}).") from None
    except (OSError, ValueError, zipfile.BadZipFile) as exc:  # requests' errors are OSErrors
        _forget(dest, existed)
        raise ModelError(
            f"téléchargement de {name} impossible ({type(exc).__name__}) : vérifiez la connexion à internet, "
            f"ou copiez le modèle à la main et passez --model DOSSIER."
        ) from None
    except BaseException:
        _forget(dest, existed)
        raise
    return check_model(found, name)


def _forget(dest: Path, existed: bool) -> None:
    # A half-extracted folder would be taken for a model next time: remove what this attempt left.
    Path(f"{dest}.zip").unlink(missing_ok=True)
    if not existed:
        shutil.rmtree(dest, ignore_errors=True)


def _import_vosk() -> Any:
    try:
        import vosk
    except (ImportError, OSError) as exc:
        raise ModelError(f"la bibliothèque vosk est absente ou inutilisable ({exc}) : pip install vosk.") from None
    return vosk
