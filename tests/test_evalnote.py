"""The [%eval ...] comment of analysed records: written and read back exactly (docs/notation.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from grn.analysis.evalnote import JUDGEMENTS, EvalNote, parse_eval, write_eval


def test_the_documented_form():
    note = EvalNote(3.2, 1.1, 7.4, 1.0, 4.2, "mistake")
    assert write_eval(note) == "[%eval played=+3.2±1.1 best=+7.4±1.0 lost=4.2 judgement=mistake]"
    assert note.glyph == "?"


def test_unjudged_has_no_judgement_word():
    text = write_eval(EvalNote(-0.04, 0.5, 0.0, 0.4, 0.0))
    assert text == "[%eval played=+0.0±0.5 best=+0.0±0.4 lost=0.0]"
    assert parse_eval("before " + text + " after").judgement is None


def test_plus_minus_in_ascii_is_read():
    assert parse_eval("[%eval played=-2.0+-0.3 best=+1.0+-0.2 lost=3.0 judgement=blunder]") == \
        EvalNote(-2.0, 0.3, 1.0, 0.2, 3.0, "blunder")


def test_comment_without_eval():
    assert parse_eval("a fine move") is None


@pytest.mark.parametrize("text", ["[%eval played=3 best=1]", "[%eval played=+1.0±0.1 best=+1.0±0.1 lost=0.0 judgement=oops]"])
def test_malformed_eval_is_an_error(text):
    with pytest.raises(ValueError, match="eval"):
        parse_eval(text)


one_decimal = st.integers(-99999, 99999).map(lambda n: n / 10)
positive = st.integers(0, 99999).map(lambda n: n / 10)


@given(one_decimal, positive, one_decimal, positive, positive, st.none() | st.sampled_from(JUDGEMENTS))
def test_round_trip(played, played_se, best, best_se, lost, judgement):
    note = EvalNote(played, played_se, best, best_se, lost, judgement)
    assert parse_eval(write_eval(note)) == note
