"""R327: a file's lines decoded a block at a time are the lines read and decoded one by one.

``grn validate FILE`` reads a GRN file through :func:`grn.notation.sources.decoded_lines`, which now decodes
whole blocks and cuts them into lines; the line-at-a-time reader it replaced stays as the reference
(and still reads UTF-16 files).  Both must give the same lines, the same too-long-line markers and
the same first undecodable byte (line and column), whatever the block size.
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from grn.notation import read as notation
from grn.notation import sources

#: Pieces that move a line's cut or its decoding: every line break str.splitlines knows (only \n is
#: GRN's), CRs alone and before \n, bytes of more than one byte, bytes that are not UTF-8, a BOM.
PIECES = st.sampled_from([
    b"\n", b"\r\n", b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", "\x85".encode(), "\u2028".encode(),
    "\u2029".encode(), b"a", b"[Game \"x\"]", b"1. red 17@0,1", b" ", "\u00e9".encode(), "\u20ac".encode(),
    b"\xff", b"\xc3", b"\xe2\x82", b"\xef\xbb\xbf", b"xxxxxxxxxxxxxxxxxxxxxxxx",
])


def _reference(data: bytes, most: int) -> list[object]:
    out: list[object] = []
    try:
        out.extend(sources._lines_one_by_one(io.BytesIO(data), True, most))
    except sources.BadEncoding as exc:
        out.append(("not UTF-8", exc.line, exc.column))
    return out


def _blocks(data: bytes, most: int, block: int) -> list[object]:
    out: list[object] = []
    try:
        out.extend(itertools.chain.from_iterable(sources.block_lines(io.BytesIO(data).read, most, block)))
    except sources.BadEncoding as exc:
        out.append(("not UTF-8", exc.line, exc.column))
    return out


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(PIECES, max_size=60), most=st.integers(1, 40), block=st.integers(1, 70))
def test_blocks_give_the_lines_one_by_one_gives(pieces: list[bytes], most: int, block: int) -> None:
    data = b"".join(pieces)
    assert _blocks(data, most, block) == _reference(data, most)


def test_a_line_too_long_is_told_and_its_text_not_kept() -> None:
    data = b"short\n" + b"y" * 100 + b"\nafter\n" + b"z" * 50
    got = _blocks(data, 20, 7)
    assert got == ["short\n", notation.LONG_LINE, "after\n", notation.LONG_LINE]
    assert got == _reference(data, 20)


def test_bad_bytes_stop_the_reading_after_the_lines_before_them() -> None:
    data = "one\ntwo \u00e9\n".encode() + b"thr\xffee\nfour\n"
    assert _blocks(data, 100, 64) == ["one\n", "two \u00e9\n", ("not UTF-8", 3, 4)]


def test_grn_validate_reads_the_file_by_blocks(tmp_path: Path) -> None:
    """The command's reader is the block reader, and a file bigger than a block reads whole."""
    example = Path(__file__).resolve().parent.parent / "examples"
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(example.rglob("*.grn")) for _ in range(3))
    assert len(text.encode()) > sources.BLOCK
    path = tmp_path / "all.grn"
    path.write_text(text, encoding="utf-8")
    with open(path, "rb") as fh:
        lines = sources.decoded_lines(fh)
        assert isinstance(lines, itertools.chain)
        assert "".join(lines) == text
