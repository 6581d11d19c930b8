"""The core names no game: only the games' packages and the registry know them.

Adding a game must touch no core module, so no module outside
``grn/games/<game>/`` and the registry's data (``grn/games/games.json``) may name a
game or a game's terrain, pieces or cards.  Comments and docstrings may cite
them as examples; code and messages may not.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GRN = ROOT / "grn"

#: Words only a game may use: the games' names, and each game's terrain, pieces and cards.
GAME_WORDS = re.compile(
    r"\b(goldrush|gold|carcassonne|rails?|railroads?|railwayman|mountains?|prairies?|city|cities|cowboys?"
    r"|tents?|nuggets?|locomotives?|tipis?|horses?|farmers?|merchant|miners?|mining|ingots?|roads?|cloisters?"
    r"|cards?|dynamite|mine)\b", re.IGNORECASE)


def core_modules() -> list[Path]:
    """Every module of grn but the games' own packages (the tile-laying base under games/ is core: no game's word)."""
    games = GRN / "games"
    return sorted(p for p in GRN.rglob("*.py")
                  if not (p.is_relative_to(games) and p != games / "__init__.py"
                          and not p.is_relative_to(games / "tiling")))


def code_words(path: Path) -> list[tuple[int, str]]:
    """(line, word) of every game word in the code and strings of a module, docstrings and comments left out."""
    out = []
    source = path.read_text(encoding="utf-8")
    previous = tokenize.INDENT
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            continue
        if tok.type == tokenize.STRING and previous in (tokenize.INDENT, tokenize.NEWLINE, tokenize.DEDENT,
                                                        tokenize.NL):
            previous = tok.type
            continue  # a docstring (a string standing alone as a statement)
        if tok.type in (tokenize.NAME, tokenize.STRING, tokenize.FSTRING_MIDDLE if hasattr(tokenize, "FSTRING_MIDDLE")
                        else tokenize.STRING):
            for m in GAME_WORDS.finditer(tok.string):
                out.append((tok.start[0], m.group(0)))
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            previous = tok.type
    return out


def test_the_registry_is_the_only_core_module_that_names_games():
    assert (GRN / "games" / "__init__.py").exists()
    assert len(core_modules()) > 15


@pytest.mark.parametrize("path", core_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_module_names_no_game(path: Path):
    found = code_words(path)
    assert not found, f"{path.relative_to(ROOT)} names a game: " + ", ".join(f"line {n}: {w!r}" for n, w in found)


def test_the_check_finds_a_game_word():
    sample = GRN / "rules" / "ruleset.py"
    assert not code_words(sample)
    fake = ROOT / "tests" / "golden" / "sample_core_module.txt"
    try:
        fake.write_text('"""A docstring may say goldrush."""\nx = "a mountain"  # and a comment: gold\n')
        assert code_words(fake) == [(2, "mountain")]
    finally:
        fake.unlink()


def test_nothing_links_to_a_folder_that_is_not_in_the_repository():
    """Docs and code cite the rules by name; a path into shared/ or seeds/ would break outside this workspace."""
    bad = []
    this = Path(__file__)
    for path in [*ROOT.glob("*.md"), *(ROOT / "docs").rglob("*.md"), *GRN.rglob("*.py"), *GRN.rglob("*.json"),
                 *GRN.rglob("*.lark"), *(p for p in (ROOT / "tests").rglob("*.py") if p != this),
                 *(ROOT / "examples").glob("*.grn"), *(ROOT / "scripts").glob("*.py"), *(ROOT / "bench").glob("*.py")]:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"\.\./shared|shared/seeds|seeds/README|\b00[0-4]_[0-9a-f]{16}\.txt", text):
            bad.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    assert not bad, bad
