"""Scripted games run in-process through the CLI, for the journal's sweeps: every cut offset of a journal's
last lines, and every `open`/`write`/`fsync` of a whole game failed in turn.

Used by tests/test_journal.py (samples) and benchmarks/journal_faults.py (the full sweeps)."""

from __future__ import annotations

import builtins
import contextlib
import errno
import io
import os
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import crash_rig
import crash_rig_classic

from narrator.cli import main
from narrator.table.events import Event, Outcome
from narrator.table.journal import JournalError, finished, read_journal


@dataclass
class Run:
    code: int | str  # the exit status, or "traceback"
    out: str  # stdout and stderr together

    @property
    def clean(self) -> bool:
        """Exit 0 or 2 (130 for Ctrl-C), and no traceback."""
        return self.code in (0, 2) and "Traceback" not in self.out and "Exception ignored" not in self.out


def run_cli(argv: list[str], typed: str = "") -> Run:
    """`narrator ARGV` in this process, `typed` on its standard input; what it printed and its status."""
    out = io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(typed)
    hook = sys.unraisablehook
    sys.unraisablehook = lambda u: out.write(f"Exception ignored in: {u.object!r}: {u.exc_value!r}\n")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code: int | str = main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
            except BaseException:
                out.write(traceback.format_exc())
                code = "traceback"
    finally:
        sys.stdin = stdin
        sys.unraisablehook = hook
    return Run(code, out.getvalue())


@dataclass
class Family:
    """A scripted game of one family: how to play it, and what is still to say after a journal's events."""

    name: str
    rig: object  # crash_rig or crash_rig_classic

    def inputs(self, events: list[Event] | None) -> tuple[str, list[str]]:
        """(what the operator still types, what the table still says)."""
        if self.rig is crash_rig:
            return "", crash_rig.answers({"events": events} if events is not None else None)
        return crash_rig_classic.inputs(events or [])

    def argv(self, tmp: Path, journal: Path, said: list[str], resume: bool) -> list[str]:
        return self.rig.command(tmp, journal, said, resume)[3:]  # type: ignore[attr-defined]

    def confirmed(self, journal: Path) -> list[dict]:
        return self.rig.confirmed(journal)  # type: ignore[attr-defined]

    def play(self, tmp: Path, journal: Path) -> Run:
        typed, said = self.inputs(None)
        return run_cli(self.argv(tmp, journal, said, False), typed)

    def resume(self, tmp: Path, journal: Path) -> Run:
        try:
            _, events, _ = read_journal(journal)
        except JournalError:
            events = []
        typed, said = self.inputs(events)
        return run_cli(self.argv(tmp, journal, said, True), typed)


FAMILIES = {"poudlard": Family("poudlard", crash_rig), "thiercelieux": Family("thiercelieux", crash_rig_classic)}


def whole_game(family: Family, tmp: Path) -> tuple[bytes, list[dict]]:
    """A game played to its end: its journal's bytes and what it confirmed."""
    journal = tmp / f"whole-{family.name}.jsonl"
    run = family.play(tmp, journal)
    assert run.code == 0, run.out
    return journal.read_bytes(), family.confirmed(journal)


def cut_offsets(data: bytes, lines: int = 3) -> list[int]:
    """Every length the journal could be cut to within its last `lines` lines."""
    starts = [0] + [i + 1 for i, b in enumerate(data) if b == ord("\n")][:-1]
    return list(range(starts[-lines], len(data)))


def after_cut(family: Family, tmp: Path, data: bytes, whole: list[dict], offset: int) -> list[str]:
    """The journal cut at `offset`, resumed: what went wrong (nothing: an empty list). The journal must
    then read to its last line, with exactly one outcome, what the whole game confirmed (none lost,
    none doubled), and a second resume must not play again."""
    journal = tmp / f"cut-{family.name}-{offset}.jsonl"
    journal.write_bytes(data[:offset])
    problems = []
    first = family.resume(tmp, journal)
    if not first.clean:
        problems.append(f"reprise : sortie {first.code} : {first.out[-300:]}")
    try:
        _, events, warnings = read_journal(journal)
        if warnings:
            problems.append(f"journal encore abîmé : {warnings}")
        outcomes = sum(isinstance(e, Outcome) for e in events)
        if outcomes != 1:
            problems.append(f"{outcomes} fins de partie")
        if family.confirmed(journal) != whole:
            problems.append("entrées perdues ou en double")
    except JournalError as exc:
        problems.append(f"journal illisible : {exc}")
    before = journal.read_bytes()
    second = family.resume(tmp, journal)
    if second.code != 2 or "déjà terminée" not in second.out or journal.read_bytes() != before:
        problems.append(f"seconde reprise : sortie {second.code} : {second.out[-200:]}")
    return problems


# -- failures injected ---------------------------------------------------------------------------


class Faults:
    """Counts the `open`, `write` and `fsync` calls a game makes, and fails the n-th one (ENOSPC)."""

    def __init__(self, fail_at: int | None = None, kinds: tuple[str, ...] = ("open", "write", "fsync")) -> None:
        self.fail_at = fail_at
        self.kinds = kinds
        self.calls = 0
        self.failed: str | None = None

    def _tick(self, kind: str, what: object) -> None:
        if kind not in self.kinds:
            return
        self.calls += 1
        if self.calls == self.fail_at:
            self.failed = f"{kind} {what}"
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        real_open, real_os_open, real_write, real_fsync = builtins.open, os.open, os.write, os.fsync

        def fake_open(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
            if isinstance(file, (str, Path)) and any(c in mode for c in "wax+"):
                self._tick("open", file)
                handle = real_open(file, mode, *args, **kwargs)
                return _Failing(handle, self)
            return real_open(file, mode, *args, **kwargs)

        def fake_os_open(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                self._tick("open", path)
            return real_os_open(path, flags, *args, **kwargs)

        def fake_write(fd, data):  # type: ignore[no-untyped-def]
            if fd > 2:
                self._tick("write", fd)
            return real_write(fd, data)

        def fake_fsync(fd):  # type: ignore[no-untyped-def]
            self._tick("fsync", fd)
            return real_fsync(fd)

        patches = [
            mock.patch("builtins.open", fake_open),
            mock.patch("os.open", fake_os_open),
            mock.patch("os.write", fake_write),
            mock.patch("os.fsync", fake_fsync),
        ]
        with contextlib.ExitStack() as stack:
            for patch in patches:
                stack.enter_context(patch)
            yield


class _Failing:
    """A file whose `write` and `flush` count as writes (and may fail)."""

    def __init__(self, handle: io.IOBase, faults: Faults) -> None:
        self._handle = handle
        self._faults = faults

    def write(self, data: object) -> object:
        self._faults._tick("write", getattr(self._handle, "name", "?"))
        return self._handle.write(data)  # type: ignore[attr-defined]

    def __enter__(self) -> _Failing:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()

    def __getattr__(self, name: str) -> object:
        return getattr(self._handle, name)

    def __iter__(self) -> Iterator[object]:
        return iter(self._handle)


def with_fault(step: Callable[[], Run], fail_at: int | None) -> tuple[Run, Faults]:
    faults = Faults(fail_at)
    with faults.active():
        run = step()
    return run, faults


def _ended(journal: Path) -> bool:
    try:
        return finished(read_journal(journal)[1])
    except JournalError:
        return False


def after_fault(
    family: Family, tmp: Path, whole: list[dict], fail_at: int, begun: bytes | None = None
) -> tuple[list[str], str | None]:
    """A whole game (or, given the journal of a game `begun`, its resume) with its `fail_at`-th
    `open`/`write`/`fsync` failed (the disk full): it must stop with one French line (exit 2) or go on;
    then, resumed with no fault, end as the whole game did. (What went wrong, the call failed.)"""
    journal = tmp / f"fault-{family.name}-{fail_at}.jsonl"
    if begun is not None:
        journal.write_bytes(begun)
    step = (lambda: family.play(tmp, journal)) if begun is None else (lambda: family.resume(tmp, journal))
    run, faults = with_fault(step, fail_at)
    problems = [] if run.clean else [f"sortie {run.code} : {run.out[-400:]}"]
    if run.code == 2 and run.out.count("narrator: ") != 1:
        problems.append(f"pas une seule ligne d'erreur : {run.out[-400:]}")
    if journal.exists() and not problems:
        ended = run.code == 0 or _ended(journal)  # the outcome journaled before the failure: nothing to resume
        then = run if ended else family.resume(tmp, journal)
        if then.code == 2 and "ce n'est pas un journal" in then.out:  # the header itself was never written
            journal.unlink()
            then = family.play(tmp, journal)
        if (then.code != 0 and not ended) or not then.clean:
            problems.append(f"reprise : sortie {then.code} : {then.out[-400:]}")
        elif family.confirmed(journal) != whole:
            problems.append("reprise : entrées perdues ou en double")
    elif not problems:
        then = family.play(tmp, journal)  # no journal: the game never began; it can be begun again
        if then.code != 0:
            problems.append(f"nouvelle partie : sortie {then.code} : {then.out[-400:]}")
    return problems, faults.failed
