"""The reader's round-six short cuts give what the long way gives (issue 26, item 3; rulings R210-R212).

* a new action word is classified by its *shape* (every ASCII digit made ``0``) when every rival terminal
  treats the digits alike: the same terminal the scanner gives the word itself;
* placement and tent words are read by position, their short numbers remembered: the same command, the
  same problems, as the terminal's own regex groups say;
* turn numbers are remembered as numbers, and one too long to mean anything is noted at every game.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings, strategies as st

from grn.core.errors import Span
from grn.notation.fastread import digits_alike, word_shape
from grn.games import find_ruleset
from grn.games.goldrush.commands import PlaceTent, TentCodec
from grn.notation.read import _fast_reader, parse, parse_game
from grn.games.tiling.commands import PlacementCodec, PlaceTile
from grn.games.tiling.places import LOCATIONS

_WORD_CHARS = "0123456789@,:-+=.?!$_abcdegikmnorstuADENSWXZ\u0663"


def _scanner_kind(reader, word: str) -> str:
    m = reader.scanner.match(word)
    found = None if m is None or m.end() != len(word) else m.lastgroup
    return found if found is not None and found in reader.action_names else ""


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["goldrush", "carcassonne", "gold"]),
       st.lists(st.sampled_from(["discard ", "mine", "mine=", "tokens=", "tent@", "take@", "ingot@", "score",
                                 "12.", "47b@", "-3,", "0:90", "+NNW", "$1", "!?", "red=", "G5", "c4=", "\u0663"]),
                max_size=4).map("".join),
       st.text(_WORD_CHARS, max_size=8), st.randoms(use_true_random=False))
@example("goldrush", "47b@", "-3,12:90", None)
@example("goldrush", "tent@", "1,1:N", None)
@example("gold", "c4=", "G3", None)
def test_a_word_is_classified_as_its_shape_and_as_the_scanner_says(game, head, tail, rnd) -> None:
    """A new word, and then another of the same shape (other digits), each get the terminal the scanner
    gives that very word (the shape memo answers the second)."""
    reader = _fast_reader(find_ruleset(game))
    assert reader._shapes is not None  # every shipped grammar treats the digits alike
    word = (head + tail) or "x"
    digits = "0123456789"
    other = "".join(rnd.choice(digits) if c in digits else c for c in word) if rnd is not None else \
        word.translate(str.maketrans(digits, "9876543210"))
    for w in (word, other):
        reader._kinds.pop(w, None)  # as if never met: the shape decides
        assert reader._new_kind(w) == _scanner_kind(reader, w), w
    assert word_shape(word) == word_shape(other)


def test_digits_alike_declines_what_tells_digits_apart() -> None:
    """A literal digit, a class holding some digits, a back reference or a flag: no shapes for that grammar."""
    assert digits_alike([r"tent@-?\d+,-?\d+", r"[A-Za-z0-9_]+@", r"\$\d+", r"[^\s]+", r"mine(?![@A-Za-z0-9_])"])
    assert not digits_alike([r"take5@\d+"])
    assert not digits_alike([r"[0-4]x"])
    assert not digits_alike([r"[^5]"])
    assert not digits_alike([r"(a)\1"])
    assert not digits_alike([r"(?i)x\d"])
    assert not digits_alike([r"(?i:x)\d"])
    assert word_shape("47b@-3,12:90") == "00b@-0,00:00"


_INT = st.integers(-10**12, 10**12)


@settings(max_examples=300, deadline=None)
@given(st.from_regex(r"[A-Za-z0-9_]{1,4}", fullmatch=True), _INT, _INT,
       st.one_of(st.just(None), st.sampled_from([0, 90, 180, 270, 45, 360, 1000]), _INT.map(abs)))
def test_a_placement_word_reads_as_its_regex_groups_say(tile, x, y, rot) -> None:
    """The command and the problems of a placement word are what its terminal's groups give, read with int();
    read twice (the second time from the small-number memo), the same."""
    word = f"{tile}@{x},{y}" + ("" if rot is None else f":{rot}")
    m = re.fullmatch(r"([A-Za-z0-9_]+)@(-?\d+),(-?\d+)(?::(\d+))?", word)
    assert m is not None
    for _ in range(2):
        problems: list = []
        got = PlacementCodec().read(word, Span(3, 7), problems)
        assert isinstance(got, PlaceTile) and got.span == Span(3, 7)
        too_long = [g for g in m.groups() if g is not None and len(g.lstrip("-")) > 9]
        want_rot = 0 if m.group(4) is None or len(m.group(4)) > 9 else int(m.group(4))
        assert got.tile == m.group(1)
        assert got.x == (0 if len(m.group(2).lstrip("-")) > 9 else int(m.group(2)))
        assert got.y == (0 if len(m.group(3).lstrip("-")) > 9 else int(m.group(3)))
        assert got.rotation == want_rot
        messages = [text for _, text in problems]
        assert sum("at most 9 digits" in t for t in messages) == len(too_long)
        assert any("is not one of 0, 90, 180, 270" in t for t in messages) == (want_rot not in (0, 90, 180, 270))


@settings(max_examples=200, deadline=None)
@given(_INT, _INT, st.one_of(st.just(None), st.sampled_from(LOCATIONS), st.sampled_from(["Q", "NX", "CC"])))
def test_a_tent_word_reads_as_its_regex_groups_say(x, y, where) -> None:
    """tent@X,Y[:PLACE]: the numbers, the place, and a problem for a place that is none."""
    word = f"tent@{x},{y}" + ("" if where is None else f":{where}")
    problems: list = []
    got = TentCodec().read(word, Span(1, 4), problems)
    assert isinstance(got, PlaceTent)
    assert (got.x, got.y, got.location) == (0 if abs(x) >= 10**9 else x, 0 if abs(y) >= 10**9 else y, where)
    bad_place = where is not None and where not in LOCATIONS
    assert sum("is not a place on a tile" in t for _, t in problems) == bad_place
    assert sum("at most 9 digits" in t for _, t in problems) == (abs(x) >= 10**9) + (abs(y) >= 10**9)


def test_a_turn_number_too_long_is_noted_in_every_game() -> None:
    """The turn-number memo keeps numbers only: a ten-digit turn number is noted at its place in both games
    that write it, not only the first (and a short one is read as the number it is)."""
    game = ('[Game "goldrush"]\n[Players "Ada (red), Bo (yellow)"]\n\n'
            "1234567890. red 61@1,0:270\n")
    records = parse(game + "\n" + game)
    assert len(records) == 2
    for record, line in zip(records, (4, 9)):
        said = [(d.span.line, d.span.column, d.message) for d in record.diagnostics]
        assert said == [(line, 1, "a turn number cannot be 1234567890: a number in GRN has at most 9 digits")], said
    short = parse('[Game "goldrush"]\n[Players "Ada (red), Bo (yellow)"]\n\n7. red 61@1,0:270\n')[0]
    assert [t.number for t in short.turns] == [7] and not short.diagnostics


def test_header_lines_read_from_memory_say_what_lark_says() -> None:
    """A header line met before (the tag-line memo) gives the same tags, values and columns as Lark's reading,
    escapes included; a value without a backslash is what its quotes hold."""
    head = ('[Game "goldrush"]\n  [Event "say \\"when\\" \\\\ now"]\n[Site "plain"]\n'
            '[Players "Ada (red), Bo (yellow)"]\n\n1. red 61@1,0:270\n')
    assert _fast_reader(find_ruleset("goldrush")).read(head, 1, []) is not None  # the fast reader takes it
    fast = parse(head + "\n" + head)
    slow = [parse_game(head, fast=False), parse_game(head, first_line=8, fast=False)]
    for got, want in zip(fast, slow):
        assert got.tags == want.tags
        assert got.tag_spans == want.tag_spans
        assert got.tag("Event") == 'say "when" \\ now' and got.tag("Site") == "plain"
    assert [s.column for s in fast[1].tag_spans] == [2, 4, 2, 2]


def test_a_players_tag_read_again_gives_the_same_seats_in_a_list_of_its_own() -> None:
    """parse_players remembers a tag's seats: the second reading is equal, and a caller changing its list
    changes nothing for the next; a malformed tag is refused every time."""
    import pytest

    from grn.core.record import parse_players

    first = parse_players("Ada (red), Bo (yellow+green)")
    first.append(first[0])
    again = parse_players("Ada (red), Bo (yellow+green)")
    assert [(s.name, s.colours) for s in again] == [("Ada", ("red",)), ("Bo", ("yellow", "green"))]
    for _ in range(2):
        with pytest.raises(ValueError, match="write it as Name"):
            parse_players("Ada [red]")


#: the pieces a Result part is made of, and which of them a reader accepts (docs/notation.md, the Result tag)
_NAMES, _GOOD_NAMES = ["red", "blue", "y_2", "Red", "2x", "gr\u00e9en", ""], {"red", "blue", "y_2"}
_SEPS, _GOOD_SEPS = [" ", "  ", "=", ": ", "\t", " - "], {" ", "  ", "=", ": ", "\t"}


def _result_from_pieces(parts: list[tuple[str, str, str]]) -> dict[str, int] | str:
    """What the Result tag made of ``parts`` must read as, decided from the pieces themselves: a seat's name
    (lower case, then letters, digits or _), a space, ``=`` or ``:``, and a whole number of at most 9 digits."""
    out: dict[str, int] = {}
    for name, sep, num in parts:
        digits = num[1:] if num.startswith("-") else num
        if name not in _GOOD_NAMES or sep not in _GOOD_SEPS or not digits.isdecimal():
            return "unreadable"
        if len(digits) > 9:
            return "too long"
        out[name] = int(num)
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_NAMES), st.sampled_from(_SEPS),
                          st.one_of(st.integers(-10**11, 10**11).map(str), st.sampled_from(["\u0663", "-", "1a", "\u00b2"]))),
                max_size=5))
@example([("red", " ", "61"), ("blue", " ", "58")])
def test_a_result_tag_reads_its_parts_and_refuses_any_other_shape(parts) -> None:
    """A Result tag gives each seat its number, and refuses too long a number or any other shape."""
    from grn.check.validate import parse_result

    value = ", ".join(name + sep + num for name, sep, num in parts)
    want = _result_from_pieces(parts)
    try:
        got: dict[str, int] | str = parse_result(value)
    except ValueError as exc:
        got = "too long" if "at most 9 digits" in str(exc) else "unreadable"
    assert got == want


def _result_by_pattern(value: str) -> dict[str, int] | str:
    """parse_result as it was before its fast path (round fourteen): every part read by the pattern."""
    from grn.check.validate import _RESULT_RE

    out: dict[str, int] = {}
    for part in value.split(","):
        if not part.strip():
            continue
        m = _RESULT_RE.match(part)
        if not m:
            return "unreadable"
        if len(m.group(2).lstrip("-")) > 9:
            return "too long"
        out[m.group(1)] = int(m.group(2))
    return out


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(st.text(alphabet="ab_Z9 0-1:=\t\u00a0\u0663\u00b2\n", max_size=14),
                          st.tuples(st.sampled_from(["red", "blue_2", "x", "Red", "9a", "é"]),
                                    st.sampled_from([" ", "  ", "\t", " :", "=", "", "\u2003"]),
                                    st.one_of(st.integers(-10**11, 10**11).map(str),
                                              st.sampled_from(["-", "--1", "1-", "٣", "0012"]))).map("".join)),
                max_size=5).map(", ".join))
@example("red 61, blue 58")
@example("red 1234567890")
@example("red -0, blue 000000001")
def test_the_result_tags_fast_path_reads_what_the_pattern_reads(value: str) -> None:
    """The common "red 61" parts skip the pattern (R326): every text reads, or is refused, as the pattern has it."""
    from grn.check.validate import parse_result

    try:
        got: dict[str, int] | str = parse_result(value)
    except ValueError as exc:
        got = "too long" if "at most 9 digits" in str(exc) else "unreadable"
    assert got == _result_by_pattern(value)
