"""Diagrams fit for a rules forum: markup never hides what it points at, a diagram mode, drawn legal tiles."""

from __future__ import annotations

import math
import re
from pathlib import Path

from typer.testing import CliRunner

from grn.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
QUESTION = ROOT / "examples" / "goldrush-rules-question.grn"
runner = CliRunner()


def render(*args: str) -> str:
    result = runner.invoke(app, ["render", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def _label_boxes(svg: str) -> list[tuple[float, float, float, float]]:
    return [tuple(map(float, m.groups())) for m in re.finditer(  # type: ignore[misc]
        r'<g class="markup label"><rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)]


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_a_label_is_placed_clear_of_the_ghost_the_tiles_and_the_arrow_it_annotates():
    for svg in (render(str(QUESTION)), render(str(QUESTION), "--diagram")):
        (box,) = _label_boxes(svg)
        ghost = re.search(r'<g class="ghost"[^>]*><use xlink:href="#[^"]+" x="([-\d.]+)" y="([-\d.]+)"', svg)
        assert ghost is not None
        gx, gy = float(ghost.group(1)), float(ghost.group(2))
        assert not _overlap(box, (gx, gy, 100, 100))
        tiles = [(float(m.group(1)), float(m.group(2)), 100, 100)
                 for m in re.finditer(r'<use class="tile"[^>]* x="([-\d.]+)" y="([-\d.]+)"', svg)]
        assert tiles and not any(_overlap(box, t) for t in tiles)
        arrow = re.search(r'<g class="markup arrow"><line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"',
                          svg)
        assert arrow is not None
        x1, y1, x2, y2 = map(float, arrow.groups())
        for i in range(51):
            px, py = x1 + (x2 - x1) * i / 50, y1 + (y2 - y1) * i / 50
            assert not (box[0] <= px <= box[0] + box[2] and box[1] <= py <= box[1] + box[3])
        assert 'class="markup leader"' in svg  # and a line shows what it names


def test_a_highlight_is_an_outline_that_keeps_the_symbols_in_sight():
    svg = render(str(QUESTION))
    rings = re.findall(r'<g class="markup highlight">(.*?)</g>', svg)
    assert rings and all('fill="none"' in r and "fill-opacity" not in r for r in rings)


def test_diagram_mode_crops_to_the_markup_captions_the_question_and_fits_a_forum_post():
    svg = render(str(QUESTION), "--diagram")
    assert 'width="700"' in svg
    assert 'class="caption"' in svg and "Blue draws tile 17" in svg
    assert "to play" not in svg and 'class="player' not in svg
    full = render(str(QUESTION))
    assert "to play" in full


def test_a_caption_tag_wins_and_crop_chooses_the_box():
    text = QUESTION.read_text(encoding="utf-8").replace('[Players', '[Caption "Miner or tent?"]\n[Players', 1)
    result = runner.invoke(app, ["render", "-", "--diagram", "--crop", "0,0,0,1"], input=text)
    assert result.exit_code == 0, result.output
    assert "Miner or tent?" in result.stdout
    tiles = re.findall(r'<use class="tile"[^>]* data-xy="(-?\d+),(-?\d+)"', result.stdout)
    assert sorted(tiles) == [("0", "0"), ("0", "1")]
    bad = runner.invoke(app, ["render", str(QUESTION), "--crop", "0,0,1"])
    assert bad.exit_code == 2 and "--crop goes with --diagram" in bad.stderr
    gold = runner.invoke(app, ["render", str(ROOT / "examples" / "gold-2p.grn"), "--diagram"])
    assert gold.exit_code == 2 and "--diagram is not for Gold" in gold.stderr


def test_legal_draws_the_next_tile_in_each_rotation_that_fits():
    svg = render(str(ROOT / "examples" / "goldrush-2p.grn"), "--turn", "10", "--legal")
    spots = re.findall(r'<g class="legal" data-xy="[^"]+" data-rotations="([^"]+)">(.*?)</g></g>|'
                       r'<g class="legal" data-xy="[^"]+" data-rotations="([^"]+)">(.*?)</g>', svg)
    assert spots
    for a, body_a, b, body_b in spots:
        rotations, body = (a, body_a) if a else (b, body_b)
        assert body.count("<use ") == len(rotations.split())  # the tile itself, once per rotation


def test_the_gold_panel_line_under_the_chips_never_overlaps_them():
    svg = render(str(ROOT / "examples" / "gold-2p.grn"))
    blocks = svg.split('<g class="player ')[1:]
    assert len(blocks) == 2
    for block in blocks:
        chips = [float(y) + 28 for y in re.findall(r'<g class="gold-card"><rect x="[\d.]+" y="([\d.]+)"', block)]
        line = re.search(r'<text x="[\d.]+" y="([\d.]+)"[^>]*>\d+ gold cards?, worth', block)
        assert line is not None
        assert not chips or max(chips) + 10 <= float(line.group(1))


def test_a_railroad_that_ends_at_a_mountain_stops_at_its_foot():
    from grn.games.goldrush import load_tileset
    from grn.games.goldrush.drawing import geometry

    tileset = load_tileset()
    ends = [t for t in tileset.tiles if any("mountain" in s.ends for s in t.segments)]
    assert ends
    for design in ends:
        for rotation in (0, 90, 180, 270):
            g = geometry(design, rotation)
            for si, seg in enumerate(design.segments):
                if "mountain" not in seg.ends:
                    continue
                end = g.rails[si][3]
                outline = [p for poly in g.mountains.values() for p in zip(poly, poly[1:] + poly[:1])]
                distance = min(_to_segment(end, a, b) for a, b in outline)
                assert distance < 0.5, (design.id, rotation, end)


def _to_segment(p, a, b) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def test_a_gold_picture_keeps_one_size_through_a_game():
    sizes = {re.search(r'viewBox="([^"]+)"', render(str(ROOT / "examples" / "gold-2p.grn"), "--turn", str(n))).group(1)
             for n in (0, 10, 20, 30, 40, 47)}
    assert len(sizes) == 1, sizes


# ---------------------------------------------------------------------------
# Carcassonne: the same diagrams (the drawing shared by the tile-laying games, grn.games.tiling.render)
# ---------------------------------------------------------------------------

CA_QUESTION = ROOT / "examples" / "carcassonne" / "carcassonne-rules-question.grn"


def _ca_squares(svg: str, what: str) -> list[tuple[float, float, float, float]]:
    """The squares of Carcassonne's tiles (``tile``) or ghosts (``ghost``): both are placed by a translate."""
    pattern = (r'<use class="tile"[^>]* transform="translate\(([-\d.]+),([-\d.]+)\)' if what == "tile"
               else r'<g class="ghost"[^>]*><g transform="translate\(([-\d.]+),([-\d.]+)\)')
    return [(float(m.group(1)), float(m.group(2)), 100, 100) for m in re.finditer(pattern, svg)]


def test_a_carcassonne_diagram_crops_captions_and_places_its_label_clear_of_the_tiles():
    svg = render(str(CA_QUESTION), "--turn", "0", "--diagram")
    assert 'width="700"' in svg
    assert 'class="caption"' in svg and "Blue draws tile E" in svg
    assert "to play" not in svg and 'class="player' not in svg
    (box,) = _label_boxes(svg)
    squares = _ca_squares(svg, "tile") + _ca_squares(svg, "ghost")
    assert len(squares) == 3 and not any(_overlap(box, s) for s in squares)
    arrow = re.search(r'<g class="markup arrow"><line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"', svg)
    assert arrow is not None
    x1, y1, x2, y2 = map(float, arrow.groups())
    assert not any(box[0] <= x1 + (x2 - x1) * i / 50 <= box[0] + box[2]
                   and box[1] <= y1 + (y2 - y1) * i / 50 <= box[1] + box[3] for i in range(51))
    assert 'class="markup leader"' in svg
    # the whole position still has its panel, and the same label placed the same way
    full = render(str(CA_QUESTION), "--turn", "0")
    assert "to play" in full and len(_label_boxes(full)) == 1


def test_a_carcassonne_diagram_crop_chooses_the_box():
    result = runner.invoke(app, ["render", str(CA_QUESTION), "--turn", "0", "--diagram", "--crop", "0,0,0,0"])
    assert result.exit_code == 0, result.output
    tiles = re.findall(r'<use class="tile"[^>]* data-xy="(-?\d+),(-?\d+)"', result.stdout)
    assert tiles == [("0", "0")]
    # the knight at 0,1 and the ghost at 1,1 are outside the box; without the crop both are drawn
    assert 'class="follower' not in result.stdout and 'class="ghost"' not in result.stdout
    whole = render(str(CA_QUESTION), "--turn", "0", "--diagram")
    assert 'class="follower red knight"' in whole and 'class="ghost"' in whole


def _piece_xs(svg: str, cls: str) -> list[float]:
    return [float(m.group(1)) for m in re.finditer(rf'<g class="{cls}[^"]*" transform="translate\(([-\d.]+),', svg)]


def test_two_pieces_set_up_on_one_feature_of_one_tile_both_stand_on_the_board():
    """A set-up (turn 0) may stand two followers on one feature of one tile (a rules example sharing a road);
    the engine counts both, and the drawing shows both, side by side."""
    cases = [
        ("carcassonne", '[Game "carcassonne"]\n[Players "red, blue"]\n\n0. red W@1,0 +W\n0. blue +W\n', "follower"),
        ("goldrush", '[Game "goldrush"]\n[Players "red, blue"]\n\n0. red 52@0,1 +N\n0. blue +N\n', "cowboy"),
    ]
    for game, text, cls in cases:
        result = runner.invoke(app, ["render", "-", "--turn", "0"], input=text)
        assert result.exit_code == 0, (game, result.output)
        svg = result.stdout
        assert f'<g class="{cls} red' in svg and f'<g class="{cls} blue' in svg, game
        on_board = [x for x in _piece_xs(svg, cls) if x > 0]
        assert len(on_board) >= 2 and len(set(on_board)) == len(on_board), (game, on_board)


def test_placed_followers_counts_two_on_one_segment():
    import grn
    from grn.rules.position import position_at

    (record,) = grn.parse('[Game "carcassonne"]\n[Players "red, blue"]\n\n0. red W@1,0 +W\n0. blue +W\n')
    followers = position_at(record, "0").state.placed_followers()
    assert [(c, x, y) for c, x, y, _, _ in followers] == [("red", 1, 0), ("blue", 1, 0)]
