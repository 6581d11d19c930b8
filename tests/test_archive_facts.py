"""The archive's facts of a game made quicker (issue 26 item 4, round five, R195-R196): the commands' and
events' JSON texts remembered by value, put together into the very texts the encoders wrote before."""

from __future__ import annotations

import hashlib
import marshal
import json
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grn.core import registry
from grn.archive import facts
from grn.archive.facts import FINAL, GameFacts, PointSums, game_facts, game_summary, unpack, value_key
from grn.cli.app import app
from grn.notation.jsonform import command_to_json
from grn.notation.read import parse
from grn.core.record import Record
from grn.games.tiling.commands import PlaceTile
from grn.games.tiling.events import ScoreEvent
from grn.check.validate import validate_record
from grn.core.value import Value

runner = CliRunner()
ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=facts.to_plain)


@lru_cache(maxsize=None)
def _games(game: str, players: int, seed: int, n: int) -> tuple[Record, ...]:
    result = runner.invoke(app, ["selfplay", "--game", game, "--players", str(players), "--seed", str(seed),
                                 "--games", str(n)])
    assert result.exit_code == 0, result.output
    return tuple(parse(result.output))


def _plain(v: Any) -> bool:
    return v is None or type(v) in (str, int, bool) or (type(v) is tuple and all(_plain(x) for x in v))


def _key_item(command: Any, ruleset: Any) -> Any:
    # what makes two commands equal (R286): a Value's _key(), else its fields less the span
    fields = command._key() if isinstance(command, Value) else \
        tuple(getattr(command, f) for f in command._fields if f != "span")
    if all(map(_plain, fields)):
        return (type(command).__name__, fields)
    return json.dumps(command_to_json(command, ruleset), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _reference(record: Record) -> tuple[str, str, str, dict[tuple[str, str], int]]:
    """The facts as round four made them, one dict a command and event and one encoding a game: the oracle."""
    report = validate_record(record, keep_turns=True)
    seats = record.seats()
    keys = {c: s.key for s in seats for c in s.colours}
    ruleset = registry.find_ruleset(record.game)
    turns = [[t.number, keys.get(t.player, t.player), [command_to_json(a, ruleset) for a in t.actions]]
             for t in record.turns]
    actions = json.dumps(turns, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    groups: list[list[Any]] = [[tr.number, [facts.event_to_json(e) for e in tr.raw_events]]
                               for tr in report.turns if tr.raw_events]
    if report.final_raw_events:
        groups.append([None, [facts.event_to_json(e) for e in report.final_raw_events]])
    sums: dict[tuple[str, str], int] = {}
    for number, events in groups:
        for ev in events:
            if isinstance(ev.get("player"), str) and type(ev.get("points")) is int:
                feature = ev.get("feature")
                kind = feature if isinstance(feature, str) else \
                    (FINAL if ev.get("final", number is None) else str(ev["type"]))
                sums[(ev["player"], kind)] = sums.get((ev["player"], kind), 0) + ev["points"]
    head = {"game": record.game, "seats": [[list(s.colours), " ".join(s.name.split()).casefold()] for s in seats],
            "options": sorted((k.strip().lower(), v.strip().lower()) for k, v in record.options().items())}
    # schema 5's key (R286): the head's JSON, a line feed, marshal's version-2 bytes of the main line's fields
    # as one flat list: a turn's number (int) and seat key (bytes), then each command's class name (bytes)
    # and fields (tuple), or its canonical JSON (str)
    line: list[Any] = []
    for t in record.turns:
        line += [t.number, keys.get(t.player, t.player).encode("utf-8")]
        for a in t.actions:
            item = _key_item(a, ruleset)
            line += [item[0].encode("utf-8"), item[1]] if isinstance(item, tuple) else [item]
    dedup = hashlib.sha256((json.dumps(head, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
                           .encode("utf-8") + marshal.dumps(line, 2)).hexdigest()
    return actions, ENCODER.encode(groups), dedup, sums


def _check(record: Record) -> GameFacts:
    got = game_facts(record, validate_record(record, keep_turns=True))
    actions, events, dedup, sums = _reference(record)
    assert unpack(got.actions) == actions
    assert json.loads(unpack(got.events) or "") == json.loads(events)
    assert got.dedup == dedup
    assert {(p, f): n for p, f, n in got.points} == sums
    # add's game-level facts (R250, R251): the same but for the per-turn texts
    observed = PointSums()
    summary = game_summary(record, validate_record(record, keep_turns=False, observer=observed), observed)
    assert summary.actions is None and summary.events is None
    assert summary.dedup == dedup and {(p, f): n for p, f, n in summary.points} == sums
    assert summary.replace(actions=got.actions, events=got.events) == got
    # an event without a points field and with the engine's own JSON counts nothing, unread (R251)
    assert record.game != "goldrush" or 0 in facts._POINT_PLAN.values()
    return got


@pytest.mark.parametrize("game, players", [("goldrush", 4), ("gold", 3), ("carcassonne", 2)])
def test_the_facts_are_the_texts_the_encoders_wrote_cold_and_remembered(game: str, players: int) -> None:
    records = _games(game, players, 11, 3)
    facts._COMMAND_TEXTS.clear()
    facts._EVENT_ENTRIES.clear()
    cold = [_check(r) for r in records]
    assert facts._EVENT_ENTRIES or game == "gold"  # remembered (Gold's events may hold other values)
    warm = [_check(r) for r in records]  # from the remembered texts now
    assert [(c.actions, c.events, c.dedup, c.points) for c in cold] == \
        [(w.actions, w.events, w.dedup, w.points) for w in warm]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), game=st.sampled_from(["goldrush", "gold", "carcassonne"]))
def test_any_game_gives_the_reference_facts(seed: int, game: str) -> None:
    (record,) = _games(game, 3, seed, 1)
    _check(record)


def test_a_full_memory_starts_again_and_the_texts_stay_right(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(facts, "CACHE_SIZE", 3)
    facts._COMMAND_TEXTS.clear()
    facts._EVENT_ENTRIES.clear()
    for record in _games("goldrush", 4, 21, 2):
        _check(record)
    assert len(facts._EVENT_ENTRIES) <= 3
    assert all(len(texts) <= 3 for _, texts in facts._COMMAND_TEXTS.values())


class _Flag(Value):
    """A plug-in's value (interpreted), its field untyped."""

    __slots__ = ("on",)
    _fields = ("on",)

    def __init__(self, on: Any) -> None:
        self.on = on

    def _key(self) -> tuple[object, ...]:
        return (self.on,)


def test_a_value_is_remembered_by_every_field_and_a_bool_is_not_an_int() -> None:
    # the span does not count: the same command at two places of a text
    placed = next(a for t in _games("goldrush", 4, 21, 1)[0].turns for a in t.actions if isinstance(a, PlaceTile))
    assert placed.span is not None and value_key(placed) == value_key(placed.replace(span=None))
    assert value_key(PlaceTile("17", 1, 0, 90)) != value_key(PlaceTile("17", 1, 0, 180))
    # two scores equal by Value._key but with other counts write other JSON: they are told apart
    a = ScoreEvent("red", 6, "railroad", "a railroad", False, counts=(("tiles", 3),))
    b = ScoreEvent("red", 6, "railroad", "a railroad", False, counts=(("tiles", 4),))
    assert a == b and facts.event_to_json(a) != facts.event_to_json(b)
    assert value_key(a) is not None and value_key(a) != value_key(b)
    # True == 1, also inside a tuple; not in a key
    assert _Flag(True) == _Flag(1) and value_key(_Flag(True)) != value_key(_Flag(1))
    assert value_key(_Flag((1, False))) != value_key(_Flag((1, 0)))
    # what cannot stand for itself is not remembered
    assert value_key(_Flag([1])) is None and value_key(_Flag(1.5)) is None


class _Codec:
    """A codec as a ruleset has them: its own JSON for a command."""

    def __init__(self, word: str) -> None:
        self.word = word

    def to_json(self, command: PlaceTile) -> dict[str, Any]:
        return {"type": self.word, "tile": command.tile}


def test_two_codecs_of_one_command_class_keep_their_own_texts() -> None:
    one, two = _Codec("place"), _Codec("lay")
    command = PlaceTile("17", 1, 0)
    assert facts._command_text(one, facts._command_texts(one), command) == '{"tile":"17","type":"place"}'
    assert facts._command_text(two, facts._command_texts(two), command) == '{"tile":"17","type":"lay"}'
    assert facts._command_text(one, facts._command_texts(one), command) == '{"tile":"17","type":"place"}'
