"""The reader linear on any input (issue 46, item 8; R370-R374).

Hostile text (a comment never closed, a quote never closed, a run of one bracket, a line of problems) is read
in time that grows as its length, with the errors it always had.  The time tests compare CPU time of this
process (which other processes on a loaded machine disturb little) at a size and at four times it, best of
three each: linear reading gives about 4x, quadratic 16x; the test allows 8x, and passes any pair read in
under a tenth of a second at the larger size, where the clock's noise is the largest part (a quadratic path
takes seconds there, R374).  The scans that were made linear are also held to the old ones on random text,
which the clock does not enter.
"""

from __future__ import annotations

import functools
import re
import time
from typing import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from grn.notation import read as notation
from grn.rules import registry
from grn.notation.gamespans import brace_comments
from grn.notation.lexer import GrnLexer
from grn.core.record import MAX_VARIATION_DEPTH
from grn.rules.selfplay import to_record
from grn.notation.writer import write_record

#: The larger of a pair may take this many times the smaller (4x the text; quadratic is 16x).
MOST_RATIO = 8.0
#: Below this many CPU seconds at the larger size, a pair passes whatever its ratio (noise, not growth): a tenth
#: of what the quadratic paths took at those sizes (3 to 40 s), above what the collector's pauses add to a few
#: hundredths (a run of the whole suite once measured 0.011 s and 0.152 s for the problems' pair).
FLOOR = 0.3


@functools.lru_cache(maxsize=None)
def _record() -> tuple[str, ...]:
    """The self-played Carcassonne record of the issue (seed 1, two players, 71 turns), as lines."""
    ruleset = registry.find_ruleset("carcassonne")
    return tuple(write_record(to_record(ruleset.selfplay(2, 1, ruleset.parse_options({})), seed=1)).split("\n"))


def _hostile(inside: str, *, turn: int = 37, later: str = "", next_line: str = "") -> str:
    """The record with ``inside`` after the player of turn ``turn``, ``later`` at the end of the line five
    lines on and ``next_line`` a line of its own after the turn's."""
    lines = list(_record())
    at = next(k for k, line in enumerate(lines) if line.startswith(f"{turn}."))
    cut = lines[at].index(" ", len(f"{turn}.") + 1) + 1
    lines[at] = lines[at][:cut] + inside + " " + lines[at][cut:]
    if later:
        lines[at + 5] += " " + later
    if next_line:
        lines.insert(at + 1, next_line)
    return "\n".join(lines)


def _cpu(read: Callable[[str], object], text: str) -> float:
    """Best of three CPU seconds of ``read(text)``, the cyclic collector paused (its passes over the suite's own
    objects are not the reader's growth).  No ``gc.collect()`` before each read: late in the suite the heap holds
    millions of objects and each full collection cost more than the reads (50 s of this file's time)."""
    import gc

    best = float("inf")
    for _ in range(3):
        gc.disable()
        try:
            start = time.process_time()
            read(text)
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def _lex(text: str) -> None:
    for _token in GrnLexer().get_tokens(text):
        pass


def _assert_linear(make: Callable[[int], str], n: int, read: Callable[[str], object] = notation.parse) -> None:
    """Reading ``make(4 * n)`` takes at most MOST_RATIO times reading ``make(n)`` (or less than FLOOR)."""
    small, large = make(n), make(4 * n)
    t_small, t_large = _cpu(read, small), _cpu(read, large)
    assert t_large < FLOOR or t_large <= MOST_RATIO * t_small, (
        f"{len(small):,} characters read in {t_small:.3f} s, {len(large):,} in {t_large:.3f} s: "
        f"{t_large / max(t_small, 1e-9):.1f}x for 4x the text")


# -- the issue's case -------------------------------------------------------------------------------------

def test_unclosed_brace_of_the_issue_is_one_clear_error() -> None:
    text = _hostile("{" * 200_000)
    for record_text in (text, _hostile("{" * 200_000, later=";" + "(" * (MAX_VARIATION_DEPTH + 1))):
        [record] = notation.parse(record_text, file="hostile.grn")
        [diag] = record.diagnostics
        assert diag.message.startswith("syntax error: a { comment that is never closed; expected ")
        assert "\n" not in diag.message
        assert diag.span is not None
        assert (diag.file, diag.span.line, diag.span.column, diag.code) == ("hostile.grn", 44, 9, "syntax")
        assert record.tag("Game") == "carcassonne"


def test_unclosed_brace_of_the_issue_grows_linearly() -> None:
    _assert_linear(lambda n: _hostile("{" * n), 50_000)
    # with more than MAX_VARIATION_DEPTH "(" later in the game, the depth scan reads it too (R370)
    _assert_linear(lambda n: _hostile("{" * n, later=";" + "(" * (MAX_VARIATION_DEPTH + 1)), 50_000)


def test_problems_of_one_line_grow_linearly() -> None:
    # 8,000 then 32,000 followers on no place: one problem each, each with its source line (R371)
    _assert_linear(lambda n: _hostile("+Q " * (n // 3)), 24_000)
    [record] = notation.parse(_hostile("+Q " * 3))
    assert [(d.span.line, d.span.column) for d in record.diagnostics if d.span] == [(44, 9), (44, 12), (44, 15)]
    assert all((d.source_line or "").startswith("37. red +Q +Q +Q ") for d in record.diagnostics)


# -- hostile shapes, generated --------------------------------------------------------------------------

#: Units a hostile run repeats: each a shape one of the reader's scans once read again and again, or could.
UNITS = ["{", '"\\', "{}", "(", ")", "[", "; ", "+Q ", "<", "}", '"', "U@0,5:90 ", "{(", '"\\{', " ", "%"]
#: What may follow in the game: nothing, enough "(" for the depth scan, an unclosed quote then a brace.
LATER = ["", ";" + "(" * (MAX_VARIATION_DEPTH + 1), '"\\" {', "{" + "(" * (MAX_VARIATION_DEPTH + 1)]


@settings(max_examples=12, deadline=None, derandomize=True)
@given(unit=st.sampled_from(UNITS), later=st.sampled_from(LATER), turn=st.integers(2, 70),
       own_line=st.booleans())
def test_hostile_runs_grow_linearly(unit: str, later: str, turn: int, own_line: bool) -> None:
    def make(n: int) -> str:
        run = unit * (n // len(unit))
        return _hostile("", turn=turn, next_line=run, later=later) if own_line else _hostile(
            run, turn=turn, later=later)

    _assert_linear(make, 20_000)


@settings(max_examples=6, deadline=None, derandomize=True)
@given(unit=st.sampled_from(['"\\', '\\"', "{", "<label ", "a ", '"']))
def test_the_lexer_colours_hostile_markup_linearly(unit: str) -> None:
    _assert_linear(lambda n: _hostile('<label "' + unit * (n // len(unit))), 20_000, read=_lex)


# -- the linear scans give what the old ones gave -------------------------------------------------------

_OLD_NESTING = re.compile(r'\{[^}]*\}|"(?:[^"\\\n]|\\.)*"|;[^\n]*|[()]')
_OLD_SCAN = re.compile(r'\{|\}|"(?:[^"\\\n]|\\.)*"|;')


def _old_too_deep(text: str, most: int) -> tuple[int, int] | None:
    """The depth scan before R370 (one regex over the text), with ``most`` for MAX_VARIATION_DEPTH."""
    depth = 0
    for m in _OLD_NESTING.finditer(text):
        if m.group() == "(":
            depth += 1
            if depth > most:
                start = m.start()
                return text.count("\n", 0, start) + 1, start - (text.rfind("\n", 0, start) + 1) + 1
        elif m.group() == ")":
            depth -= 1
    return None


def _old_scan(line: str, in_brace: bool) -> bool:
    """The game splitter's brace scan before R370."""
    if not in_brace and "{" not in line:
        return False
    pos = 0
    while True:
        if in_brace:
            end = line.find("}", pos)
            if end < 0:
                return True
            in_brace, pos = False, end + 1
            continue
        m = _OLD_SCAN.search(line, pos)
        if m is None or m.group() == ";":
            return False
        in_brace = m.group() == "{"
        pos = m.end()


#: Texts of the characters the scans look at, with runs of "(" deep enough to pass MAX_VARIATION_DEPTH.
TEXTS = st.lists(st.sampled_from(["(" * MAX_VARIATION_DEPTH, "(", ")", "{", "}", '"', "\\", ";", "\n", "x", " "]),
                 max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=TEXTS)
def test_depth_scan_as_before(text: str) -> None:
    assert notation._too_deep(text) == _old_too_deep(text, MAX_VARIATION_DEPTH)


@settings(max_examples=400, deadline=None)
@given(text=TEXTS, in_brace=st.booleans(), newline=st.booleans())
def test_brace_scan_as_before(text: str, in_brace: bool, newline: bool) -> None:
    line = text.split("\n")[0] + ("\n" if newline else "")
    assert notation._scan(line, in_brace) == _old_scan(line, in_brace)


def _repeat(unit: str, n: int) -> str:
    return unit * (n // len(unit)) + "\n"


def test_span_reader_reads_a_line_of_braces_linearly() -> None:
    # grn validate's span reader (R372): a line of "{}", and of "{}" with a quote never closed
    def read(text: str) -> object:
        return brace_comments(text, 0, False)

    for unit in ("{}", '{}"\\'):
        _assert_linear(functools.partial(_repeat, unit), 100_000, read=read)
    assert brace_comments('{}"\\{}"{"}\n{x}', 0, False) == ([(0, 1), (7, 9), (11, 13)], False)
