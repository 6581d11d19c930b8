"""What a ``grn validate`` of one small file imports: no Lark when the fast reader takes every game.

Importing Lark is about a third of a small file's validate (docs/performance.md,
"Start-up, round seven").  The fast reader needs only the grammar's terminal
table, which the grammar cache keeps after the first run, so a valid file of
any game, comments and markup included, is checked without Lark; a game with
a syntax error still goes to Lark, whose messages (file:line:col, the same
wording) the user sees.  Each case runs the console
script's own path (:mod:`grn.cli.launch`) in a fresh interpreter with its own
cache folder, once to fill the cache and once to list the modules.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_LIST_MODULES = """
import sys
from grn.cli.launch import main
sys.argv = ["grn", "validate", *sys.argv[1:]]
try:
    main()
except SystemExit as exc:
    code = exc.code
print(code, " ".join(sorted(sys.modules)))
"""


def validate_modules(cache: Path, *paths: Path) -> tuple[str, set[str], str]:
    """(exit code, modules imported, standard error) of ``grn validate PATHS`` in a fresh interpreter."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", _LIST_MODULES, *map(str, paths)], capture_output=True, text=True,
                          cwd=ROOT, env=env, check=True)
    last = done.stdout.strip().rpartition("\n")[2]
    code, _, names = last.partition(" ")
    return code, set(names.split()), done.stdout + done.stderr


def lark_modules(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m == "lark" or m.startswith("lark.") or m == "grn.notation.larkread")


EXAMPLES = (
    "examples/rulebook-railroad-3.grn",  # Gold Rush: comments and markup
    "examples/gold-2p.grn",  # Gold: a comment before the first turn
    "examples/carcassonne/carcassonne-rules-question.grn",  # Carcassonne: comments and markup
    "examples/carcassonne/carcassonne-2p.grn",  # no comment
    "tests/data/bga-361578832.grn",  # a Board Game Arena import
    "examples/goldrush-2p.grn",  # variations
)


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder that holds every game's terminal table (the first run keeps them, with Lark)."""
    cache = tmp_path_factory.mktemp("cache")
    validate_modules(cache, *(ROOT / e for e in EXAMPLES))
    return cache


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_valid_file_with_comments_is_checked_without_lark(warm_cache: Path, example: str) -> None:
    code, modules, _ = validate_modules(warm_cache, ROOT / example)
    assert code in ("0", "None")
    assert not lark_modules(modules), f"grn validate {example} imports {lark_modules(modules)}"
    assert "grn.notation.fastread" in modules


def test_a_syntax_error_goes_to_lark_with_its_own_words(tmp_path: Path, warm_cache: Path) -> None:
    bad = tmp_path / "bad.grn"
    bad.write_text('[Game "goldrush"]\n\n{a comment}\n1. red 17@0,1 {never closed\n', encoding="utf-8")
    code, modules, out = validate_modules(warm_cache, bad)  # Gold Rush's table is kept: Lark only for the error
    assert code == "1" and "lark" in modules
    assert f"{bad}:4:15: error: syntax error: a {{ comment that is never closed" in out


def test_a_changed_grammar_file_is_not_read_from_a_stale_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table names the grammar files it came from by their digests: one that no longer matches is rebuilt."""
    from grn.notation import grammar_cache
    from grn.core import registry
    from grn.notation.larkread import terminal_table

    ruleset = registry.find_ruleset("gold")
    grammar = ruleset.grammar_text()
    folder = str(tmp_path / "grn")
    assert grammar_cache.load_terminals(grammar, grammar_cache.GRAMMAR_PACKAGES, cache_dir=folder) is None
    table = terminal_table(ruleset)
    grammar_cache.save_terminals(grammar, grammar_cache.GRAMMAR_PACKAGES, table.to_json(), cache_dir=folder)
    assert grammar_cache.load_terminals(grammar, grammar_cache.GRAMMAR_PACKAGES, cache_dir=folder) == table.to_json()
    # another grammar text, the file with one byte changed, or an edited envelope.lark: not read from it
    assert grammar_cache.load_terminals(grammar + "\n", grammar_cache.GRAMMAR_PACKAGES, cache_dir=folder) is None
    (name,) = [n for n in os.listdir(folder) if n.endswith(".terms.json")]
    path = Path(folder) / name
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"PLAYER"', b'"PLAYEr"'))
    assert grammar_cache.load_terminals(grammar, grammar_cache.GRAMMAR_PACKAGES, cache_dir=folder) is None
    path.write_bytes(data)
    assert grammar_cache.load_terminals(grammar, grammar_cache.GRAMMAR_PACKAGES, cache_dir=folder) is not None
    real = grammar_cache._package_file_text
    monkeypatch.setattr(grammar_cache, "_package_file_text",
                        lambda package, name: (real(package, name) or "") + ("// edited" if name == "envelope.lark" else ""))
    assert grammar_cache.load_terminals(grammar, grammar_cache.GRAMMAR_PACKAGES, cache_dir=folder) is None


#: Modules a ``grn validate`` of a valid file has no use for, each a few milliseconds of its start-up
#: (docs/performance.md, "Start-up, round thirteen"): dataclasses (with inspect) generates each class's
#: methods from source, importlib.resources loads tempfile, shutil and zipfile, hashlib loads OpenSSL,
#: ast came with the list of compiled modules, pickle serves only the Dask path.
HEAVY_AT_START = ("dataclasses", "inspect", "importlib.resources", "zipfile", "tempfile", "hashlib", "ast",
                  "pickle")


@pytest.mark.parametrize("example", EXAMPLES[:3])
def test_a_valid_file_is_checked_without_the_modules_start_up_has_no_use_for(warm_cache: Path,
                                                                             example: str) -> None:
    code, modules, out = validate_modules(warm_cache, ROOT / example)
    assert code == "0", out
    assert not [m for m in HEAVY_AT_START if m in modules], f"grn validate {example} imports them"
