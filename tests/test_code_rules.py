"""House rules the code keeps: dependencies point one way; ruff and mypy are clean."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "narrator"

# what each layer of ours may import: cli -> app -> table -> (listen, voice, phones) -> script -> rules
ALLOWED = {
    "rules": {"rules"},
    "script": {"rules", "script", "resources"},
    "voice": {"voice", "resources", "script"},  # script: only its YAML reader (marks), for voice profiles
    "table": {"table", "rules", "script", "voice", "listen", "phones", "resources"},
    "phones": {"phones", "resources"},  # the seats' screens and the web server: no game in them
    "listen": {"listen", "script", "rules", "resources", "voice"},  # voice: its WAV reader
}
# modules that must not touch the outside world
PURE = {"rules"}
IMPURE_MODULES = {
    "os",
    "io",
    "time",
    "datetime",
    "yaml",
    "sounddevice",
    "vosk",
    "pyttsx3",
    "subprocess",
    "pathlib",
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_dependencies_point_one_way_and_rules_stay_pure() -> None:
    wrong = []
    for package, allowed in ALLOWED.items():
        for path in (PACKAGE / package).rglob("*.py"):
            for name in _imports(path):
                parts = name.split(".")
                if parts[0] == "narrator" and len(parts) > 1 and parts[1] not in allowed:
                    wrong.append(f"{path.relative_to(ROOT)} imports {name}")
                if package in PURE and parts[0] in IMPURE_MODULES:
                    wrong.append(f"{path.relative_to(ROOT)} (pure engine) imports {name}")
    assert wrong == []


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert found, f"{name} is a test dependency: ./setup.sh --test installs it"
    return found


def test_ruff_is_clean() -> None:
    for args in (["check", "."], ["format", "--check", "."]):
        run = subprocess.run([_tool("ruff"), *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_is_clean_on_the_whole_package() -> None:
    run = subprocess.run([_tool("mypy"), "narrator"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def _game_names_compared(tree: ast.AST, games: set[str]) -> list[int]:
    """The lines of `tree` that compare something with a game's name (`==`, `!=`, `in ("onuw", …)`)."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for operand in (node.left, *node.comparators):
            items = operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else [operand]
            if any(isinstance(i, ast.Constant) and i.value in games for i in items):
                lines.append(node.lineno)
                break
    return lines


def test_a_game_is_told_from_another_only_by_the_family_registry() -> None:
    from narrator.script.games import GAMES

    registry = PACKAGE / "script" / "games.py"
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != registry
        for line in _game_names_compared(ast.parse(path.read_text(encoding="utf-8")), set(GAMES))
    ]
    assert found == [], "ask narrator/script/games.py (family_of, games_of) instead of testing a game's name"
    # the check itself sees each way of writing such a test
    for written in (
        'game == "poudlard"',
        '"thiercelieux" != game',
        'game in ("onuw", "poudlard")',
        'g not in ["onuw"]',
    ):
        assert _game_names_compared(ast.parse(written), set(GAMES)) == [1], written


FAMILIES = ("onenight", "classic")  # the family folders inside rules/, script/ and table/
# modules that read both families on purpose: start-up wires them; role_names reads any game's characters,
# fixed_lines any game's fixed lines (for a recorded voice pack), story_words both engines' verdict placeholders
# (the story retells them in the past); issue 25's game definition is to carry these instead
BOTH_FAMILIES = {("app",), ("cli",), ("__main__",), ("script", "role_names"), ("script", "fixed_lines")}
BOTH_FAMILIES |= {("script", "story_words")}


def _family(parts: tuple[str, ...]) -> str | None:
    """The family folder a module lies in (parts after `narrator`: ('table', 'classic', 'day')), if any."""
    return parts[1] if len(parts) > 2 and parts[1] in FAMILIES else None


def test_a_family_folder_imports_no_other_family_and_shared_modules_import_none() -> None:
    wrong = []
    for path in PACKAGE.rglob("*.py"):
        here = path.relative_to(PACKAGE).with_suffix("").parts
        if here[:1] in BOTH_FAMILIES or here[:2] in BOTH_FAMILIES or here[0] == "listen":
            continue  # listen has no family folders: it reads the vocabulary of every family's scripts
        mine = _family(here)
        for name in _imports(path):
            parts = tuple(name.split("."))
            there = _family(parts[1:]) if parts[0] == "narrator" else None
            if there is not None and there != mine:
                wrong.append(f"{path.relative_to(ROOT)} ({mine or 'shared'}) imports {name}")
    assert wrong == []
