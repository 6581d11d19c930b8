"""The SVG and HTML exporter: every position of self-played games draws, matches the engine, and escapes."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from grn.games.tiling.commands import PlaceTile
import grn
from grn.rules.position import PositionError, position_at
from grn.rules.ruleset import Drawing
from grn.core.record import Comment, Markup, MarkupText, Record
from grn.render import render_html, render_svg, render_tile_sheet
from grn.games.goldrush.render import board_view
from grn.games.goldrush.drawing import tile_drawing
from grn.games.gold import selfplay as selfplay_gold
from grn.games.goldrush import selfplay as selfplay_goldrush
from grn.rules.selfplay import to_record
from grn.games.goldrush import load_tileset

ROOT = Path(__file__).resolve().parent.parent

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE_SCRIPT = "<script>document.title='PWNED'</script>"
HOSTILE_ATTR = "\"><img src=x onerror=document.title='PWNED' id=pwned>"
NAMES = ("Ada", "Bo", "Cy", "Di", "Ed")



def _replay(record, tileset=None):
    """(position, turns that led to it) for the start and after each main-line turn; the state is live."""
    from grn import games
    from grn.rules.position import Position, _play
    from grn.rules.ruleset import engine_for

    ruleset = games.find_ruleset(record.game)
    seats = ruleset.seats(record)
    state = engine_for(ruleset, record, seats, tileset)
    markup = [m for m in record.intro if isinstance(m, Markup)]
    turns = list(record.turns)
    k = 0
    setup = []
    while k < len(turns) and turns[k].number == 0:
        _play(state, seats, turns[k])
        markup += list(turns[k].markup)
        setup.append(turns[k])
        k += 1
    yield Position(record, state, seats, setup[-1] if setup else None, 0, markup, [], "0"), setup
    played = 0
    for t in turns[k:]:
        events = _play(state, seats, t)
        if t.number == 0:
            continue
        played += 1
        yield Position(record, state, seats, t, played, list(t.markup), events, str(t.number)), [t]

def gold_record(game, seed: int) -> Record:
    """A Gold record; the Players tag lists each seat's colours (two each with two players)."""
    rec = to_record(game, seed=seed)
    cols = dict(kv.split("=") for kv in game.options["colours"].split())
    return rec.with_tags(Players=", ".join(f"{NAMES[i]} ({cols[k]})" for i, k in enumerate(game.players)))


@pytest.fixture(scope="module")
def goldrush_records() -> list[Record]:
    return [to_record(selfplay_goldrush.play(2, 1), seed=1), to_record(selfplay_goldrush.play(4, 7), seed=7)]


@pytest.fixture(scope="module")
def gold_records() -> list[Record]:
    return [gold_record(selfplay_gold.play(2, 3), 3), gold_record(selfplay_gold.play(4, 5), 5)]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def classes(root: ET.Element) -> list[list[str]]:
    return [el.get("class", "").split() for el in root.iter() if el.get("class")]


def count(root: ET.Element, *names: str) -> int:
    return sum(1 for c in classes(root) if all(n in c for n in names))


def with_extras(record: Record, index: int, *extras) -> Record:
    turns = list(record.turns)
    turns[index] = turns[index].replace(extras=turns[index].extras + tuple(extras))
    return record.replace(turns=tuple(turns))


# ----------------------------------------------------------------------------
# tiles
# ----------------------------------------------------------------------------

def test_every_design_draws_at_every_rotation():
    ts = load_tileset()
    for design in ts:
        for rot in (0, 90, 180, 270):
            root = ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{tile_drawing(design, rot)}</g>')
            assert len(root) > 3


def test_tile_sheet_shows_every_id():
    ts = load_tileset()
    root = parse(render_tile_sheet(ts))
    assert count(root, "sheet-tile") == len(ts)
    text = " ".join(root.itertext())
    for design in ts:
        assert f"{design.id}  x{design.count}" in text


def test_rotation_turns_the_picture():
    ts = load_tileset()
    d = ts["08"]  # mountain north, rail from the south
    assert tile_drawing(d, 0) != tile_drawing(d, 90)
    assert tile_drawing(d, 0) == tile_drawing(d, 360)


# ----------------------------------------------------------------------------
# Gold Rush boards match the engine
# ----------------------------------------------------------------------------

def test_every_goldrush_position_matches_the_engine(goldrush_records):
    for record in goldrush_records:
        seen = 0
        for pos, _turns in _replay(record):
            state = pos.state
            root = parse(render_svg(pos))
            assert count(root, "tile") == len(state.board.tiles)
            view = board_view(state)
            per_player = Counter(p.owner for p in view.cowboys)
            for colour in state.players:
                assert count(root, "cowboy", colour) == per_player.get(colour, 0)
                # cowboys in supply + on the board = the cowboys of the game
                assert state.cowboys[colour] + per_player.get(colour, 0) == state.options.cowboys
            assert count(root, "tent") == sum(1 for t in state.tents.values() if t is not None)
            stacks = [st for st in state.stacks.values() if st]
            assert count(root, "stack") == len(stacks)
            drawn = [int(el.get("data-count")) for el in root.iter() if "stack" in el.get("class", "").split()]
            assert sorted(drawn) == sorted(len(st) for st in stacks)
            placed = pos.last is not None and pos.last.number > 0 and any(
                isinstance(a, PlaceTile) for a in pos.last.actions)
            assert count(root, "last") == (1 if placed else 0)
            seen += 1
        assert seen == 1 + sum(1 for t in record.turns if t.number > 0)


def test_legal_overlay_shows_the_next_tiles_placements(goldrush_records):
    record = goldrush_records[0]
    pos = position_at(record, 10)
    nxt = next(a for a in record.turns[10].actions if isinstance(a, PlaceTile))
    spots = {(p.x, p.y) for p in pos.state.legal_placements(nxt.tile)}
    root = parse(render_svg(pos, legal=True))
    assert count(root, "legal") == len(spots) > 0
    assert count(parse(render_svg(pos)), "legal") == 0
    # the end has no next tile: nothing to say
    assert count(parse(render_svg(position_at(record), legal=True)), "legal") == 0


def test_y_grows_north_and_width_scales(goldrush_records):
    pos = position_at(goldrush_records[0], 30)
    root = parse(render_svg(pos, width=600))
    assert root.get("width") == "600" and root.get("viewBox")
    tiles = {el.get("data-xy"): (float(el.get("x")), float(el.get("y")))
             for el in root.iter() if el.get("class") == "tile"}
    for xy, (sx, sy) in tiles.items():
        x, y = map(int, xy.split(","))
        for xy2, (sx2, sy2) in tiles.items():
            x2, y2 = map(int, xy2.split(","))
            if y2 > y:
                assert sy2 < sy
            if x2 > x:
                assert sx2 > sx


def test_goldrush_markup_is_drawn(goldrush_records):
    record = with_extras(goldrush_records[0], 5,
                         Markup("highlight", ("0,0",)), Markup("highlight", ("0,0:N", "blue")),
                         Markup("arrow", ("0,0", "1,0", "red")), Markup("label", ("0,0", MarkupText("Mine here?"))),
                         Markup("ghost", ("01a@9,9:90",)), Markup("highlight", ("nonsense",)))
    root = parse(render_svg(position_at(record, 6)))
    assert count(root, "markup", "highlight") == 2
    assert count(root, "markup", "highlight", "feature") == 1
    assert count(root, "markup", "arrow") == 1
    assert count(root, "markup", "label") == 1
    assert count(root, "ghost") == 1
    assert "Mine here?" in "".join(root.itertext())
    # the board grows to show the ghost at 9,9
    assert "9" in [t.text for t in root.iter(SVG + "text") if "coord" in (t.get("class") or "")]


# ----------------------------------------------------------------------------
# Gold
# ----------------------------------------------------------------------------

def test_every_gold_position_matches_the_engine(gold_records):
    for record in gold_records:
        for pos, _turns in _replay(record):
            state = pos.state
            root = parse(render_svg(pos))
            assert count(root, "card", "back") == len(state.face_down())
            gone_flipped = count(root, "card", "flipped", "gone")
            assert count(root, "card", "empty") + gone_flipped == len(state.removed())
            for p in state.players:
                el = [g for g in root.iter() if g.get("class") == f"player {p}"]
                assert len(el) == 1
                assert sum(1 for c in classes(el[0]) if "gold-card" in c) == len(state.gold_of(p))


def test_gold_reveal_shows_known_faces(gold_records):
    pos = position_at(gold_records[0], 12)
    flipped = {a.pos for a in pos.last.actions}  # drawn face up anyway
    known = [p for p in pos.state.known_faces() if p not in flipped]
    assert known
    assert count(parse(render_svg(pos, reveal=True)), "card", "known") == len(known)
    assert count(parse(render_svg(pos)), "card", "known") == 0


def test_gold_markup_is_drawn(gold_records):
    record = with_extras(gold_records[0], 3, Markup("highlight", ("c4",)), Markup("arrow", ("a1", "b2", "blue")),
                         Markup("label", ("d5", MarkupText("the 5 miner"))), Markup("highlight", ("z9",)))
    root = parse(render_svg(position_at(record, 4)))
    assert count(root, "markup", "highlight") == 1
    assert count(root, "markup", "arrow") == 1
    assert count(root, "markup", "label") == 1
    assert "the 5 miner" in "".join(root.itertext())


# ----------------------------------------------------------------------------
# escaping
# ----------------------------------------------------------------------------

def hostile(record: Record, *, index: int = 4, where: str = "0,0") -> Record:
    colours = [s.colours for s in record.seats()]
    players = ", ".join(f"{name} ({'+'.join(c)})" for name, c in zip((HOSTILE_SCRIPT, HOSTILE_ATTR), colours))
    rec = record.with_tags(Players=players, Event=HOSTILE_ATTR)
    return with_extras(rec, index, Comment(HOSTILE_SCRIPT + " </script><!-- " + HOSTILE_ATTR),
                       Markup("label", (where, MarkupText(HOSTILE_SCRIPT))),
                       Markup("highlight", (where, "\"><script>x</script>")))


def _no_script(root: ET.Element) -> None:
    for el in root.iter():
        assert not el.tag.lower().endswith("script")
        assert not el.tag.lower().endswith("img")
        for name in el.attrib:
            assert not name.lower().startswith("on")


@pytest.mark.parametrize("game", ["goldrush", "gold"])
def test_hostile_text_is_escaped_in_svg(game, goldrush_records, gold_records):
    record = hostile(goldrush_records[0] if game == "goldrush" else gold_records[0],
                     where="0,0" if game == "goldrush" else "c4")
    svg = render_svg(position_at(record, 5), width=600)
    root = parse(svg)
    _no_script(root)
    text = "".join(root.itertext())
    assert HOSTILE_SCRIPT in text  # shown literally
    assert HOSTILE_SCRIPT not in svg  # never as markup
    assert "<img" not in svg


def test_hostile_text_is_escaped_in_html(goldrush_records, gold_records):
    from grn.render.html import viewer_data

    records = [hostile(goldrush_records[0]), hostile(gold_records[0], where="c4")]
    page = render_html(records, file_name="</title><script>alert(1)</script>.grn")
    assert page.count("<script") == 1 and page.count("</script>") == 1  # ours: the viewer and its data
    assert "<img" not in page
    assert "<title>grn: &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;.grn</title>" in page
    script = page[page.index("<script>") + len("<script>"):page.index("</script>")]
    assert "<!--" not in script and "</" not in script  # the data cannot end the script early
    data = viewer_data(page)
    # the comment is data, shown with textContent; in the pictures it is escaped markup
    assert any(HOSTILE_SCRIPT in c for n in data["games"][0]["nodes"] for c in n.get("c", []))
    assert HOSTILE_SCRIPT not in data["items"]
    assert "&lt;script&gt;document.title=&#x27;PWNED&#x27;&lt;/script&gt;" in data["items"]
    assert "document.write" not in page


# ----------------------------------------------------------------------------
# the HTML page
# ----------------------------------------------------------------------------

def test_html_embeds_every_position(goldrush_records, gold_records):
    from grn.render.frames import apply_edits
    from grn.render.html import viewer_data

    records = [goldrush_records[0], gold_records[0]]
    page = render_html(records, file_name="games.grn")
    assert page.startswith("<!DOCTYPE html>")
    assert "http://" not in page.replace("http://www.w3.org/", "") and "https://" not in page
    assert "<link" not in page and " src=" not in page
    data = viewer_data(page)
    goldrush, gold = data["games"]
    main = [n for n in goldrush["nodes"] if n["d"] == 0]
    # start, every turn, and the final scoring of the complete game
    assert len(main) == 1 + sum(1 for t in records[0].turns if t.number > 0) + 1
    assert main[-1]["t"] == "Final scoring" and main[-1]["e"]
    assert len([n for n in gold["nodes"] if n["d"] == 0]) == 1 + sum(1 for t in records[1].turns if t.number > 0)
    assert '<select class="grn-game">' in page
    assert all(len(g["colours"]) == len(g["players"]) for g in data["games"])  # the score chart's lines
    # every picture rebuilt from the edits is the picture the ruleset draws
    items = data["items"].split("\n")
    pictures: list[list[int]] = []
    for node in goldrush["nodes"]:
        pictures.append(apply_edits(pictures[node["p"]] if node["p"] >= 0 else [], node["f"][1]))
    position = position_at(records[0], 10)
    # the board alone: the viewer shows the player panel beside it, in words (issue 22)
    assert position.ruleset.player_panel(position) is not None
    drawn = position.ruleset.render_svg(position, Drawing(panel=False), shared_defs=position.ruleset.page_defs())
    rebuilt = items[main[10]["f"][0]] + "".join(items[i] for i in pictures[goldrush["nodes"].index(main[10])])
    # as SVG inside HTML (R431): the same picture, without what the HTML parser and the page's style give it
    from grn.render.frames import split_items
    from grn.render.html import inline_svg

    root, parts = split_items(drawn)
    assert re.sub(r"#v[0-9a-f]{5}", "#", rebuilt) == inline_svg(root) + "".join(inline_svg(i) for i in parts)


def test_legal_overlay_in_a_variation_shows_the_variations_next_tile(tmp_path):
    # goldrush-2p has a one-turn variation at turn 30 (yellow lays 61 at -4,3 instead).
    # Extend it by a legal turn 31 of another tile, then look at the position between.
    text = (ROOT / "examples" / "goldrush-2p.grn").read_text(encoding="utf-8")
    record = next(grn.read(io.StringIO(text)))
    var = next(t for t in record.turns if t.number == 30).variations[0]
    before = position_at(record, "30(1)29")
    assert _next_tile_of(before) == var.turns[0].actions[0].tile == "61"
    spots = {(p.x, p.y) for p in before.state.legal_placements("61")}
    assert count(parse(render_svg(before, legal=True)), "legal") == len(spots) > 0

    after = position_at(record, "30(1)30")
    tile = next(a.tile for a in record.turns[31].actions if isinstance(a, PlaceTile))
    place = after.state.legal_placements(tile)[0]
    rot = f":{place.rotation}" if place.rotation else ""
    extended = text.replace("(30. yellow 61@-4,3:270 +C", f"(30. yellow 61@-4,3:270 +C 31. red {tile}@{place.x},{place.y}{rot}")
    record2 = next(grn.read(io.StringIO(extended)))
    mid = position_at(record2, "30(1)30")
    spots2 = {(p.x, p.y) for p in mid.state.legal_placements(tile)}
    assert count(parse(render_svg(mid, legal=True)), "legal") == len(spots2) > 0
    # at the end of the variation there is no next tile
    assert count(parse(render_svg(position_at(record2, "30(1)31"), legal=True)), "legal") == 0


def test_a_variation_position_before_its_branch_is_a_usage_error():
    record = next(grn.read(ROOT / "examples" / "goldrush-2p.grn"))
    with pytest.raises(PositionError) as err:
        position_at(record, "30(1)25")
    assert err.value.usage and "begins after turn 29" in str(err.value)


def _next_tile_of(position):
    turn = position.next_turn()
    return next(a.tile for a in turn.actions if isinstance(a, PlaceTile))


def test_a_drawing_is_one_value_and_a_game_ignores_what_it_cannot_draw():
    """R441: every option of render_svg is one Drawing; Gold has no board to crop, so its diagram is the table."""
    assert Drawing() == Drawing(panel=True) and Drawing(legal=True) != Drawing()
    assert repr(Drawing()) == "<Drawing plain>" and repr(Drawing(panel=False)) == "<Drawing panel=False>"
    with open(ROOT / "examples" / "gold-2p.grn", encoding="utf-8") as f:
        (record,) = list(grn.read(f))
    position = position_at(record, 3)
    table = position.ruleset.render_svg(position, Drawing(diagram=True, crop=(0, 0, 1, 1), caption="?"))
    assert table == position.ruleset.render_svg(position)
