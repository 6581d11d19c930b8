"""Random edits of the shipped examples never crash reading, validating or drawing.

Whatever a user's record says, grn answers with diagnostics (or, for drawing,
a PositionError the CLI prints on one line), never with an exception of its
own.  The edits replace, insert or drop words and change characters, with
words taken from the notation so that many edits reach the rules engines.
"""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grn.notation import read as notation
from grn.rules.position import PositionError, position_at
from grn.render import render_svg
from grn.check.validate import validate_record

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.grn"))
TEXTS = [p.read_text(encoding="utf-8") for p in EXAMPLES]
WORDS = ["+N", "+C", "+WNW", "+SSE", "tent@0,0", "tent@1,0:N", "mine", "mine=?", "mine=5", "mine=0",
         "tokens=?,2", "tokens=3", "discard 12", "12@0,0", "12a@1,1:90", "33@-1,0:180", "x@1,1", "score",
         "red=3", "blue=-1", "!", "$1", "0.", "1.", "99.", "red", "blue", "green", "black", "a1=G3", "b2=red4",
         "c3=D", "p9=blue1", "<ghost 12@1,1>", "<highlight 0,0:N red>", "<arrow 0,0 1,0>", "{c}", "(", ")",
         "\n", "@", ":", ",", "-", "99999999999999999999"]

edit = st.tuples(st.integers(0, 10_000), st.integers(0, 10_000), st.sampled_from(["replace", "insert", "drop", "char"]),
                 st.sampled_from(WORDS), st.sampled_from(list("0123456789-,:@=?+ ")))


def _apply(text: str, edits: list) -> str:
    lines = text.split("\n")
    for line_no, word_no, op, word, char in edits:
        i = line_no % len(lines)
        words = lines[i].split(" ")
        j = word_no % len(words)
        if op == "replace":
            words[j] = word
        elif op == "insert":
            words.insert(j, word)
        elif op == "drop":
            del words[j]
        elif words[j]:
            k = word_no % len(words[j])
            words[j] = words[j][:k] + char + words[j][k + 1:]
        lines[i] = " ".join(words)
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TEXTS))), st.lists(edit, min_size=1, max_size=4))
def test_edited_examples_never_crash(which, edits):
    text = _apply(TEXTS[which], edits)
    for index, record in enumerate(notation.read(io.StringIO(text), file="edited.grn")):
        report = validate_record(record, file="edited.grn", index=index)
        report.to_json()
        for d in report.diagnostics:
            d.one_line()
        try:
            render_svg(position_at(record), legal=True)
        except PositionError:
            pass  # the CLI prints it on one line
