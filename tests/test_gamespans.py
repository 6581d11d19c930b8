"""grn.notation.gamespans: the games of a file found over whole blocks are the games split_games cuts (R220, R240)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grn.notation import gamespans
from grn.notation import read as notation
from grn.notation import sources
from grn.notation.gamespans import SpanReader

# Lines that move the cut: tag lines behind every kind of white space, movetext, blank lines, a lone CR,
# characters of more than one byte ...
PLAIN = st.sampled_from([
    '[Game "Gold Rush"]', '[Event "a"]', '  [Round "1"]', '\t[A "b"]', '\x0c[B "c"]', '\u3000[C "d"]', '\x1c[D "e"]',
    "1. red 17@0,1", "2. blue +N score red=1", "  3. green", "é", "x [not a tag",
    "", " ", "\t", "\r", "\u2028", "\x85",
])
# ... and brace comments, which may hide a tag line (R240: the reader finds them as split_games does): comments
# opened and closed on one line or many, unbalanced braces, braces inside quoted strings and after a ; comment,
# a { on a tag line (which opens nothing), variations around them
BRACES = st.sampled_from([
    "{a comment", "}", "[Tag {", "1. red {[Event] hidden}", "{", "{}", '} [Event "x"]', "a } b { c",
    '"{" 1. red', "1. red ; {not opened", "; {", 'x "a {" {b', '"unterminated {', '<label 0,1 "{">',
    '{ [Game "g"] }', '  [Event "}"]', '"\\"{"', "(3. red {x", ")", '{"}" [A "b"]', '\t{\t', "} {", "}}{{",
    '[Event "a"] {', '{\u3000[Event "b"]', "\u3000}", "  [x", "\\{", '1. red "{" ; "}" {',
])
#: Pieces joined at random into lines, for what the lists above do not think of.
PIECES = st.sampled_from(["{", "}", '"', "\\", ";", "[", "]", " ", "\t", "x", "é", '[Event "a"]', "1. red", "(", ")"])
LINES = st.one_of(PLAIN, BRACES, st.lists(PIECES, max_size=6).map("".join))


def _reference(data: bytes) -> list[tuple[str, int]]:
    """The games as ``grn validate`` reads them line by line, up to a line that is not UTF-8."""
    out = []
    try:
        for chunk in notation.split_games(sources.decoded_lines(io.BytesIO(data))):
            out.append((chunk.text, chunk.first_line))
    except sources.BadEncoding:
        pass
    return out


def _spans(data: bytes) -> tuple[list[tuple[str, int]], bool]:
    reader = SpanReader(io.BytesIO(data))
    out = []
    for span in reader:
        text = data[span.start:span.end].decode("utf-8")
        if span.start == 0:
            text = text.removeprefix("\ufeff")
        out.append((text, span.first_line))
    return out, reader.stopped


def _data(lines: list[str], bom: bool, newline_at_end: bool) -> bytes:
    data = "\n".join(lines).encode("utf-8") + (b"\n" if newline_at_end and lines else b"")
    return b"\xef\xbb\xbf" + data if bom else data


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(PLAIN, max_size=40), bom=st.booleans(), newline_at_end=st.booleans(), block=st.integers(1, 64))
def test_spans_cut_where_split_games_cuts(lines: list[str], bom: bool, newline_at_end: bool, block: int) -> None:
    data = _data(lines, bom, newline_at_end)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gamespans, "BLOCK", block)  # many small blocks: games and lines cross their edges
        got, stopped = _spans(data)
    assert not stopped
    assert got == _reference(data)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(LINES, max_size=40), bom=st.booleans(), newline_at_end=st.booleans(),
       block=st.integers(1, 64))
def test_files_with_comments_are_read_to_their_end(lines: list[str], bom: bool, newline_at_end: bool,
                                                   block: int) -> None:
    """R240: brace comments, line comments, quoted braces and unbalanced input no longer stop the reader, and
    its games are still split_games's, however the blocks cut the comments."""
    data = _data(lines, bom, newline_at_end)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gamespans, "BLOCK", block)  # comments cross the blocks' edges
        got, stopped = _spans(data)
    assert not stopped
    assert got == _reference(data)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(LINES, max_size=40), bom=st.booleans(), bad=st.integers(-1, 200),
       newline_at_end=st.booleans(), block=st.integers(1, 64))
def test_the_games_given_before_a_stop_are_exact(lines: list[str], bom: bool, bad: int, newline_at_end: bool,
                                                 block: int) -> None:
    data = _data(lines, bom, newline_at_end)
    if 0 <= bad < len(data):
        data = data[:bad] + b"\xff" + data[bad:]  # the file stops being UTF-8 there
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gamespans, "BLOCK", block)
        got, stopped = _spans(data)
    want = _reference(data)
    if stopped:
        # every game given is exact, and the rest is left to the line-by-line reader
        assert got == want[:len(got)]
        assert b"\xff" in data
    else:
        assert got == want


def test_a_comment_hides_a_tag_line_across_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tag lines inside a comment that spans blocks start no game; the one after it does."""
    monkeypatch.setattr(gamespans, "BLOCK", 4)
    data = (b'[Game "gold"]\n\n1. a {a long note\n[Event "not a game"]\n[Round "2"] } 2. b\n'
            b'[Game "gold"]\n\n1. c ; {not a comment\n[Game "gold"]\n1. d "{" e\n')
    got, stopped = _spans(data)
    assert not stopped
    assert [line for _, line in got] == [1, 6, 9]
    assert got == _reference(data)


def test_the_board_game_arena_example_is_read_as_spans() -> None:
    """A commented import (a brace comment with the replay link in each game) gives its games as spans."""
    one = (Path(__file__).parent / "data" / "bga-361578832.grn").read_bytes()
    data = (one.rstrip(b"\n") + b"\n\n") * 5
    got, stopped = _spans(data)
    assert not stopped and len(got) == 5
    assert got == _reference(data)


def test_a_file_of_plain_games_is_read_to_its_end() -> None:
    data = b'\n[Game "gold"]\n[Round "1"]\n\n1. a b\n\n[Game "gold"]\n\n1. c\n  \n'
    got, stopped = _spans(data)
    assert not stopped
    assert got == [('\n[Game "gold"]\n[Round "1"]\n\n1. a b\n\n', 1), ('[Game "gold"]\n\n1. c\n  \n', 7)]


def test_a_line_longer_than_grn_allows_stops_the_reader_before_its_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gamespans, "BLOCK", 8)
    data = b'[Game "gold"]\n\n1. a\n[Game "gold"]\n\n1. ' + b"b" * (notation.MAX_LINE_CHARS + 1) + b"\n"
    got, stopped = _spans(data)
    assert stopped and got == [('[Game "gold"]\n\n1. a\n', 1)]
