"""Shared fixtures: a private TTS cache for every test run, and a real PulseAudio server."""

from __future__ import annotations

import os

import pytest
from audio_server import PACKAGES, AudioServer


@pytest.fixture(scope="session", autouse=True)
def _private_tts_cache(tmp_path_factory: pytest.TempPathFactory):
    """Rendered lines go to a temporary cache, never to the user's ~/.cache."""
    saved = os.environ.get("NARRATOR_CACHE_DIR")
    os.environ["NARRATOR_CACHE_DIR"] = str(tmp_path_factory.mktemp("narrator-cache"))
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
