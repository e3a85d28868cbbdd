"""`narrator ARGS` run inside the test's process (narrator.cli.main) with its output captured by capsys:
what it prints and its exit status, as a subprocess would give them, without the seconds a new Python
takes to start. For refusals and quick commands; each command keeps real runs in its own tests."""

from __future__ import annotations

import subprocess

import pytest

from narrator.cli import main


def narrator_here(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    capsys.readouterr()  # what the test printed before is not the command's
    try:
        code = main(list(args))
    except SystemExit as exit:  # argparse's refusals and --help
        code = exit.code if isinstance(exit.code, int) else 2
    out = capsys.readouterr()
    return subprocess.CompletedProcess(["narrator", *args], code, out.out, out.err)
