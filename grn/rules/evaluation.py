"""A learned evaluation: what a position's future is worth beyond the points it would score if the game ended now.

A search scores the end of a truncated playout by each player's projected
final score (:meth:`grn.rules.world.World.value`: the game ended now).  That prices
the future at nothing: a follower in hand, a farmer that may still be placed,
a field that grows.  An :class:`Evaluation` adds, for each player, a linear
function of a few *features* of the position that the game's world reads
(:meth:`grn.rules.world.World.features`: followers in hand by phase, farmers on the
board, ...), with weights fitted by regression of the rest of the game's
margin on those features over games grn played itself
(``scripts/train_evaluation.py``; docs/analysis.md, "How far to trust it").

It also says how far the final margin may still move from the estimate: the
residual spread by phase, ``variance = a·f + b·f²`` for ``f`` the share of the
game left (:meth:`grn.rules.world.World.phase`).  From it a margin estimate becomes
a chance to win (:meth:`Evaluation.win_chance`), for the review's win chances.

Each game ships its own as data (``evaluation.json`` in its package, checked
by ``schemas/evaluation.schema.json``); a game without one is valued by its
projected scores alone.
"""

from __future__ import annotations

import json
import math
from typing import Any, Sequence

from grn.core import shipped

#: The file of a game's evaluation, which the review and the analyses read (in the game's package).
EVALUATION = "evaluation.json"
#: The file of the evaluation the bot's search reads when the game ships one (R485): it may weigh more of the
#: world's features than the review's; without it the bot reads :data:`EVALUATION`.
BOT_EVALUATION = "evaluation-bot.json"

#: The smallest standard deviation of a final margin still to come (points): a game at its end is decided,
#: and a tie is half a win.
MIN_SPREAD = 0.25


class Evaluation:
    """Weights of the game's features, and the spread of what the estimate cannot foresee.

    ``features`` names each feature (the order of :meth:`grn.rules.world.World.features`), ``weights`` their points,
    ``spread`` the coefficients ``(a, b)`` of the final margin's variance still to come, ``a·f + b·f²``.
    """

    __slots__ = ("features", "weights", "spread", "source", "take", "reads")

    def __init__(self, features: Sequence[str], weights: Sequence[float], spread: tuple[float, float],
                 source: dict[str, Any] | None = None) -> None:
        if len(features) != len(weights):
            raise ValueError(f"{len(features)} features but {len(weights)} weights")
        self.features = tuple(features)
        self.weights = tuple(float(w) for w in weights)
        self.spread = (float(spread[0]), float(spread[1]))
        #: How the weights were made (script, games, seed, bot): provenance, not read by the engine.
        self.source = dict(source or {})
        #: Where each feature sits among a world's features when it reads only some of them
        #: (:meth:`for_features`); None: all of them, in order.
        self.take: tuple[int, ...] | None = None
        #: How many of a world's features, from the first, :meth:`bonus` reads (a world need compute no more).
        self.reads = len(self.features)

    def for_features(self, names: Sequence[str]) -> "Evaluation | None":
        """This evaluation for a world whose features are ``names``: itself when they are its own, a copy that
        reads its own among them when they are some of them (a world may offer more features than an evaluation
        weighs, R485), None when one of its own is missing (data made for other features weighs nothing)."""
        names = tuple(names)
        if names == self.features:
            return self
        if not set(self.features) <= set(names):
            return None
        copy = Evaluation(self.features, self.weights, self.spread, self.source)
        copy.take = tuple(names.index(n) for n in self.features)
        copy.reads = max(copy.take, default=-1) + 1
        return copy

    def __repr__(self) -> str:
        terms = ", ".join(f"{n}={w:+.2f}" for n, w in zip(self.features, self.weights))
        return f"<Evaluation {terms}; spread {self.spread[0]:.1f}·f + {self.spread[1]:.1f}·f²>"

    def bonus(self, values: Sequence[float]) -> float:
        """The points a player's ``values`` of the features (a world's, :meth:`for_features`) add to their
        projected score."""
        take = self.take
        if take is None:
            return sum(w * v for w, v in zip(self.weights, values))
        return sum(w * values[i] for w, i in zip(self.weights, take))

    def sigma(self, phase: float) -> float:
        """The standard deviation of the final margin still to come with ``phase`` of the game left."""
        f = min(1.0, max(0.0, phase))
        a, b = self.spread
        return max(MIN_SPREAD, math.sqrt(max(0.0, a * f + b * f * f)))

    def win_chance(self, margin: float, phase: float) -> float:
        """The chance that a player whose expected final margin is ``margin`` (points, ahead of the opponents'
        mean) places first, with ``phase`` of the game left: the normal law of the margin still to come."""
        return normal_cdf(margin / self.sigma(phase))

    def to_json(self) -> dict[str, Any]:
        """The evaluation as its data file holds it."""
        return {"features": list(self.features), "weights": [round(w, 4) for w in self.weights],
                "spread": [round(self.spread[0], 3), round(self.spread[1], 3)], "source": self.source}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "Evaluation":
        """The evaluation a data file holds (checked by ``schemas/evaluation.schema.json`` in the tests)."""
        return cls(doc["features"], doc["weights"], (doc["spread"][0], doc["spread"][1]), doc.get("source"))


def load(package: str, name: str = EVALUATION) -> Evaluation | None:
    """The evaluation ``package`` ships as ``name``; None when it ships none."""
    if shipped.file_path(package, name) is None:
        return None
    return Evaluation.from_json(json.loads(shipped.read_text(package, name)))


def normal_cdf(z: float) -> float:
    """The standard normal law's distribution function."""
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def least_squares(rows: Sequence[Sequence[float]], targets: Sequence[float], ridge: float = 1e-6) -> list[float]:
    """The weights ``w`` minimising ``sum((row · w - target)^2) + ridge·|w|^2`` (the normal equations, solved by
    Gaussian elimination with partial pivoting: a handful of features needs no linear-algebra package)."""
    if not rows:
        raise ValueError("no rows to fit")
    k = len(rows[0])
    if k == 0:
        return []  # no feature: nothing to weigh (a game whose evaluation is its spread alone)
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for row, t in zip(rows, targets):
        for i in range(k):
            ri = row[i]
            if ri == 0.0:
                continue
            b[i] += ri * t
            ai = a[i]
            for j in range(k):
                ai[j] += ri * row[j]
    scale = max((a[i][i] for i in range(k)), default=1.0) or 1.0
    for i in range(k):
        a[i][i] += ridge * scale
    # Gaussian elimination on [a | b]
    m = [a[i][:] + [b[i]] for i in range(k)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            raise ValueError(f"the features are linearly dependent (feature {col})")
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(k):
            if r != col and m[r][col] != 0.0:
                factor = m[r][col] / m[col][col]
                mr, mc = m[r], m[col]
                for c in range(col, k + 1):
                    mr[c] -= factor * mc[c]
    return [m[i][k] / m[i][i] for i in range(k)]


__all__ = ["Evaluation", "EVALUATION", "BOT_EVALUATION", "load", "normal_cdf", "least_squares", "MIN_SPREAD"]
