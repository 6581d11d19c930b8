"""The Pygments lexer for GRN (``grn.notation.lexer``), found through Pygments' entry point.

It colours every example and every self-played game without an error token;
its tokens give back the text they were cut from; and on edited records it
agrees with the reader: whatever the grammar reads without a syntax error, the
lexer colours without an error token.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Token

from grn import games
from grn.notation import read as notation
from grn.notation.lexer import GrnLexer
from tests.test_fuzz import _apply, edit

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.grn"))
TEXTS = [p.read_text(encoding="utf-8") for p in EXAMPLES]


def tokens(text: str) -> list[tuple[object, str]]:
    return list(GrnLexer(ensurenl=False, stripnl=False).get_tokens(text))


def errors(text: str) -> list[str]:
    return [value for kind, value in tokens(text) if kind in Error]


def test_pygments_finds_the_lexer_by_name_and_file_name() -> None:
    assert isinstance(get_lexer_by_name("grn"), GrnLexer)
    assert isinstance(get_lexer_for_filename("game.grn"), GrnLexer)


def test_pygmentize_colours_a_record() -> None:
    run = subprocess.run([sys.executable, "-m", "pygments", "-l", "grn", "-f", "html",
                          str(ROOT / "examples" / "goldrush-2p.grn")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert '<span class="nt">Game</span>' in run.stdout  # a tag name
    assert '<span class="nf">47a@-1,0</span>' in run.stdout  # a tile placed
    assert '<span class="err">' not in run.stdout


def test_every_example_without_an_error_token() -> None:
    assert len(TEXTS) >= 20
    for path, text in zip(EXAMPLES, TEXTS):
        assert errors(text) == [], path
        assert "".join(v for _, v in tokens(text)) == text


def test_self_played_games_of_every_game() -> None:
    for name in ("goldrush", "gold", "carcassonne"):
        ruleset = games.find_ruleset(name)
        for seed in (1, 2):
            game = ruleset.selfplay(3, seed)
            from grn.rules.selfplay import to_record
            from grn.notation.writer import write_record

            text = write_record(to_record(game))
            assert errors(text) == [], (name, seed)


def test_words_get_their_kinds() -> None:
    kinds = {value: kind for kind, value in tokens(
        '[Game "gold"]\n1. red c1=yellow2 a5=G3 {two\nlines} ; rest\n2. green d4=D score red=3 green=0 '
        '<label 0,1 "x"> (2. green 17@1,0:90 +N tent@0,0 mine=? ingot@1,1) $3 discard 17\n3.blue zz@@')}
    assert kinds["Game"] == Token.Name.Tag and kinds['"gold"'] == Token.Literal.String.Double
    assert kinds["1."] == Token.Literal.Number.Integer and kinds["red"] in Token.Name.Variable
    assert kinds["c1=yellow2"] == Token.Name.Function and kinds["d4=D"] == Token.Name.Function
    assert kinds["{"] in Token.Comment and kinds["two\nlines"] in Token.Comment and kinds["; rest"] in Token.Comment
    assert kinds["score"] == Token.Keyword.Pseudo and kinds["label"] == Token.Name.Decorator
    assert kinds["17@1,0:90"] == Token.Name.Function and kinds["+N"] == Token.Name.Attribute
    assert kinds["tent@0,0"] == Token.Keyword and kinds["mine=?"] == Token.Keyword and kinds["$3"] == Token.Operator
    assert kinds["ingot@1,1"] == Token.Keyword and kinds["discard 17"] == Token.Keyword
    assert kinds["red"] in Token.Name.Variable and kinds["3"] == Token.Literal.Number.Integer
    assert kinds["blue"] in Token.Name.Variable
    assert kinds["zz@@"] == Token.Error


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TEXTS))), st.lists(edit, min_size=1, max_size=5))  # the edits of test_fuzz
def test_edited_records_the_reader_takes_have_no_error_token(which: int, edits: list) -> None:
    text = _apply(TEXTS[which], edits)
    got = tokens(text)
    assert "".join(v for _, v in got) == text
    records = list(notation.read(io.StringIO(text)))
    if records and not any(d.code in ("syntax", "unknown-game", "too-long") for r in records for d in r.diagnostics):
        assert [v for k, v in got if k in Error] == []
