"""Routes of ``grn serve`` that search (grn/serve/analysis.py; R107-R109): the best moves at a position, and a
whole game analysed in the background (a task the page polls)."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.routing import Route

from grn.rules.recording import normalise
from grn.serve.analysis import Busy, Task, analysed_record, budget, evaluate_position
from grn.serve.bots import seen_position
from grn.serve.common import ApiError, Context, api, body, context, game_id, number, text_field, words_field
from grn.serve.views import position_for


def evaluate_at(ctx: Context, number_: int, at: str, picked: list[str], level: str, playouts: int) -> dict[str, Any]:
    """The best moves at ``at`` of a game (one of a few searches at once: more are refused, not queued)."""
    record, text = ctx.store.load(number_)
    pos = seen_position(record, position_for(record, text, normalise(record, at)))
    if pos.state.is_over:
        raise ApiError("the game is over: there is no move to find")
    if not ctx.searching.acquire(blocking=False):
        raise Busy("the server is searching other positions: try again in a moment")
    try:
        return evaluate_position(pos, picked, level, playouts)
    finally:
        ctx.searching.release()


async def evaluate_here(request: Request) -> dict[str, Any]:
    """The best moves at the position ``at`` with the words ``picked`` (the analysis panel, a hint)."""
    number_ = game_id(request)
    data = await body(request)
    level, playouts = budget(data)
    at, picked = text_field(data, "at", "end", limit=200), words_field(data.get("picked"))
    return await run_in_threadpool(evaluate_at, context(request), number_, at, picked, level, playouts)


async def analyse_game(request: Request) -> dict[str, Any]:
    """A whole game analysed in the background; the review is kept with its game (R430)."""
    number_ = game_id(request)
    level, playouts = budget(await body(request))
    ctx = context(request)
    record, _ = await run_in_threadpool(ctx.store.load, number_)

    def work() -> int:
        annotated, found = analysed_record(record, level, playouts)
        # the review of the game, kept with it: no second game (R430)
        ctx.store.keep_review(number_, record, found, annotated,
                              {"level": level, "playouts": playouts, "seconds": None, "seed": 0, "thresholds": None,
                               "by": "grn serve"})
        return number_

    task = Task(number_, level, playouts)
    return task.to_json(ctx.tasks.start(task, work))


async def task_state(request: Request) -> dict[str, Any]:
    """How far a background analysis got."""
    task_number = number(request.path_params["task"], "a task id")
    task = context(request).tasks.get(task_number)
    if task is None:
        raise ApiError("no such analysis task", 404)
    return task.to_json(task_number)


ROUTES = [
    Route("/api/games/{game_id}/evaluate", api(evaluate_here), methods=["POST"]),
    Route("/api/games/{game_id}/analyse", api(analyse_game), methods=["POST"]),
    Route("/api/tasks/{task}", api(task_state)),
]

__all__ = ["ROUTES", "evaluate_at"]
