"""Pictures checked from their SVG (issue 22, points 4 and 5): sizes, text extents and overlaps.

A text's extent is estimated as the chart code does it (0.6 em a character, DejaVu Sans' average), its
height as its font size; the checks are what a reader notices: labels that run into each other, a figure
on a line, a title cut at the edge, a caption squeezed into a narrow column, empty rows."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

NS = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def text_boxes(root: ET.Element) -> list[tuple[str, float, float, float, float]]:
    """(text, x0, y0, x1, y1) of every <text> that is not moved by a transform."""
    out = []
    for t in root.iter(f"{NS}text"):
        content = "".join(t.itertext())
        size = float(t.get("font-size", "16"))
        x, y = float(t.get("x", "0")), float(t.get("y", "0"))
        w = len(content) * size * 0.6
        anchor = t.get("text-anchor", "start")
        x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
        out.append((content, x0, y - size * 0.8, x0 + w, y + size * 0.2))
    return out


def overlaps(a, b) -> bool:
    return a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]


def assert_inside_and_apart(root: ET.Element) -> list[tuple[str, float, float, float, float]]:
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    boxes = text_boxes(root)
    for b in boxes:
        assert b[1] >= 0 and b[3] <= width and b[2] >= 0 and b[4] <= height, f"{b[0]!r} is cut at the edge"
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not overlaps(a, b), f"{a[0]!r} runs into {b[0]!r}"
    return boxes


def stats_fixture():
    from grn.archive.stats import GameStats, Stats

    games = [GameStats("carcassonne", 2, 300, 300, 150, {40: 3, 50: 20, 60: 90, 70: 120, 80: 60, 90: 7}),
             GameStats("goldrush", 2, 200, 200, 102, {20: 5, 30: 40, 40: 100, 50: 55}),
             GameStats("goldrush", 3, 100, 100, 32, {20: 10, 30: 50, 40: 40}),
             GameStats("goldrush", 5, 100, 100, 21, {10: 20, 20: 60, 30: 20}),
             GameStats("gold", 4, 80, 80, 21, {0: 30, 10: 50})]
    return Stats([], games)


def test_the_first_player_chart_keeps_its_labels_apart_and_its_figures_off_the_lines(tmp_path):
    from grn.archive.stats import write_charts

    write_charts(stats_fixture(), tmp_path)
    root = ET.parse(tmp_path / "first-player.svg").getroot()
    boxes = assert_inside_and_apart(root)
    assert sum(1 for b in boxes if b[0] == "carcassonne") == 1  # the whole game name, not cut
    # the percentage of each bar stands clear of the reference line (the rate of no advantage)
    lines = [(float(l.get("x1")), float(l.get("x2")), float(l.get("y1"))) for l in root.iter(f"{NS}line")
             if l.get("stroke-width") == "2"]
    rates = [b for b in boxes if b[0].endswith("%")]
    assert len(rates) == 5 and len(lines) == 5
    for b in rates:
        for x1, x2, y in lines:
            assert not (b[1] < x2 and x1 < b[3] and b[2] - 1 <= y <= b[4] + 1), f"{b[0]} sits on its line"


def test_the_score_chart_has_its_whole_title_a_y_axis_and_counts(tmp_path):
    from grn.archive.stats import write_charts

    write_charts(stats_fixture(), tmp_path)
    root = ET.parse(tmp_path / "scores-goldrush-5p.svg").getroot()  # few bins: the narrowest chart
    boxes = assert_inside_and_apart(root)
    assert any(b[0] == "Final scores: goldrush, 5 players (100 games)" for b in boxes)
    ticks = [b[0] for b in boxes if b[0].isdigit() and b[3] < 56]
    assert "0" in ticks and "60" in ticks  # the y axis, up to the tallest bar
    counts = sorted(int(t.text) for t in root.iter(f"{NS}text") if t.get("class") == "count")
    assert counts == [20, 20, 60]
    assert any("games" == b[0] for b in boxes) and any(b[0].startswith("final score") for b in boxes)


def render_at(name: str, turn, **kw) -> ET.Element:
    import grn
    from grn.rules.position import position_at
    from grn.rules.ruleset import Drawing

    with open(EXAMPLES / name, encoding="utf-8") as f:
        (record,) = list(grn.read(f))
    position = position_at(record, turn)
    return ET.fromstring(position.ruleset.render_svg(position, Drawing(**kw)))


@pytest.mark.parametrize("name", ["carcassonne/carcassonne-rules-question.grn", "goldrush-rules-question.grn"])
def test_a_diagram_is_as_tall_as_its_content_and_its_caption_uses_the_width(name):
    import grn

    with open(EXAMPLES / name, encoding="utf-8") as f:
        (record,) = list(grn.read(f))
    caption = record.tag("Event")
    turn = 0 if name.startswith("carcassonne/") else max(t.number for t in record.turns)
    root = render_at(name, turn, diagram=True, caption=caption)
    assert float(root.get("width")) == 700
    view_w, view_h = (float(v) for v in root.get("viewBox").split()[2:])
    lines = [t for t in root.iter(f"{NS}text") if t.get("class") == "caption"]
    assert 1 <= len(lines) <= max(1, -(-len(caption) // 55))  # long lines: the caption takes the width
    for t in lines[:-1]:
        assert len(t.text) >= 45
    boxes = [b for b in text_boxes(root) if b[0] in {t.text for t in lines}]
    assert all(b[3] <= view_w for b in boxes)
    # every row of the board holds a tile, a ghost or what the markup names: no empty row
    rows = {int(t.text) for t in root.iter(f"{NS}text") if t.get("class") == "coord" and t.get("text-anchor") == "end"}
    filled = {int(u.get("data-xy").split(",")[1]) for u in root.iter(f"{NS}use") if u.get("data-xy")}
    named = {int(m.group(2)) for m in re.finditer(r"(-?\d+),(-?\d+)", " ".join(
        str(x) for t in record.turns if t.number <= turn for x in t.markup))}
    assert rows <= filled | named, (rows, filled, named)
    assert view_h <= 130 + 21 * len(lines) + 100 * len(rows)  # the caption, the rows, the margins: no more


def test_the_ingot_symbol_printed_on_a_tile_is_not_drawn_like_the_real_ingots_on_it():
    from grn.games.carcassonne.render import ingot_spot

    root = render_at("carcassonne/goldmines-two-features.grn", 0)
    marks = [g for g in root.iter(f"{NS}g") if g.get("class") == "ingot-mark"]
    real = [g for g in root.iter(f"{NS}g") if g.get("class") == "ingots"]
    assert real and all(r.get("data-count") and r.find(f"{NS}text").text == r.get("data-count") for r in real)
    gold = {p.get("fill") for r in real for p in r.iter(f"{NS}path")} - {"none"}
    for m in marks:  # the printed symbol: an outline, never gold-filled
        assert all(p.get("fill") == "none" for p in m.iter(f"{NS}path"))
        assert not gold & {e.get("fill") for e in m.iter()}
    # in every rotation the real ingots lie in the corner across from the symbol (centre 15,86 turned)
    for rotation in (0, 90, 180, 270):
        mx, my = 15.0 - 50, 86.0 - 50
        for _ in range(rotation // 90):
            mx, my = -my, mx
        ix, iy = ingot_spot(rotation)
        assert abs(ix - (50 + mx)) > 40 and abs(iy - (50 + my)) > 40


def test_a_tent_never_covers_the_nugget_symbols_of_its_mountain():
    from grn.games.goldrush import load_tileset
    from grn.games.goldrush.drawing import NUGGET_HALF, TENT_BOX, nugget_spots, tent_anchor

    checked = 0
    for design in load_tileset().tiles:
        for rotation in (0, 90, 180, 270):
            for si, segment in enumerate(design.segments):
                spots = nugget_spots(design, rotation, si)
                if not spots:
                    continue
                tx, ty = tent_anchor(design, rotation, si)
                tent = (tx + TENT_BOX[0], ty + TENT_BOX[1], tx + TENT_BOX[2], ty + TENT_BOX[3])
                assert 0 <= tent[0] and tent[2] <= 100 and 0 <= tent[1] and tent[3] <= 100
                for nx, ny in spots:
                    nugget = (nx - NUGGET_HALF, ny - NUGGET_HALF, nx + NUGGET_HALF, ny + NUGGET_HALF)
                    assert not (tent[0] < nugget[2] and nugget[0] < tent[2] and tent[1] < nugget[3]
                                and nugget[1] < tent[3]), (design.id, rotation, si)
                checked += 1
    assert checked > 50
