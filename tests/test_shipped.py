"""Reading the data files shipped in grn's packages without importlib.resources (R321)."""

from __future__ import annotations

import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest

from grn.core import shipped


@pytest.mark.parametrize("package, name", [
    ("grn.schemas", "tileset.schema.json"),  # a folder mapped into grn (no __init__)
    ("grn.games.goldrush", "goldrush.lark"),
    ("grn.games.gold", "cards.json"),
])
def test_a_shipped_file_reads_as_importlib_resources_reads_it(package: str, name: str) -> None:
    assert shipped.read_text(package, name) == resources.files(package).joinpath(name).read_text(encoding="utf-8")


def test_a_missing_file_is_file_not_found() -> None:
    with pytest.raises(FileNotFoundError):
        shipped.read_text("grn.schemas", "no-such-file.json")


def test_a_package_imported_from_a_zip_file_is_read_through_importlib_resources(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "plugin.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("grn_zipped_plugin/__init__.py", "")
        zf.writestr("grn_zipped_plugin/data/tiles.json", '{"name": "zipped é"}')
    monkeypatch.syspath_prepend(str(archive))
    try:
        assert shipped.read_text("grn_zipped_plugin", "data/tiles.json") == '{"name": "zipped é"}'
    finally:
        sys.modules.pop("grn_zipped_plugin", None)
