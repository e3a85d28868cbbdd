"""The narrator speaks whatever the disk: a TTS cache it cannot write gives one French warning, never silence.

Real espeak-ng, real failures from the kernel: a regular file where the cache folder should be,
a folder under /dev/full, a write that gets ENOSPC (/dev/full), a read-only folder (chattr +i as
root, whom chmod does not stop; chmod 0o500 otherwise).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from narrator.voice import Renderer, Say, VoiceError, find_profile
from narrator.voice import tts as tts_module
from narrator.voice.pcm import rms

NIGHT = [Say("nuit", "Tout le monde ferme les yeux.")]
DAY = [Say("jour", "Le village se réveille.")]
WARNING = "Attention : le cache de la voix {cache} est inutilisable ({reason}) ; les répliques sont synthétisées dans "


@pytest.fixture(autouse=True)
def _forget_fallbacks() -> Iterator[None]:
    """Each test starts as a new process would: no cache folder known to be unusable yet."""
    saved = dict(tts_module._fallbacks)
    tts_module._fallbacks.clear()
    yield
    tts_module._fallbacks.clear()
    tts_module._fallbacks.update(saved)


def speak(script: list[Say]) -> Renderer:
    """Render with the default cache ($NARRATOR_CACHE_DIR) and check that the narrator did speak."""
    renderer = Renderer(find_profile("fr"))
    rendered = renderer.render(script)
    assert rendered.duration_s > 0.5 and rms(rendered.pcm) > tts_module.SILENCE_RMS
    return renderer


def one_warning(err: str, cache: Path, reason: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(WARNING.format(cache=cache, reason=reason)), lines[0]
    return lines[0]


def test_a_file_where_the_cache_folder_should_be(tmp_path: Path, monkeypatch, capsys) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("pas un dossier\n", encoding="utf-8")
    monkeypatch.setenv("NARRATOR_CACHE_DIR", str(blocker))
    speak(NIGHT)
    warning = one_warning(capsys.readouterr().err, blocker / "tts", "un fichier se trouve là où un dossier est attendu")
    folder = Path(warning.split(" dans ")[-1].split(",")[0])
    assert folder.is_dir() and list(folder.glob("*.wav"))  # the line is kept for this process
    speak(DAY)  # a second renderer (a player's voice, the next phase): no second warning
    assert capsys.readouterr().err == ""


def test_a_cache_under_dev_full(monkeypatch, capsys) -> None:
    monkeypatch.setenv("NARRATOR_CACHE_DIR", "/dev/full")
    speak(NIGHT + DAY)
    one_warning(capsys.readouterr().err, Path("/dev/full/tts"), "un fichier se trouve là où un dossier est attendu")


def test_a_full_disk(tmp_path: Path, monkeypatch, capsys) -> None:
    # The room for a line is checked by writing it: here that write gets ENOSPC from the kernel.
    cache = tmp_path / "tts"
    cache.mkdir()
    (cache / f".place-{os.getpid()}").symlink_to("/dev/full")
    monkeypatch.setenv("NARRATOR_CACHE_DIR", str(tmp_path))
    speak(NIGHT)
    one_warning(capsys.readouterr().err, cache, "disque plein")
    assert not list(cache.glob("*.wav"))


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[str]:
    """`folder` made read-only for this process, and the French reason a write then gets."""
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            yield "écriture refusée"
        finally:
            folder.chmod(0o700)
        return
    try:  # root writes through any chmod; the immutable attribute stops it
        subprocess.run(["chattr", "+i", str(folder)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"running as root without chattr +i ({exc}): no read-only folder to test with")
    try:
        yield "écriture refusée"
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_read_only_cache_still_serves_its_lines(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("NARRATOR_CACHE_DIR", str(tmp_path))
    speak(NIGHT)
    assert capsys.readouterr().err == ""
    with read_only(tmp_path / "tts") as reason:
        with pytest.raises(OSError):
            (tmp_path / "tts" / "essai").write_bytes(b"")  # it is read-only for real
        renderer = speak(NIGHT)  # already cached: read, not synthesized, nothing to say
        assert renderer.tts.synthesized == 0 and capsys.readouterr().err == ""
        renderer = speak(DAY)  # a new line: synthesized elsewhere, said once
        assert renderer.tts.synthesized == 1
        one_warning(capsys.readouterr().err, tmp_path / "tts", reason)


def test_nowhere_to_write_is_one_french_error(tmp_path: Path, monkeypatch, capsys) -> None:
    blocker = tmp_path / "fichier"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("NARRATOR_CACHE_DIR", str(blocker))
    monkeypatch.setattr(tempfile, "tempdir", str(blocker))  # no temporary folder either
    with pytest.raises(VoiceError) as caught:
        Renderer(find_profile("fr")).render(NIGHT)
    assert str(caught.value) == (
        f"le cache de la voix {blocker / 'tts'} est inutilisable (un fichier se trouve là où un dossier est attendu) "
        "et aucun dossier temporaire ne peut être créé (un fichier se trouve là où un dossier est attendu)"
    )
    assert capsys.readouterr().err == ""
