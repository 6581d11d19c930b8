"""Round trips: write -> read, fmt idempotence, GRN -> JSON -> GRN, and the fmt/convert CLI.

The property tests build random records of both games with hypothesis (tags
with quotes, backslashes and unicode, random actions, comments of both kinds,
glyphs, score checkpoints, markup with text arguments, variations nested two
deep) and check that the canonical writer and the reader agree.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

import grn.cli.app
from grn.notation import read as notation
from grn.notation.jsonform import check
from grn.rules.ruleset import COLOURS
from grn.games.tiling.places import LOCATIONS
from grn.games.gold.commands import Card, FlipCard
from grn.games.tiling.commands import DiscardTile, PlaceTile
from grn.games.carcassonne.commands import PlaceFollower, PlaceIngot, TakeIngot
from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent, RevealTokens
from grn.notation.jsonform import records_from_json, records_to_json, schema
from grn.core.record import (
    MARKUP_KINDS, TAG_ORDER, Checkpoint, Comment, Markup, MarkupText, Nag, Record, Turn, Variation,
)
from grn.notation.writer import tag_order, write_record, write_records

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ---------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------

TRICKY = st.sampled_from([
    "", " ", '"', '\\', '\\"', '"\\', 'say "hi"', "C:\\games\\", "a\\\\b", "end\\", "[x]", "{y}",
    "; not a comment", "Zürich", "日本語", "ü\u0301", "emoji 🎲", "tab\there", "(1. red)", "<arrow>",
])
one_line_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
                        max_size=20)
line_text = st.one_of(TRICKY, one_line_text)

brace_text = st.one_of(
    TRICKY.filter(lambda s: "}" not in s),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="}"), max_size=25),
    st.sampled_from(["multi\nline", "\n[Event \"not a tag\"]\n", "a\n  [1,0]\nb", "crlf\r\nline"]),
)

tag_name = st.one_of(
    st.sampled_from([t for t in TAG_ORDER if t != "Game"]),
    st.builds(lambda a, b: a + b, st.sampled_from("ABCXYZabcxyz"),
              st.text("AGaemz09_", max_size=6)).filter(lambda s: s != "Game"),
)
player = st.one_of(st.sampled_from(COLOURS),
                   st.sampled_from(["anna", "b2", "p_1", "mine", "tent", "d", "g3"]))
coord = st.integers(-40, 40)
tile_id = st.builds(lambda n, s: f"{n:02d}{s}", st.integers(0, 99), st.sampled_from(["", "", "a", "b", "d"]))
face_value = st.integers(0, 30)
maybe_face = st.one_of(st.none(), face_value)

goldrush_action = st.one_of(
    st.builds(PlaceTile, tile_id, coord, coord, st.sampled_from([0, 90, 180, 270])),
    st.builds(DiscardTile, tile_id),
    st.builds(PlaceCowboy, st.sampled_from(LOCATIONS)),
    st.builds(PlaceTent, coord, coord, st.one_of(st.none(), st.sampled_from(LOCATIONS))),
    st.builds(Mine, maybe_face),
    st.builds(RevealTokens, st.lists(maybe_face, min_size=1, max_size=4).map(tuple)),
)
position = st.one_of(st.builds(lambda f, r: f"{f}{r}", st.sampled_from("abcdefgh"), st.integers(1, 8)),
                     st.integers(1, 64).map(lambda i: f"p{i}"))
card = st.one_of(
    st.builds(Card, st.just("gold"), face_value),
    st.builds(Card, st.just("miner"), face_value, st.sampled_from(COLOURS)),
    st.just(Card("dynamite")),
)
gold_action = st.builds(FlipCard, position, card)
carcassonne_action = st.one_of(
    st.builds(PlaceTile, st.one_of(st.sampled_from(list("ABCDEFGHIJKLMNOPQRSTUVWX")), tile_id), coord, coord,
              st.sampled_from([0, 90, 180, 270])),
    st.builds(DiscardTile, tile_id),
    st.builds(PlaceFollower, st.sampled_from(LOCATIONS)),
    st.builds(PlaceIngot, coord, coord),
    st.builds(TakeIngot, coord, coord),
)
ACTIONS = {"goldrush": goldrush_action, "gold": gold_action, "carcassonne": carcassonne_action}

markup_word = st.one_of(
    st.builds(lambda x, y: f"{x},{y}", coord, coord),
    st.builds(lambda x, y, p: f"{x},{y}:{p}", coord, coord, st.sampled_from(LOCATIONS)),
    st.sampled_from(COLOURS),
    position,
    st.builds(lambda t, x, y: f"{t}@{x},{y}", tile_id, coord, coord),
    st.builds(lambda t, x, y, r: f"{t}@{x},{y}:{r}", tile_id, coord, coord, st.sampled_from([90, 180, 270])),
)
markup_arg = st.one_of(markup_word, st.builds(MarkupText, line_text))


@st.composite
def markup(draw) -> Markup:
    kind = draw(st.sampled_from(sorted(MARKUP_KINDS)))
    low, high = MARKUP_KINDS[kind]
    if kind == "label":
        args = (draw(markup_word), MarkupText(draw(line_text)))
    else:
        args = tuple(draw(st.lists(markup_arg, min_size=low, max_size=high)))
    return Markup(kind, args)


comment = st.one_of(
    st.builds(Comment, brace_text, st.just(False)),
    st.builds(Comment, line_text, st.just(True)),
)
note = st.one_of(comment, markup())
nag = st.builds(Nag, st.one_of(st.sampled_from(["!", "?", "!!", "??", "!?", "?!"]),
                               st.integers(0, 255).map(lambda n: f"${n}")))
checkpoint = st.builds(
    Checkpoint,
    st.lists(st.tuples(player, st.integers(-20, 300)), min_size=1, max_size=4).map(tuple),
)

simple_extra = st.one_of(nag, comment, checkpoint, markup())


def _turns(game: str, depth: int):
    """Turns of ``game`` whose variations nest at most ``2 - depth`` more levels."""
    extra = simple_extra
    if depth < 2:
        inner = _turns(game, depth + 1)
        variation = st.builds(Variation, st.lists(inner, min_size=1, max_size=3).map(tuple),
                              st.lists(note, max_size=2).map(tuple))
        extra = st.one_of(simple_extra, variation)
    return st.builds(Turn, st.integers(0, 300), player,
                     st.lists(ACTIONS[game], max_size=4).map(tuple),
                     st.lists(extra, max_size=4).map(tuple))


TURNS = {game: _turns(game, 0) for game in ACTIONS}


@st.composite
def records(draw) -> Record:
    game = draw(st.sampled_from(["goldrush", "gold", "carcassonne"]))
    tags = []
    if game != "goldrush" or draw(st.booleans()):
        spelled = draw(st.sampled_from([game, game.capitalize()]))
        tags.append(("Game", spelled))
    tags += draw(st.lists(st.tuples(tag_name, line_text), max_size=5))
    draw(st.randoms()).shuffle(tags)
    intro = tuple(draw(st.lists(note, max_size=3)))
    main = tuple(draw(st.lists(TURNS[game], max_size=6)))
    if not tags and not intro and not main:
        tags = [("Event", "only a tag")]
    return Record(tuple(tags), main, intro)


def read_one(text: str) -> Record:
    recs = notation.parse(text)
    assert len(recs) == 1, (text, recs)
    (rec,) = recs
    assert rec.diagnostics == (), (text, [d.one_line() for d in rec.diagnostics])
    return rec


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

@SETTINGS
@given(records())
def test_write_then_read_gives_the_same_record(record):
    text = write_record(record)
    back = read_one(text)
    assert back.tags == tuple(tag_order(record.tags))
    assert back.intro == record.intro
    assert back.turns == record.turns
    assert back.game == record.game


@SETTINGS
@given(records())
def test_fmt_is_idempotent(record):
    text = write_record(record)
    assert write_record(read_one(text)) == text


def _separable(recs: list[Record]) -> bool:
    """Games one file can hold apart: a new game starts at a tag line after movetext,
    so every game needs movetext and every game after the first a tag."""
    return all((r.turns or r.intro) and (i == 0 or r.tags) for i, r in enumerate(recs))


@SETTINGS
@given(st.lists(records(), min_size=1, max_size=3).filter(_separable))
def test_several_games_in_one_file(recs):
    text = write_records(recs)
    back = notation.parse(text)
    assert len(back) == len(recs)
    assert all(r.ok for r in back)
    assert write_records(back) == text
    assert [r.turns for r in back] == [r.turns for r in recs]


_VALIDATOR = Draft202012Validator(schema())


@SETTINGS
@given(st.lists(records(), min_size=1, max_size=2).filter(_separable))
def test_grn_json_grn_is_the_identity(recs):
    text = write_records(recs)
    parsed = notation.parse(text)
    document = records_to_json(parsed)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _VALIDATOR.iter_errors(document)]
    assert errors == []
    dumped = json.dumps(document, ensure_ascii=False)
    back, problems = records_from_json(json.loads(dumped))
    assert problems == []
    assert back == parsed
    assert write_records(back) == text


# ---------------------------------------------------------------------------
# Examples
# ---------------------------------------------------------------------------

CANONICAL = (
    '[Game "goldrush"]\n'
    '[Event "Thursday \\"club\\""]\n'
    '[Players "Anna (red), Ben (blue)"]\n'
    '[Weather "rainy"]\n'
    '\n'
    '{Anna starts.} <label 0,0 "start \\\\ here">\n'
    '1. red 17@1,0:90 +N\n'
    '2. blue 08@0,1 tent@0,1 score red=0 blue=0\n'
    '3. red 01a@-1,0 +WSW ! {a farmer early} ; note\n'
    '  <highlight -1,0:WSW red>\n'
    '4. blue 56@2,0 mine=2 (4. blue 56@0,-1:180 +S {safer} (4. blue discard 52 56@0,-2 ?!))\n'
    '5. red 33@0,2 tokens=3,? $14\n'
    '\n'
    '[Game "gold"]\n'
    '[Layout "free"]\n'
    '\n'
    '1. red p1=G3 p17=red4\n'
    '2. blue h8=D\n'
)

MESSY = (
    '[Weather   "rainy"]\r\n'
    '[Players "Anna (red), Ben (blue)"]\n'
    '  [Event "Thursday \\"club\\""]\n'
    '[Game "goldrush"]\n'
    '{Anna starts.}\n'
    '<label   0,0 "start \\\\ here">\n'
    '1.   red 17@1,0:90\t+N\n'
    '2. blue 08@0,1 tent@0,1 score red=0\n blue=0 3. red 01a@-1,0 +WSW !\n'
    '{a farmer early} ; note\n'
    '<highlight -1,0:WSW red> 4. blue 56@2,0 mine=2 ( 4. blue 56@0,-1:180 +S {safer}\n'
    '(4. blue discard 52 56@0,-2 ?!) )\n'
    '5. red 33@0,2:0 tokens=3,? $14\n'
    '[Game "gold"]\n'
    '[Layout "free"]\n'
    '1. red p1=G3    p17=red4\n\n\n'
    '2. blue h8=D'
)


def test_canonical_example_reads_and_writes_back():
    recs = notation.parse(CANONICAL)
    assert all(r.ok for r in recs) and len(recs) == 2
    assert write_records(recs) == CANONICAL


def test_messy_text_formats_to_the_canonical_text():
    recs = notation.parse(MESSY)
    assert all(r.ok for r in recs), [d.one_line() for r in recs for d in r.diagnostics]
    assert write_records(recs) == CANONICAL


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


def test_fmt_prints_canonical_text(runner, tmp_path):
    path = tmp_path / "messy.grn"
    path.write_text(MESSY, encoding="utf-8")
    result = runner.invoke(grn.cli.app.app, ["fmt", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == CANONICAL


def test_fmt_check(runner, tmp_path):
    good = tmp_path / "good.grn"
    good.write_text(CANONICAL, encoding="utf-8")
    bad = tmp_path / "bad.grn"
    bad.write_text(MESSY, encoding="utf-8")
    ok = runner.invoke(grn.cli.app.app, ["fmt", "--check", str(good)])
    assert ok.exit_code == 0, ok.output
    assert ok.stdout == ""
    not_ok = runner.invoke(grn.cli.app.app, ["fmt", "--check", str(bad)])
    assert not_ok.exit_code == 1
    assert f"{bad}: not in canonical form" in not_ok.output
    assert not_ok.stdout == ""
    both = runner.invoke(grn.cli.app.app, ["fmt", "--check", str(good), str(bad)])
    assert both.exit_code == 1
    assert bad.read_bytes() == MESSY.encode("utf-8"), "--check changes nothing"


def test_fmt_check_small_differences(runner, tmp_path):
    for variant in (CANONICAL + "\n", CANONICAL.rstrip("\n"), CANONICAL.replace("1. red 17", "1.  red 17"),
                    CANONICAL.replace('[Game "gold"]\n[Layout "free"]', '[Layout "free"]\n[Game "gold"]')):
        path = tmp_path / "v.grn"
        path.write_bytes(variant.encode("utf-8"))
        result = runner.invoke(grn.cli.app.app, ["fmt", "--check", str(path)])
        assert result.exit_code == 1, repr(variant)


def test_fmt_check_crlf_file_is_not_canonical(runner, tmp_path):
    # The canonical form ends lines with LF and `fmt --write` rewrites a CRLF
    # file, so `--check` must not call a CRLF file canonical.
    path = tmp_path / "crlf.grn"
    path.write_bytes(CANONICAL.replace("\n", "\r\n").encode("utf-8"))
    result = runner.invoke(grn.cli.app.app, ["fmt", "--check", str(path)])
    assert result.exit_code == 1
    assert "not in canonical form" in result.output


def test_fmt_write_rewrites_in_place(runner, tmp_path):
    path = tmp_path / "messy.grn"
    path.write_text(MESSY, encoding="utf-8")
    result = runner.invoke(grn.cli.app.app, ["fmt", "--write", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert path.read_bytes() == CANONICAL.encode("utf-8")
    again = runner.invoke(grn.cli.app.app, ["fmt", "--check", str(path)])
    assert again.exit_code == 0


def test_fmt_write_leaves_a_bad_file_alone(runner, tmp_path):
    path = tmp_path / "bad.grn"
    text = MESSY + "\n6. blue 17@1,,0\n"
    path.write_bytes(text.encode("utf-8"))
    result = runner.invoke(grn.cli.app.app, ["fmt", "-w", str(path)])
    assert result.exit_code == 1
    assert path.read_bytes() == text.encode("utf-8")


def test_convert_to_json_and_back(runner, tmp_path):
    src = tmp_path / "messy.grn"
    src.write_text(MESSY, encoding="utf-8")
    out = tmp_path / "game.json"
    result = runner.invoke(grn.cli.app.app, ["convert", str(src), "--to", "json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["grn"] == 1 and len(document["games"]) == 2
    assert list(_VALIDATOR.iter_errors(document)) == []
    assert document["games"][0]["turns"][0]["actions"][0] == {
        "type": "place", "tile": "17", "x": 1, "y": 0, "rotation": 90}
    back = runner.invoke(grn.cli.app.app, ["convert", str(out), "--to", "grn"])
    assert back.exit_code == 0, back.output
    assert back.stdout == CANONICAL
    # fmt reads the JSON form too.
    fmt = runner.invoke(grn.cli.app.app, ["fmt", str(out)])
    assert fmt.exit_code == 0 and fmt.stdout == CANONICAL


def test_convert_to_json_on_stdout(runner, tmp_path):
    src = tmp_path / "c.grn"
    src.write_text(CANONICAL, encoding="utf-8")
    result = runner.invoke(grn.cli.app.app, ["convert", str(src), "--to", "json"])
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    recs, problems = records_from_json(document)
    assert problems == [] and write_records(recs) == CANONICAL


def test_fmt_reads_stdin(runner):
    result = runner.invoke(grn.cli.app.app, ["fmt", "-"], input=MESSY)
    assert result.exit_code == 0, result.output
    assert result.stdout == CANONICAL


def test_fmt_stdin_errors_name_stdin(runner):
    result = runner.invoke(grn.cli.app.app, ["fmt", "-"], input='[Game "goldrush"]\n\n1. red 17@1,0 +Q\n')
    assert result.exit_code == 1
    assert "<stdin>:3:15: error:" in result.output


def test_convert_reads_stdin(runner, tmp_path):
    result = runner.invoke(grn.cli.app.app, ["convert", "-", "--to", "json"], input=MESSY)
    assert result.exit_code == 0, result.output
    document = result.stdout
    back = runner.invoke(grn.cli.app.app, ["convert", "-", "--from", "json", "--to", "grn"], input=document)
    assert back.exit_code == 0, back.output
    assert back.stdout == CANONICAL


def test_fmt_check_reads_stdin(runner):
    ok = runner.invoke(grn.cli.app.app, ["fmt", "--check", "-"], input=CANONICAL)
    assert "Traceback" not in ok.output
    assert ok.exception is None or isinstance(ok.exception, SystemExit), repr(ok.exception)
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(grn.cli.app.app, ["fmt", "--check", "-"], input=MESSY)
    assert bad.exit_code == 1


@pytest.mark.parametrize("tile", ["mine", "mine2", "discard", "tokens", "tent2"])
def test_json_tile_ids_that_spell_keywords_survive_grn(tile):
    # The JSON schema allows any [A-Za-z0-9_]+ tile id but "tent", so JSON -> GRN
    # -> JSON must keep a placement whose tile id starts like an action keyword.
    rec = Record((("Game", "goldrush"),), (Turn(1, "red", (PlaceTile(tile, 1, 0),)),))
    text = write_record(rec)
    back = notation.parse(text)
    assert [r.turns for r in back] == [rec.turns], text


def test_tile_id_tent_is_refused_in_gold_rush():
    # "tent@1,0" is Gold Rush's tent, so no Gold Rush tile may be called "tent" (another game's may)
    doc = {"grn": 1, "games": [{"tags": [], "turns": [
        {"number": 1, "player": "red", "actions": [{"type": "place", "tile": "tent", "x": 1, "y": 0}]}]}]}
    records, problems = records_from_json(doc)
    assert not records
    assert problems and problems[0].message.startswith("$.games[0].turns[0].actions[0].tile")
    assert "'goldrush'" in problems[0].message
