"""A GRN record as a JCloisterZone saved game (``.jcz``): :func:`grn_to_jcz`.

The main line is replayed with grn's engine, which says where each follower's
feature lies and which followers come back; what JCloisterZone has no word for
but the game needs is kept under the file's ``grn`` key (docs/rulings.md R55).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, cast

from grn.rules import registry
from grn.core.errors import IllegalAction
from grn.games.carcassonne.commands import PlaceFollower, PlaceIngot, TakeIngot
from grn.games.carcassonne.options import start_of
from grn.games.carcassonne.rules import CarcassonneState, ingot_options
from grn.games.carcassonne.jcz_format import (
    APP_VERSION, GRN_KEY, SMALL, jcz_tile_ids, location_place, place_location, slot_colours,
)
from grn.rules.interop import ConversionProblem
from grn.core.record import Record
from grn.rules.ruleset import SetupProblem, engine_for, player_key
from grn.games.tiling.commands import DiscardTile, PlaceTile
from grn.games.tiling.places import POSITIONS
from grn.notation.writer import write_record

def grn_to_jcz(record: Record) -> str:
    """The JCloisterZone saved game of ``record``'s main line.  Raises :class:`ConversionProblem`.

    Kept whole: the saved game's parts written in the order the format holds them."""
    RULESET = registry.find_ruleset("carcassonne")
    try:
        seats = RULESET.seats(record)
        options = RULESET.parse_options(record.options())
        engine = cast(CarcassonneState, engine_for(RULESET, record, seats))
    except SetupProblem as exc:
        raise ConversionProblem(exc.message, f"[{exc.tag}]" if exc.tag else None) from None
    keys = [s.key for s in seats]
    first = engine.current_player
    # JCloisterZone's first player is its players[0]: the seats, turned so the first to play leads
    order = keys[keys.index(first):] + keys[:keys.index(first)]
    palette = slot_colours()
    players = [{"name": next(s.name for s in seats if s.key == k) or k, "slot": palette.index(k)} for k in order]
    replay: list[dict[str, Any]] = []
    draws: list[str] = []
    takes: dict[str, list[list[int]]] = {}
    written: dict[str, dict[str, Any]] = {}
    on_board: dict[int, str] = {}  # segment id -> meeple id
    ids = jcz_tile_ids()
    count = 0
    for turn in record.mainline():
        where = f"turn {turn.number}"
        if turn.number == 0:
            raise ConversionProblem("a set-up turn (0.) has no counterpart in a JCloisterZone game", where)
        count += 1
        player = order.index(player_key(seats, turn.player))
        for a in turn.actions:
            if isinstance(a, DiscardTile):
                draws.append(ids.get(a.tile, a.tile))
        place = next((a for a in turn.actions if isinstance(a, PlaceTile)), None)
        if place is not None:
            if place.tile not in ids:
                raise ConversionProblem(f"tile {place.tile!r} has no JCloisterZone id", where)
            draws.append(ids[place.tile])
            replay.append({"type": "PLACE_TILE", "payload": {
                "tileId": ids[place.tile], "rotation": f"R{place.rotation}", "position": [place.x, -place.y]},
                "player": player})
            ingot = next((a for a in turn.actions if isinstance(a, PlaceIngot)), None)
            try:
                spots = ingot_options(engine, place)
            except IllegalAction as exc:
                raise ConversionProblem(f"{exc.message} (grn validate tells more)", where) from None
            if ingot is not None and len(spots) <= 1:
                # with one tile to take it, JCloisterZone sets the second ingot itself: no message
                written.setdefault(str(count), {})["ingot"] = [ingot.x, -ingot.y]
            elif ingot is not None:
                replay.append({"type": "PLACE_TOKEN", "payload": {"token": "GOLD", "pointer": [ingot.x, -ingot.y]},
                               "player": player})
            follower = next((a for a in turn.actions if isinstance(a, PlaceFollower)), None)
            meeple = ""
            if follower is not None:
                design = engine.tileset[place.tile]
                o = design.orientation(place.rotation)
                local = engine._segment_of(design, o, 0, follower.location)
                if local < 0:
                    raise ConversionProblem(f"{follower.location} names no feature of tile {place.tile}", where)
                places = [POSITIONS[i] for i in o.segment_places[local]]
                location = place_location(places, design.kinds[local])
                if location_place(location, where) != follower.location:
                    written.setdefault(str(count), {})["follower"] = follower.location
                used = set(on_board.values())
                meeple = next(f"{player}.{SMALL}.{n}" for n in range(1, 8) if f"{player}.{SMALL}.{n}" not in used)
                replay.append({"type": "DEPLOY_MEEPLE", "payload": {
                    "pointer": {"position": [place.x, -place.y], "location": location}, "meepleId": meeple},
                    "player": player})
            else:
                replay.append({"type": "PASS", "payload": {}, "player": player})
            replay.append({"type": "COMMIT", "payload": {"salt": "0"}, "player": player})
            spots_taken = [[a.x, -a.y] for a in turn.actions if isinstance(a, TakeIngot)]
            if spots_taken:
                takes[str(count)] = spots_taken
        before = set(engine.follower_at)
        try:
            engine.play_turn(player_key(seats, turn.player), list(turn.actions))
        except IllegalAction as exc:
            raise ConversionProblem(f"{exc.message} (grn validate tells more)", where) from None
        after = set(engine.follower_at)
        for gone in before - after:
            on_board.pop(gone, None)
        new = after - before
        if place is not None and meeple and new:
            on_board[new.pop()] = meeple
    doc: dict[str, Any] = {"appVersion": APP_VERSION, "gameId": _game_id(record), "name": record.tag("Event") or ""}
    date = record.tag("Date")
    if date and re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", date.strip()):
        doc["created"] = date.strip().replace(".", "-") + "T00:00:00.000Z"
    doc["initialRandom"] = 0.0
    doc["clock"] = 0
    sets: dict[str, int] = {"basic:1": options.basic}
    elements: dict[str, Any] = {"small-follower": 7, "farmers": options.farmers}
    if options.goldmines:
        sets["goldmines"] = options.goldmines_copies
        elements["gold"] = True
    tile, sx, sy, srot = start_of(record) or ("D", 0, 0, 0)
    doc["setup"] = {"sets": sets, "elements": elements,
                    "rules": {"tiny-city-scoring": "2"} if options.smallcity else {},
                    "start": [{"tile": jcz_tile_ids()[tile], "x": sx, "y": -sy, "rotation": srot}], "options": {}}
    doc["players"] = players
    doc["replay"] = replay
    annotations: dict[str, Any] = {"drawOrder": draws}
    if (record.tag("End") or "").strip() == "now" and not engine.is_over:
        # JCloisterZone's endTurn is a number of draws (its ForcedDrawTilePack's drawLimit), a tile that
        # fitted nowhere among them: the turns alone would end a game with discards too early (R86)
        annotations["endTurn"] = len(draws)
    doc["gameAnnotations"] = annotations
    kept = [[k, v] for k, v in record.tags if k != "Game"]
    doc[GRN_KEY] = {"tags": kept, **({"takes": takes} if takes else {}), **({"written": written} if written else {})}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _game_id(record: Record) -> str:
    """A game id for JCloisterZone, the same for the same record."""
    return hashlib.sha1(write_record(record).encode("utf-8")).hexdigest()[:32]


__all__ = ["grn_to_jcz"]
