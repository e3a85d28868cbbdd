"""Where the shipped YAML lives (inside the installed package, or beside it in a source checkout), and
the user's own folders (cache, settings, journals)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

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
