"""Routes of ``grn serve`` for a game against grn (grn/serve/bots.py; R375-R378): the server plays its seats'
turns, and a person takes back their last move with the bots' replies after it.

A bot's turn runs in a worker thread (the page's other requests are answered meanwhile) and is stored as any
turn played on the page: another phone sees it through the long poll, the archive has it at once.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.routing import Route

from grn.bots.bot import Forfeit
from grn.bots.protocol import EngineError
from grn.core.record import Record
from grn.rules.ruleset import player_key
from grn.rules.recording import EditError, annotate, line_at, normalise, undo
from grn.serve.analysis import Busy
from grn.serve.bots import BotTurn, bot_seats, bot_turn, dealt_at, is_dealt
from grn.serve.common import ApiError, Context, api, body, context, game_id, text_field
from grn.serve.routes_recording import Edit, apply_edit, play_actions
from grn.serve.store import digest
from grn.serve.views import position_for

#: The most bot turns one request plays in a row (five seats, all bots but one, go round twice at most).
MAX_BOT_TURNS = 10


def _bot_move(ctx: Context, number: int, said: list[dict[str, Any]]) -> Any:
    """The change that plays the turn of the bot to move at the end of game ``number`` (its words go to ``said``)."""

    def change(record: Record, text: str, at: str, data: dict[str, Any]) -> Edit:
        dealt = dealt_at(ctx.store.secret, number, record, text, at, ctx.engines)
        if dealt is None or dealt.bot is None:
            raise ApiError("no bot is to move here")
        pos = dealt.position
        assert pos.ruleset is not None
        player = pos.state.current_player
        _, line = line_at(record, at)
        turns = [t for t in line if t.number > 0]
        try:
            turn: BotTurn = bot_turn(pos.ruleset, record, turns, player, dealt.bot, dealt.world, ctx.engines,
                                     seed=f"{ctx.store.secret}:{number}:{pos.turns_played}")
        except (Forfeit, EngineError) as exc:
            # an engine that died, was late or answered an illegal move: its words, and the turn is not played
            raise ApiError(f"{dealt.bot} could not play: {exc}", 502) from None
        new, address, played = play_actions(record, text, at, list(turn.actions))
        if turn.expects:
            new = annotate(new, address, comment=turn.expects)
        said.append({"player": player, "player_name": next((s.name for s in pos.seats if s.key == player), player),
                     "bot": dealt.bot, "address": address, "words": turn.words, "expects": turn.expects})
        return new, address, played

    return change


def play_bots(ctx: Context, number: int, base: str) -> dict[str, Any]:
    """The bots' turns at the end of game ``number`` played until a person is to move (or the game ends), each
    stored as it is played; the last position's view, with the bots' words."""
    if not ctx.playing.start(number):
        raise Busy("grn is already playing a turn (of this game or others): try again in a moment")
    said: list[dict[str, Any]] = []
    try:
        view: dict[str, Any] | None = None
        for _ in range(MAX_BOT_TURNS):
            record, text = ctx.store.load(number)
            if view is not None:
                base = digest(text)
            end = normalise(record, "end")
            dealt = dealt_at(ctx.store.secret, number, record, text, end, ctx.engines)
            if dealt is None or dealt.bot is None:
                break
            view = apply_edit(ctx, number, base, end, {}, _bot_move(ctx, number, said))
        if view is None:
            record, text = ctx.store.load(number)
            if not is_dealt(record):
                raise ApiError("grn plays no seat of this game (it was not started against grn)")
            if digest(text) != base:
                raise ApiError("the game was changed meanwhile (another phone?): reload it", 409)
            raise ApiError("no bot is to move: it is a person's turn, or the game is over")
    finally:
        ctx.playing.done(number)
    view["said"] = said
    return view


async def bots_play(request: Request) -> dict[str, Any]:
    """The turns of the bots to move at the game's end, played by the server (``base``: the text the page
    shows)."""
    number = game_id(request)
    data = await body(request)
    base = text_field(data, "base", "", limit=64)
    return await run_in_threadpool(play_bots, context(request), number, base)


def _take_back_own(ctx: Context, number: int) -> Any:
    """The change that takes back, at the main line's end, the bots' turns after the last person's move, and
    that move."""

    def change(record: Record, text: str, at: str, data: dict[str, Any]) -> Edit:
        if not is_dealt(record):
            raise ApiError("this game is not against grn: take back a turn with Undo")
        seats = position_for(record, text, "0").seats
        bots = bot_seats(record, seats, ctx.engines)
        address = normalise(record, "end")
        new = record
        while True:
            _, line = line_at(new, address)
            played = [t for t in line if t.number > 0]
            if not played:
                raise EditError("no move of a person to take back")
            seat = player_key(seats, played[-1].player)
            new, address = undo(new, address)
            if seat not in bots:
                break
        return new.replace(tags=tuple((k, v) for k, v in new.tags if k != "Result")), address, None

    return change


async def take_back_own(request: Request) -> dict[str, Any]:
    """A person's last move taken back, with the bots' replies after it (a game against grn)."""
    number = game_id(request)
    data = await body(request)
    base = text_field(data, "base", "", limit=64)
    ctx = context(request)

    return await run_in_threadpool(apply_edit, ctx, number, base, "end", data, _take_back_own(ctx, number))


ROUTES = [
    Route("/api/games/{game_id}/bots", api(bots_play), methods=["POST"]),
    Route("/api/games/{game_id}/take-back", api(take_back_own), methods=["POST"]),
]

__all__ = ["ROUTES", "MAX_BOT_TURNS", "play_bots"]
