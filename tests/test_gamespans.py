"""grn.gamespans: the games of a file found over whole blocks are the games split_games cuts (R220)."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grn import gamespans, notation, sources
from grn.gamespans import SpanReader

# Lines that move the cut: tag lines behind every kind of white space, movetext, blank lines, a lone CR,
# characters of more than one byte ...
PLAIN = st.sampled_from([
    '[Game "Gold Rush"]', '[Event "a"]', '  [Round "1"]', '\t[A "b"]', '\x0c[B "c"]', '\u3000[C "d"]', '\x1c[D "e"]',
    "1. red 17@0,1", "2. blue +N score red=1", "  3. green", "é", "x [not a tag",
    "", " ", "\t", "\r", "\u2028", "\x85",
])
# ... and brace comments, which may hide a tag line (the reader stops at them)
BRACES = st.sampled_from(["{a comment", "}", "[Tag {", "1. red {[Event] hidden}"])


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


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(st.one_of(PLAIN, BRACES), max_size=40), bom=st.booleans(), bad=st.integers(-1, 200),
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
        assert b"{" in data or b"\xff" in data
    else:
        assert got == want


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
