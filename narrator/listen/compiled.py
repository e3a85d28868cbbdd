"""The listener's compiled tables kept on disk: built once, read back by every later start.

Loading the phrasebook (scripts/listen.fr.yaml checked against every game's script), preparing a
table's parser (hassil's templates, the tagger's lexicon, the control phrases) and expanding a
phase's grammar for vosk take seconds, and depend only on their sources: the shipped scripts,
the code that compiles them, the versions of the libraries it uses, and the table (its game, its
players). Each result is kept in the cache folder under a hash of all that, and read back by the
next start. An entry that cannot be read (cut short, damaged, from another version) is ignored
and built again; a cache folder that cannot be written only costs the time to build.

This module is the loading side of narrator/listen: it holds no French, only what is built when.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from narrator import __version__
from narrator.resources import data_dir, user_folder

if TYPE_CHECKING:
    from narrator.listen.setup_words import SetupParser
    from narrator.listen.table_words import Parser

__all__ = ["built", "cache_dir", "digest_of", "load", "setup_parser", "sources_digest", "table_parser"]

T = TypeVar("T")

FORMAT = 1  # bump when an entry's layout changes
MAGIC = b"narrator-listen\n"
# the code whose output is kept: what loads the phrasebook and the scripts, and what compiles them
CODE = ("listen", "script", "rules")
# the libraries whose output or classes are kept (hassil's expansions and objects, text2num's
# numbers, unicode-rbnf's spelled-out numbers, PyYAML's reading)
LIBRARIES = ("hassil", "text2num", "unicode-rbnf", "PyYAML")

built: Counter[str] = Counter()  # what this process built rather than read, by kind (the tests read it)


def cache_dir() -> Path:
    """Where compiled tables are kept: $NARRATOR_CACHE_DIR/listen, else the user's cache folder."""
    if os.environ.get("NARRATOR_CACHE_DIR"):
        return Path(os.environ["NARRATOR_CACHE_DIR"]) / "listen"
    return user_folder("XDG_CACHE_HOME", ".cache") / "narrator" / "listen"


@cache
def sources_digest() -> str:
    """A hash of everything a compiled table is made from, except the table itself."""
    return digest_of(Path(__file__).resolve().parent.parent, data_dir("scripts"))


def digest_of(package: Path, scripts: Path) -> str:
    """A hash of the code of `package` that compiles the tables, the YAML of `scripts`, and the versions
    of narrator, Python and the libraries whose output is kept."""
    from importlib.metadata import PackageNotFoundError, version

    digest = hashlib.sha256(f"{FORMAT}\n{__version__}\n{sys.version_info[:2]}\n".encode())
    for library in LIBRARIES:
        try:
            digest.update(f"{library} {version(library)}\n".encode())
        except PackageNotFoundError:
            digest.update(f"{library} -\n".encode())
    files = [package / "__init__.py", package / "resources.py"]
    for folder in CODE:
        files += sorted((package / folder).rglob("*.py"))
    files += sorted(scripts.glob("*.yaml"))
    for path in files:
        digest.update(f"{path.relative_to(path.parent.parent)}\n".encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"-")
    return digest.hexdigest()


def load(
    kind: str,
    parts: Sequence[object],
    build: Callable[[], T],
    shared: Mapping[str, Callable[[], object]] | None = None,
) -> T:
    """What `build()` returns for `parts` (the table: game, players…), read from the cache when an entry
    made from the same sources is there, else built and kept.

    shared: objects kept by name rather than copied into the entry (the phrasebook every table holds),
    each read back with its function, so that a table read from the cache holds the same one.
    """
    shared = shared or {}
    key = hashlib.sha256(repr((kind, tuple(parts))).encode()).hexdigest()[:20]
    sources = sources_digest()
    path = cache_dir() / f"{kind}-{key}-{sources[:20]}.pickle"
    found = _read(path, sources, shared)
    if found is not None:
        return found  # type: ignore[no-any-return]
    built[kind] += 1
    made = build()
    _write(path, sources, made, shared)
    return made


def _read(path: Path, sources: str, shared: Mapping[str, Callable[[], object]]) -> Any:
    """The entry's object, or None when it is missing or cannot be trusted."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    # magic, the sources' hash, the payload's hash, then the payload: one cut or altered is never unpickled
    lead = MAGIC + sources.encode() + b" "
    body = len(lead) + 64 + 1
    if not data.startswith(lead) or data[body - 1 : body] != b"\n":
        return None
    payload = data[body:]
    if data[len(lead) : body - 1] != hashlib.sha256(payload).hexdigest().encode():
        return None
    unpickler = pickle.Unpickler(io.BytesIO(payload))
    unpickler.persistent_load = lambda name: shared[name]()  # type: ignore[method-assign]
    try:
        return unpickler.load()
    except Exception:  # written by other code after all (a class renamed): built again
        return None


def _write(path: Path, sources: str, made: object, shared: Mapping[str, Callable[[], object]]) -> None:
    """Keep `made` at `path`, whole or not at all; older entries of the same table go."""
    names = {id(get()): name for name, get in shared.items()}
    try:
        payload = _dumps(made, names)
    except Exception:  # something in it that pickle cannot keep: the next start builds it again
        return
    header = MAGIC + f"{sources} {hashlib.sha256(payload).hexdigest()}\n".encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".writing-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(header)
                out.write(payload)
            os.replace(temporary, path)  # readers see the old entry or the new one, never half of one
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:  # no writable cache folder
        return
    stem = path.name.rsplit("-", 1)[0]
    for old in path.parent.glob(f"{stem}-*.pickle"):
        if old != path:
            with contextlib.suppress(OSError):
                old.unlink()  # the same table compiled from other sources


def _dumps(made: object, names: Mapping[int, str]) -> bytes:
    stream = io.BytesIO()
    pickler = pickle.Pickler(stream, protocol=pickle.HIGHEST_PROTOCOL)
    if names:
        pickler.persistent_id = lambda obj: names.get(id(obj))  # type: ignore[method-assign]
    pickler.dump(made)
    return stream.getvalue()


def _book() -> object:
    from narrator.listen.french import phrasebook

    return phrasebook()


@cache
def _table_parser(game: str, players: tuple[str, ...]) -> Parser:
    from narrator.listen.table_words import Parser

    return load("parser", (game, players), lambda: Parser(game, players), {"phrasebook": _book})


def table_parser(game: str, players: Sequence[str]) -> Parser:
    """The parser of a table in play (narrator/listen/table_words.py), read from the cache when it can be.

    The same object for the same table within a process; a `ValueError` as `Parser` raises it.
    """
    return _table_parser(game, tuple(players))


@cache
def setup_parser(game: str | None) -> SetupParser:
    """The spoken setup's parser of `game` (None: not chosen yet), read from the cache when it can be."""
    from narrator.listen.setup_words import SetupParser

    return load("setup", (game,), lambda: SetupParser(game), {"phrasebook": _book})
