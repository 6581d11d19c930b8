"""A real browser opens what grn draws: pictures are not blank and record text never runs as script.

Uses Debian's chromium, headless.  CI installs it with
``apt-get update && apt-get install -y --no-install-recommends chromium``; without it
these tests are skipped with a visible message.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from grn.position import position_at
from grn.render import render_html, render_svg
from grn.games.goldrush import selfplay as selfplay_goldrush
from grn.selfplay import to_record

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="chromium not installed: browser tests skipped (apt-get install chromium)")

HOSTILE_SCRIPT = "<script>document.title='PWNED';document.body.id='pwned'</script>"
HOSTILE_ATTR = "\"><img src=x onerror=document.title='PWNED' id=pwned>"


@pytest.fixture(autouse=True)
def _need_chromium():
    if CHROMIUM is None:
        pytest.skip("chromium not installed: browser tests skipped (apt-get install chromium)")


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--hide-scrollbars", f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=90)


def screenshot(tmp_path: Path, url: str, name: str, size: tuple[int, int] = (900, 700)) -> bytes:
    png = tmp_path / name
    chromium(tmp_path, f"--screenshot={png}", f"--window-size={size[0]},{size[1]}", url)
    assert png.exists(), "chromium wrote no screenshot"
    return png.read_bytes()


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the unfiltered rows of an 8-bit RGB/RGBA PNG (stdlib only)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for r in range(height):
        f = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(x for j, x in enumerate(line) if j % 4 != 3))
        prev = line
    return width, height, rows


def assert_not_blank(png: bytes, size: tuple[int, int]) -> None:
    width, height, rows = decode_png(png)
    assert (width, height) == size
    colours = set()
    for row in rows[::7]:
        for i in range(0, len(row), 3 * 5):
            colours.add(row[i:i + 3])
    assert len(colours) >= 12, f"the picture looks blank: {len(colours)} colours"
    top = max(sum(1 for row in rows[::7] for i in range(0, len(row), 15) if row[i:i + 3] == c)
              for c in list(colours)[:50])
    assert top < 0.9 * sum(len(row) // 15 + 1 for row in rows[::7])


@pytest.fixture(scope="module")
def record():
    return to_record(selfplay_goldrush.play(2, 1), seed=1)


def test_a_position_draws_in_the_browser(tmp_path, record):
    svg = tmp_path / "position.svg"
    svg.write_text(render_svg(position_at(record, 40), width=880), encoding="utf-8")
    assert_not_blank(screenshot(tmp_path, svg.as_uri(), "position.png"), (900, 700))


def hostile_record(record):
    import dataclasses

    from grn.record import Comment, Markup, MarkupText

    rec = record.with_tags(Players=f"{HOSTILE_SCRIPT} (red), {HOSTILE_ATTR} (yellow)", Event=HOSTILE_ATTR)
    turns = list(rec.turns)
    turns[4] = turns[4].replace(extras=turns[4].extras + (
        Comment(HOSTILE_SCRIPT + " </script><!--<script> " + HOSTILE_ATTR),
        Markup("label", ("0,0", MarkupText(HOSTILE_SCRIPT)))))
    return dataclasses.replace(rec, turns=tuple(turns))


def test_record_text_never_runs_in_the_page(tmp_path, record):
    page = tmp_path / "games.html"
    page.write_text(render_html([hostile_record(record)], file_name="games.grn"), encoding="utf-8")
    # position 5 (after turn 5) shows the hostile comment and label
    dom = chromium(tmp_path, "--dump-dom", page.as_uri() + "#0:5").stdout
    assert "<title>grn: games.grn</title>" in dom
    assert "PWNED" not in re.search(r"<title>(.*?)</title>", dom, re.S).group(1)
    assert not re.search(r"<body[^>]*id=\"?pwned", dom)
    assert not re.search(r"<img\b", dom)
    assert len(re.findall(r"<script\b", dom)) == 2  # the data and the page's own code
    # the script ran (it filled the side panel) and shows the hostile text literally
    assert re.search(r'<div id="label">Turn 5: [^<]*\(6/\d+\)</div>', dom)
    assert "&lt;script&gt;document.title='PWNED';document.body.id='pwned'&lt;/script&gt;" in dom
    assert "<li>&lt;script&gt;document.title=" in dom  # the comment, as a list item's text


def test_the_page_draws_in_the_browser(tmp_path, record):
    page = tmp_path / "games.html"
    page.write_text(render_html([record], file_name="games.grn"), encoding="utf-8")
    assert_not_blank(screenshot(tmp_path, page.as_uri() + "#0:30", "page.png"), (900, 700))
