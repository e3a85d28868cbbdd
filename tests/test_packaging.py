"""A normal (non-editable) install carries the YAML, and pyproject lists every package."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_lists_every_package() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.findall(r'^\s+"(narrator[\w.]*)",$', text, flags=re.M))
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "narrator").rglob("__init__.py")} | {
        "narrator.scripts",
        "narrator.voices",
    }
    assert listed == on_disk


def test_installed_package_finds_its_scripts_outside_the_checkout(tmp_path: Path) -> None:
    # Run where the checkout is not importable: what is found is the installed package's own data.
    code = (
        "import narrator, sys; from narrator.resources import data_dir; from narrator.script.onenight.script import load_game;"
        "d = data_dir('scripts'); print(narrator.__file__); print(d);"
        "print(sorted(p.name for p in d.glob('*.yaml'))); print(len(load_game('poudlard').roles))"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    package_file, scripts, names, roles = run.stdout.splitlines()
    package = Path(package_file).parent
    assert Path(scripts) == package / "scripts", "the YAML must ship inside the installed package"
    assert package != ROOT / "narrator", "narrator is not installed: run ./setup.sh --test"
    assert "onuw.yaml" in names and "poudlard.yaml" in names
    assert roles == "13"
