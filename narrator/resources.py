"""Where the shipped YAML lives (inside the installed package, or beside it in a source checkout), and
the user's own folders (cache, settings, journals), and a refusal of the system said in French."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder of shipped data `name` ("scripts" or "voices")."""
    installed = _PACKAGE / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def user_folder(variable: str, under_home: str) -> Path:
    """$VARIABLE (an XDG folder) if it is an absolute path, else ~/UNDER_HOME. An `OSError` with a French
    message when the home folder is unknown (HOME empty or relative): never a folder under « / »."""
    value = os.environ.get(variable, "")
    if os.path.isabs(value):
        return Path(value)
    home = os.environ.get("HOME")
    if home is None:
        home = str(Path.home())  # no HOME at all: the account's folder
    if not os.path.isabs(home):
        raise OSError(errno.ENOENT, f"dossier personnel inconnu (vide ou relatif) ; donnez ${variable}", "$HOME")
    return Path(home) / under_home


MAX_TEXT_BYTES = 16 * 2**20  # a script, a voice profile, an answer script: a few kB; /dev/zero stops here


NOT_REGULAR = "ce n'est pas un fichier ordinaire : un tube ou un périphérique"


def open_regular(path: str | Path) -> BinaryIO:
    """A file opened for reading, once it is known to be a regular file: a named pipe nobody writes to
    would make the reader wait forever, a device (/dev/zero) never ends. `OSError` (French) otherwise."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once, without a writer
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, NOT_REGULAR, str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def open_to_write(path: str | Path, keep: bool = False) -> BinaryIO:
    """A file opened to write: emptied (created if absent), or with `keep` opened to read and write as it
    is. A named pipe is refused (`OSError`, French) rather than waited on for a reader; a device that
    never blocks (/dev/null, /dev/full) is written like a file."""
    flags = os.O_NONBLOCK | (os.O_RDWR if keep else os.O_WRONLY | os.O_CREAT)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a named pipe nobody reads, opened without waiting
            raise OSError(errno.EINVAL, NOT_REGULAR, str(path)) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
            raise OSError(errno.EINVAL, NOT_REGULAR, str(path))
        if stat.S_ISREG(mode) and not keep:
            os.ftruncate(fd, 0)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "r+b" if keep else "wb")
    except BaseException:
        os.close(fd)
        raise


def is_pipe(path: str | Path) -> bool:
    """Whether `path` is a named pipe or a socket (what a reader or a writer would wait on)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def read_bounded(path: str | Path, limit: int = MAX_TEXT_BYTES) -> bytes:
    """A small regular file's bytes; an `OSError` (French) past `limit` rather than memory without end,
    and for anything but a regular file (open_regular)."""
    with open_regular(path) as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"plus de {limit // 2**20} Mo : trop grand", str(path))
    return data


# An operating system's refusal said in French: its own text (`strerror`) is English.
_SAID = {
    errno.ENOENT: "fichier ou dossier introuvable",
    errno.EACCES: "accès refusé",
    errno.EPERM: "opération non permise",
    errno.EROFS: "disque en lecture seule",
    errno.ENOSPC: "disque plein",
    errno.EDQUOT: "quota disque dépassé",
    errno.EFBIG: "fichier trop gros pour ce disque",
    errno.EISDIR: "c'est un dossier, pas un fichier",
    errno.ENOTDIR: "un fichier se trouve là où un dossier est attendu",
    errno.EEXIST: "existe déjà",
    errno.ENAMETOOLONG: "nom de fichier trop long",
    errno.ELOOP: "trop de liens symboliques",
    errno.EMFILE: "trop de fichiers ouverts",
    errno.ENFILE: "trop de fichiers ouverts",
    errno.EIO: "erreur d'entrée-sortie du disque",
    errno.EPIPE: "le lecteur est parti (tube fermé)",
    errno.EBUSY: "ressource occupée",
    errno.ETXTBSY: "fichier occupé",
    errno.ENXIO: "périphérique introuvable",
    errno.ENODEV: "périphérique introuvable",
    errno.EINVAL: "argument invalide pour le système",
    errno.EAGAIN: "ressource momentanément indisponible",
    errno.ENOMEM: "mémoire insuffisante",
}


def french_reason(exc: OSError) -> str:
    """Why the system refused, in a few French words (never the system's English text)."""
    if exc.strerror and exc.errno and exc.strerror != os.strerror(exc.errno):
        return exc.strerror  # raised by us, already French (user_folder, read_bounded)
    said = _SAID.get(exc.errno or 0)
    if said is not None:
        return said
    return f"erreur du système n° {exc.errno}" if exc.errno else "erreur du système"
