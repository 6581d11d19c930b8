"""Routes of ``grn serve`` that record a game by tapping: the position shown, a turn played, a turn taken back,
a note, and the long poll that tells another phone the game changed (R352).

Every edit names the text it was made on (``base``, its SHA-256): two phones editing one game cannot overwrite
each other's turns; the loser is told to reload.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.routing import Route

from grn.notation.read import parse
from grn.rules.position import Position
from grn.core.record import Markup, Record, Seat, Turn
from grn.rules.recording import annotate, line_at, normalise, play, undo
from grn.serve.bots import bot_seats, bots_last_move, dealt_actions, dealt_at, dealt_picks, is_dealt
from grn.serve.common import ApiError, Context, api, body, context, game_id, text_field, words_field
from grn.serve.append import Appended
from grn.serve.store import StoreError, digest
from grn.serve.views import position_for, record_for, remember_position, state_view
from grn.notation.writer import write_record

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.rules.engine import Engine, Event

#: How long a phone's question "has the game changed?" waits for a change before it is answered "no" (R352).
WATCH_SECONDS = 15.0

#: What an edit gives: the new record, the address after it, and for a turn played the position before
#: with the engine after the turn and the turn's events (so that the new position needs no replay).
Edit = tuple[Record, str, "tuple[Position, list[Event]] | None"]
#: A change to a game: (record, its text, the normalised address, the request's body) -> :data:`Edit`.
Change = Callable[[Record, str, str, dict[str, Any]], Edit]


async def state(request: Request) -> dict[str, Any]:
    """What the page shows of one position (``at``) with the words ``picked`` so far in the turn."""
    number = game_id(request)
    q = request.query_params
    picked = words_field(q.get("picked"))
    at = q.get("at") or "end"
    return await run_in_threadpool(state_of, context(request), number, at, picked, q.get("preview"))


def state_of(ctx: Context, number: int, at: str, picked: list[str], preview: str | None) -> dict[str, Any]:
    """What the page shows of game ``number`` at ``at``: in a game against grn, at its end, a person's turn
    starts with the deal's words (the tile drawn) and the page is told which seats grn plays."""
    record, text = ctx.store.load(number)
    address = normalise(record, at)
    dealt = dealt_at(ctx.store.secret, number, record, text, address, ctx.engines)
    words, auto, extra = picked, list[int](), list[Markup]()
    if dealt is not None and dealt.bot is None:
        assert dealt.position.ruleset is not None
        words, auto = dealt_picks(dealt.position.ruleset, dealt.world, dealt.position.state, picked)
        extra = bots_last_move(record, dealt.position, ctx.engines)
    return with_seats(state_view(number, record, text, address, words, preview, digest(text), extra),
                      record, ctx.engines, auto)


def with_seats(view: dict[str, Any], record: Record, engines: dict[str, str], auto: list[int]) -> dict[str, Any]:
    """A position's view with what a game against grn adds: the seats the server plays (key -> bot), whether
    one is to move, and which of the words picked the deal gave (``dealt``: indexes)."""
    bots = bot_seats(record, [Seat(s["name"], tuple(s["colours"])) for s in view["seats"]], engines)
    view["bots"] = bots
    view["dealer"] = is_dealt(record)
    view["bot_to_move"] = bool(view["player"] in bots and not view["over"] and "(" not in view["address"]
                               and view["address"] == normalise(record, "end"))
    view["dealt"] = auto
    return view


async def changes(request: Request) -> dict[str, Any]:
    """Long polling (R352): answered as soon as the game's text is no longer ``base`` (another phone
    changed it), or unchanged after :data:`WATCH_SECONDS`; the phone asks again at once."""
    number = game_id(request)
    store = context(request).store
    base = request.query_params.get("base", "")[:64]
    deadline = time.monotonic() + WATCH_SECONDS
    while True:
        _, text = await run_in_threadpool(store.load, number)
        now = digest(text)
        if now != base or time.monotonic() > deadline or await request.is_disconnected():
            return {"base": now, "changed": now != base}
        await asyncio.sleep(0.3)


def apply_edit(ctx: Context, number: int, base: str, at: str, data: dict[str, Any], change: Change) -> dict[str, Any]:
    """``change`` made to game ``number`` if its stored text is still ``base``; stored; the new position's view."""
    store = ctx.store
    record, text = store.load(number)
    if digest(text) != base:
        raise StoreError("the game was changed meanwhile (another phone?): reload it", 409)
    new, address, played = change(record, text, normalise(record, at), data)
    # a turn played: the store may keep it as one turn at the end of the main line (R458)
    appended = None if played is None else Appended(record, text, played[0].state, played[1])
    new_text = store.save(number, new, base, appended)
    stored = record_for(new_text, "grn")
    if played is not None:
        # the position the turn leads to is worked out already: no replay to draw it
        pos, events = played
        _, line = line_at(stored, address)
        turn = int(address.rsplit(")", 1)[-1])
        last = next(t for t in line if t.number == turn)
        remember_position(new_text, address, Position(stored, pos.state, pos.seats, last, pos.turns_played + 1,
                                                      list(last.markup), events, address, line, pos.ruleset))
    if is_dealt(stored):
        return state_of(ctx, number, address, [], None)
    return with_seats(state_view(number, stored, new_text, address, [], None, digest(new_text)), stored,
                      ctx.engines, [])


async def edit(request: Request, change: Change) -> dict[str, Any]:
    """The request's game changed by ``change`` at its ``at``, checked against its ``base`` (see the module)."""
    number = game_id(request)
    data = await body(request)
    at = text_field(data, "at", "end", limit=200)
    base = text_field(data, "base", "", limit=64)
    return await run_in_threadpool(apply_edit, context(request), number, base, at, data, change)


def with_result(new: Record, after: Engine, address: str) -> Record:
    """``new`` with its Result tag when the turn at ``address`` ended the main line (as self-play writes it)."""
    if not after.is_over or "(" in address:
        return new
    final = after.copy()
    final.final_scoring()
    result = ", ".join(f"{p} {v}" for p, v in final.scores.items())
    return new.replace(tags=(*((k, v) for k, v in new.tags if k != "Result"), ("Result", result)))


def play_actions(record: Record, text: str, at: str, actions: list[Command]) -> Edit:
    """The turn of ``actions`` played by the player to move at ``at`` (the engine has the last word)."""
    pos = position_for(record, text, at)
    if pos.state.is_over:
        raise ApiError("the game is over")
    player = pos.state.current_player
    after = pos.state.copy()
    events = after.play_turn(player, actions)
    new, address = play(record, at, player, actions)
    new = with_result(new, after, address)
    moved = Position(pos.record, after, pos.seats, None, pos.turns_played, [], [], at, pos.line, pos.ruleset)
    return new, address, (moved, list(events))


def _play_in(ctx: Context, number: int) -> Change:
    """Playing a person's turn in game ``number``: in a game against grn at its end, the turn takes the deal's
    tile and faces, and a bot's seat is not the page's to play."""

    def change(record: Record, text: str, at: str, data: dict[str, Any]) -> Edit:
        pos = position_for(record, text, at)
        if pos.state.is_over:
            raise ApiError("the game is over")
        assert pos.ruleset is not None
        if "text" in data:
            actions = _typed_turn(record, pos.state.current_player, text_field(data, "text", limit=2000))
        else:
            step = pos.ruleset.turn_step(pos.state, words_field(data.get("picked")))
            if step is None or step.actions is None:
                raise ApiError("the words picked do not make a whole turn")
            actions = list(step.actions)
        dealt = dealt_at(ctx.store.secret, number, record, text, at, ctx.engines)
        if dealt is not None:
            if dealt.bot is not None:
                raise ApiError(f"it is {dealt.bot}'s turn: grn plays it", 409)
            actions = list(dealt_actions(pos.ruleset, dealt.world, pos.state, actions))
        return play_actions(record, text, at, actions)

    return change


def _back(record: Record, text: str, at: str, data: dict[str, Any]) -> Edit:
    new, address = undo(record, at)
    if "(" in at:
        return new, address, None
    # the main line taken back from its end is no longer over: its Result goes
    return new.replace(tags=tuple((k, v) for k, v in new.tags if k != "Result")), address, None


def _note(record: Record, text: str, at: str, data: dict[str, Any]) -> Edit:
    glyph = data.get("glyph")
    comment = data.get("comment")
    if glyph is None and comment is None:
        raise ApiError("give a comment or a glyph")
    if comment is not None:
        comment = text_field(data, "comment", limit=2000)
    return annotate(record, at, comment=comment, glyph=glyph if isinstance(glyph, str) else None), at, None


async def play_turn(request: Request) -> dict[str, Any]:
    """A turn played: from the words picked on the page, or typed in GRN (``text``)."""
    return await edit(request, _play_in(context(request), game_id(request)))


async def take_back(request: Request) -> dict[str, Any]:
    """The turn at ``at`` taken back."""
    return await edit(request, _back)


async def note(request: Request) -> dict[str, Any]:
    """A comment or a glyph on the turn at ``at``."""
    return await edit(request, _note)


def _typed_turn(record: Record, player: str, text: str) -> list[Command]:
    """The commands of a turn typed in GRN (``47a@-1,0 +N``), read with the game's grammar."""
    if any(c in text for c in "{}()[]<>;\n"):
        raise ApiError("type only the turn's actions, such as they follow the player in GRN")
    header = write_record(Record(record.tags)).rstrip("\n")
    games_ = parse(f"{header}\n\n1. {player} {text}\n", file="<typed>")
    if len(games_) != 1 or not games_[0].ok or not games_[0].turns:
        problem = games_[0].diagnostics[0].message if games_ and games_[0].diagnostics else "cannot read the turn"
        raise ApiError(problem)
    turn: Turn = games_[0].turns[-1]
    return list(turn.actions)


ROUTES = [
    Route("/api/games/{game_id}", api(state), methods=["GET"]),
    Route("/api/games/{game_id}/play", api(play_turn), methods=["POST"]),
    Route("/api/games/{game_id}/undo", api(take_back), methods=["POST"]),
    Route("/api/games/{game_id}/note", api(note), methods=["POST"]),
    Route("/api/games/{game_id}/changes", api(changes)),
]

__all__ = ["ROUTES", "Change", "Edit", "apply_edit", "play_actions", "state_of", "with_result", "with_seats",
           "WATCH_SECONDS"]
