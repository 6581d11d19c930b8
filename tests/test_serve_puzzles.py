"""The Puzzles page of grn serve (a real uvicorn on a loopback port): the next puzzle near the solver's rating,
an attempt judged and both Glicko-2 ratings moved, kept in the archive's own tables."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="grn serve needs the serve extra: pip install 'grn[serve]'")

import grn  # noqa: E402
from grn.archive.db import connect  # noqa: E402
from grn.archive.puzzles import keep  # noqa: E402
from grn.analysis.puzzles import Criteria, mine_record  # noqa: E402
from serve_server import TOKEN, running  # noqa: E402
from test_puzzles import FAST, _city_text  # noqa: E402


def call(base: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json", "X-GRN-Token": TOKEN})
    try:
        with urllib.request.urlopen(req) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("serve_puzzles") / "club.db"
    record = grn.parse(_city_text())[0]
    puzzles = [o.puzzle for o in mine_record(record, Criteria(), FAST) if o.puzzle is not None]
    con = connect(path, create=True)
    assert keep(con, puzzles) == 1 and keep(con, puzzles) == 0  # kept once
    con.close()
    return path


def test_next_attempt_and_ratings(archive: Path) -> None:
    with running(archive) as base:
        status, got = call(base, "/api/puzzles/next?solver=Ann")
        assert status == 200 and got["solver"] == {"rating": 1500, "deviation": 350}
        puzzle = got["puzzle"]
        assert puzzle["tile"] == "E" and 'data-xy="0,4"' in puzzle["svg"]
        status, done = call(base, f"/api/puzzles/{puzzle['id']}/attempt",
                            {"solver": "Ann", "answer": "E@0,4:180", "seconds": 12.5})
        assert status == 200 and done["solved"] and "close a city" in done["themes"]
        assert done["solver"]["after"]["rating"] > 1500 and done["puzzle"]["after"]["rating"] < 1500
        status, again = call(base, "/api/puzzles/next?solver=Ann")
        assert again["puzzle"] is None  # tried: the next is another one, and there is none
        status, other = call(base, "/api/puzzles/next?solver=Bo")
        assert other["puzzle"]["rating"] < 1500  # Ann's solve made it easier
        status, missed = call(base, f"/api/puzzles/{puzzle['id']}/attempt", {"solver": "Bo", "answer": "E@0,-1:180"})
        assert not missed["solved"] and missed["solver"]["after"]["rating"] < 1500
        assert call(base, "/api/puzzles/nope/attempt", {"solver": "Bo", "answer": "x"})[0] == 404
        assert call(base, "/api/puzzles/next?solver=")[0] == 400
        page = urllib.request.urlopen(urllib.request.Request(base + "/puzzles", headers={"X-GRN-Token": TOKEN}))
        html = page.read()
        assert b'<script src="/puzzles/puzzleboard.js">' in html and b'<script src="/puzzles/puzzles.js">' in html
    con = sqlite3.connect(archive)
    rows = list(con.execute("SELECT solver, solved, seconds FROM puzzle_attempts ORDER BY id"))
    con.close()
    assert rows == [("Ann", 1, 12.5), ("Bo", 0, None)]


def test_the_page_is_solved_by_tapping_in_chromium(archive: Path, browser: Any) -> None:
    """The Puzzles page in a real Chromium at a phone's size: a name, the puzzle drawn with its legal squares, a
    tap on the solution's square solves it (one rotation fits there), the rating moves on the page."""
    import shutil

    if shutil.which("chromium") is None:
        pytest.skip("chromium not installed: browser tests skipped (apt-get install chromium)")
    with running(archive) as base:
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/?token={TOKEN}")  # the start-up address: the token goes into a cookie (an attempt writes)
        page.goto(f"{base}/puzzles")
        page.fill("#solver", "Cy")
        page.click("#who button[type=submit]")
        square = page.locator("#board g.legal[data-xy='0,4']")
        square.wait_for()
        assert "(puzzle rated " in (page.text_content("#question") or "")
        square.scroll_into_view_if_needed()
        box = square.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_selector("#verdict.right")
        said = page.text_content("#verdict") or ""
        assert said.startswith("Solved: ") and "close a city" in said and "Your rating: 1500 \u2192 " in said
        assert page.is_visible("#next") and not errors
        page.close()
