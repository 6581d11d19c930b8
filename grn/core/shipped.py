"""The data files shipped inside grn's packages (grammars, tile sets, card lists, schemas), read as text.

:func:`importlib.resources.files` is the general way, and it stays the way for a package that is not
a folder on disk (imported from a zip file).  It costs a command's start-up, though: importing it
loads ``tempfile``, ``shutil``, ``zipfile`` and the compression modules, about 5 ms of a 45 ms
``grn validate`` (docs/performance.md, "Start-up, round thirteen").  A package imported from a
folder, as pip installs it, has its files beside its ``__init__``; this module reads them there.
"""

from __future__ import annotations

import importlib.util
import os


def file_path(package: str, name: str) -> str | None:
    """Where the file ``name`` (``/``-separated) of ``package`` is on disk, found through the package's spec
    (a subpackage's parents are imported, the package itself is not); None when it is not a file there."""
    spec = importlib.util.find_spec(package)
    # the package's folders on disk (one; a namespace package's several); a zip importer's are not folders
    for folder in (spec.submodule_search_locations or ()) if spec is not None else ():
        path = os.path.join(folder, *name.split("/"))
        if os.path.isfile(path):
            return path
    return None


def read_text(package: str, name: str) -> str:
    """The text (UTF-8) of the file ``name`` (``/``-separated) in ``package``; ``FileNotFoundError`` when absent."""
    path = file_path(package, name)
    if path is not None:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    from importlib import resources  # a package that is not a folder on disk

    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


__all__ = ["file_path", "read_text"]
