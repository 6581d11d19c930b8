"""Random edits of the Carcassonne examples never crash reading, validating or drawing (as tests/test_fuzz.py)."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_fuzz import _apply

from grn.notation import read as notation
from grn.rules.position import PositionError, position_at
from grn.render import render_svg
from grn.check.validate import validate_record

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples" / "carcassonne").glob("*.grn"))
TEXTS = [p.read_text(encoding="utf-8") for p in EXAMPLES]
WORDS = ["+N", "+C", "+WNW", "+SSE", "+X", "ingot@0,0", "ingot@1,1", "ingot@99,0", "take@0,0", "take@-1,1",
         "discard X", "discard GM1", "K@0,1:180", "GM3@1,0:90", "D@0,0", "X@5,5", "B@0,-1", "score", "red=3",
         "blue=-1", "!", "0.", "1.", "99.", "red", "blue", "green", "<ghost K@1,1:90>", "<highlight 0,0:N red>",
         "<arrow 0,0 1,0>", '[End "now"]', '[Options "goldmines"]', '[Options "farmers=off, smallcity"]', "{c}",
         "(", ")", "\n", "@", ":", ",", "-", "99999999999999999999"]

edit = st.tuples(st.integers(0, 10_000), st.integers(0, 10_000), st.sampled_from(["replace", "insert", "drop", "char"]),
                 st.sampled_from(WORDS), st.sampled_from(list("0123456789-,:@=?+ ")))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TEXTS))), st.lists(edit, min_size=1, max_size=4))
def test_edited_carcassonne_examples_never_crash(which: int, edits: list) -> None:
    text = _apply(TEXTS[which], edits)
    for index, record in enumerate(notation.read(io.StringIO(text), file="edited.grn")):
        report = validate_record(record, file="edited.grn", index=index)
        report.to_json()
        for d in report.diagnostics:
            d.one_line()
        try:
            render_svg(position_at(record), legal=True)
        except PositionError:
            pass
