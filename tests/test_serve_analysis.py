"""Analysis in grn serve on a real uvicorn: the best moves at a position, a game analysed in the background."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="grn serve needs the serve extra: pip install 'grn[serve]'")

import grn  # noqa: E402
from grn.serve.analysis import MAX_PLAYOUTS, BudgetError, Busy, Task, Tasks, budget  # noqa: E402
from grn.check.validate import validate_record  # noqa: E402
from serve_server import running  # noqa: E402
from test_serve import call  # noqa: E402


@pytest.fixture
def server(tmp_path: Path):
    with running(tmp_path / "club.db") as base:
        yield base


def imported(base: str, example: str) -> int:
    status, out, _ = call(base, "POST", "/api/import", {"name": example, "text": Path("examples", example).read_text()})
    assert status == 200, out
    return out["ids"][0]


def first_tile(base: str, gid: int, at: str) -> str:
    state = call(base, "GET", f"/api/games/{gid}?at={at}")[1]
    return state["step"]["options"][0]["word"]


def test_the_best_move_found_is_legal_and_drawn_on_the_board(server):
    gid = imported(server, "goldrush-2p.grn")
    tile = first_tile(server, gid, "3")
    status, out, _ = call(server, "POST", f"/api/games/{gid}/evaluate", {"at": "3", "picked": [tile], "playouts": 24})
    assert status == 200, out
    assert out["player"] == "yellow" and out["player_name"] == "Bo" and out["searched"] >= 24
    best = out["moves"][0]
    assert best["grn"].startswith(tile + "@") and best["se"] >= 0
    assert all(m["playouts"] <= best["playouts"] for m in out["moves"])
    # best_move_markup: the tile drawn where it goes, on a board that has no ghost without it
    state = call(server, "GET", f"/api/games/{gid}?at=3")[1]
    assert "ghost" in out["svg"] and "ghost" not in state["svg"]
    # the move found is one the engine takes: played at turn 3 it makes a variation
    status, after, _ = call(server, "POST", f"/api/games/{gid}/play",
                            {"at": "3", "base": state["base"], "text": best["grn"]})
    assert status == 200, after
    assert after["moves"]["turns"][-1]["grn"].endswith(best["grn"])


def test_r108_a_tile_game_needs_the_tile_drawn_first(server):
    gid = imported(server, "goldrush-2p.grn")
    status, out, _ = call(server, "POST", f"/api/games/{gid}/evaluate", {"at": "3"})
    assert status == 400 and "pick the tile drawn first" in out["error"]
    status, out, _ = call(server, "POST", f"/api/games/{gid}/evaluate", {"at": "3", "picked": ["99z"]})
    assert status == 400 and "not in the bag" in out["error"]


def test_r108_the_later_turns_are_never_used(server):
    """The same position evaluates the same whether or not the record goes on after it."""
    gid = imported(server, "goldrush-2p.grn")
    status, out, _ = call(server, "POST", f"/api/games/{gid}/fork", {"at": "4"})
    short = out["id"]
    assert [t["n"] for t in call(server, "GET", f"/api/games/{short}")[1]["moves"]["turns"]] == [1, 2, 3, 4]
    tile = first_tile(server, gid, "4")
    ask = {"at": "4", "picked": [tile], "playouts": 16}
    full = call(server, "POST", f"/api/games/{gid}/evaluate", ask)[1]
    cut = call(server, "POST", f"/api/games/{short}/evaluate", ask)[1]
    assert full["moves"] == cut["moves"] and full["moves"]


def test_gold_evaluates_without_a_draw(server):
    gid = imported(server, "gold-2p.grn")
    status, out, _ = call(server, "POST", f"/api/games/{gid}/evaluate", {"at": "2", "playouts": 16})
    assert status == 200, out
    assert out["moves"] and out["player"] in ("red", "green", "yellow", "blue")


@pytest.mark.parametrize("body, words", [({"playouts": MAX_PLAYOUTS + 1}, f"at most {MAX_PLAYOUTS}"),
                                         ({"level": "max"}, f"at most {MAX_PLAYOUTS}"),
                                         ({"level": "forever"}, "unknown level"),
                                         ({"playouts": 0}, "1 or more"), ({"playouts": "lots"}, "whole number")])
def test_r109_no_request_asks_for_an_unbounded_search(server, body, words):
    gid = imported(server, "gold-2p.grn")
    for path in ("evaluate", "analyse"):
        status, out, _ = call(server, "POST", f"/api/games/{gid}/{path}", dict(body, at="2"))
        assert status == 400 and words in out["error"], (path, out)


def test_analysis_needs_the_token(server):
    gid = imported(server, "gold-2p.grn")
    for path in ("evaluate", "analyse"):
        status, out, _ = call(server, "POST", f"/api/games/{gid}/{path}", {"playouts": 4}, token=None)
        assert status == 403 and "token" in out["error"]


def analysed_on_the_server(server: str, gid: int, playouts: int) -> dict:
    status, task, _ = call(server, "POST", f"/api/games/{gid}/analyse", {"playouts": playouts})
    assert status == 200 and task["state"] == "running"
    # the server answers other requests meanwhile
    assert call(server, "GET", f"/api/games/{gid}")[0] == 200
    deadline = time.monotonic() + 120
    while task["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.2)
        task = call(server, "GET", f"/api/tasks/{task['task']}")[1]
    assert task["state"] == "done", task
    return task


def test_r430_a_game_analysed_keeps_its_review_and_stays_one_game(server):
    # a short game (6 turns) at 2 playouts a move: what is kept and shown, not the analysis's quality
    gid = imported(server, "rulebook-city-6.grn")
    before = call(server, "GET", f"/api/games/{gid}/download")[1]

    def marks() -> list[tuple[int, bool]]:
        return [(g["id"], g["reviewed"]) for g in call(server, "GET", "/api/games")[1]["games"]]

    assert marks() == [(gid, False)]
    task = analysed_on_the_server(server, gid, 2)
    assert task["id"] == gid and task["view"] == f"/games/{gid}/view?review=1"
    assert call(server, "GET", f"/api/games/{gid}/download")[1] == before  # the game itself is untouched
    assert marks() == [(gid, True)]  # the archive lists the game once, marked as reviewed: no second game
    status, page, _ = call(server, "GET", task["view"])
    assert status == 200 and "grn-viewer" in page and '"review":' in page  # the viewer shows the review
    status, plain, _ = call(server, "GET", f"/games/{gid}/view")
    assert status == 200 and '"review":' not in plain  # the game's own view is the game as recorded
    assert call(server, "GET", "/api/tasks/999")[0] == 404
    # a comment leaves the main line as analysed: the review stays
    state = call(server, "GET", f"/api/games/{gid}")[1]
    status, state, _ = call(server, "POST", f"/api/games/{gid}/note",
                            {"at": state["address"], "base": state["base"], "comment": "well played"})
    assert status == 200 and marks() == [(gid, True)]
    # a turn taken back: the line analysed is gone, and its review with it
    status, state, _ = call(server, "POST", f"/api/games/{gid}/undo", {"at": state["address"], "base": state["base"]})
    assert status == 200 and marks() == [(gid, False)]
    assert call(server, "GET", f"/games/{gid}/view?review=1")[0] == 404


def test_one_game_analysed_at_a_time():
    tasks = Tasks(limit=1)
    release = threading.Event()
    first = Task(1, "quick", 4)
    tasks.start(first, lambda: release.wait(10) and 7)
    with pytest.raises(Busy):
        tasks.start(Task(2, "quick", 4), lambda: 8)
    release.set()
    assert first.thread is not None
    first.thread.join(10)
    assert first.state == "done" and first.result == 7
    number = tasks.start(Task(2, "quick", 4), lambda: 8)
    tasks.get(number).thread.join(10)  # type: ignore[union-attr]
    assert tasks.get(number).result == 8  # type: ignore[union-attr]


def test_a_failed_analysis_is_told_not_lost():
    tasks = Tasks()
    task = Task(1, "quick", 4)

    def broken() -> int:
        raise ValueError("the record breaks the rules at turn 3")

    tasks.start(task, broken)
    task.thread.join(10)  # type: ignore[union-attr]
    assert task.to_json(1)["state"] == "failed" and "turn 3" in task.to_json(1)["error"]


def test_budget_defaults_to_the_quick_level():
    assert budget({}) == ("quick", 60)
    assert budget({"level": "deep"}) == ("deep", 600)
    with pytest.raises(BudgetError):
        budget({"playouts": True})


def test_budget_takes_the_levels_people_play_against():
    # the names of the New game form's bot levels that search work here as in grn analyse --level
    assert budget({"level": "strong"}) == ("deep", 600)
    assert budget({"level": "normal"}) == ("normal", 160)
    with pytest.raises(BudgetError, match="at most 600 playouts a move on this server, not 3000 \\(level master\\)"):
        budget({"level": "master"})
    with pytest.raises(BudgetError, match="plays without a search"):
        budget({"level": "beginner"})
    with pytest.raises(BudgetError, match="unknown level 'hard': the levels are quick, normal"):
        budget({"level": "hard"})


#: Ada's two miners of 4 (red and yellow) can carry Bo's gold 3 out on turn 3: the same turn in effect (R225)
TWIN_MINERS = """[Game "gold"]
[Players "Ada (red+yellow), Bo (green+blue)"]

1. red a1=red4 a2=yellow4
2. green b1=G3 b2=G2
3. red a2=yellow4 b1=G3 score red=3 green=0
"""


def test_gold_moves_of_one_effect_are_shown_once_as_the_review_weighs_them(server):
    status, out, _ = call(server, "POST", "/api/import", {"name": "twin.grn", "text": TWIN_MINERS})
    assert status == 200, out
    status, out, _ = call(server, "POST", f"/api/games/{out['ids'][0]}/evaluate", {"at": "2", "playouts": 32})
    assert status == 200, out
    shown = [m["grn"] for m in out["moves"]]
    carried = [g for g in shown if g and "G3" in g and "4" in g]  # a miner of 4 carries the gold 3 out
    assert len(carried) == 1, shown  # red's miner or yellow's: one move, not two
    assert shown[0] == carried[0]  # and it is the best found
