"""The build cache of the compiled modules: an unchanged ``pip install -e .`` copies them instead of compiling.

``setup.py`` loads this file by path (a build has not installed grn).  The key is a SHA-256 of everything
the compiled files depend on: the sources of the compiled modules (and their list), this file and
``setup.py``, the mypy that compiles them, the Python and the platform.  On a hit, mypyc is not run at all:
the extensions are declared by the names the cache recorded and :class:`CachedBuildExt` copies each
cached file where the build would have put it.  On a miss, the build compiles as before and stores what it
built under the new key (older keys are removed: one entry, the size of one build).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import sys
import sysconfig
from typing import Any, Sequence

#: Bump to throw away every cached build (a change in how this file stores them).
FORMAT = 1


def cache_key(root: str, paths: Sequence[str], opt_level: str, mypy_version: str) -> str:
    """The key of a build of the modules at ``paths`` (relative to ``root``)."""
    h = hashlib.sha256()
    h.update(json.dumps([FORMAT, opt_level, mypy_version, sys.version, platform.machine(), sys.platform,
                         sysconfig.get_config_var("EXT_SUFFIX"), sorted(paths)]).encode())
    for rel in sorted(paths) + ["setup.py", "build_cache.py"]:
        with open(os.path.join(root, rel), "rb") as fh:
            h.update(rel.encode() + b"\0" + hashlib.sha256(fh.read()).digest())
    return h.hexdigest()


class BuildCache:
    """The cached build for one key under ``directory`` (``build/mypyc-cache/<key>/``)."""

    def __init__(self, directory: str, key: str) -> None:
        self.directory = directory
        self.key = key
        self.entry = os.path.join(directory, key)

    def names(self) -> list[str] | None:
        """The extension names of the cached build (None: no complete build is cached for this key)."""
        try:
            with open(os.path.join(self.entry, "manifest.json"), encoding="utf-8") as fh:
                names = json.load(fh)["extensions"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not isinstance(names, list) or not all(isinstance(n, str) and os.path.isfile(self.file(n))
                                                  for n in names):
            return None
        return names

    def file(self, name: str) -> str:
        """Where the built file of extension ``name`` is kept."""
        return os.path.join(self.entry, name + ".ext")

    def store(self, built: dict[str, str]) -> None:
        """Keep the built files (extension name -> path), then the manifest last: an interrupted store is
        not a hit.  Other keys' entries go."""
        if os.path.isdir(self.directory):
            for old in os.listdir(self.directory):
                if old != self.key:
                    shutil.rmtree(os.path.join(self.directory, old), ignore_errors=True)
        os.makedirs(self.entry, exist_ok=True)
        for name, path in built.items():
            shutil.copyfile(path, self.file(name))
        with open(os.path.join(self.entry, "manifest.json"), "w", encoding="utf-8") as fh:
            json.dump({"extensions": sorted(built)}, fh)


def cached_build_ext(base: Any, cache: BuildCache, hit: bool) -> Any:
    """A ``build_ext`` command class: on a ``hit`` it copies each extension's cached file to where the
    build puts it (a fresh file time, so that grn's check of stale compiled modules is not misled);
    otherwise it builds and then stores what it built."""

    class CachedBuildExt(base):  # type: ignore[misc, valid-type]
        def build_extension(self, ext: Any) -> None:
            if hit:
                target = self.get_ext_fullpath(ext.name)
                os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
                shutil.copyfile(cache.file(ext.name), target)
                return
            super().build_extension(ext)

        def run(self) -> None:
            super().run()
            if not hit and self.extensions:
                built = {ext.name: self.get_ext_fullpath(ext.name) for ext in self.extensions}
                if all(os.path.isfile(p) for p in built.values()):
                    cache.store(built)

    return CachedBuildExt
