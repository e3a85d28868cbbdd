"""Voice profiles: the shipped one loads; bad ones are refused with file:line:column in French."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.resources import data_dir
from narrator.voice import Profile, VoiceError, find_profile, load_profile, parse_profile


def test_shipped_french_profile():
    profile = find_profile("fr")
    assert profile == Profile(source=str(data_dir("voices") / "fr.yaml"))
    assert (profile.engine, profile.voice, profile.rate, profile.pitch) == ("pyttsx3", "roa/fr", 160, 50)


def test_unknown_keys_and_bad_values_are_all_reported(tmp_path: Path):
    path = tmp_path / "lente.yaml"
    path.write_text("voice: roa/fr\nrate: vite\nvolume: 0\nvoix: roa/fr\npitch: 50.5\n", encoding="utf-8")
    with pytest.raises(VoiceError) as caught:
        load_profile(path)
    assert str(caught.value).splitlines() == [
        f"{path}:2:7: rate : nombre attendu ; trouvé 'vite'",
        f"{path}:3:9: volume : nombre dans ]0.0 ; 1.0] attendu ; trouvé 0",
        f"{path}:4:1: clé inconnue 'voix' ; clés possibles : engine, voice, rate, volume, pitch, wait_multiplier, pack",
        f"{path}:5:8: pitch : nombre entier attendu ; trouvé 50.5",
    ]


def test_engine_must_be_supported():
    with pytest.raises(VoiceError, match=r"^p.yaml:1:9: engine : un de pyttsx3 attendu ; trouvé 'piper'$"):
        parse_profile("engine: piper\n", "p.yaml")


def test_broken_yaml_and_non_mapping():
    with pytest.raises(VoiceError, match=r"^p.yaml:2:\d+: YAML illisible"):
        parse_profile("rate: 160\n  voice: [\n", "p.yaml")
    with pytest.raises(VoiceError, match=r"^p.yaml:1:1: profil de voix : dictionnaire attendu"):
        parse_profile("- roa/fr\n", "p.yaml")
    with pytest.raises(VoiceError, match="dictionnaire attendu"):
        parse_profile("", "p.yaml")


def test_pack_is_relative_to_the_profile_file(tmp_path: Path):
    path = tmp_path / "conteur.yaml"
    path.write_text("pack: conteur\nwait_multiplier: 1.5\n", encoding="utf-8")
    profile = load_profile(path)
    assert profile.pack == tmp_path / "conteur"
    assert profile.wait_multiplier == 1.5


def test_unknown_profile_names_the_shipped_ones(tmp_path: Path):
    with pytest.raises(VoiceError, match=r"profil de voix 'klingon' introuvable ; profils fournis : .*\bfr\b"):
        find_profile("klingon")
    with pytest.raises(VoiceError, match="profil de voix illisible"):
        load_profile(tmp_path / "absent.yaml")
