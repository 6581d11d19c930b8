"""Mutation tests: one illegal action in a legal self-played game is flagged exactly there.

Each test takes self-played games (Gold Rush with 2-5 players, farmers on and
off; Gold with 2-5 players), changes ONE thing of ONE turn into something the
rules forbid, writes the record as GRN text, reads it back and validates it.
The validator must report an error whose ``turn`` is the mutated turn and whose
span lies on that turn's line of the written text -- and nothing else.

Samples are drawn with a seeded ``random.Random`` so that every run checks the
same (game, turn) choices.  The mutations are built so that they are illegal by
construction, from facts read off the position *before* the turn (legal
placements, the board's features, the tokens and cards already known); where a
sample happens to stay legal anyway the test skips it with a reason and
asserts that most samples were checked.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import pytest

from grn.rules.ruleset import COLOURS

from grn.games.tiling.places import LOCATIONS, POSITIONS

from grn.games.gold.commands import Card, FlipCard

from grn.games.tiling.commands import DiscardTile, PlaceTile

from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent, RevealTokens
from grn.core.errors import IllegalAction
from grn.games.gold.rules import GoldState, GoldTaken, load_cards, seats_for
from grn.games.goldrush.rules import GoldRushState, Options
from grn.notation.read import parse
from grn.core.record import Checkpoint, Record, Turn
from grn.rules.selfplay import SelfPlayGame, to_record
from grn.games.gold import selfplay as gold_play
from grn.games.goldrush import selfplay as goldrush_play
from grn.games.gold.selfplay import deal
from grn.games.goldrush import load_tileset
from grn.check.validate import validate_record
from grn.notation.writer import write_record

#: Samples tried per mutation kind, and the share that must really be checked.
SAMPLES = 40
MIN_CHECKED = 0.8

# ---------------------------------------------------------------------------
# The games
# ---------------------------------------------------------------------------

_GOLDRUSH_CONFIGS = [(n, seed, farmers) for n in (2, 3, 4, 5) for seed, farmers in ((11, True), (12, False))]
_GOLD_CONFIGS = [(n, seed) for n in (2, 3, 4, 5) for seed in (21, 22, 23)]


@dataclass(frozen=True)
class Played:
    """A self-played game, its record, and the engine state before each turn."""

    game: SelfPlayGame
    record: Record
    states: tuple  # states[i]: the position before turn i + 1
    truth: dict | None = None  # Gold: position -> face of the deal


#: Games in which all three 5s (or all of another value) are revealed: found by a
#: scan of seeds, for the "token value no longer possible" mutation (self-play
#: rarely reveals every token of a value).
_EXHAUSTING_CONFIGS = [(2, 29, True), (3, 29, True), (3, 32, True), (4, 15, True)]


@lru_cache(maxsize=None)
def goldrush_games() -> tuple[Played, ...]:
    return _goldrush_games(tuple(_GOLDRUSH_CONFIGS))


@lru_cache(maxsize=None)
def exhausting_games() -> tuple[Played, ...]:
    games = _goldrush_games(tuple(_EXHAUSTING_CONFIGS))
    for played in games:  # the scan still holds: some value is used up before the end
        assert _exhausted_values(played.states[-1]), played.game.options
    return games


def _goldrush_games(configs: tuple) -> tuple[Played, ...]:
    ts = load_tileset()
    out = []
    for n, seed, farmers in configs:
        options = Options(farmers=farmers)
        game = goldrush_play.play(n, seed=seed, options=options, tileset=ts)
        state = GoldRushState.new(ts, game.players, options)
        states = []
        for t in game.turns:
            states.append(state.copy())
            state.play_turn(t.player, t.actions)
        out.append(Played(game, to_record(game, seed=seed), tuple(states)))
    return tuple(out)


@lru_cache(maxsize=None)
def gold_games() -> tuple[Played, ...]:
    out = []
    for n, seed in _GOLD_CONFIGS:
        game = gold_play.play(n, seed=seed)
        seats = seats_for(n)
        state = GoldState.new(seats)
        states = []
        for t in game.turns:
            states.append(state.copy())
            state.play_turn(t.player, t.actions)
        truth = deal(int(game.options["deal_seed"]))
        out.append(Played(game, to_record(game, seed=seed), tuple(states), truth))
    return tuple(out)


# ---------------------------------------------------------------------------
# Checking one mutated record
# ---------------------------------------------------------------------------

def _turn_line(text: str, number: int) -> int:
    """The line (1-based) of turn ``number`` in canonical text (one turn a line)."""
    prefix = f"{number}. "
    lines = [i + 1 for i, line in enumerate(text.split("\n")) if line.startswith(prefix)]
    assert len(lines) == 1, (number, lines)
    return lines[0]


def _with_turn(record: Record, number: int, turn: Turn) -> Record:
    turns = list(record.turns)
    assert turns[number - 1].number == number
    turns[number - 1] = turn
    return record.replace(turns=tuple(turns))


def _validate_text(record: Record) -> tuple[str, object]:
    text = write_record(record)
    records = parse(text)
    assert len(records) == 1
    parsed = records[0]
    assert parsed.ok, [d.message for d in parsed.diagnostics]
    return text, validate_record(parsed)


def assert_flagged_at(record: Record, number: int, what: str) -> None:
    """The validator reports errors for ``record``, all at turn ``number``, on its line."""
    text, report = _validate_text(record)
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert errors, f"{what}: turn {number} not flagged\n{text}"
    line = _turn_line(text, number)
    for d in errors:
        assert d.turn == number, f"{what}: flagged turn {d.turn}, not {number}: {d.message}"
        assert d.span is not None and d.span.line == line, \
            f"{what}: span {d.span} not on line {line} of turn {number}: {d.message}"
        assert d.severity == "error"
    assert not report.valid


class Tally:
    """Counts checked and skipped samples (with reasons) of one mutation kind."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.checked = 0
        self.skipped: Counter[str] = Counter()

    def skip(self, reason: str) -> None:
        self.skipped[reason] += 1

    def done(self, minimum: int = SAMPLES) -> None:
        tried = self.checked + sum(self.skipped.values())
        print(f"\n{self.kind}: {self.checked} checked, skipped {dict(self.skipped)}")
        assert tried >= minimum, f"{self.kind}: only {tried} samples found"
        assert self.checked >= MIN_CHECKED * tried, f"{self.kind}: too many skipped: {dict(self.skipped)}"


Mutator = Callable[[Played, int, random.Random, Tally], "Turn | None"]


def run_samples(kind: str, games: tuple[Played, ...], mutate: Mutator, seed: int,
                samples: int = SAMPLES, max_tries: int = 4000) -> Tally:
    """Draw (game, turn) pairs; ``mutate`` returns the mutated turn, None when it does not apply.

    A mutator that finds the mutation would stay legal calls ``tally.skip(reason)``
    and returns None.
    """
    rng = random.Random(seed)
    tally = Tally(kind)
    tries = 0
    while tally.checked + sum(tally.skipped.values()) < samples and tries < max_tries:
        tries += 1
        played = rng.choice(games)
        number = rng.randrange(1, len(played.game.turns) + 1)
        before = sum(tally.skipped.values())
        turn = mutate(played, number, rng, tally)
        if turn is None:
            continue
        assert sum(tally.skipped.values()) == before
        assert_flagged_at(_with_turn(played.record, number, turn), number, kind)
        tally.checked += 1
    tally.done(samples)
    return tally


# ---------------------------------------------------------------------------
# Gold Rush helpers
# ---------------------------------------------------------------------------

def _split(actions: tuple) -> tuple[list, PlaceTile | None, object, RevealTokens | None]:
    """(discards, placement, step-2 follow-up, revealed tokens) of a Gold Rush turn."""
    discards = [a for a in actions if isinstance(a, DiscardTile)]
    place = next((a for a in actions if isinstance(a, PlaceTile)), None)
    follow = next((a for a in actions if isinstance(a, (PlaceCowboy, PlaceTent, Mine))), None)
    reveal = next((a for a in actions if isinstance(a, RevealTokens)), None)
    return discards, place, follow, reveal


def _join(discards: list, place: PlaceTile | None, follow: object, reveal: RevealTokens | None) -> tuple:
    return tuple(discards) + tuple(a for a in (place, follow, reveal) if a is not None)


def _turn(played: Played, number: int) -> Turn:
    return played.record.turns[number - 1]


def _same_rotation(design, a: int, b: int) -> bool:
    """Rotations ``a`` and ``b`` give the same tile (a symmetric design)."""
    return design.orientation(a).canonical == design.orientation(b).canonical


def _legal_at(state: GoldRushState, tile: str, x: int, y: int, rotation: int) -> bool:
    """Whether the engine lists a placement of ``tile`` at x,y with a rotation identical to ``rotation``."""
    design = state.tileset[tile]
    return any((p.x, p.y) == (x, y) and _same_rotation(design, p.rotation, rotation)
               for p in state.legal_placements(tile))


def _place_of(placed, local: int) -> str:
    """A place naming segment ``local`` of a tile on the board (an edge middle when it has one)."""
    places = [i for i, s in enumerate(placed.orientation.place_segment) if s == local]
    if not places:
        return "C"
    mids = [p for p in places if p % 3 == 1]
    return POSITIONS[(mids or places)[0]]


# ---------------------------------------------------------------------------
# Gold Rush mutations
# ---------------------------------------------------------------------------

def gr_rotation(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    discards, place, follow, reveal = _split(turn.actions)
    if place is None:
        return None
    state = played.states[number - 1]
    design = state.tileset[place.tile]
    wrong = [r for r in (0, 90, 180, 270) if not _legal_at(state, place.tile, place.x, place.y, r)]
    if not wrong:
        return None  # the tile fits at that spot in every rotation: nothing to mutate
    rot = rng.choice(wrong)
    assert not _same_rotation(design, rot, place.rotation)
    return turn.replace(actions=_join(discards, place.replace(rotation=rot), follow, reveal))


def gr_position(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    discards, place, follow, reveal = _split(turn.actions)
    if place is None:
        return None
    state = played.states[number - 1]
    occupied = list(state.board.tiles)
    if rng.random() < 0.5:
        # next to (or on) a tile already placed: occupied, or not matching
        bx, by = rng.choice(occupied)
        x, y = bx + rng.randint(-1, 1), by + rng.randint(-1, 1)
    else:
        # far away from everything: touches no tile
        xs = [p[0] for p in occupied]
        x, y = max(xs) + rng.randint(2, 6), rng.randint(-10, 10)
    if (x, y) == (place.x, place.y) or _legal_at(state, place.tile, x, y, place.rotation):
        return None  # a legal spot: draw again
    return turn.replace(actions=_join(discards, place.replace(x=x, y=y), follow, reveal))


def gr_cowboy_occupied(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    discards, place, follow, reveal = _split(turn.actions)
    if place is None:
        return None
    state = played.states[number - 1]
    if state.cowboys[turn.player] <= 0:
        return None  # no cowboy in the supply: another error would come first
    after = state.copy()
    after.play_turn(turn.player, _join(discards, place, None, None))
    taken = []
    for loc in LOCATIONS:
        try:
            who = after.cowboys_on(place.x, place.y, loc)
        except (IllegalAction, IndexError, KeyError, ValueError):
            continue
        if who:
            taken.append(loc)
    if not taken:
        return None
    cowboy = PlaceCowboy(rng.choice(taken))
    if follow == cowboy:
        tally.skip("the record already puts a cowboy there (cannot happen in a legal game)")
        return None
    return turn.replace(actions=_join(discards, place, cowboy, reveal))


def gr_tent_completed(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    discards, place, follow, reveal = _split(turn.actions)
    if place is None:
        return None
    state = played.states[number - 1]
    board = state.board
    done = []
    for (x, y), t in board.tiles.items():
        mountains = [i for i, s in enumerate(t.design.segments) if s.kind == "mountain"]
        for ls in mountains:
            if board.is_closed(t.sid(ls)):
                done.append(PlaceTent(x, y, _place_of(t, ls) if len(mountains) > 1 else None))
    if not done:
        return None
    return turn.replace(actions=_join(discards, place, rng.choice(done), reveal))


def gr_mine_without_tent(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    discards, place, follow, reveal = _split(turn.actions)
    if place is None:
        return None
    state = played.states[number - 1]
    if state.tents[turn.player] is not None:
        return None
    return turn.replace(actions=_join(discards, place, Mine(), reveal))


def gr_mine_exhausted(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    discards, place, follow, reveal = _split(turn.actions)
    if place is None:
        return None
    state = played.states[number - 1]
    where = state.tents[turn.player]
    if where is None:
        return None
    design = state.tileset[place.tile]
    if any(s.kind == "mountain" for s in design.segments):
        return None  # the new tile could bring tokens to the tent's mountain
    try:
        left = state.tokens_on(*where)
    except IllegalAction:
        return None  # a tile with several mountains: which one is not told by `tents`
    if left:
        return None
    if isinstance(follow, Mine):
        tally.skip("the record mines there already (cannot happen in a legal game)")
        return None
    return turn.replace(actions=_join(discards, place, Mine(), reveal))


def _exhausted_values(state: GoldRushState) -> list[int]:
    known = state.token_info()["known"]
    return [v for v, n in state.tileset.token_counts.items() if known.get(v, 0) >= n]


def gr_token_value(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    discards, place, follow, reveal = _split(turn.actions)
    state = played.states[number - 1]
    gone = _exhausted_values(state)
    if not gone:
        return None
    if isinstance(follow, Mine) and (reveal is None or rng.random() < 0.5):
        choices = [v for v in gone if v != follow.value]
        if not choices:
            return None
        return turn.replace(actions=_join(discards, place, Mine(rng.choice(choices)), reveal))
    if reveal is None or not reveal.values:
        return None
    i = rng.randrange(len(reveal.values))
    choices = [v for v in gone if v != reveal.values[i]]
    if not choices:
        return None
    values = list(reveal.values)
    values[i] = rng.choice(choices)
    return turn.replace(actions=_join(discards, place, follow, RevealTokens(tuple(values))))


def gr_token_no_such_value(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    discards, place, follow, reveal = _split(turn.actions)
    bad = rng.choice([4, 6, 7, 10])
    if isinstance(follow, Mine):
        return turn.replace(actions=_join(discards, place, Mine(bad), reveal))
    if reveal is not None and reveal.values:
        values = list(reveal.values)
        values[rng.randrange(len(values))] = bad
        return turn.replace(actions=_join(discards, place, follow, RevealTokens(tuple(values))))
    return None


def _wrong_checkpoint(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    true = dict(played.game.turns[number - 1].scores)
    who = rng.choice(list(true))
    wrong = dict(true)
    wrong[who] += rng.choice([-3, -1, 1, 2, 5, 10])
    cp = Checkpoint(tuple(wrong.items()))
    extras = tuple(e for e in turn.extras if not isinstance(e, Checkpoint)) + (cp,)
    return turn.replace(extras=extras)


def _wrong_player(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    if number == 1:
        tally.skip("turn 1 names the start player: any player may start a game")
        return None
    owned = played.game.colours or tuple((c,) for c in played.game.players)
    mine = next(cols for cols in owned if turn.player in cols)
    others = [c for cols in owned if cols is not mine for c in cols]
    return turn.replace(player=rng.choice(others))


def gr_tile_beyond_copies(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    discards, place, follow, reveal = _split(turn.actions)
    if place is None:
        return None
    state = played.states[number - 1]
    used_up = [tid for tid, n in state.bag().items() if n == 0 and tid != place.tile]
    if not used_up:
        return None
    return turn.replace(actions=_join(discards, place.replace(tile=rng.choice(used_up)), follow, reveal))


GOLDRUSH_KINDS: dict[str, tuple[Mutator, int, Callable[[], tuple[Played, ...]], int]] = {
    "rotation that does not fit": (gr_rotation, 1, goldrush_games, SAMPLES),
    "placement moved where it does not fit or touch": (gr_position, 2, goldrush_games, SAMPLES),
    "cowboy on an occupied feature": (gr_cowboy_occupied, 3, goldrush_games, SAMPLES),
    "tent on a completed mountain": (gr_tent_completed, 4, goldrush_games, SAMPLES),
    "mine without a tent": (gr_mine_without_tent, 5, goldrush_games, SAMPLES),
    "mine with the tent on an exhausted mountain": (gr_mine_exhausted, 6, goldrush_games, SAMPLES),
    "token value no longer possible": (gr_token_value, 7, exhausting_games, 20),
    "token value that does not exist": (gr_token_no_such_value, 8, goldrush_games, SAMPLES),
    "wrong score checkpoint": (_wrong_checkpoint, 9, goldrush_games, SAMPLES),
    "tile id beyond the bag's copies": (gr_tile_beyond_copies, 10, goldrush_games, SAMPLES),
    "turn played by the wrong player": (_wrong_player, 11, goldrush_games, SAMPLES),
}


@pytest.mark.parametrize("kind", list(GOLDRUSH_KINDS))
def test_goldrush_mutation_is_flagged_at_its_turn(kind: str) -> None:
    mutate, seed, pool, samples = GOLDRUSH_KINDS[kind]
    run_samples(kind, pool(), mutate, seed, samples)


def test_goldrush_games_cover_the_options() -> None:
    games = goldrush_games()
    assert {len(p.game.players) for p in games} == {2, 3, 4, 5}
    assert {p.game.options["farmers"] for p in games} == {"on", "off"}


def _wrong_result(played: Played, rng: random.Random) -> Record:
    scores = dict(played.game.final_scores)
    who = rng.choice(list(scores))
    scores[who] += rng.choice([-2, -1, 1, 3, 7])
    return played.record.with_tags(Result=", ".join(f"{p} {s}" for p, s in scores.items()))


@pytest.mark.parametrize("which", ["goldrush", "gold"])
def test_wrong_result_tag_is_flagged(which: str) -> None:
    games = goldrush_games() if which == "goldrush" else gold_games()
    rng = random.Random(99)
    checked = 0
    for played in games:
        for _ in range(3):
            record = _wrong_result(played, rng)
            text, report = _validate_text(record)
            errors = [d for d in report.diagnostics if d.severity == "error"]
            assert len(errors) == 1, [d.message for d in errors]
            (d,) = errors
            assert d.code == "result" and d.turn is None
            assert "Result tag differs" in d.message
            result_line = next(i + 1 for i, l in enumerate(text.split("\n")) if l.startswith("[Result "))
            assert d.span is not None and 1 <= d.span.line <= result_line  # in the header
            assert report.complete
            checked += 1
    print(f"\nwrong Result tag ({which}): {checked} checked")
    assert checked >= 24


# ---------------------------------------------------------------------------
# Gold mutations
# ---------------------------------------------------------------------------

def _deck() -> list[Card]:
    return sorted(load_cards().counts(), key=repr)


def gold_wrong_owner(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """A turn where a miner carries gold out: give the gold to another player by the miner's colour.

    That is legal when the miner was never seen before (the record may say any
    colour); it contradicts the record when the miner was seen earlier.
    """
    turn = _turn(played, number)
    state = played.states[number - 1]
    events = state.copy().play_turn(turn.player, turn.actions)
    taken = [e for e in events if isinstance(e, GoldTaken) and e.by_miner_pos is not None]
    if not taken:
        return None
    ev = taken[0]
    i = next(j for j, f in enumerate(turn.actions) if f.pos == ev.by_miner_pos)
    flip = turn.actions[i]
    if ev.by_miner_pos not in state.seen_faces():
        # never seen before: another colour is a legal record (see test_gold_new_miner_colour_is_legal)
        return None
    others = [c for c in COLOURS if (state.owner(c) or turn.player) != ev.player]
    if not others:
        return None
    colour = rng.choice(others)
    actions = list(turn.actions)
    actions[i] = FlipCard(flip.pos, Card("miner", flip.face.value, colour))
    return turn.replace(actions=tuple(actions))


def gold_contradicts_reveal(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    state = played.states[number - 1]
    seen = state.seen_faces()
    known = [j for j, f in enumerate(turn.actions) if f.pos in seen]
    if not known:
        return None
    i = rng.choice(known)
    flip = turn.actions[i]
    face = rng.choice([c for c in _deck() if c != flip.face])
    actions = list(turn.actions)
    actions[i] = FlipCard(flip.pos, face)
    return turn.replace(actions=tuple(actions))


def gold_turned_twice(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    first = turn.actions[0]
    if len(turn.actions) == 2:
        actions = (first, FlipCard(first.pos, first.face)) if rng.random() < 0.5 else \
            (FlipCard(turn.actions[1].pos, turn.actions[1].face), turn.actions[1])
    else:
        actions = (first, FlipCard(first.pos, first.face))
    return turn.replace(actions=actions)


def _phase_mutation(played: Played, number: int, rng: random.Random) -> Turn:
    turn = _turn(played, number)
    state = played.states[number - 1]
    if state.flips_due == 2:
        assert len(turn.actions) == 2
        return turn.replace(actions=(turn.actions[rng.randrange(2)],))
    assert len(turn.actions) == 1
    pos = turn.actions[0].pos
    other = rng.choice([p for p in state.face_down() if p != pos] or [pos])
    extra = FlipCard(other, played.truth[other])
    return turn.replace(actions=(turn.actions[0], extra) if rng.random() < 0.5 else (extra, turn.actions[0]))


def gold_phase(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    state = played.states[number - 1]
    if len(state.face_down()) < 2:
        return None  # the last card: two flips are impossible to write differently
    return _phase_mutation(played, number, rng)


def test_gold_phase_change_at_the_boundary() -> None:
    """One flip on the last two-card turn (a Gold Rush begun early), two on the first rush turn (late)."""
    rng = random.Random(5)
    checked = 0
    for played in gold_games():
        rush = next(i for i, s in enumerate(played.states) if s.flips_due == 1) + 1
        for number in (rush - 1, rush):
            turn = _phase_mutation(played, number, rng)
            assert len(turn.actions) == (1 if number == rush - 1 else 2)
            assert_flagged_at(_with_turn(played.record, number, turn), number, "phase boundary")
            checked += 1
    assert checked == 2 * len(gold_games())


def gold_too_many_copies(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    state = played.states[number - 1]
    seen = state.seen_faces()
    counts = load_cards().counts()
    used = Counter(seen.values())
    gone = [c for c, n in counts.items() if used[c] >= n]
    fresh = [j for j, f in enumerate(turn.actions) if f.pos not in seen]
    if not gone or not fresh:
        return None
    i = rng.choice(fresh)
    flip = turn.actions[i]
    face = rng.choice(gone)
    if face == flip.face:
        tally.skip("cannot happen: the card list would be exceeded by the record itself")
        return None
    actions = list(turn.actions)
    actions[i] = FlipCard(flip.pos, face)
    return turn.replace(actions=tuple(actions))


def gold_no_such_card(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    turn = _turn(played, number)
    state = played.states[number - 1]
    seen = state.seen_faces()
    fresh = [j for j, f in enumerate(turn.actions) if f.pos not in seen]
    if not fresh:
        return None
    i = rng.choice(fresh)
    face = rng.choice([Card("gold", 5), Card("gold", 9), Card("miner", 1, "red"), Card("miner", 6, "blue")])
    actions = list(turn.actions)
    actions[i] = FlipCard(turn.actions[i].pos, face)
    return turn.replace(actions=tuple(actions))


def gold_removed_card(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """Turning a card that has already left the table."""
    turn = _turn(played, number)
    state = played.states[number - 1]
    gone = state.removed()
    if not gone:
        return None
    pos = rng.choice(gone)
    i = rng.randrange(len(turn.actions))
    actions = list(turn.actions)
    actions[i] = FlipCard(pos, state.seen_faces()[pos])
    if len({a.pos for a in actions}) != len(actions):
        return None
    return turn.replace(actions=tuple(actions))


GOLD_KINDS: dict[str, tuple[Mutator, int]] = {
    "gold to another owner (miner colour contradicts its reveal)": (gold_wrong_owner, 21),
    "face contradicting an earlier reveal": (gold_contradicts_reveal, 22),
    "a card turned twice in one turn": (gold_turned_twice, 23),
    "phase change: one flip where two are due and vice versa": (gold_phase, 24),
    "more copies of a card than the deck has": (gold_too_many_copies, 25),
    "a card that is not in the deck": (gold_no_such_card, 26),
    "a card that has left the table": (gold_removed_card, 27),
    "wrong score checkpoint": (_wrong_checkpoint, 28),
    "turn played by the wrong player": (_wrong_player, 29),
}


@pytest.mark.parametrize("kind", list(GOLD_KINDS))
def test_gold_mutation_is_flagged_at_its_turn(kind: str) -> None:
    mutate, seed = GOLD_KINDS[kind]
    run_samples(kind, gold_games(), mutate, seed)


def test_gold_two_players_may_name_either_colour() -> None:
    """R34: with two players a turn may name the player by either colour -- not a mutation."""
    played = next(p for p in gold_games() if len(p.game.players) == 2)
    owned = dict(zip(played.game.players, played.game.colours))
    turns = tuple(t.replace(player=owned[t.player][1]) for t in played.record.turns)
    text, report = _validate_text(played.record.replace(turns=turns))
    assert report.valid and report.complete, [d.message for d in report.diagnostics]


def test_gold_new_miner_colour_is_legal() -> None:
    """Why the wrong-owner mutation needs an earlier reveal: a miner never seen may be any colour."""
    rng = random.Random(3)
    legal = 0
    for played in gold_games():
        for number in range(1, len(played.game.turns) + 1):
            turn = _turn(played, number)
            state = played.states[number - 1]
            events = state.copy().play_turn(turn.player, turn.actions)
            taken = [e for e in events if isinstance(e, GoldTaken) and e.by_miner_pos is not None]
            if not taken or taken[0].by_miner_pos in state.seen_faces():
                continue
            i = next(j for j, f in enumerate(turn.actions) if f.pos == taken[0].by_miner_pos)
            flip = turn.actions[i]
            for colour in COLOURS:
                face = Card("miner", flip.face.value, colour)
                if colour == flip.face.colour:
                    continue
                actions = list(turn.actions)
                actions[i] = FlipCard(flip.pos, face)
                try:
                    got = state.copy().play_turn(turn.player, tuple(actions))
                except IllegalAction as exc:
                    assert "of that kind" in exc.message  # only the card list can object
                    continue
                receiver = next(e.player for e in got if isinstance(e, GoldTaken))
                owner = state.owner(colour)
                assert receiver == (owner if owner is not None else turn.player)
                legal += 1
                break
            if legal >= 5:
                return
    assert legal > 0
