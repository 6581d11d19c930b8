"""The GRN reader: every construct of the grammar and the values it produces.

Each test feeds a small piece of GRN text to :func:`grn.notation.read.parse` and
checks the record tree and the engine commands it gives (spans take no part in
equality, so commands built here compare equal to the parsed ones).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from grn.notation import read as notation
from grn.games.tiling.places import LOCATIONS
from grn.games.gold.commands import Card, FlipCard
from grn.games.tiling.commands import DiscardTile, PlaceTile
from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent, RevealTokens
from grn.core.errors import Span
from grn.core.record import (
    Checkpoint, Comment, Markup, MarkupText, Nag, Seat, Turn, Variation, parse_options,
    parse_players,
)

GR = '[Game "goldrush"]\n\n'
GOLD = '[Game "gold"]\n\n'


def one(text: str):
    """The single record of ``text``, which must read without problems."""
    records = notation.parse(text)
    assert len(records) == 1, records
    rec = records[0]
    assert rec.diagnostics == (), [d.one_line() for d in rec.diagnostics]
    return rec


def turn(text: str, header: str = GR) -> Turn:
    rec = one(header + text)
    assert len(rec.turns) == 1
    return rec.turns[0]


def actions(text: str, header: str = GR) -> tuple:
    return turn(text, header).actions


# ---------------------------------------------------------------------------
# Header tags
# ---------------------------------------------------------------------------

def test_tags_in_written_order():
    rec = one('[Game "goldrush"]\n[Event "Thursday club"]\n[Date "2026.11.19"]\n\n1. red 17@1,0\n')
    assert rec.tags == (("Game", "goldrush"), ("Event", "Thursday club"), ("Date", "2026.11.19"))
    assert rec.tag("Event") == "Thursday club"
    assert rec.tag("Site") is None
    assert rec.game == "goldrush"


def test_tag_with_escaped_quotes_and_backslashes():
    rec = one(r'[Event "The \"big\" one \\ C:\\games\\"]' + "\n\n1. red 17@1,0\n")
    assert rec.tags == (("Event", 'The "big" one \\ C:\\games\\'),)


def test_tag_with_unicode_and_empty_value():
    rec = one('[Site "Zürich – café ☕"]\n[Round ""]\n')
    assert rec.tags == (("Site", "Zürich – café ☕"), ("Round", ""))
    assert rec.turns == ()


def test_unknown_tags_are_kept():
    rec = one('[Game "goldrush"]\n[Weather "rainy"]\n[Table_2 "corner"]\n\n1. red 17@1,0\n')
    assert rec.tags == (("Game", "goldrush"), ("Weather", "rainy"), ("Table_2", "corner"))


def test_tags_without_space_or_with_extra_spaces():
    rec = one('[Event   "a"]\n  [Site "b"]\n')
    assert rec.tags == (("Event", "a"), ("Site", "b"))


def test_game_defaults_to_goldrush_and_is_case_insensitive():
    assert one("1. red 17@1,0\n").game == "goldrush"
    assert one('[Game "Gold"]\n\n1. red a1=G3 b2=D\n').game == "gold"


def test_players_tag():
    rec = one('[Players "Anna (red), Ben (blue)"]\n')
    assert rec.seats() == [Seat("Anna", ("red",)), Seat("Ben", ("blue",))]
    assert rec.seats()[1].key == "blue"


def test_parse_players_forms():
    assert parse_players("Anna (red+yellow), Ben (green+blue)") == [
        Seat("Anna", ("red", "yellow")), Seat("Ben", ("green", "blue"))]
    assert parse_players("red, blue") == [Seat("red", ("red",)), Seat("blue", ("blue",))]
    assert parse_players("  Anna Maria  ( red ) ") == [Seat("Anna Maria", ("red",))]
    assert parse_players("(green)") == [Seat("green", ("green",))]
    assert parse_players("") == []
    assert parse_players("   ") == []


@pytest.mark.parametrize("value", ["Anna (red", "Anna red)", "Anna (Red)", "Anna (red), ,", "A (b) (c)"])
def test_parse_players_rejects_malformed(value):
    with pytest.raises(ValueError, match="Name \\(colour\\)"):
        parse_players(value)


def test_options_tag():
    rec = one('[Options "farmers=off, cowboys=5"]\n')
    assert rec.options() == {"farmers": "off", "cowboys": "5"}
    assert parse_options("farmers") == {"farmers": "on"}
    assert parse_options(" a = 1 ,, b ") == {"a": "1", "b": "on"}
    assert parse_options("") == {}
    assert one("1. red 17@1,0\n").options() == {}


# ---------------------------------------------------------------------------
# Intro notes, turn numbers, set-up
# ---------------------------------------------------------------------------

def test_intro_notes():
    rec = one(GR + '{Anna starts.} <highlight 0,0> ; the start tile\n<label 1,0 "x">\n1. red 17@1,0\n')
    assert rec.intro == (
        Comment("Anna starts."),
        Markup("highlight", ("0,0",)),
        Comment(" the start tile", line=True),
        Markup("label", ("1,0", MarkupText("x"))),
    )
    assert rec.turns[0].extras == ()


def test_intro_without_turns():
    rec = one(GR + "{only a note}\n")
    assert rec.intro == (Comment("only a note"),)
    assert rec.turns == ()


def test_turn_numbers_and_players():
    rec = one(GR + "1. red 17@1,0\n2. blue 08@0,1\n10. red 33@0,2\n123. black_2 12a@5,5\n")
    assert [(t.number, t.player) for t in rec.turns] == [(1, "red"), (2, "blue"), (10, "red"),
                                                        (123, "black_2")]


def test_turns_on_one_line_and_across_lines():
    rec = one(GR + "1. red 17@1,0 2. blue\n08@0,1\n+N\n")
    assert rec.turns == (Turn(1, "red", (PlaceTile("17", 1, 0),)),
                         Turn(2, "blue", (PlaceTile("08", 0, 1), PlaceCowboy("N"))))


def test_turn_zero_setup():
    rec = one(GR + "0. red 17@1,0 +N score red=3 blue=5\n0. blue 08@0,1:180\n1. red 33@0,2\n")
    assert [t.number for t in rec.turns] == [0, 0, 1]
    assert rec.turns[0].actions == (PlaceTile("17", 1, 0), PlaceCowboy("N"))
    assert rec.turns[0].checkpoint == Checkpoint((("red", 3), ("blue", 5)))
    assert rec.turns[1] == Turn(0, "blue", (PlaceTile("08", 0, 1, 180),))


def test_turn_without_actions():
    t = turn("1. red {passes}\n")
    assert t.actions == ()
    assert t.extras == (Comment("passes"),)


# ---------------------------------------------------------------------------
# Gold Rush actions
# ---------------------------------------------------------------------------

def test_placement_without_rotation():
    assert actions("1. red 17@1,0\n") == (PlaceTile("17", 1, 0, 0),)
    assert actions("1. red 17@1,0:0\n") == (PlaceTile("17", 1, 0, 0),)


@pytest.mark.parametrize("rot", [90, 180, 270])
def test_placement_with_rotation(rot):
    (cmd,) = actions(f"1. red 01a@2,3:{rot}\n")
    assert cmd == PlaceTile("01a", 2, 3, rot)
    assert (cmd.tile, cmd.x, cmd.y, cmd.rotation) == ("01a", 2, 3, rot)


def test_placement_negative_coordinates():
    assert actions("1. red 56@-1,-12:270\n") == (PlaceTile("56", -1, -12, 270),)
    assert actions("1. red 56@0,-1\n") == (PlaceTile("56", 0, -1),)
    assert actions("1. red 56@-3,4\n") == (PlaceTile("56", -3, 4),)


def test_discard_then_placement():
    assert actions("1. red discard 52 17@1,0\n") == (DiscardTile("52"), PlaceTile("17", 1, 0))
    assert actions("1. red discard   12b 17@1,0\n")[0] == DiscardTile("12b")


@pytest.mark.parametrize("place", LOCATIONS)
def test_every_cowboy_place(place):
    assert actions(f"1. red 17@1,0 +{place}\n") == (PlaceTile("17", 1, 0), PlaceCowboy(place))


def test_all_thirteen_places():
    assert len(set(LOCATIONS)) == 13


def test_tent_without_place():
    assert actions("1. red 17@1,0 tent@2,-1\n") == (PlaceTile("17", 1, 0), PlaceTent(2, -1, None))


def test_tent_with_place():
    assert actions("1. red 17@1,0 tent@-2,1:NNE\n") == (PlaceTile("17", 1, 0), PlaceTent(-2, 1, "NNE"))


@pytest.mark.parametrize("word,value", [("mine", None), ("mine=3", 3), ("mine=0", 0), ("mine=?", None),
                                        ("mine=12", 12)])
def test_mine(word, value):
    assert actions(f"1. red 17@1,0 {word}\n") == (PlaceTile("17", 1, 0), Mine(value))


def test_tokens():
    assert actions("1. red 17@1,0 tokens=2,?,0\n") == (PlaceTile("17", 1, 0), RevealTokens((2, None, 0)))
    assert actions("1. red 17@1,0 tokens=?\n")[1] == RevealTokens((None,))
    assert actions("1. red 17@1,0 tokens=5\n")[1] == RevealTokens((5,))


def test_many_actions_in_order():
    acts = actions("1. red discard 52 17@1,0:90 +N tokens=3,? mine=2\n")
    assert acts == (DiscardTile("52"), PlaceTile("17", 1, 0, 90), PlaceCowboy("N"),
                    RevealTokens((3, None)), Mine(2))


# ---------------------------------------------------------------------------
# Gold actions
# ---------------------------------------------------------------------------

def test_gold_flips():
    rec = one(GOLD + "1. red c4=G3 f2=red4\n2. blue h8=D a1=black12\n")
    assert rec.turns[0].actions == (FlipCard("c4", Card("gold", 3)), FlipCard("f2", Card("miner", 4, "red")))
    assert rec.turns[1].actions == (FlipCard("h8", Card("dynamite")),
                                    FlipCard("a1", Card("miner", 12, "black")))


@pytest.mark.parametrize("colour", ["red", "yellow", "green", "blue", "black"])
def test_gold_miner_colours(colour):
    (cmd,) = actions(f"1. red b2={colour}1\n", GOLD)
    assert cmd.face == Card("miner", 1, colour)
    assert cmd.pos == "b2"


def test_gold_free_layout_position():
    rec = one('[Game "gold"]\n[Layout "free"]\n\n1. red p17=G2 p64=D\n')
    assert rec.tag("Layout") == "free"
    assert rec.turns[0].actions == (FlipCard("p17", Card("gold", 2)), FlipCard("p64", Card("dynamite")))


def test_gold_turn_with_extras_and_variation():
    t = turn("1. red a1=G3 b2=G1 ! score red=4 (1. red a1=G3 c3=D ?)\n", GOLD)
    assert t.extras[0] == Nag("!")
    assert t.extras[1] == Checkpoint((("red", 4),))
    assert t.extras[2] == Variation((Turn(1, "red", (FlipCard("a1", Card("gold", 3)),
                                                     FlipCard("c3", Card("dynamite"))), (Nag("?"),)),))


def test_gold_markup_names_positions():
    rec = one(GOLD + '<highlight c4> <arrow a1 b2> <label d5 "the 5 miner">\n1. red a1=G3\n')
    assert rec.intro == (Markup("highlight", ("c4",)), Markup("arrow", ("a1", "b2")),
                         Markup("label", ("d5", MarkupText("the 5 miner"))))


# ---------------------------------------------------------------------------
# Extras
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("glyph", ["!", "?", "!!", "??", "!?", "?!", "$12", "$0", "$255"])
def test_every_glyph(glyph):
    t = turn(f"1. red 17@1,0 {glyph}\n")
    assert t.extras == (Nag(glyph),)
    assert t.nags == (Nag(glyph),)


def test_glyphs_written_together():
    t = turn("1. red 17@1,0 !? $3 ??\n")
    assert t.extras == (Nag("!?"), Nag("$3"), Nag("??"))


def test_brace_comment():
    t = turn("1. red 17@1,0 {a farmer early; nice [really] \"quoted\" ;-)}\n")
    assert t.extras == (Comment('a farmer early; nice [really] "quoted" ;-)'),)
    assert t.comments == t.extras


def test_brace_comment_spanning_lines():
    t = turn("1. red 17@1,0 {line one\nline two}\n")
    assert t.extras == (Comment("line one\nline two"),)


def test_empty_brace_comment():
    assert turn("1. red 17@1,0 {}\n").extras == (Comment(""),)


def test_line_comment():
    rec = one(GR + "1. red 17@1,0 ; to the end {not a brace} (not a variation)\n2. blue 08@0,1\n")
    assert rec.turns[0].extras == (Comment(" to the end {not a brace} (not a variation)", line=True),)
    assert len(rec.turns) == 2


def test_line_comment_at_end_of_file_without_newline():
    t = turn("1. red 17@1,0 ;last")
    assert t.extras == (Comment("last", line=True),)


def test_checkpoints():
    t = turn("1. red 17@1,0 score red=14 blue=9 yellow=-2\n")
    assert t.checkpoint == Checkpoint((("red", 14), ("blue", 9), ("yellow", -2)))
    assert t.checkpoint.as_dict() == {"red": 14, "blue": 9, "yellow": -2}


def test_last_checkpoint_wins():
    t = turn("1. red 17@1,0 score red=1 {c} score red=2\n")
    assert t.checkpoint == Checkpoint((("red", 2),))
    assert t.extras == (Checkpoint((("red", 1),)), Comment("c"), Checkpoint((("red", 2),)))


@pytest.mark.parametrize("text,markup", [
    ("<highlight 1,0>", Markup("highlight", ("1,0",))),
    ("<highlight 1,0:N>", Markup("highlight", ("1,0:N",))),
    ("<highlight 1,0 red>", Markup("highlight", ("1,0", "red"))),
    ("<arrow 0,0 1,0>", Markup("arrow", ("0,0", "1,0"))),
    ("<arrow 0,0 1,0 blue>", Markup("arrow", ("0,0", "1,0", "blue"))),
    ('<label 1,0 "Mine here?">', Markup("label", ("1,0", MarkupText("Mine here?")))),
    ('<label 1,0 "say \\"hi\\" \\\\ bye">', Markup("label", ("1,0", MarkupText('say "hi" \\ bye')))),
    ('<label -3,-4 "">', Markup("label", ("-3,-4", MarkupText("")))),
    ("<ghost 17@2,0:90>", Markup("ghost", ("17@2,0:90",))),
    ("< ghost  17@2,0 >", Markup("ghost", ("17@2,0",))),
])
def test_every_markup_kind(text, markup):
    t = turn(f"1. red 17@1,0 {text}\n")
    assert t.extras == (markup,)
    assert t.markup == (markup,)


def test_extras_keep_written_order():
    t = turn('1. red 17@1,0 +N ! {c} score red=3 <highlight 1,0> ?! ; end\n')
    assert t.extras == (Nag("!"), Comment("c"), Checkpoint((("red", 3),)), Markup("highlight", ("1,0",)),
                        Nag("?!"), Comment(" end", line=True))


# ---------------------------------------------------------------------------
# Variations
# ---------------------------------------------------------------------------

def test_variation():
    t = turn("4. blue 56@2,0 mine=2 (4. blue 56@0,-1:180 +S {safer})\n")
    assert t.actions == (PlaceTile("56", 2, 0), Mine(2))
    assert t.variations == (Variation((Turn(4, "blue", (PlaceTile("56", 0, -1, 180), PlaceCowboy("S")),
                                            (Comment("safer"),)),)),)


def test_nested_variations_with_intro_notes():
    t = turn("3. red 17@1,0 ({instead} <highlight 2,0> 3. red 17@2,0 ({deeper} 3. red 17@3,0 !)"
             " 4. blue 08@0,1) (3. red 17@0,1)\n")
    inner = Variation((Turn(3, "red", (PlaceTile("17", 3, 0),), (Nag("!"),)),), (Comment("deeper"),))
    first = Variation(
        (Turn(3, "red", (PlaceTile("17", 2, 0),), (inner,)), Turn(4, "blue", (PlaceTile("08", 0, 1),))),
        (Comment("instead"), Markup("highlight", ("2,0",))),
    )
    second = Variation((Turn(3, "red", (PlaceTile("17", 0, 1),)),))
    assert t.extras == (first, second)
    assert t.variations[0].intro == (Comment("instead"), Markup("highlight", ("2,0",)))
    assert t.variations[0].turns[0].variations[0].intro == (Comment("deeper"),)


def test_variation_spanning_lines():
    rec = one(GR + "1. red 17@1,0 (1. red 17@0,1\n2. blue 08@0,2)\n2. blue 08@1,1\n")
    assert len(rec.turns) == 2
    assert len(rec.turns[0].variations[0].turns) == 2


# ---------------------------------------------------------------------------
# Files: several games, line endings, comments that look like tags
# ---------------------------------------------------------------------------

MULTI = (
    '[Game "goldrush"]\n[Event "one"]\n\n1. red 17@1,0\n2. blue 08@0,1\n'
    '\n'
    '[Game "gold"]\n[Event "two"]\n\n{second}\n1. red a1=G3 b2=D\n'
    '\n'
    '[Event "three"]\n1. red 33@0,2\n'
)


def test_multi_game_file():
    records = notation.parse(MULTI)
    assert [r.tag("Event") for r in records] == ["one", "two", "three"]
    assert [r.game for r in records] == ["goldrush", "gold", "goldrush"]
    assert all(r.ok for r in records)
    assert records[1].intro == (Comment("second"),)
    assert records[1].turns[0].actions == (FlipCard("a1", Card("gold", 3)), FlipCard("b2", Card("dynamite")))
    assert records[2].turns == (Turn(1, "red", (PlaceTile("33", 0, 2),)),)


def test_read_accepts_path_and_file_object(tmp_path):
    path = tmp_path / "m.grn"
    path.write_text(MULTI, encoding="utf-8")
    by_path = list(notation.read(path))
    by_str = list(notation.read(str(path)))
    with open(path, encoding="utf-8") as fh:
        by_handle = list(notation.read(fh))
    assert by_path == by_str == by_handle == notation.parse(MULTI)
    assert by_path[0].diagnostics == ()


def test_read_game_one_at_a_time():
    handle = io.StringIO(MULTI)
    events = []
    while (rec := notation.read_game(handle)) is not None:
        events.append(rec.tag("Event"))
    assert events == ["one", "two", "three"]


def test_crlf_line_endings():
    crlf = MULTI.replace("\n", "\r\n")
    records = notation.parse(crlf)
    assert records == notation.parse(MULTI)
    assert all(r.ok for r in records)
    assert records[0].turns[1].span == Span(5, 1)


def test_crlf_line_comment_has_no_carriage_return(tmp_path):
    path = tmp_path / "c.grn"
    path.write_bytes(b'[Game "goldrush"]\r\n\r\n1. red 17@1,0 ; note\r\n2. blue 08@0,1\r\n')
    (rec,) = list(notation.read(path))
    assert rec.ok
    assert rec.turns[0].extras == (Comment(" note", line=True),)
    assert rec.turns[1].span == Span(4, 1)
    assert rec.tags == (("Game", "goldrush"),)


def test_brace_comment_with_line_starting_with_bracket_does_not_split():
    text = ('[Game "goldrush"]\n\n1. red 17@1,0 {see the diagram:\n[ 1,0 ] is the tile\n  [Event "no"]\n}\n'
            '2. blue 08@0,1\n\n[Event "second"]\n\n1. red 33@0,2\n')
    records = notation.parse(text)
    assert len(records) == 2
    first, second = records
    assert first.ok and second.ok
    assert first.turns[0].extras == (Comment('see the diagram:\n[ 1,0 ] is the tile\n  [Event "no"]\n'),)
    assert first.tags == (("Game", "goldrush"),)
    assert [t.number for t in first.turns] == [1, 2]
    assert second.tag("Event") == "second"
    assert second.turns[0].span == Span(11, 1)


def test_intro_brace_comment_with_bracket_line():
    text = '[Event "a"]\n\n{intro\n[not a tag]}\n1. red 17@1,0\n'
    rec = one(text)
    assert rec.intro == (Comment("intro\n[not a tag]"),)


def test_brace_inside_line_comment():
    text = ('[Event "a"]\n\n1. red 17@1,0 ; a { that opens nothing\n2. blue 08@0,1\n\n'
            '[Event "b"]\n\n1. red 33@0,2\n')
    records = notation.parse(text)
    assert [r.tag("Event") for r in records] == ["a", "b"]
    assert all(r.ok for r in records)
    assert records[0].turns[0].extras == (Comment(" a { that opens nothing", line=True),)


def test_brace_inside_string_does_not_open_a_comment():
    text = '[Event "a"]\n\n1. red 17@1,0 <label 1,0 "a { brace">\n\n[Event "b"]\n\n1. red 33@0,2\n'
    records = notation.parse(text)
    assert [r.tag("Event") for r in records] == ["a", "b"]
    assert records[0].turns[0].extras == (Markup("label", ("1,0", MarkupText("a { brace"))),)


def test_brace_in_markup_is_an_unclosed_comment():
    # Markup words may not hold braces, parentheses or semicolons (grammar and
    # schema agree), so "{" opens a comment; left unclosed, it is reported where
    # it opens, as the game splitter sees it too.
    text = '[Event "a"]\n\n1. red 17@1,0 <highlight {x>\n\n[Event "b"]\n\n1. red 33@0,2\n'
    records = notation.parse(text)
    assert len(records) == 1
    (d,) = records[0].diagnostics
    assert (d.span.line, d.span.column) == (3, 26)
    assert "never closed" in d.message


def test_game_tag_inside_a_comment_does_not_pick_the_grammar():
    # A comment's text is free; a line in it that looks like a Game tag must not
    # switch the game's grammar (the game has no Game tag: it is goldrush).
    text = '[Event "a"]\n\n{copied from:\n[Game "gold"]}\n1. red 17@1,0\n'
    rec = one(text)
    assert rec.game == "goldrush"
    assert rec.turns[0].actions == (PlaceTile("17", 1, 0),)


# ---------------------------------------------------------------------------
# Spans
# ---------------------------------------------------------------------------

SPANS = (
    '[Game "goldrush"]\n'        # 1
    '\n'                         # 2
    '1. red 17@1,0\n'            # 3
    '\n'                         # 4
    '[Game "goldrush"]\n'        # 5
    '[Event "second"]\n'         # 6
    '\n'                         # 7
    '{intro}\n'                  # 8
    '1. red 17@1,0:90 +N !\n'    # 9
    '2. blue  discard 52 08@0,1 tent@0,1:N mine=2 tokens=1,? score red=1 <highlight 0,1> '
    '(2. blue 08@2,0)\n'         # 10
)


def test_spans_of_turns_and_commands_in_second_game():
    first, second = notation.parse(SPANS)
    assert first.span == Span(1, 1)
    assert first.turns[0].span == Span(3, 1)
    assert second.span == Span(5, 1)
    assert second.intro[0].span == Span(8, 1)
    t1, t2 = second.turns
    assert t1.span == Span(9, 1)
    assert [a.span for a in t1.actions] == [Span(9, 8), Span(9, 18)]
    assert t1.extras[0].span == Span(9, 21)
    assert t2.span == Span(10, 1)
    line = SPANS.splitlines()[9]
    expected_cols = [line.index(w) + 1 for w in ("discard", "08@", "tent@", "mine=", "tokens=")]
    assert [a.span for a in t2.actions] == [Span(10, c) for c in expected_cols]
    checkpoint, markup, variation = t2.extras
    assert checkpoint.span == Span(10, line.index("score") + 1)
    assert markup.span == Span(10, line.index("highlight") + 1)
    assert variation.span == Span(10, line.index("(2.") + 2)
    assert variation.turns[0].span == Span(10, line.index("(2.") + 2)
    assert variation.turns[0].actions[0].span == Span(10, line.index("08@2") + 1)


def test_spans_ignored_by_equality():
    a = notation.parse(GR + "1. red 17@1,0\n")[0]
    b = notation.parse("\n\n\n" + GR + "   1. red    17@1,0\n")[0]
    assert a.turns[0].span != b.turns[0].span
    assert a == b


def test_gold_flip_span():
    (rec,) = notation.parse('[Game "gold"]\n\n1. red a1=G3  h8=D\n')
    assert [a.span for a in rec.turns[0].actions] == [Span(3, 8), Span(3, 15)]


def test_the_analysed_grammar_is_cached_per_user_and_never_in_the_way(tmp_path):
    # The second run reads the analysed grammar from the user's cache folder; a cache
    # folder that cannot be made changes nothing but the speed.
    import os
    import subprocess
    import sys

    example = Path(__file__).resolve().parent.parent / "examples" / "goldrush-2p.grn"
    code = "import sys; from grn.cli.app import main; sys.argv = ['grn', 'validate', sys.argv[1]]; main()"
    for cache_home in (tmp_path / "cache", tmp_path / "cache", tmp_path / "not-a-folder"):
        if cache_home.name == "not-a-folder":
            cache_home.write_text("a file where the cache folder would go")
        env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
        run = subprocess.run([sys.executable, "-c", code, str(example)], capture_output=True, text=True, env=env)
        assert run.returncode == 0 and run.stderr == "", run.stderr
    # for the one grammar read, one checked JSON file of Lark's tables and one of its terminal table (R246):
    # grn.notation.grammar_cache, never a pickle
    names = sorted(p.name for p in (tmp_path / "cache" / "grn").iterdir())
    assert len(names) == 2 and all(n.endswith(".json") for n in names)
    assert sum(n.endswith(".terms.json") for n in names) == 1
