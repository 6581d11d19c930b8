"""R331: grn's units on a Dask worker run with grn's young generation, and leave the worker's settings as found."""

from __future__ import annotations

import gc
import pickle
import threading
from typing import Iterator

import pytest

from grn.cli import launch
from grn.check import workers
from grn.check.workers import TASK_YOUNG_THRESHOLD, packed, young_generation


@pytest.fixture(autouse=True)
def _threshold() -> Iterator[tuple[int, int, int]]:
    """Python's default thresholds around each test, and the test process's own back after it."""
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield before
    gc.set_threshold(*before)


def _young() -> int:
    return gc.get_threshold()[0]


def test_a_unit_runs_with_grns_young_generation_and_gives_the_worker_its_own_back() -> None:
    seen: list[int] = []
    result = pickle.loads(packed(lambda n: seen.append(_young()) or n * 2, 21))
    assert result == 42
    assert seen == [TASK_YOUNG_THRESHOLD] and _young() == 700
    assert TASK_YOUNG_THRESHOLD == launch.YOUNG_THRESHOLD  # as in grn's own process (R322)


def test_the_threshold_comes_back_when_the_unit_fails() -> None:
    def fails() -> None:
        assert _young() == TASK_YOUNG_THRESHOLD
        raise ValueError("a bad unit")

    with pytest.raises(ValueError, match="a bad unit"):
        packed(fails)
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_of_the_worker_is_kept() -> None:
    gc.set_threshold(50_000, 5, 5)
    with young_generation(TASK_YOUNG_THRESHOLD):
        assert gc.get_threshold() == (50_000, 5, 5)
    assert gc.get_threshold() == (50_000, 5, 5)


def test_units_of_several_threads_restore_the_threshold_once_the_last_ends() -> None:
    """Two worker threads running units at once, ending in the other order than they began."""
    first_in, second_in, first_may_end, first_out = (threading.Event() for _ in range(4))
    seen: dict[str, int] = {}

    def first() -> None:
        with young_generation(TASK_YOUNG_THRESHOLD):
            first_in.set()
            second_in.wait(5)
            first_may_end.wait(5)
        seen["after first"] = _young()
        first_out.set()

    def second() -> None:
        first_in.wait(5)
        with young_generation(TASK_YOUNG_THRESHOLD):
            second_in.set()
            first_may_end.set()
            first_out.wait(5)
            seen["second, first ended"] = _young()
        seen["after both"] = _young()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == {"after first": TASK_YOUNG_THRESHOLD, "second, first ended": TASK_YOUNG_THRESHOLD,
                    "after both": 700}
    assert workers._YOUNG == [0, None]
