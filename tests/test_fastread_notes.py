"""Comments, diagram markup and variations on the fast path (:mod:`grn.notation.fastread`): the same records as Lark's.

Every example with a comment and every Board Game Arena import went to Lark,
whose import alone is a third of a small file's ``grn validate``
(docs/performance.md, "Start-up, round seven").  The fast reader's careful
path now reads brace and line comments, markup and variations wherever the
envelope grammar allows them (before the first turn, after a turn's words, on
lines of their own, over several lines, nested), and turns spread over
several lines, and must give exactly Lark's record, spans and diagnostics
(markup of an unknown kind or a wrong number of arguments included), or
decline.  Random records are held to Lark's parse with Hypothesis, as in
tests/test_fastread.py, whose comparison this file reuses.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from grn.notation import read as notation
from grn.core.record import Comment, Markup, MarkupText, Variation
from test_fastread import assert_same, fast_takes, mutated, record_text

ROOT = Path(__file__).resolve().parent.parent
HEAD = '[Game "goldrush"]\n\n'

COMMENT_TEXT = st.text(alphabet=st.sampled_from(list("ab (x) [y] <z> ;;: \"q\" \\ é\t\r\n\u00a0")),
                       max_size=14)
MARKUP_ARG = st.one_of(
    st.sampled_from(["1,0", "0,0", "-2,3", "17@2,0:90", "red", "#f00", "a1", "x", "+N", "1,0:C"]),
    st.text(alphabet=st.sampled_from(list('ab ?!\\"é')), max_size=8).map(
        lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'),
)
GAP = st.sampled_from([" ", " ", "", "  ", "\t", "\n", " \n  "])


VARIATION_TURN = st.sampled_from(["3. blue 08@1,0 +N", "3. blue 08@1,0", "4. red discard 52", "3.\nblue 17@0,1:90",
                                  "3. blue 08@1,0 ! score red=1 blue=0", "12. green tent@0,1:N"])


@st.composite
def note(draw, depth: int = 0) -> str:
    """A comment, a markup or a variation as a writer might put it: some over several lines, some of unknown
    kind or arity, variations with notes of their own."""
    kind = draw(st.sampled_from(["brace", "brace", "line", "markup", "markup"] + (["variation"] if depth < 2 else [])))
    if kind == "variation":
        inner = ""
        if draw(st.integers(0, 3)) == 0:
            inner += draw(note(depth + 1)) + draw(st.sampled_from([" ", "\n"]))
        inner += draw(VARIATION_TURN)
        if draw(st.booleans()):
            inner += draw(st.sampled_from([" ", "\n"])) + draw(note(depth + 1))
        if draw(st.integers(0, 3)) == 0:
            inner += " " + draw(VARIATION_TURN)
        return "(" + draw(st.sampled_from(["", " ", "\n"])) + inner.rstrip("\n") + draw(st.sampled_from(["", " ", "\n"])) + ")"
    if kind == "brace":
        return "{" + draw(COMMENT_TEXT).replace("}", "") + "}"
    if kind == "line":
        return ";" + draw(COMMENT_TEXT).replace("\n", " ").replace("\r", "") + "\n"
    name = draw(st.sampled_from(["highlight", "arrow", "label", "ghost", "circle", "highlight"]))
    args = draw(st.lists(MARKUP_ARG, max_size=4))
    text = "<" + draw(st.sampled_from(["", "", " ", "\n"])) + name
    for arg in args:
        text += draw(st.sampled_from([" ", " ", "\t", "\n  "])) + arg
    return text + draw(st.sampled_from(["", "", " ", "\n"])) + ">"


@st.composite
def commented(draw) -> tuple[str, str]:
    """A plain random record with comments and markup put between its words and lines."""
    game, text = draw(record_text(fancy=False))
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        out.append(line)
        if line.lstrip().startswith("[") or not draw(st.integers(0, 2)):
            continue
        where = draw(st.sampled_from(["end", "end", "own line", "inside"]))
        piece = draw(note())
        if where == "end":
            out[-1] = line.rstrip("\r") + draw(GAP) + piece.rstrip("\n") + ("\r" if line.endswith("\r") else "")
        elif where == "own line":
            out.append(draw(st.sampled_from(["", " ", "\t"])) + piece.rstrip("\n"))
        else:
            words = line.split(" ")
            at = draw(st.integers(0, len(words)))
            out[-1] = " ".join(words[:at] + [piece.rstrip("\n")] + words[at:])
    return game, "\n".join(out)


@st.composite
def broken(draw) -> tuple[str, str]:
    """A commented record with a few characters deleted or inserted: unclosed comments, stray brackets..."""
    game, text = draw(commented())
    return game, mutated(draw, text)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commented(), st.integers(1, 30))
@example(("goldrush", HEAD + "{intro}\n1. red 17@0,1 {a\nlong one} <highlight 1,0\n 2,0>\n; last\n"), 1)
@example(("goldrush", HEAD + "1. red 17@0,1 <circle 1,0> <label 1,0>\n2. blue 08@1,0 <ghost>\n"), 3)
@example(("goldrush", HEAD + "1. red 17@0,1 ({why} 1. red 17@1,0 (1. red 17@0,-1) 2. blue 08@1,0:90 +N)\n2.\nblue\n"
                      "discard\n 52\n"), 2)
def test_commented_records_read_the_same(case: tuple[str, str], first_line: int) -> None:
    game, text = case
    assert_same(text, first_line)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken(), st.integers(1, 30))
@example(("goldrush", HEAD + "1. red 17@0,1 {never closed\n2. blue 08@1,0\n"), 1)
@example(("goldrush", HEAD + "1. red 17@0,1 <highlight 1,0\n"), 1)
@example(("goldrush", HEAD + "1. red 17@0,1{x} +N\n"), 1)
@example(("goldrush", HEAD + "1. red {x} 17@0,1\n"), 1)
@example(("goldrush", HEAD + "1. red 17@0,1 (2. blue 08@1,0)\n"), 1)
@example(("goldrush", HEAD + "1. red 17@0,1 {a}\n+N\n"), 1)
@example(("goldrush", HEAD + "1" * 30 + ". red 17@0,1\n<circle 1,0>\n"), 1)
def test_broken_commented_records_read_the_same(case: tuple[str, str], first_line: int) -> None:
    game, text = case
    assert_same(text, first_line)


def test_comments_and_markup_are_read_without_lark() -> None:
    text = (HEAD + "{The opening.} ; and a line comment\n"
            "1. red 17@0,1:90 +N ! {good}\n"
            "<highlight 1,0 red> <label 0,1\n  \"Mine \\\"here\\\"?\">\n"
            "2. blue 08@1,0 score red=3 blue=0 {over\ntwo lines}\n")
    assert fast_takes(text)
    record = assert_same(text)
    assert record.intro == (Comment("The opening."), Comment(" and a line comment", True))
    first, second = record.turns
    assert first.extras[1:] == (Comment("good"), Markup("highlight", ("1,0", "red")),
                                Markup("label", ("0,1", MarkupText('Mine "here"?'))))
    assert [e.span.line for e in first.extras] == [4, 4, 5, 5]
    assert second.comments[0].text == "over\ntwo lines"
    assert second.checkpoint.span.line == 7 and second.checkpoint.span.column == 16


def test_markup_problems_are_noted_as_lark_notes_them() -> None:
    text = HEAD + "1. red 17@0,1:45 <circle 1,0> <ghost>\n"
    assert fast_takes(text)
    record = assert_same(text)
    assert [d.message for d in record.diagnostics][1:] == [
        "unknown markup <circle>: use highlight, arrow, label or ghost", "<ghost> takes 1 arguments, not 0"]


def test_variations_and_turns_over_lines_are_read_without_lark() -> None:
    for body in ("1. red 17@0,1 (2. blue 08@1,0)\n", "1. red 17@0,1{x}\n", "1. red 17@0,1 {a\nb} ! score red=0\n",
                 "{a} 1. red 17@0,1\n", "1. red\n  17@0,1 +N\n2. blue discard\n52\n",
                 "1. red 17@0,1 (({x} 1. red 17@1,0) 1. red 17@0,-1)\n"):
        assert fast_takes(HEAD + body) is (body.count("((") == 0), body
        assert_same(HEAD + body)
    record = assert_same(HEAD + "1. red 17@0,1 ({why} 1. red 17@1,0 +N (1. red 17@0,-1) 2. blue 08@1,0)\n")
    (variation,) = record.turns[0].extras
    assert isinstance(variation, Variation) and variation.intro == (Comment("why"),)
    assert [t.number for t in variation.turns] == [1, 2] and variation.span.column == 22
    assert isinstance(variation.turns[0].extras[0], Variation)


def test_what_lark_reports_is_declined() -> None:
    """A syntax error is always Lark's: the fast reader declines it and the message is Lark's."""
    for body in ("1. red 17@0,1 {never closed\n", "1. red 17@0,1)\n", "1. red 17@0,1 {a}\n+N\n",
                 "1. red 17@0,1 ()\n", "(1. red 17@0,1)\n", "1. red 17@0,1 <highlight 1,0\n", "1. red 17@0,1 }\n"):
        assert not fast_takes(HEAD + body), body
        record = assert_same(HEAD + body)
        assert record.diagnostics[0].message.startswith("syntax error"), body


def _games(path: Path) -> list[notation.Chunk]:
    with open(path, encoding="utf-8", newline="\n") as fh:
        return list(notation.split_games(notation.bounded_lines(fh.readline, "")))


def test_every_shipped_game_takes_the_fast_path() -> None:
    """The examples (comments, markup, variations) and the Board Game Arena import: none needs Lark."""
    paths = sorted((ROOT / "examples").rglob("*.grn")) + [ROOT / "tests" / "data" / "bga-361578832.grn"]
    games = 0
    for path in paths:
        for chunk in _games(path):
            game = notation._game_tag(chunk.text)
            assert fast_takes(chunk.text, game.group(2) if game else "goldrush"), path.name
            assert_same(chunk.text, chunk.first_line)
            games += 1
    assert games >= 28
