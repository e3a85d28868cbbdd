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
        f'{path}:2:7: rate: attendu : un nombre entier ; trouvé : "vite"',
        f"{path}:3:9: volume: attendu : un nombre > 0 ; trouvé : 0",
        f"{path}:4:1: voix: clé inconnue « voix » ; attendu : une de ambience, engine, pack, pitch, rate, voice, volume, wait_multiplier",
        f"{path}:5:8: pitch: attendu : un nombre entier ; trouvé : 50.5",
    ]


def test_engine_must_be_supported():
    with pytest.raises(VoiceError, match=r'^p.yaml:1:9: engine: attendu : une de pyttsx3 ; trouvé : "piper"$'):
        parse_profile("engine: piper\n", "p.yaml")


def test_each_bound_is_said_with_its_place():
    with pytest.raises(VoiceError) as caught:
        parse_profile('rate: 500\nvolume: 1.5\npitch: -1\nwait_multiplier: 0\nvoice: " "\npack: ""\n', "p.yaml")
    assert str(caught.value).splitlines() == [
        "p.yaml:1:7: rate: attendu : un nombre ≤ 450 ; trouvé : 500",
        "p.yaml:2:9: volume: attendu : un nombre ≤ 1 ; trouvé : 1.5",
        "p.yaml:3:8: pitch: attendu : un nombre ≥ 0 ; trouvé : -1",
        "p.yaml:4:18: wait_multiplier: attendu : un nombre > 0 ; trouvé : 0",
        'p.yaml:5:8: voice: attendu : un texte non vide ; trouvé : " "',
        'p.yaml:6:7: pack: attendu : un texte non vide ; trouvé : ""',
    ]
    assert parse_profile("pack: ~\n", "p.yaml").pack is None


def test_broken_yaml_and_non_mapping():
    with pytest.raises(VoiceError, match=r"^p.yaml:2:\d+: YAML illisible"):
        parse_profile("rate: 160\n  voice: [\n", "p.yaml")
    # a file that is no profile at all (a list, nothing, /etc/passwd): what is wanted, nothing of it quoted
    for text in ("- roa/fr\n", "", "root:x:0:0:root:/root:/bin/bash\n"):
        with pytest.raises(
            VoiceError,
            match=r"^p.yaml:1:1: profil de voix : attendu : des réglages « clé: valeur » \(engine, voice, rate…\)$",
        ):
            parse_profile(text, "p.yaml")


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
