"""Round eight's short cuts give what the long way gives (issue 26, item 3).

* a square's key is computed with a shift, not a multiplication (mypyc's slow path): the same number,
  for every coordinate the board takes, negative ones included;
* a placement's spot ("-3,12:90") is remembered with its numbers: a second word on the same spot, with
  another tile and at another place in the text, reads as the long way reads it, and a spot with a
  problem is never remembered (its problem is noted every time).
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from grn.core.errors import Span
from grn.games.tiling.board import CELL_STRIDE, MAX_Y, cell_key
from grn.games.tiling.commands import PlacementCodec, PlaceTile


@settings(max_examples=300, deadline=None)
@given(st.integers(-10**9, 10**9), st.integers(-MAX_Y, MAX_Y))
def test_a_square_key_is_x_times_the_stride_plus_y(x: int, y: int) -> None:
    assert cell_key(x, y) == x * CELL_STRIDE + y
    # and the four neighbours' keys are the key plus the steps the placement check adds
    assert cell_key(x + 1, y) == cell_key(x, y) + CELL_STRIDE
    assert cell_key(x, y - 1) == cell_key(x, y) - 1


@settings(max_examples=200, deadline=None)
@given(st.from_regex(r"[A-Za-z0-9_]{1,4}", fullmatch=True), st.from_regex(r"[A-Za-z0-9_]{1,4}", fullmatch=True),
       st.integers(-60, 60), st.integers(-60, 60), st.sampled_from([None, 0, 90, 180, 270]))
def test_a_remembered_spot_reads_as_the_first_did(tile: str, other: str, x: int, y: int, rot: int | None) -> None:
    """The same spot under two tile ids, at two places: each command has its own tile and span, the spot's
    numbers, and no problem."""
    spot = f"{x},{y}" + ("" if rot is None else f":{rot}")
    codec = PlacementCodec()
    for tid, span in ((tile, Span(2, 5)), (other, Span(9, 1)), (tile, Span(4, 3))):
        problems: list = []
        got = codec.read(f"{tid}@{spot}", span, problems)
        assert isinstance(got, PlaceTile)
        assert (got.tile, got.x, got.y, got.rotation, got.span) == (tid, x, y, rot or 0, span)
        assert problems == []


def test_a_spot_with_a_problem_is_noted_every_time() -> None:
    """A rotation that is none, or a number too long: noted at each word, in every game that writes it."""
    codec = PlacementCodec()
    for word, said in (("7@1,2:45", "rotation 45 is not one of 0, 90, 180, 270"),
                       ("7@1234567890,2", "at most 9 digits")):
        for line in (3, 8):
            problems: list = []
            codec.read(word, Span(line, 4), problems)
            assert [(s.line, said in text) for s, text in problems] == [(line, True)], problems
