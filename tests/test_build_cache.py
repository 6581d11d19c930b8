"""The build cache of the compiled modules (R99): an unchanged reinstall copies, a changed source misses."""

from __future__ import annotations

import importlib.util
import os
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load():
    spec = importlib.util.spec_from_file_location("_test_build_cache", ROOT / "build_cache.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tree(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x: int = 1\n")
    (tmp_path / "pkg" / "b.py").write_text("y: int = 2\n")
    for name in ("setup.py", "build_cache.py"):
        (tmp_path / name).write_text((ROOT / name).read_text())
    return tmp_path


def test_the_key_changes_with_a_source_the_module_list_or_mypy_and_only_then(tmp_path):
    bc = load()
    root = str(tree(tmp_path))
    paths = ["pkg/a.py", "pkg/b.py"]
    key = bc.cache_key(root, paths, "3", "2.4.1")
    assert key == bc.cache_key(root, list(reversed(paths)), "3", "2.4.1")
    os.utime(Path(root) / "pkg" / "a.py", (1, 1))  # a new file time alone (a checkout) changes nothing
    assert bc.cache_key(root, paths, "3", "2.4.1") == key
    assert bc.cache_key(root, paths, "3", "2.5.0") != key
    assert bc.cache_key(root, paths[:1], "3", "2.4.1") != key
    assert bc.cache_key(root, paths, "2", "2.4.1") != key
    (Path(root) / "pkg" / "b.py").write_text("y: int = 3\n")
    assert bc.cache_key(root, paths, "3", "2.4.1") != key


def test_a_stored_build_is_found_an_unfinished_one_is_not_and_one_entry_is_kept(tmp_path):
    bc = load()
    built = tmp_path / "built.so"
    built.write_bytes(b"\x7fELF compiled")
    old = bc.BuildCache(str(tmp_path / "cache"), "old")
    old.store({"pkg.a": str(built)})
    assert old.names() == ["pkg.a"]
    new = bc.BuildCache(str(tmp_path / "cache"), "new")
    assert new.names() is None
    new.store({"pkg.a": str(built), "pkg.b": str(built)})
    assert new.names() == ["pkg.a", "pkg.b"] and old.names() is None  # the old entry went
    os.remove(new.file("pkg.b"))  # a file gone: not a hit
    assert new.names() is None
    (Path(new.entry) / "manifest.json").write_text("{not json")
    assert new.names() is None


def test_a_hit_copies_each_cached_file_where_the_build_puts_it_and_compiles_nothing(tmp_path):
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    bc = load()
    built = tmp_path / "built.so"
    built.write_bytes(b"\x7fELF compiled")
    os.utime(built, (1, 1))
    cache = bc.BuildCache(str(tmp_path / "cache"), "k")
    cache.store({"pkg.a": str(built)})
    dist = Distribution({"ext_modules": [Extension("pkg.a", sources=[])], "script_name": "setup.py"})
    cmd = bc.cached_build_ext(build_ext, cache, True)(dist)
    cmd.build_lib, cmd.build_temp = str(tmp_path / "lib"), str(tmp_path / "temp")
    cmd.ensure_finalized()
    started = time.time()
    cmd.run()
    target = tmp_path / "lib" / "pkg" / ("a" + sysconfig.get_config_var("EXT_SUFFIX"))
    assert target.read_bytes() == b"\x7fELF compiled"
    assert target.stat().st_mtime >= started - 1  # a fresh time: not "older than its source"
    assert not (tmp_path / "temp").exists() or not any((tmp_path / "temp").rglob("*.o"))


def test_a_miss_builds_then_stores_what_it_built(tmp_path):
    bc = load()
    cache = bc.BuildCache(str(tmp_path / "cache"), "k")
    out = tmp_path / "out"

    class Ext:
        def __init__(self, name: str) -> None:
            self.name = name

    class FakeBuild:  # stands for build_ext: builds each extension to its path
        extensions = [Ext("pkg.a"), Ext("pkg.b")]

        def get_ext_fullpath(self, name: str) -> str:
            return str(out / (name + ".so"))

        def build_extension(self, ext) -> None:
            out.mkdir(exist_ok=True)
            Path(self.get_ext_fullpath(ext.name)).write_bytes(ext.name.encode())

        def run(self) -> None:
            for ext in self.extensions:
                self.build_extension(ext)

    bc.cached_build_ext(FakeBuild, cache, False)().run()
    assert cache.names() == ["pkg.a", "pkg.b"]
    assert Path(cache.file("pkg.b")).read_bytes() == b"pkg.b"
