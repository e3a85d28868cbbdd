"""Bad input never breaks a table: mutated copies of every shipped YAML file load or fail cleanly.

Each mutant (keys deleted, types changed, unknown role ids, duplicate line ids, broken
indentation, random bytes, truncation…) either loads — the mutation was harmless — or raises its
loader's documented error, every line of which reads `file:line:column: ` then French. Never
another exception. `benchmarks/fuzz_scripts.py` runs the same mutator 1,000 times per file;
here a bounded number of seeded mutants per file, then one regression test per crash it found.
"""

from __future__ import annotations

import datetime
import re
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from random import Random

import pytest
import yaml

from narrator.app.demo import parse_demo
from narrator.listen.french import load_phrasebook
from narrator.resources import data_dir
from narrator.rules.onenight.deal import random_record
from narrator.rules.onenight.model import COPY_PREFIX
from narrator.rules.reason import Reason
from narrator.script.classic.script import load_classic_script
from narrator.script.line import Wait
from narrator.script.marks import YamlError, load_marked
from narrator.script.onenight.explain import card_name, say
from narrator.script.onenight.script import _PLACEHOLDERS, GameScript, load_script
from narrator.script.prompts import PLACEHOLDERS, Prompts, parse_prompts
from narrator.script.story_words import parse_story_words
from narrator.voice.errors import VoiceError
from narrator.voice.pcm import SAMPLE_RATE
from narrator.voice.profile import parse_profile
from narrator.voice.timeline import Pause, assemble

MUTANTS_PER_FILE = 60
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Loader:
    """How a shipped file is read, and the one exception it may raise on bad input."""

    load: Callable[[str, str], object]
    error: type[Exception]


SHIPPED: dict[str, Loader] = {
    "scripts/onuw.yaml": Loader(load_script, YamlError),
    "scripts/poudlard.yaml": Loader(load_script, YamlError),
    "scripts/thiercelieux.yaml": Loader(load_classic_script, YamlError),
    "scripts/table.yaml": Loader(parse_prompts, YamlError),
    "scripts/demo.yaml": Loader(parse_demo, YamlError),
    "scripts/story.yaml": Loader(parse_story_words, YamlError),
    "scripts/listen.fr.yaml": Loader(load_phrasebook, YamlError),
    "voices/fr.yaml": Loader(lambda text, file: parse_profile(text, file), VoiceError),
}


def shipped_text(file: str) -> str:
    folder, name = file.split("/")
    return (data_dir(folder) / name).read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The mutator. Text mutations work on the lines as written (comments kept); data mutations
# compose the file, change the data and dump it again.

_NOISE = (
    ":", "-", "? ", "[", "]", "{", "}", ",", "#", "&a ", "*a", "!", "!!", "|", ">", "'", '"', "%", "@", "`",
    "\t", "\n", "\r", "\r\n", "\x00", "\x07", "\x1b", "\x7f", "\x85", "\u2028", "\u2029", "\ufeff", "\u200b",
    "\ud800", "é", "€", "😀", "ß", "\u0301", "  ", "<<: ", "--- ", "...", "{{", "}}",
)  # fmt: skip
_VALUES = (
    "~", "null", "0", "-1", "3", "1.5", "1e400", ".inf", "-.inf", ".nan", "true", "no", "yes", "''", '""',
    "[]", "{}", "[a, b]", "{a: 1}", "2020-01-01", "2020-13-45", "12:30:00", "0x1F", "0o17", "1_000",
    "!!binary AAAA", "!!binary ???", "!!int abc", "!!float x", "!!bool maybe", "!!timestamp nope",
    "!!python/object:os.system x", "!!set {a}", "!!omap [a]", "!!str", "!!map []", "!unknown x",
    "*nope", "&a x", "'{'", "'}'", "'{inconnu}'", "'{}'", "'{0}'", "'{name!r}'", "'{name:%}'", "'{name.x}'",
    "|", ">", "'" + "x" * 5000 + "'", "- a", "a: b: c", "'\\n'", '"a\\nb"', '"\\u2028"', '"\\x00"',
)  # fmt: skip
_KEYS = ("inconnue", "1", "~", "true", "''", "2020-01-01", "<<", "? [a, b]", "[a]", "{a: 1}", "&k x", "*k", "é", "a b")
_TEMPLATES = ("{inconnu}", "{", "}", "{}", "{0}", "{name!r}", "{name:%}", "{name.x}", "{name[0]}", "{{", "{ name }")
_DATA_VALUES: tuple[object, ...] = (
    None, 0, -1, 1.5, True, False, "", "x", "inconnu", [], {}, [1, "a"], {"a": 1}, {1: 2}, 10**30,
    float("inf"), float("nan"), datetime.date(2020, 1, 1), "{", "{inconnu}", "a\nb", "\u2028",
)  # fmt: skip
_KEY_LINE = re.compile(r"^(\s*(?:- )?)([^\s#:][^:#\n]*?):(\s+)(\S.*)$")


def _content_lines(lines: list[str]) -> list[int]:
    found = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]
    return found or list(range(len(lines)))


def _key_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if _KEY_LINE.match(line)]


def delete_line(text: str, rng: Random) -> str:
    lines = text.split("\n")
    del lines[rng.choice(_content_lines(lines))]
    return "\n".join(lines)


def duplicate_line(text: str, rng: Random) -> str:
    lines = text.split("\n")
    i = rng.choice(_content_lines(lines))
    lines.insert(rng.choice([i, i + 1, rng.randrange(len(lines) + 1)]), lines[i])
    return "\n".join(lines)


def swap_lines(text: str, rng: Random) -> str:
    lines = text.split("\n")
    content = _content_lines(lines)
    i, j = rng.choice(content), rng.choice(content)
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def break_indentation(text: str, rng: Random) -> str:
    lines = text.split("\n")
    i = rng.choice(_content_lines(lines))
    body = lines[i].lstrip(" ")
    indent = len(lines[i]) - len(body)
    how = rng.randrange(4)
    if how == 0:
        lines[i] = " " * (indent + rng.randint(1, 3)) + body
    elif how == 1:
        lines[i] = " " * rng.randint(0, max(0, indent - 1)) + body
    elif how == 2:
        lines[i] = "\t" * max(1, indent // 2) + body
    else:
        lines[i] = " " * indent + "\t" + body
    return "\n".join(lines)


def insert_noise(text: str, rng: Random) -> str:
    at = rng.randrange(len(text) + 1)
    how = rng.randrange(3)
    if how == 0:
        noise = "".join(rng.choice(_NOISE) for _ in range(rng.randint(1, 4)))
    elif how == 1:  # random bytes, as a careless editor would keep them
        noise = rng.randbytes(rng.randint(1, 12)).decode("latin-1")
    else:  # random bytes read as UTF-8 without complaint: lone surrogates
        noise = rng.randbytes(rng.randint(1, 12)).decode("utf-8", "surrogateescape")
    return text[:at] + noise + text[at:]


def truncate(text: str, rng: Random) -> str:
    return text[: rng.randrange(len(text))]


def retype_value(text: str, rng: Random) -> str:
    lines = text.split("\n")
    keyed = _key_lines(lines)
    if not keyed:
        return insert_noise(text, rng)
    i = rng.choice(keyed)
    indent, key, space, _ = _KEY_LINE.match(lines[i]).groups()  # type: ignore[union-attr]
    lines[i] = f"{indent}{key}:{space}{rng.choice(_VALUES)}"
    return "\n".join(lines)


def rekey(text: str, rng: Random) -> str:
    lines = text.split("\n")
    keyed = _key_lines(lines)
    if not keyed:
        return insert_noise(text, rng)
    i = rng.choice(keyed)
    indent, _, space, value = _KEY_LINE.match(lines[i]).groups()  # type: ignore[union-attr]
    other = _KEY_LINE.match(lines[rng.choice(keyed)]).group(2)  # type: ignore[union-attr]
    lines[i] = f"{indent}{rng.choice((*_KEYS, other, other))}:{space}{value}"
    return "\n".join(lines)


def add_aliases(text: str, rng: Random) -> str:
    lines = text.split("\n")
    keyed = _key_lines(lines)
    if len(keyed) < 2:
        return insert_noise(text, rng)
    i, j = sorted(rng.sample(keyed, 2))
    how = rng.randrange(4)
    if how == 0:  # an anchor, then an alias to it
        lines[i] = re.sub(r":(\s+)", r":\1&a ", lines[i], count=1)
        lines[j] = _KEY_LINE.sub(r"\1\2:\3*a", lines[j])
    elif how == 1:  # an alias to itself
        lines[i] = _KEY_LINE.sub(r"\1\2:\3&r [*r]", lines[i])
    elif how == 2:  # a merge key that merges itself, or a scalar
        lines[i] = _KEY_LINE.sub(rng.choice((r"\1\2:\3&m {<<: *m}", r"\1\2:\3{<<: 3}", r"\1\2:\3{<<: [3]}")), lines[i])
    else:  # a billion laughs: each anchor ten times the one before
        laughs = ["&l0 [" + ", ".join(["x"] * 10) + "]"]
        laughs += [f"&l{n} [" + ", ".join([f"*l{n - 1}"] * 10) + "]" for n in range(1, 7)]
        lines[i] = _KEY_LINE.sub(lambda m: f"{m[1]}{m[2]}:{m[3]}[{', '.join(laughs)}]", lines[i])
    return "\n".join(lines)


def nest_deeply(text: str, rng: Random) -> str:
    lines = text.split("\n")
    keyed = _key_lines(lines)
    if not keyed:
        return insert_noise(text, rng)
    i = rng.choice(keyed)
    n = rng.choice((3, 60, 600, 5000))
    open_, close = rng.choice((("[", "]"), ("{a: ", "}")))
    lines[i] = _KEY_LINE.sub(lambda m: f"{m[1]}{m[2]}:{m[3]}{open_ * n}x{close * n}", lines[i])
    return "\n".join(lines)


def break_template(text: str, rng: Random) -> str:
    found = list(re.finditer(r"\{\w+\}", text))
    if not found:
        return insert_noise(text, rng)
    match = rng.choice(found)
    name = match.group()[1:-1]
    wrong = rng.choice(_TEMPLATES).replace("name", name)
    return text[: match.start()] + wrong + text[match.end() :]


TEXT_MUTATIONS = (
    delete_line, duplicate_line, swap_lines, break_indentation, insert_noise, truncate, retype_value, rekey,
    add_aliases, nest_deeply, break_template,
)  # fmt: skip


def _places(data: object, path: tuple = ()) -> list[tuple]:
    """Every path in the data, the root included."""
    out = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _places(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _places(value, path + (i,))
    return out


def _get(data: object, path: tuple) -> object:
    for key in path:
        data = data[key]  # type: ignore[index]
    return data


def _set(data: object, path: tuple, value: object) -> object:
    if not path:
        return value
    _get(data, path[:-1])[path[-1]] = value  # type: ignore[index]
    return data


def drop_key(data: object, rng: Random) -> object:
    holders = [p for p in _places(data) if isinstance(_get(data, p), dict) and _get(data, p)]
    if holders:
        holder = _get(data, rng.choice(holders))
        del holder[rng.choice(list(holder))]  # type: ignore[union-attr]
    return data


def change_type(data: object, rng: Random) -> object:
    return _set(data, rng.choice(_places(data)), rng.choice(_DATA_VALUES))


def unknown_reference(data: object, rng: Random) -> object:
    """A value naming a key defined elsewhere (a role id, a scenario, a game) now names nothing."""
    places = _places(data)
    keys = {p[-1] for p in places if p and isinstance(p[-1], str)}
    refs = [p for p in places if isinstance(_get(data, p), str) and _get(data, p) in keys]
    if refs:
        path = rng.choice(refs)
        return _set(data, path, f"inconnu_{_get(data, path)}")
    return rename_key(data, rng)


def rename_key(data: object, rng: Random) -> object:
    holders = [p for p in _places(data) if isinstance(_get(data, p), dict) and _get(data, p)]
    if holders:
        holder = _get(data, rng.choice(holders))
        key = rng.choice(list(holder))  # type: ignore[arg-type]
        holder[rng.choice(("inconnu", f"{key}_x", 7, None, True))] = holder.pop(key)  # type: ignore[union-attr]
    return data


def duplicate_id(data: object, rng: Random) -> object:
    """Two lines share an id (or, where nothing has an id, a list holds an item twice)."""
    places = _places(data)
    ids = [p for p in places if p and p[-1] in ("id", "name") and isinstance(_get(data, p), str)]
    if len(ids) >= 2:
        one, other = rng.sample(ids, 2)
        return _set(data, one, _get(data, other))
    lists = [p for p in places if isinstance(_get(data, p), list) and _get(data, p)]
    if lists:
        items = _get(data, rng.choice(lists))
        items.append(rng.choice(items))  # type: ignore[union-attr]
    return data


def add_key(data: object, rng: Random) -> object:
    holders = [p for p in _places(data) if isinstance(_get(data, p), dict)]
    if holders:
        _get(data, rng.choice(holders))[rng.choice(("inconnue", 3, None, False, "a b"))] = rng.choice(_DATA_VALUES)  # type: ignore[index]
    return data


def empty(data: object, rng: Random) -> object:
    containers = [p for p in _places(data) if isinstance(_get(data, p), (dict, list))]
    if not containers:
        return data
    path = rng.choice(containers)
    return _set(data, path, type(_get(data, path))())


def swap_values(data: object, rng: Random) -> object:
    places = [p for p in _places(data) if p]
    if len(places) < 2:
        return data
    one, other = rng.sample(places, 2)
    if one[: len(other)] == other or other[: len(one)] == one:
        return data  # one holds the other
    a, b = _get(data, one), _get(data, other)
    _set(data, one, b)
    return _set(data, other, a)


DATA_MUTATIONS = (drop_key, change_type, unknown_reference, rename_key, duplicate_id, add_key, empty, swap_values)


def mutate(text: str, seed: str) -> tuple[str, list[str]]:
    """A mutant of `text` (1 to 3 mutations, data ones first), and the names of the mutations."""
    rng = Random(seed)
    chosen = [rng.choice(TEXT_MUTATIONS + DATA_MUTATIONS) for _ in range(rng.choice((1, 1, 1, 2, 3)))]
    chosen.sort(key=lambda m: m in TEXT_MUTATIONS)
    done = []
    for mutation in chosen:
        if mutation in DATA_MUTATIONS:
            data = mutation(yaml.safe_load(text), rng)
            text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
        else:
            text = mutation(text, rng)  # type: ignore[call-arg]
        done.append(mutation.__name__)
    return text, done


# ---------------------------------------------------------------------------------------------
# The verdict on one mutant.

# The message must speak French: a word of the loaders' French, or a French accent.
_FRENCH = re.compile(
    r"\b(attendue?|trouvé|clé|illisible|inconnue?|manquante|une?|des?|du|les?|la|ne|pas|ni|ou|et|est|dans|sans|ce"
    r"|cette|prend|rien|aucune?|listes?|valeur|texte|nombre|seule?)\b|[éèàçêôû«»]",
    re.IGNORECASE,
)
_LINE_BREAKS = re.compile(r"\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


@dataclass(frozen=True)
class Verdict:
    kind: str  # "valid", "error" (the documented one, well formed) or "crash"
    detail: str = ""
    seconds: float = 0.0


def use(loaded: object) -> None:
    """What a table does with a loaded file: a mutant that loads, then breaks the game, is a crash too."""
    if isinstance(loaded, GameScript):
        rules, announce = loaded.rules, loaded.announce
        cast = list(rules.roles)
        steps = [*announce.setup_steps(cast), *announce.night_steps(cast), *announce.opening_steps(5), *announce.vote]
        assemble([Pause(s.seconds) for s in steps if isinstance(s, Wait)], [], SAMPLE_RATE)  # every wait is silence
        for name, decks in announce.scenarios.items():
            for players, cards in decks.items():
                random_record(rules, Random(name), players, "fuzz", deck=list(cards))
        sample = {"name": "Alice", "role": cast[0], "count": 2, "target": "Bob", "names": ["Alice", "Bob"]}
        for key in rules.texts:
            params = {name: sample[name] for name in _PLACEHOLDERS.get(key, ())}
            say(rules, Reason(key, params))
            if "names" in params:
                say(rules, Reason(key, {**params, "names": ["Alice", "Bob", "Chloé"]}))
        card_name(rules, f"{COPY_PREFIX}{cast[0]}")
    elif isinstance(loaded, Prompts):
        for key, allowed in PLACEHOLDERS.items():
            if key not in ("minutes", "seconds"):  # said through duration()
                loaded.line(key, **{name: 2 for name in allowed})
        for seconds in (0, 1, 59, 60, 61, 125):
            loaded.duration(seconds)


def judge(file: str, text: str) -> Verdict:
    """Load `text` as `file`; a crash is any other exception, or an error line not `file:line:col: French`."""
    loader = SHIPPED[file]
    start = time.perf_counter()
    try:
        loaded = loader.load(text, file)
    except loader.error as exc:
        seconds = time.perf_counter() - start
        lines = str(exc).splitlines()
        where = re.compile(rf"^{re.escape(file)}:(\d+):(\d+): (.+)$")
        most = len(_LINE_BREAKS.split(text)) + 1
        for line in lines or [""]:
            found = where.match(line)
            if not found:
                return Verdict("crash", f"{type(exc).__name__} not at file:line:column: {line!r}", seconds)
            if not 1 <= int(found[1]) <= most or int(found[2]) < 1:
                return Verdict("crash", f"{type(exc).__name__} at no such place: {line!r}", seconds)
            if not _FRENCH.search(found[3]):
                return Verdict("crash", f"{type(exc).__name__} not in French: {line!r}", seconds)
        return Verdict("error", lines[0], seconds)
    except Exception as exc:  # the very thing looked for: anything else is a crash
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        return Verdict("crash", f"{type(exc).__name__} at {where}: {str(exc)[:200]!r}", time.perf_counter() - start)
    try:
        use(loaded)
    except Exception as exc:
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        return Verdict("crash", f"loads, then {type(exc).__name__} at {where}: {str(exc)[:200]!r}")
    return Verdict("valid", "", time.perf_counter() - start)


def run(file: str, count: int, first: int = 0) -> dict[str, list[tuple[str, list[str], Verdict]]]:
    """`count` seeded mutants of `file`, sorted by verdict kind: kind -> [(seed, mutations, verdict)]."""
    original = shipped_text(file)
    out: dict[str, list[tuple[str, list[str], Verdict]]] = {"valid": [], "error": [], "crash": []}
    for i in range(first, first + count):
        seed = f"{file}:{i}"
        text, mutations = mutate(original, seed)
        verdict = judge(file, text)
        out[verdict.kind].append((seed, mutations, verdict))
    return out


# ---------------------------------------------------------------------------------------------
# The bounded fuzz run.


@pytest.mark.parametrize("file", list(SHIPPED))
def test_shipped_file_loads(file: str) -> None:
    assert judge(file, shipped_text(file)).kind == "valid"


@pytest.mark.parametrize("file", list(SHIPPED))
def test_mutants_load_or_fail_with_a_french_line_each(file: str) -> None:
    found = run(file, MUTANTS_PER_FILE)
    crashes = [f"{seed} {'+'.join(m)}: {v.detail}" for seed, m, v in found["crash"]]
    assert crashes == []
    assert len(found["error"]) >= MUTANTS_PER_FILE // 2  # the mutator does break files
    # how long a mutant takes is benchmarks/fuzz_scripts.py's figure (« slowest ms »), not a timed assert


def test_the_mutator_is_deterministic() -> None:
    text = shipped_text("scripts/poudlard.yaml")
    assert mutate(text, "x:1") == mutate(text, "x:1")
    assert len({mutate(text, f"x:{i}")[0] for i in range(20)}) == 20


@pytest.mark.parametrize("seed", range(4))
def test_the_cli_check_never_shows_a_traceback(seed: int, tmp_path: Path) -> None:
    file = ("scripts/onuw.yaml", "scripts/poudlard.yaml")[seed % 2]
    text, _ = mutate(shipped_text(file), f"cli:{file}:{seed}")
    mutant = tmp_path / "mutant.yaml"
    data = text.encode("utf-8", "surrogateescape")
    mutant.write_bytes(data + b"\xff\xfe" if seed == 3 else data)  # not UTF-8 at all
    done = subprocess.run(
        [sys.executable, "-m", "narrator", "check", str(mutant)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode in (0, 2), done.stderr
    assert "Traceback" not in done.stderr
    prefix = re.compile(rf"^({re.escape(str(mutant))}:\d+:\d+: |narrator: )")
    assert all(prefix.match(line) for line in done.stderr.splitlines()), done.stderr


# ---------------------------------------------------------------------------------------------
# One regression test per crash the fuzzer found, with the exact message now given.


def yaml_problems(text: str, load: Callable[[str, str], object] = load_marked, file: str = "f.yaml") -> list[str]:
    with pytest.raises(YamlError) as caught:
        load(text, file)
    return [str(p) for p in caught.value.problems]


def profile_problems(text: str) -> list[str]:
    with pytest.raises(VoiceError) as caught:
        parse_profile(text, "p.yaml")
    return str(caught.value).splitlines()


def test_deep_nesting_was_a_recursion_error() -> None:
    # PyYAML's composer recurses once per level: 5,000 brackets overflowed the stack.
    assert yaml_problems("a: " + "[" * 5000 + "]" * 5000) == [
        "f.yaml:1:103: YAML illisible : plus de 100 niveaux d'imbrication"
    ]
    assert profile_problems("rate: " + "[" * 5000 + "]" * 5000) == [
        "p.yaml:1:106: YAML illisible : plus de 100 niveaux d'imbrication"
    ]


def test_an_alias_inside_itself_was_a_recursion_error() -> None:
    assert yaml_problems("a: &x [*x]\n") == ["f.yaml:1:4: a.0: cet alias se contient lui-même"]
    assert yaml_problems("a: &m {<<: *m}\n") == ["f.yaml:1:4: a: cet alias se contient lui-même"]


_LAUGHS = ["&l0 [" + ", ".join(["x"] * 10) + "]"]
_LAUGHS += [f"&l{n} [" + ", ".join([f"*l{n - 1}"] * 10) + "]" for n in range(1, 7)]
LAUGHS = f"a: [{', '.join(_LAUGHS)}]\n"  # ten aliases of ten aliases… seven levels deep


def test_a_billion_laughs_took_half_a_minute() -> None:
    # ten million values once expanded: refused at the 100,000th, counted, never built (the time it
    # takes is benchmarks/fuzz_scripts.py's « billion laughs » figure)
    assert yaml_problems(LAUGHS) == ["f.yaml:1:31: a.4.7.8.8.8.7: plus de 100000 valeurs une fois les alias développés"]


def test_a_merge_of_no_mapping_was_a_constructor_error() -> None:
    assert yaml_problems("a: {<<: 3}\n") == [
        "f.yaml:1:9: a: « << » fusionne un mapping (*ancre) ou une liste de mappings"
    ]
    assert yaml_problems("b: &b {x: 1}\na: {<<: [*b, 3]}\n") == [
        "f.yaml:2:14: a: « << » fusionne un mapping (*ancre) ou une liste de mappings"
    ]


def test_merged_keys_give_way_to_the_mapping_own_keys() -> None:
    # PyYAML's flatten_mapping put the merged keys beside the mapping's own: "clé en double"
    doc = load_marked("base: &b {x: 1, y: 2}\na: {<<: *b, x: 3}\n", "f.yaml")
    assert doc.data == {"base": {"x": 1, "y": 2}, "a": {"x": 3, "y": 2}}
    assert doc.where(("a", "y")) == (1, 20)  # where the merged value is written


def test_values_pyyaml_cannot_build_were_assorted_exceptions() -> None:
    text = "a: !!int abc\nb: 2020-13-45\nc: !!bool peut-être\nd: !!timestamp nope\n"
    assert yaml_problems(text) == [
        "f.yaml:1:4: a: valeur illisible pour l'étiquette int : 'abc'",  # ValueError
        "f.yaml:2:4: b: valeur illisible pour l'étiquette timestamp : '2020-13-45'",  # ValueError: month
        "f.yaml:3:4: c: valeur illisible pour l'étiquette bool : 'peut-être'",  # KeyError
        "f.yaml:4:4: d: valeur illisible pour l'étiquette timestamp : 'nope'",  # AttributeError
    ]
    assert profile_problems("rate: !!int abc\npitch: 2020-13-45\n") == [
        # voice profiles are read by the same YAML reader as the scripts (narrator.script.marks)
        "p.yaml:1:7: rate: valeur illisible pour l'étiquette int : 'abc'",
        "p.yaml:2:8: pitch: valeur illisible pour l'étiquette timestamp : '2020-13-45'",
    ]


def test_a_refused_character_is_placed_and_one_line() -> None:
    # it was "f.yaml:1:1: … special characters are not allowed" then '  in "<unicode string>", position 5'
    said = "YAML illisible : caractère interdit U+{} (caractère de contrôle, ou octets qui ne sont pas du texte)"
    assert yaml_problems("a: b\x07c\n") == [f"f.yaml:1:5: {said.format('0007')}"]
    assert yaml_problems("a: b\nc: \ud800\n") == [f"f.yaml:2:4: {said.format('D800')}"]
    # in a voice profile, the ReaderError escaped: the loader was built outside the try
    assert profile_problems("engine: pyttsx3\nvoice: r\x07\n") == [
        "p.yaml:2:9: YAML illisible : caractère interdit U+0007 (caractère de contrôle, ou octets qui ne sont pas du texte)"
    ]


def test_pyyaml_problems_are_said_in_french() -> None:
    assert yaml_problems("a:\n\tb: 1\n") == [
        "f.yaml:2:1: YAML illisible : le caractère '\\t' ne peut commencer aucune valeur (une tabulation ? indentez "
        "avec des espaces, ou mettez le texte entre guillemets)"
    ]
    assert yaml_problems("a: [b, c\n") == [
        "f.yaml:2:1: YAML illisible : « , » ou « ] » attendu ; trouvé : la fin du fichier"
    ]
    assert yaml_problems("- a\nb: c\n") == [
        "f.yaml:2:1: YAML illisible : indentation incohérente (trouvé ici : une clé)"
    ]
    assert yaml_problems("a: !!python/object:os.system x\n") == [
        "f.yaml:1:4: a: valeur illisible : étiquette '!!python/object:os.system' inconnue"
    ]


POUDLARD = "scripts/poudlard.yaml"


def poudlard(old: str, new: str, count: int = 1) -> str:
    text = shipped_text(POUDLARD)
    assert re.search(old, text, re.MULTILINE), old
    return re.sub(old, new, text, count=count, flags=re.MULTILINE)


def test_a_line_break_in_a_quoted_value_stays_on_one_line() -> None:
    text = shipped_text(POUDLARD).replace("[fred, george]", '[fred, "a\\nb"]')  # YAML reads a line break
    found = yaml_problems(text, load_script, POUDLARD)
    assert found[0] == "scripts/poudlard.yaml:21:12: together.0.1: personnage inconnu « a\\nb »"
    assert all("\n" not in p for p in found)


def test_a_value_json_cannot_show_was_a_type_error() -> None:
    # YAML reads 2020-01-01 as a date; quoting it in the message called json.dumps on it
    found = yaml_problems(poudlard(r"^title: .*$", "title: 2020-01-01"), load_script, POUDLARD)
    assert found == ["scripts/poudlard.yaml:8:8: title: attendu : un texte ; trouvé : 2020-01-01"]


def test_whole_floats_and_infinity_were_accepted_then_broke_the_game() -> None:
    # copies: 2.0 loaded, then random_deck's range(2.0) raised TypeError
    found = yaml_problems(poudlard(r"^    copies: 2$", "    copies: 2.0"), load_script, POUDLARD)
    assert found == ["scripts/poudlard.yaml:33:13: roles.mangemort.copies: attendu : un nombre entier ; trouvé : 2.0"]
    # {wait: .inf} loaded, then rendering the night raised OverflowError
    found = yaml_problems(poudlard(r"\{wait: \d+\}", "{wait: .inf}"), load_script, POUDLARD)
    assert found == ["scripts/poudlard.yaml:210:16: night.1.lines.2.wait: attendu : un nombre ; trouvé : Infinity"]
    assert profile_problems("volume: .nan\n") == ["p.yaml:1:9: volume: attendu : un nombre ; trouvé : NaN"]


def test_a_role_id_that_is_no_text_was_a_type_error() -> None:
    # the pattern applies to strings only: roles: {1: …} passed, then check_setup's join failed
    found = yaml_problems(poudlard(r"^  hermione:$", "  1:"), load_script, POUDLARD)
    assert found == [
        "scripts/poudlard.yaml:54:3: roles.1: identifiant invalide « 1 » ; attendu : minuscules ASCII et _"
    ]


def test_broken_braces_in_a_text_were_a_value_error() -> None:
    found = yaml_problems(
        poudlard(r'^(\s+one: "Égalité à une voix entre )\{names\}', r"\1{names"), load_script, POUDLARD
    )
    assert found == [
        "scripts/poudlard.yaml:138:10: texts.tie.one: accolade { ou } seule : attendu {nom} ; écrire {{ ou }} pour une accolade"
    ]


def test_templates_that_load_but_fail_when_filled_are_refused() -> None:
    # "{}" passed (its name is empty), then format(names=…) raised IndexError
    found = yaml_problems(poudlard(r"^  winners: .*$", '  winners: "Gagnants : {}."'), load_script, POUDLARD)
    assert found == [
        "scripts/poudlard.yaml:154:12: texts.winners: {} : un nom attendu entre les accolades, comme {nom}"
    ]
    # "{name:%}" passed, then format raised ValueError
    found = yaml_problems(poudlard(r'^(  spared: ".*)\{name\}', r"\1{name:%}"), load_script, POUDLARD)
    assert found == [
        "scripts/poudlard.yaml:140:11: texts.spared: {name:%} : ni « ! » ni « : » dans un {…} ; attendu {name}"
    ]
    # one/two/many where no {names} nor {count} decides between them: explain.say raised KeyError
    found = yaml_problems(poudlard(r"^  no_votes: .*$", "  no_votes: {two: a, many: b}"), load_script, POUDLARD)
    assert found == [
        "scripts/poudlard.yaml:134:13: texts.no_votes: attendu : un texte (one/two/many ne vont qu'avec {names} ou {count})"
    ]
    table = shipped_text("scripts/table.yaml").replace("Il reste {time}.", "Il reste {time!r}.", 1)
    assert yaml_problems(table, parse_prompts, "scripts/table.yaml") == [
        "scripts/table.yaml:7:10: resumed: {time!r} : ni « ! » ni « : » dans un {…} ; attendu {time}"
    ]


def test_one_template_for_all_minutes_was_a_type_error() -> None:
    # the schema allows a plain text for minutes and seconds; duration() indexed it like {one, many}
    table = shipped_text("scripts/table.yaml").replace(
        'minutes: {one: "une minute", many: "{n} minutes"}', 'minutes: "{n} min"'
    )
    prompts = parse_prompts(table, "scripts/table.yaml")
    assert (prompts.duration(61), prompts.duration(120)) == ("1 min et une seconde", "2 min")


def test_profile_keys_that_are_no_text_or_twice_were_a_type_error_or_silent() -> None:
    assert profile_problems("? [a, b]\n: 1\n") == ["p.yaml:1:3: une clé doit être un simple texte"]
    assert profile_problems("rate: 100\nrate: 120\n") == ["p.yaml:2:1: rate: clé en double"]
    assert profile_problems("voice: [a]\n") == ['p.yaml:1:8: voice: attendu : un texte ; trouvé : ["a"]']
