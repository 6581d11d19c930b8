"""The grammar cache cannot run code, trusts only the user's own folder, and changes no parse.

A planted pickle (whose unpickling writes a marker file) is put at every path
the cache reads; it never runs.  Symlinks, FIFOs, foreign or world-writable
folders and garbage files are refused or rebuilt, silently.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import stat
from pathlib import Path
from typing import Any, cast

import pytest
from lark import Lark
from lark.load_grammar import FromPackageLoader

import grn.notation.grammar_cache as gc
from grn.notation import larkread
from grn.notation import read as notation
from grn.notation.grammar_cache import load_parser
from grn.core.value import Value

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.grn"))
GRAMMARS = ("goldrush.lark", "gold.lark")


class _Payload:
    """A pickle that, when loaded, writes a marker file: proof that it ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (exec, (f"open({str(self.marker)!r}, 'w').write('ran')",))


def _evil(marker: Path) -> bytes:
    return pickle.dumps(_Payload(marker))


def _ruleset(grammar: str) -> Any:
    from grn import games

    return games.find_ruleset(grammar.removesuffix(".lark"))


def _source(grammar: str) -> tuple[Any, str, FromPackageLoader]:
    """(source path, text, loader) of a game's grammar, which imports the envelope from grn.grammar."""
    ruleset = _ruleset(grammar)
    loader = FromPackageLoader("grn.grammar", [""])
    return f"{ruleset._grammar[0].replace('.', '/')}/{ruleset._grammar[1]}", ruleset.grammar_text(), loader


def _load(folder: Path, grammar: str = "goldrush.lark", **extra: Any) -> Lark:
    path, text, loader = _source(grammar)
    builder = larkread._Builder(larkread.CommandMaker(_ruleset(grammar).codecs))
    return load_parser(text, import_paths=[loader], source_path=path, cache_dir=str(folder), parser="lalr",
                       transformer=builder, propagate_positions=False, maybe_placeholders=False,
                       **extra)


def _key_of(path: Path) -> str:
    """The key a cache file's header names (the file is named by grammar, not by key)."""
    return path.read_bytes().split(b" ")[1].decode()


def _cache_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.endswith(".json"))


def _works(parser: Lark) -> None:
    tags, intro, turns = cast(Any, parser.parse('[Game "goldrush"]\n1. red 17@1,0:90 +N\n'))
    assert tags[0][1] == ("Game", "goldrush") and turns[0].player == "red"


def _deep(obj: Any) -> Any:
    """Everything a value holds, spans and diagnostics included, as nested tuples."""
    if isinstance(obj, Value):
        return (type(obj).__name__,) + tuple(_deep(getattr(obj, f)) for f in obj._fields)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return (type(obj).__name__,) + tuple(_deep(getattr(obj, f.name)) for f in dataclasses.fields(obj))
    if isinstance(obj, (tuple, list)):
        return tuple(_deep(x) for x in obj)
    if isinstance(obj, dict):
        return tuple((k, _deep(v)) for k, v in obj.items())
    return obj


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "grn"


# ---------------------------------------------------------------------------
# It caches, and the cached parser reads exactly what the built one reads
# ---------------------------------------------------------------------------

def test_second_load_comes_from_the_cache(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _works(_load(folder))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    [cached] = _cache_files(folder)
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600
    assert cached.read_bytes().startswith(gc.FORMAT.encode())

    def no_build(*args: Any) -> Any:
        raise AssertionError("built again although the cache holds the parser")

    monkeypatch.setattr(gc, "_build", no_build)
    _works(_load(folder))


def test_cached_and_uncached_parsers_read_every_example_the_same(folder: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = [c for p in EXAMPLES for c in notation.split_games(p.read_text(encoding="utf-8").splitlines(True))]
    assert len(chunks) >= len(EXAMPLES)

    def records() -> list[Any]:
        return [_deep(notation.parse_game(c.text, file="x.grn", first_line=c.first_line, fast=fast))
                for c in chunks for fast in (False, True)]

    plain = records()
    for grammar in GRAMMARS:
        _load(folder, grammar)  # fill the cache
    monkeypatch.setattr(gc, "_build", None)  # any rebuild would fail loudly

    def cached_parser(ruleset: Any) -> tuple[Lark, Any]:
        grammar = f"{ruleset.name}.lark"  # larkread._parser is asked for a game's ruleset
        builder = larkread._Builder(larkread.CommandMaker(_ruleset(grammar).codecs))
        path, text, loader = _source(grammar)
        parser = load_parser(text, import_paths=[loader], source_path=path, cache_dir=str(folder),
                             parser="lalr", transformer=builder, propagate_positions=False,
                             maybe_placeholders=False)
        return parser, builder

    larkread._parser.cache_clear()
    notation._fast_reader.cache_clear()
    monkeypatch.setattr(larkread, "_parser", larkread.lru_cache(maxsize=None)(cached_parser))
    try:
        cached = records()
    finally:
        notation._fast_reader.cache_clear()
    assert cached == plain
    monkeypatch.undo()
    # and the raw trees, token by token with positions, without a transformer
    for grammar in GRAMMARS:
        path, text, loader = _source(grammar)
        options: dict[str, Any] = dict(parser="lalr", propagate_positions=True, maybe_placeholders=False)
        a = Lark(text, import_paths=[loader], source_path=path, **options)
        b = load_parser(text, import_paths=[loader], source_path=path, cache_dir=str(folder / "raw"), **options)
        b = load_parser(text, import_paths=[loader], source_path=path, cache_dir=str(folder / "raw"), **options)
        for c in chunks:
            if (notation._game_tag(c.text) is not None) != ("gold" in grammar):
                continue
            try:
                ta = a.parse(c.text)
            except Exception as exc:  # noqa: BLE001 - the same error is expected from both
                with pytest.raises(type(exc)):
                    b.parse(c.text)
                continue
            tb = b.parse(c.text)
            assert ta == tb
            assert [(t.type, t.line, t.column) for t in ta.scan_values(lambda v: True)] == \
                   [(t.type, t.line, t.column) for t in tb.scan_values(lambda v: True)]


def test_an_edited_grammar_replaces_its_entry(folder: Path) -> None:
    path, text, loader = _source("gold.lark")
    args: dict[str, Any] = dict(import_paths=[loader], source_path=path, cache_dir=str(folder), parser="lalr")
    load_parser(text, **args)
    [before] = _cache_files(folder)
    key = _key_of(before)
    load_parser(text + "\n// edited\n", **args)
    assert _cache_files(folder) == [before] and _key_of(before) != key


def test_a_changed_imported_grammar_is_not_served_stale(tmp_path: Path) -> None:
    (tmp_path / "words.lark").write_text("WORD: /[a-c]+/\n", encoding="utf-8")
    text = "start: WORD\n%import words.WORD\n"
    args: dict[str, Any] = dict(import_paths=[str(tmp_path)], cache_dir=str(tmp_path / "c"), parser="lalr")
    assert load_parser(text, **args).parse("abc")
    assert load_parser(text, **args).parse("abc")  # from the cache
    (tmp_path / "words.lark").write_text("WORD: /[x-z]+/\n", encoding="utf-8")
    assert load_parser(text, **args).parse("xyz")


# ---------------------------------------------------------------------------
# Planted pickles never run
# ---------------------------------------------------------------------------

def test_the_payload_is_live_and_lark_own_cache_would_run_it(tmp_path: Path) -> None:
    """The control: the planted bytes do run code when unpickled, as Lark's ``cache=`` does."""
    marker = tmp_path / "ran"
    pickle.loads(_evil(marker))
    assert marker.exists()
    marker.unlink()
    planted = tmp_path / "lark.cache"
    planted.write_bytes(b"not-the-hash\n" + _evil(marker))
    path, text, loader = _source("goldrush.lark")
    Lark(text, import_paths=[loader], source_path=path, parser="lalr", cache=str(planted))
    assert marker.exists(), "lark no longer unpickles before checking: the control is stale"


def test_a_planted_pickle_at_every_path_the_cache_reads_never_runs(folder: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    for grammar in GRAMMARS:
        _load(folder, grammar)
    paths = _cache_files(folder)
    assert len(paths) == 2
    evil = _evil(marker)
    keys = {path: _key_of(path) for path in paths}
    for path in paths:
        key = keys[path]
        # raw pickle; a pickle behind a header with the right key and the right checksum;
        # a pickle where the JSON body should be, checksum and all
        for body in (evil, f"{gc.FORMAT} {key} {hashlib.sha256(evil).hexdigest()}\n".encode() + evil,
                     b"\n" + evil):
            path.write_bytes(body)
            _works(_load(folder, "goldrush.lark"))
            _load(folder, "gold.lark")
            assert not marker.exists()
    # and the file names any older grn or Lark itself used, in the folder
    for name in ("goldrush.lark.lark-1.3.1.cache", "gold.lark.lark-1.3.1.cache", "x.tmp", ".x.json.1.tmp"):
        (folder / name).write_bytes(evil)
    for path in paths:
        path.unlink()
        os.symlink(tmp_path / "evil.pickle", path)
    (tmp_path / "evil.pickle").write_bytes(evil)
    for grammar in GRAMMARS:
        _load(folder, grammar)
        _load(folder, grammar)
    assert not marker.exists()


# ---------------------------------------------------------------------------
# Symlinks, FIFOs, foreign folders
# ---------------------------------------------------------------------------

def test_a_symlink_at_the_cache_path_is_not_followed(folder: Path, tmp_path: Path) -> None:
    _load(folder)
    [path] = _cache_files(folder)
    target = tmp_path / "precious.txt"
    target.write_text("keep me", encoding="utf-8")
    path.unlink()
    os.symlink(target, path)
    _works(_load(folder))
    assert target.read_text(encoding="utf-8") == "keep me"
    assert not path.is_symlink() and path.is_file()  # the link itself was replaced
    # a dangling link is not written through either
    path.unlink()
    os.symlink(tmp_path / "created-through-link", path)
    _works(_load(folder))
    assert not (tmp_path / "created-through-link").exists()


def test_a_symlinked_folder_is_not_used(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = tmp_path / "grn"
    os.symlink(real, link)
    _works(_load(link))
    assert list(real.iterdir()) == []


def test_a_fifo_at_the_cache_path_does_not_hang(folder: Path) -> None:
    _load(folder)
    [path] = _cache_files(folder)
    path.unlink()
    os.mkfifo(path)
    _works(_load(folder))  # O_NONBLOCK: opening it for reading returns at once, then it is refused


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o702])
def test_a_folder_others_can_write_is_not_used(tmp_path: Path, mode: int) -> None:
    folder = tmp_path / "grn"
    folder.mkdir()
    folder.chmod(mode)
    marker = tmp_path / "ran"
    _works(_load(folder))
    assert list(folder.iterdir()) == []
    # nor read: a pickle planted under the name the cache would use stays inert
    good = tmp_path / "good"
    _load(good)
    [name] = [p.name for p in _cache_files(good)]
    (folder / name).write_bytes(_evil(marker))
    _works(_load(folder))
    assert not marker.exists()


def test_a_folder_owned_by_someone_else_is_not_used(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _load(folder)
    [path] = _cache_files(folder)
    path.unlink()
    monkeypatch.setattr(gc.os, "getuid", lambda: os.geteuid() + 4242)
    _works(_load(folder))
    assert _cache_files(folder) == []


def test_a_cache_file_someone_else_may_write_is_rebuilt(folder: Path) -> None:
    _load(folder)
    [path] = _cache_files(folder)
    path.chmod(0o666)
    _works(_load(folder))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_default_folder_is_made_0700_under_xdg_cache_home(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    path, text, loader = _source("gold.lark")
    load_parser(text, import_paths=[loader], source_path=path, parser="lalr")
    made = tmp_path / "xdg" / "grn"
    assert stat.S_IMODE(made.stat().st_mode) == 0o700 and len(_cache_files(made)) == 1
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # the XDG spec says: ignore it
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    load_parser(text, import_paths=[loader], source_path=path, parser="lalr")
    assert len(_cache_files(tmp_path / "home" / ".cache" / "grn")) == 1


# ---------------------------------------------------------------------------
# Garbage is rebuilt, never an exception
# ---------------------------------------------------------------------------

def _garbage(key: str, good: bytes) -> list[bytes]:
    def signed(body: bytes) -> bytes:
        return f"{gc.FORMAT} {key} {hashlib.sha256(body).hexdigest()}\n".encode() + body

    header, _, body = good.partition(b"\n")
    return [
        b"", b"\n", b"\x00" * 100, os.urandom(5000), good[: len(good) // 2], good + b"x",
        header + b"\n" + body.replace(b'"d"', b'"e"', 1),  # checksum no longer holds
        signed(b"[]"), signed(b"{}"), signed(b'{"d":[[1,2]]}'), signed(b'{"d":[[[1],2]]}'),
        signed(b'{"d":[["used_files",[]],["data",{"d":[]}],["memo",{"d":[]}]]}'),
        signed(b'{"d":[["used_files",[]],["data",{"d":[["options",{"d":[]}]]}],["memo",{"d":[[0,1]]}]]}'),
        signed(b"[" * 100_000 + b"]" * 100_000),
        signed(b'{"x": NaN}'), signed(b"\xff\xfe"),
        signed(body.replace(b'"t":', b'"f":')),  # structurally wrong but well signed
        signed(body.replace(b'"package"', b'"nowhere"', 1)),
    ]


def test_garbage_files_are_ignored_and_rebuilt(folder: Path) -> None:
    _load(folder)
    [path] = _cache_files(folder)
    good = path.read_bytes()
    key = _key_of(path)
    for junk in _garbage(key, good):
        path.write_bytes(junk)
        _works(_load(folder))
        assert gc._unpack(key, path.read_bytes()) is not None  # rewritten whole
    path.write_bytes(b"x" * (gc.MAX_BYTES + 1))
    _works(_load(folder))
    assert gc._unpack(key, path.read_bytes()) is not None
