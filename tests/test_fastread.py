"""The fast path (:mod:`grn.notation.fastread`) gives exactly what Lark gives.

``parse_game(text, fast=True)`` may read a plain game with the grammar's own
terminal regexes, or decline and let Lark read it; either way the result must
be the one ``parse_game(text, fast=False)`` (Lark alone) gives: equal records,
the same span for every turn, command, glyph and checkpoint (spans take no
part in ``==``, so they are compared explicitly), and the same diagnostics
(message, line, column).  Random records of both games are generated, some
with comments, variations or markup (the fast path's careful reading, tests/test_fastread_notes.py), and some
malformed by random deletions and insertions.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from grn.rules.ruleset import COLOURS

from grn.games.tiling.places import LOCATIONS
from grn.games import find_ruleset
from grn.notation.fastread import first_char_table
from grn.notation.read import _fast_reader, parse_game
from grn.core.record import Record, Variation
from grn.games.gold import selfplay as gold_play
from grn.games.goldrush import selfplay as goldrush_play
from grn.rules.selfplay import to_record
from grn.notation.writer import write_record




# ---------------------------------------------------------------------------
# Comparing the two paths
# ---------------------------------------------------------------------------

def _spans(record: Record) -> list:
    """Every span of the record, named by what it belongs to, in order."""
    out: list = []

    def notes(items, where):
        for n in items:
            if isinstance(n, Variation):
                out.append((where, "variation", n.span))
                notes(n.intro, where + "(")
                turns(n.turns, where + "(")
            else:
                out.append((where, type(n).__name__, repr(n), n.span))

    def turns(items, where):
        for t in items:
            w = f"{where}{t.number}."
            out.append((w, "turn", t.span))
            for a in t.actions:
                out.append((w, repr(a), a.span))
            notes(t.extras, w)

    notes(record.intro, "intro")
    turns(record.turns, "")
    return out


def _diagnostics(record: Record) -> list:
    return [(d.message, d.span.line if d.span else None, d.span.column if d.span else None, d.severity, d.code,
             d.source_line) for d in record.diagnostics]


def both(text: str, first_line: int = 1) -> tuple[Record, Record]:
    fast = parse_game(text, fast=True, first_line=first_line, file="f.grn")
    slow = parse_game(text, fast=False, first_line=first_line, file="f.grn")
    return fast, slow


def assert_same(text: str, first_line: int = 1) -> Record:
    fast, slow = both(text, first_line)
    assert _diagnostics(fast) == _diagnostics(slow), text
    assert fast == slow, text
    assert fast.span == slow.span
    assert _spans(fast) == _spans(slow), text
    assert fast.tag_spans == slow.tag_spans, text
    return slow


def fast_takes(text: str, game: str = "goldrush") -> bool:
    """Whether the fast path reads ``text`` itself (True) or declines (False)."""
    return _fast_reader(find_ruleset(game)).read(text, 1, []) is not None


# ---------------------------------------------------------------------------
# Random records
# ---------------------------------------------------------------------------

SEP = st.sampled_from([" ", " ", " ", "  ", "\t", " \t "])
INT = st.integers(-12, 12).map(str)
WORD = st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True)
PLAYER = st.one_of(st.sampled_from(COLOURS), st.sampled_from(["scorer", "scoreblue", "mine", "tent"]), WORD)
TILE = st.one_of(
    st.sampled_from(["17", "01a", "56", "08", "mine2", "tent2", "discard5", "score", "scores", "tokens",
                     "mine", "tent", "discard", "x_1", "A9", "12b"]),
    st.from_regex(r"[A-Za-z0-9_]{1,4}", fullmatch=True),
)
ROTATION = st.sampled_from(["", "", ":90", ":180", ":270", ":0", ":45", ":360", ":090"])
LOCATION = st.sampled_from(LOCATIONS + ("Q", "NW", "CC", "X"))
TOKEN = st.sampled_from(["0", "1", "2", "3", "5", "4", "?", "12"])
NAG = st.sampled_from(["!", "?", "!!", "??", "!?", "?!", "$1", "$12"])


@st.composite
def goldrush_action(draw) -> str:
    kind = draw(st.sampled_from(["place", "place", "place", "discard", "cowboy", "tent", "mine", "tokens"]))
    if kind == "place":
        return f"{draw(TILE)}@{draw(INT)},{draw(INT)}{draw(ROTATION)}"
    if kind == "discard":
        return "discard" + draw(SEP) + draw(TILE)
    if kind == "cowboy":
        return "+" + draw(LOCATION)
    if kind == "tent":
        loc = draw(st.one_of(st.just(""), LOCATION.map(lambda s: ":" + s)))
        return f"tent@{draw(INT)},{draw(INT)}{loc}"
    if kind == "mine":
        return draw(st.sampled_from(["mine", "mine=?", "mine=0", "mine=3", "mine=5", "mine=4"]))
    return "tokens=" + ",".join(draw(st.lists(TOKEN, min_size=1, max_size=4)))


POSITION = st.one_of(
    st.builds(lambda f, r: f + r, st.sampled_from("abcdefgh"), st.sampled_from("12345678")),
    st.integers(1, 64).map(lambda i: f"p{i}"),
    st.from_regex(r"[a-z][a-z0-9]{0,3}", fullmatch=True),
)
FACE = st.one_of(
    st.integers(1, 5).map(lambda v: f"G{v}"),
    st.just("D"),
    st.builds(lambda c, v: f"{c}{v}", st.sampled_from(COLOURS + ("pink", "gold", "g")), st.integers(1, 6)),
)


@st.composite
def gold_action(draw) -> str:
    return f"{draw(POSITION)}={draw(FACE)}"


@st.composite
def checkpoint(draw) -> str:
    items = draw(st.lists(st.tuples(PLAYER, st.integers(-5, 99)), min_size=1, max_size=4))
    return "score " + " ".join(f"{c}={v}" for c, v in items)


FANCY = st.sampled_from([
    "{a comment}", "{two words}", "; to the end of the line\n", "<highlight 1,0>", '<label 1,0 "Mine here?">',
    "<arrow a1 b2>", "(1. red 17@0,1)", "({why} 2. blue 08@1,0 +N)", "<ghost 17@2,0:90>", "{}",
])


@st.composite
def turn(draw, game: str, number: int, fancy: bool) -> str:
    num = number if draw(st.integers(0, 9)) else draw(st.integers(0, 99))
    action = goldrush_action() if game == "goldrush" else gold_action()
    words = [f"{num}.", draw(PLAYER)] + draw(st.lists(action, max_size=4))
    extras = st.one_of(NAG, checkpoint(), FANCY) if fancy else st.one_of(NAG, checkpoint())
    words += draw(st.lists(extras, max_size=3))
    text = words[0]
    for w in words[1:]:
        sep = draw(SEP)
        if draw(st.integers(0, 30)) == 0:
            sep = draw(st.sampled_from(["\n", "\n  ", " \n\t"]))  # a turn spread over two lines
        text += sep + w
    return draw(st.sampled_from(["", "", "", " ", "\t"])) + text


TAG_VALUE = st.text(alphabet=st.sampled_from('abc XYZ09,.()+-"\\é'), max_size=12)


@st.composite
def tag(draw) -> str:
    name = draw(st.sampled_from(["Event", "Site", "Date", "Round", "Players", "Result", "Options", "Odd_1"]))
    value = draw(TAG_VALUE).replace("\\", "\\\\").replace('"', '\\"')
    return f"[{name}{draw(SEP)}\"{value}\"]"


@st.composite
def record_text(draw, fancy: bool | None = None) -> tuple[str, str]:
    game = draw(st.sampled_from(["goldrush", "gold"]))
    if fancy is None:
        fancy = draw(st.integers(0, 3)) == 0
    lines = []
    if draw(st.integers(0, 9)):
        lines.append(f'[Game "{game}"]')
    lines += draw(st.lists(tag(), max_size=3))
    lines.append("")
    if fancy and draw(st.booleans()):
        lines.append(draw(FANCY).rstrip("\n"))
    n = draw(st.integers(0, 6))
    for i in range(n):
        lines.append(draw(turn(game, i + 1, fancy)))
        if draw(st.integers(0, 8)) == 0:
            lines.append(draw(st.sampled_from(["", "  ", "\t"])))
    eol = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    text = eol.join(line.replace("\n", eol) for line in lines)
    if draw(st.booleans()):
        text += eol
    if not lines[0].startswith("[Game"):
        game = "goldrush"
    return game, text


# Characters inserted into texts to break them.  The fast path splits words
# with Python's str-aware \S+; Lark ignores only / \t\f\r\n/.
NOISE = st.sampled_from(list(" \t\n\r@,:=+?!{}()<>[]\";-x1GD.") + ["\x0b", "\x0c", "\u00a0", "\u2003", "\x1f"])


def mutated(draw, text: str) -> str:
    """``text`` with one to three characters deleted or NOISE characters inserted (inside a strategy)."""
    chars = list(text)
    for _ in range(draw(st.integers(1, 3))):
        if chars and draw(st.booleans()):
            del chars[draw(st.integers(0, len(chars) - 1))]
        else:
            chars.insert(draw(st.integers(0, len(chars))), draw(NOISE))
    return "".join(chars)


@st.composite
def malformed(draw) -> tuple[str, str]:
    game, text = draw(record_text(fancy=False))
    return game, mutated(draw, text)


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record_text(), st.integers(1, 40))
def test_random_records_read_the_same(case: tuple[str, str], first_line: int) -> None:
    game, text = case
    assert_same(text, first_line)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record_text(fancy=False))
def test_plain_records_read_the_same(case: tuple[str, str]) -> None:
    game, text = case
    assert_same(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(malformed(), st.integers(1, 40))
@example(("goldrush", '[Game "goldrush"]\n\n1. red 17@0,1\u00a0+N\n'), 1)
@example(("gold", '[Game "gold"]\n\n1. green a1=G1 score red=-1 scorered=0'), 1)
def test_malformed_records_read_the_same(case: tuple[str, str], first_line: int) -> None:
    game, text = case
    assert_same(text, first_line)


@settings(max_examples=60, deadline=None)
@given(record_text(fancy=True))
def test_fancy_records_read_the_same(case: tuple[str, str]) -> None:
    """Comments, markup and variations are read on the fast path too (tests/test_fastread_notes.py)."""
    game, text = case
    assert_same(text)


# ---------------------------------------------------------------------------
# Self-played records (the shape the fast path is for)
# ---------------------------------------------------------------------------

def test_selfplay_records_take_the_fast_path() -> None:
    from grn.games.carcassonne import Options as CarcassonneOptions
    from grn.games.carcassonne import selfplay as carcassonne_play

    for game, record in (("goldrush", to_record(goldrush_play.play(3, seed=2), seed=2)),
                         ("gold", to_record(gold_play.play(2, seed=2), seed=2)),
                         ("carcassonne", to_record(carcassonne_play.play(
                             3, seed=2, options=CarcassonneOptions(goldmines=True)), seed=2))):
        text = write_record(record)
        assert fast_takes(text, game)
        parsed = assert_same(text)
        assert parsed == record
        crlf = text.replace("\n", "\r\n")
        assert fast_takes(crlf, game)
        assert assert_same(crlf) == record


# ---------------------------------------------------------------------------
# Tricky words
# ---------------------------------------------------------------------------

HEAD = '[Game "goldrush"]\n\n'


def _one(text: str, game: str = "goldrush", takes: bool | None = None) -> Record:
    record = assert_same(text)
    if takes is not None:
        assert fast_takes(text, game) is takes
    return record


def test_tile_ids_that_start_like_keywords() -> None:
    record = _one(HEAD + "1. red mine2@1,0 tent2@0,1:90 discard5@-1,0 tokens@2,0 mine\n", takes=True)
    (turn,) = record.turns
    assert [a.tile for a in turn.actions[:4]] == ["mine2", "tent2", "discard5", "tokens"]
    assert [a.span.column for a in turn.actions] == [8, 18, 31, 45, 56]
    assert record.ok


def test_score_is_not_a_tile_id() -> None:
    """SCORE outranks PLACEMENT in Lark's lexer: score@1,0 is a syntax error on both paths."""
    record = _one(HEAD + "1. red score@1,0\n")
    assert not record.ok
    assert record.diagnostics[0].span.line == 3


def test_discard_with_extra_spaces_and_tabs() -> None:
    for gap in ("  ", "\t", " \t  ", "\t\t"):
        record = _one(HEAD + f"1. red discard{gap}52 17@1,0:90\n", takes=True)
        d, p = record.turns[0].actions
        assert d.tile == "52" and d.span.column == 8
        assert p.span.column == 8 + len("discard") + len(gap) + 3


def test_discard_across_a_line_break() -> None:
    record = _one(HEAD + "1. red discard\n  52 17@1,0\n", takes=True)  # the careful path (R249)
    assert record.turns[0].actions[0].tile == "52"
    assert record.turns[0].actions[1].span.line == 4


def test_crlf_line_endings() -> None:
    text = HEAD.replace("\n", "\r\n") + "1. red 17@1,0:90 +N ! score red=0 blue=0\r\n2. blue discard 52 08@0,1\r\n"
    record = _one(text, takes=True)
    assert [t.span.line for t in record.turns] == [3, 4]
    assert record.turns[0].checkpoint.span.column == 23


def test_meaning_problems_are_reported_identically() -> None:
    record = _one(HEAD + "1. red 17@1,0:45 +Q tent@1,0:ZZ\n2. blue 08@0,1\n", takes=True)
    got = [(d.span.line, d.span.column) for d in record.diagnostics]
    assert got == [(3, 8), (3, 18), (3, 21)]
    assert record.diagnostics[0].message == "rotation 45 is not one of 0, 90, 180, 270 (degrees clockwise)"
    assert "'Q' is not a place" in record.diagnostics[1].message
    assert "'ZZ' is not a place" in record.diagnostics[2].message
    assert all(d.code == "meaning" and d.file == "f.grn" for d in record.diagnostics)


def test_gold_meaning_problem_reported_identically() -> None:
    record = _one('[Game "gold"]\n\n1. red a1=pink4 b2=G3\n', game="gold", takes=True)
    assert [(d.span.line, d.span.column) for d in record.diagnostics] == [(3, 8)]


def test_turn_spread_over_two_lines() -> None:
    record = _one(HEAD + "1. red 17@1,0:90\n   +N score red=0\n2. blue 08@0,1\n", takes=True)  # the careful path (R249)
    first = record.turns[0]
    assert first.actions[1].span.line == 4 and first.checkpoint.span.line == 4
    assert record.turns[1].span.line == 5


def test_two_turns_on_one_line() -> None:
    record = _one(HEAD + "1. red 17@1,0 2. blue 08@0,1\n", takes=True)  # the careful path (R249)
    assert [t.span.column for t in record.turns] == [1, 15]


def test_actions_written_without_spaces() -> None:
    record = _one(HEAD + "1. red 17@1,0+N!\n", takes=False)
    assert len(record.turns[0].actions) == 2 and record.turns[0].nags


def test_first_line_offset() -> None:
    text = HEAD + "1. red 17@1,0:45\n"
    for first in (1, 7, 120):
        record = assert_same(text, first)
        assert record.turns[0].span.line == first + 2
        assert record.diagnostics[0].span.line == first + 2


def test_unicode_whitespace_is_not_a_separator() -> None:
    """Lark ignores only / \\t\\f\\r\\n/: a no-break space, vertical tab or em space is an error.

    The fast path splits words with Python's Unicode-aware ``\\S+`` and reads
    such a line as two words, giving a record where Lark gives a syntax error.
    """
    for odd in ("\u00a0", "\x0b", "\u2003", "\x1c", "\x1d", "\x1e", "\x1f"):
        _one(HEAD + f"1. red 17@0,1{odd}+N\n")
        _one(HEAD + f"{odd}\n1. red 17@0,1\n")


def test_checkpoint_item_starting_with_score() -> None:
    """Lark's lexer takes SCORE ("score", priority 2) before SCORE_ITEM: ``scoreblue=3`` is a new
    checkpoint ``score blue=3``.  The fast path reads it as one item ``scoreblue=3`` of the
    first checkpoint, a different record.
    """
    record = _one(HEAD + "1. red 17@0,1 score red=0 scoreblue=3\n")
    assert [cp.scores for cp in record.turns[0].extras] == [(("red", 0),), (("blue", 3),)]


def test_player_named_like_a_keyword() -> None:
    for player in ("scorer", "mine", "tent", "discard", "tokens"):
        record = _one(HEAD + f"1. {player} 17@0,1\n")
        assert record.turns[0].player == player


def test_carcassonne_words_that_start_like_keywords() -> None:
    """ingot@/take@ are commands; ingot2@/take5@ are tile ids: both paths read them alike."""
    text = '[Game "carcassonne"]\n\n1. red ingot2@1,0 ingot@0,0 +N take@1,0 take5@2,0\n'
    record = _one(text, "carcassonne", takes=True)
    (turn,) = record.turns
    assert [type(a).__name__ for a in turn.actions] == ["PlaceTile", "PlaceIngot", "PlaceFollower", "TakeIngot",
                                                        "PlaceTile"]


# ---------------------------------------------------------------------------
# The first-character table gives the scanner's answer (issue 26, round five)
# ---------------------------------------------------------------------------

_WORD_CHARS = "0123456789@,:-+=.?!$_abcdegikmnorstuADENSWXZ \t\u00e9\u0663"


def _scanner_answer(reader, word: str):
    m = reader.scanner.match(word)
    return None if m is None or m.end() != len(word) else m.lastgroup


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["goldrush", "carcassonne", "gold"]),
       st.lists(st.sampled_from(["discard ", "mine", "mine=", "tokens=", "tent@", "take@", "ingot@", "score",
                                 "12.", "47b@", "-3,", "0:90", "+NNW", "$1", "!?", "red=", "G5", "\u0663"]),
                max_size=4).map("".join),
       st.text(_WORD_CHARS, max_size=8))
@example("goldrush", "", "\u0663\u0663.")
@example("goldrush", "", "tent@1,2:N")
def test_first_character_table_agrees_with_the_scanner(game: str, head: str, tail: str) -> None:
    """Trying only the terminals a word's first character can start classifies every word as the whole
    alternation does (the same terminal, or none), non-ASCII and odd words included."""
    reader = _fast_reader(find_ruleset(game))
    word = (head + tail) or "x"
    assert reader._scan(word) == _scanner_answer(reader, word)


def test_first_character_table_narrows_the_rivals() -> None:
    """A placement word is tried against the placement terminal (and the turn number) only."""
    reader = _fast_reader(find_ruleset("goldrush"))
    assert [name for name, _ in reader._by_first["4"]] == ["PLACEMENT", "TURN_NUMBER"]
    assert [name for name, _ in reader._by_first["+"]] == ["COWBOY"]
    assert "\u0663" not in reader._by_first  # non-ASCII: the whole scanner decides


def test_first_character_table_keeps_what_it_cannot_narrow() -> None:
    """A pattern the table cannot narrow safely (a global ignore-case flag, a negated class, any character)
    stays a candidate for every first character."""
    table = first_char_table([("CASE", "(?i)tent"), ("NOT", "[^x]y"), ("ANY", ".z"), ("LIT", "q+")])
    for c in "TtAq~":
        assert [name for name, _ in table[c]][:3] == ["CASE", "NOT", "ANY"]
    assert [name for name, _ in table["q"]] == ["CASE", "NOT", "ANY", "LIT"]
    assert [name for name, _ in table["y"]] == ["CASE", "NOT", "ANY"]  # a negated class: not narrowed


def test_turn_numbers_out_of_order_and_new_players_read_the_same() -> None:
    """R329: the next line's number and its player are compared with what is expected before a memo is asked;
    numbers that repeat, skip, start at 0 or carry a leading zero, and a player not seated before, read as Lark
    reads them."""
    body = ("0. red 17@0,1\n1. red 08@1,1\n2. blue 33@1,0\n2. blue 12c@-1,0\n4. red 64@0,2\n05. blue 56@2,1\n"
            "6. green 61@2,2\n7. red 47b@2,0\n999. blue 52@1,-1\n1000. red 01a@-2,-2\n1001. red 66@-1,3\n")
    text = '[Game "goldrush"]\n\n' + body
    assert fast_takes(text)
    record = assert_same(text)
    assert [t.number for t in record.turns] == [0, 1, 2, 2, 4, 5, 6, 7, 999, 1000, 1001]
    assert [t.player for t in record.turns][5:7] == ["blue", "green"]
    assert_same(text.replace("6. green", "6. score"))
