"""Where grn's work runs: in this process, in a pool of worker processes, or on a Dask cluster.

``grn validate``, ``grn archive add``, ``grn analyse`` and ``grn archive
analyse`` cut their work into units (a chunk of games; a few turns of one game)
and hand them to a :class:`Runner`:

* :class:`Inline`: a serial run, the same work in this process, at once;
* :class:`ProcessPool`: a :class:`concurrent.futures.ProcessPoolExecutor` on this machine;
* :class:`DaskClient`: a :class:`distributed.Client` of a running Dask cluster
  (``pip install 'grn[dask]'``); the workers need grn installed.

Whatever runs them, results are taken back in the order the units were sent,
so a parallel run reports exactly what a serial run reports.

:func:`game_units` (:mod:`grn.check.files`) reads a file into the units the workers parse: the text of
each game of a GRN file (cut, not parsed) or the records of a JSON file.
"""

from __future__ import annotations

import gc
import os
import threading
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

# what a file's games are: cut in grn.check.files, where grn validate reads them without this module (R462)
from grn.check.files import Unit, game_units

if TYPE_CHECKING:
    from concurrent.futures import Executor

#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 10

#: The young generation's threshold while a unit of grn's runs on a Dask worker (R331): the same as in grn's own
#: process (:data:`grn.cli.launch.YOUNG_THRESHOLD`, R322), where Python's default of 700 walks the worker's whole
#: young generation a few hundred times a 10,000 games (3% of a worker's time).
TASK_YOUNG_THRESHOLD = 20_000



class Runner(Protocol):
    """Runs a module-level function on its arguments somewhere and gives back its result."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Start ``fn(*args)``; return a handle for :meth:`result`."""

    def result(self, future: Any) -> Any:
        """Wait for the result of a handle that :meth:`submit` returned."""

    def close(self) -> None:
        """Stop the workers (a no-op for a serial run)."""


class Inline:
    """A serial run: the same work, in this process, at once (``extra`` keyword arguments added to each call)."""

    def __init__(self, **extra: Any) -> None:
        self.extra = extra

    def __repr__(self) -> str:
        return "Inline()"

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        return fn(*args, **self.extra)

    def result(self, future: Any) -> Any:
        return future

    def close(self) -> None:
        pass


class ProcessPool:
    """``jobs`` worker processes on this machine.

    From a single-threaded command line run the workers are forked, so they
    start with grn imported; from a process with threads (a test runner's, a
    Dask client's) forking could copy a held lock, so they start from a fork
    server that imports ``preload`` once.
    """

    def __init__(self, jobs: int, preload: Sequence[str] = ("grn.notation.read",)) -> None:
        # loaded when a pool is asked for: a serial run starts without them (issue 26, start-up)
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing.context import BaseContext

        self.jobs = jobs
        ctx: BaseContext
        if can_fork():
            ctx = multiprocessing.get_context("fork")
        else:
            ctx = multiprocessing.get_context("forkserver")
            multiprocessing.set_forkserver_preload(list(preload))
        self.executor: Executor = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
        self.forks = ctx.get_start_method() == "fork"
        self.started = False

    def __repr__(self) -> str:
        return f"ProcessPool(jobs={self.jobs})"

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self.started or not self.forks:
            return self.executor.submit(fn, *args)
        # The first unit forks the workers.  Frozen, the objects they inherit (grn's modules, imported once
        # here) are left out of their garbage collections, which would otherwise walk them again and again
        # and copy every page they touch (copy on write); this process unfreezes its own at once.
        self.started = True
        gc.freeze()
        try:
            return self.executor.submit(fn, *args)
        finally:
            gc.unfreeze()

    def result(self, future: Any) -> Any:
        return future.result()

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


class SchedulerError(Exception):
    """The Dask scheduler cannot be used (not installed, not reachable, its workers cannot run grn)."""


class DaskClient:
    """A Dask cluster reached through its scheduler's address; ``warm_up`` runs once on every worker."""

    def __init__(self, address: str, warm_up: Callable[[], None] | None = None) -> None:
        try:
            from distributed import Client  # an optional heavy dependency, loaded only for --dask-scheduler
        except ImportError:
            raise SchedulerError("--dask-scheduler needs Dask: pip install 'grn[dask]'") from None
        self.address = address
        try:
            self.client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        try:
            # every worker gets ready now, not on its first unit (and says early if grn is missing)
            self.client.run(warm_up or _import_grn)
        except Exception as exc:  # noqa: BLE001 - whatever a worker raised, say it in one line
            self.client.close()
            raise SchedulerError(f"the Dask workers at {address} cannot run grn: {exc}") from None
        #: the cluster's worker threads when connected: how many units can run at once
        self.workers = max(1, sum(self.client.nthreads().values()))

    def __repr__(self) -> str:
        return f"DaskClient({self.address!r})"

    def everywhere(self, fn: Callable[..., Any], *args: Any) -> list[Any]:
        """What ``fn(*args)`` (a module-level function) gives on each worker of the cluster."""
        return list(self.client.run(fn, *args).values())

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        # pure=False: two units with equal arguments are still two pieces of work
        return self.client.submit(packed, fn, *args, pure=False)

    def result(self, future: Any) -> Any:
        import pickle  # the Dask path only (with Dask itself): a serial run starts without it

        return pickle.loads(future.result())

    def close(self) -> None:
        self.client.close()


def packed(fn: Callable[..., Any], *args: Any) -> bytes:
    """Run on a Dask worker: ``fn(*args)`` pickled in one piece (R296).

    Dask sends a task's result that is a list, tuple, set or dict element by element (a frame and a
    deserialisation each in the worker's and the client's event loops: for a chunk of 256 games 256 of each);
    as bytes it travels as one frame and the client unpickles it at once, in the thread that asked for it.
    """
    import pickle  # on a Dask worker, which has it loaded already

    with young_generation(TASK_YOUNG_THRESHOLD):
        result = fn(*args)
    return pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


_YOUNG_LOCK = threading.Lock()
#: (units running in this process under :func:`young_generation`, the threshold it found before the first)
_YOUNG: list[Any] = [0, None]


class young_generation:
    """While the block runs, the collector's young generation is at least ``threshold`` objects; the
    threshold the process had comes back when the last such block of any thread ends (R331).

    For grn's units on a Dask worker, a process grn does not own: nothing of its settings is kept after
    grn's work, and the generations are not frozen.
    """

    def __init__(self, threshold: int) -> None:
        self.threshold = threshold

    def __enter__(self) -> None:
        with _YOUNG_LOCK:
            if _YOUNG[0] == 0:
                found = gc.get_threshold()
                _YOUNG[1] = found
                if found[0] < self.threshold:
                    gc.set_threshold(self.threshold, *found[1:])
            _YOUNG[0] += 1

    def __exit__(self, *exc: object) -> None:
        with _YOUNG_LOCK:
            _YOUNG[0] -= 1
            if _YOUNG[0] == 0:
                gc.set_threshold(*_YOUNG[1])
                _YOUNG[1] = None


def _import_grn() -> None:
    """The default warm-up of a Dask worker: import grn's reader."""
    import grn.notation.read  # noqa: F401


def can_fork() -> bool:
    """Whether worker processes can be forked from this process now: the system forks, and this process runs
    one thread (a fork copies no lock that another thread holds)."""
    # loaded when a pool may be asked for: a serial run starts without it (issue 26, start-up)
    import multiprocessing

    return threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


__all__ = ["Runner", "Inline", "ProcessPool", "DaskClient", "SchedulerError", "game_units", "can_fork", "cpu_count",
           "Unit", "CONNECT_TIMEOUT", "packed"]
