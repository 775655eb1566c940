"""Where the server's bots think: a pool of worker processes, never the event loop.

A :class:`BotPool` of ``workers`` processes (``euchre serve --bot-workers N``,
the number of cores by default) runs every search bot decision and every hint;
the event loop only waits for the answer. Each server process keeps a pool of
its own, so several processes on one PostgreSQL store think on as many
machines. ``workers`` 0 thinks in threads of the server process instead (the
GIL lets one think at a time: for tests and small machines).

The work is a pure function of picklable inputs (:func:`run_bot_job`,
:func:`suggest`), so a worker decides exactly as the server would.

Every call has a time budget. A call over budget is abandoned (cancelled if it
has not started); if abandoned calls still hold half the workers after another
budget, the pool is replaced by a fresh one and the old one's processes are
killed once nothing else can still be waiting for them, so a stuck bot never
blocks the pool for ever. A pool broken by a dead worker is replaced too, and
the call tried again within its budget.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..bots import SearchBot
from ..view import View
from .tables import BotJob, run_bot_job

__all__ = ["BotPool", "default_workers", "suggest", "think"]

log = logging.getLogger("euchre.web")

T = TypeVar("T")


def default_workers() -> int:
    """The default pool size: the number of cores."""
    return os.cpu_count() or 1


def think(job: BotJob) -> dict[str, Any]:
    """The entry the job's bot plays (in a worker: :func:`run_bot_job`)."""
    return run_bot_job(job)


def suggest(
    view: View, seed: int, level: str, deadline: float | None = None
) -> list[dict[str, Any]]:
    """The hint on ``view``: the ``level`` search bot's actions with their
    expected points, best first (the bot seeded with ``seed``; answering with
    its best so far at ``deadline``, a ``time.time()``, if one is given)."""
    bot = SearchBot(random.Random(seed), level=level)
    bot.deadline = deadline
    return [{"action": str(a), "points": round(float(p), 3)} for a, p in bot.suggest(view)]


def _watch_parent(server: int) -> None:
    """In a worker: exit when the server process ``server`` (or the worker's own
    parent, the fork server) is gone — killed without a word to its workers."""
    parent = os.getppid()

    def gone() -> bool:
        if os.getppid() != parent:
            return True
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            pass
        return False

    def watch() -> None:
        while not gone():
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="euchre-watch-server", daemon=True).start()


def _context() -> multiprocessing.context.BaseContext:
    """Start workers from a fork server with the bots already imported, never
    by forking the threaded server process itself (``spawn`` where there is no
    fork server)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["euchre.web.workers"])
        return ctx
    return multiprocessing.get_context("spawn")


class BotPool:
    """The worker processes of one server (or threads, with ``workers`` 0)."""

    def __init__(self, workers: int, timeout: float) -> None:
        """A pool of ``workers`` processes (0: threads); calls may take ``timeout`` s."""
        if workers < 0:
            raise ValueError(f"the number of bot workers must be 0 or more, not {workers}")
        self.workers = workers
        self.timeout = timeout
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        #: calls abandoned over budget that are still running in the current pool
        self._stuck: set[concurrent.futures.Future[Any]] = set()
        #: pools replaced, whose processes are killed after one more budget
        self._old: set[concurrent.futures.ProcessPoolExecutor] = set()
        self._retired: set[asyncio.Task[None]] = set()
        self._stopped = False
        self.replaced = 0  # how many times the pool was replaced (for tests and logs)

    @property
    def processes(self) -> bool:
        """Whether the bots think in worker processes (not threads)."""
        return self.workers > 0

    def start(self) -> list[concurrent.futures.Future[int]]:
        """Start the worker processes (at once, so the first decision need not
        wait); returns a future per worker, done once that worker answers."""
        if self.workers and self._executor is None and not self._stopped:
            self._executor = self._new_executor()
            # start them now: the first decision then does not wait for a start
            return [self._executor.submit(os.getpid) for _ in range(self.workers)]
        return []

    async def ready(self) -> None:
        """Start the workers and wait until each has answered once (a start
        under load takes a second or more: no decision's budget should pay
        for it). A worker that cannot start is left to ``run`` to report."""
        started = self.start()
        if started:
            await asyncio.wait([asyncio.wrap_future(f) for f in started], timeout=60)

    def _new_executor(self) -> concurrent.futures.ProcessPoolExecutor:
        return concurrent.futures.ProcessPoolExecutor(
            self.workers,
            mp_context=_context(),
            initializer=_watch_parent,
            initargs=(os.getpid(),),
        )

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, within the time budget: its result, its
        exception, or TimeoutError when over budget (the call is abandoned)."""
        if not self.workers:
            return await asyncio.wait_for(asyncio.to_thread(fn, *args), self.timeout)
        deadline = time.monotonic() + self.timeout
        for attempt in range(2):
            if self._stopped:
                raise TimeoutError("the bot pool is stopped")
            if self._executor is None:
                self.start()
            executor = self._executor
            assert executor is not None
            try:
                future = executor.submit(fn, *args)
                return await asyncio.wait_for(
                    asyncio.wrap_future(future), max(0.0, deadline - time.monotonic())
                )
            except TimeoutError:
                self._abandon(executor, future)
                raise
            except BrokenProcessPool:
                # a worker died (killed, out of memory): a fresh pool, one more try
                self._replace(executor, "a worker died")
                if attempt or time.monotonic() >= deadline:
                    raise
        raise AssertionError("unreachable")

    # -- stuck workers ---------------------------------------------------------------
    def _abandon(
        self,
        executor: concurrent.futures.ProcessPoolExecutor,
        future: concurrent.futures.Future[Any],
    ) -> None:
        """A call over budget: cancel it if it has not started; else its worker
        counts as stuck at once (the result would be thrown away), and once half
        the workers are stuck the pool is replaced, so that the calls behind
        them do not wait out their budgets too."""
        if future.cancel() or future.done() or executor is not self._executor:
            return
        self._stuck.add(future)
        future.add_done_callback(self._stuck.discard)
        if len(self._stuck) >= max(1, self.workers // 2):
            self._replace(executor, f"{len(self._stuck)} of its workers are stuck")

    def _replace(self, executor: concurrent.futures.ProcessPoolExecutor, why: str) -> None:
        """Put a fresh pool in place of ``executor``; retire the old one."""
        if executor is not self._executor:
            return  # replaced already
        log.warning("the bot pool is replaced: %s", why)
        self.replaced += 1
        self._stuck = set()
        self._executor = self._new_executor()
        executor.shutdown(wait=False)
        self._old.add(executor)
        # every call still waiting for the old pool is over its budget after one
        # more budget: then its processes go
        task = asyncio.get_running_loop().create_task(self._retire(executor))
        self._retired.add(task)
        task.add_done_callback(self._retired.discard)

    async def _retire(self, executor: concurrent.futures.ProcessPoolExecutor) -> None:
        try:
            await asyncio.sleep(self.timeout)
        finally:
            _kill(executor)
            self._old.discard(executor)

    async def stop(self) -> None:
        """Cancel the calls not started, stop the workers (killing any still
        thinking: their calls are abandoned anyway) and wait for them."""
        self._stopped = True
        executor, self._executor = self._executor, None
        for task in list(self._retired):
            task.cancel()
        executors = [*self._old, *([executor] if executor is not None else [])]
        self._old.clear()
        for old in executors:
            old.shutdown(wait=False, cancel_futures=True)
            _kill(old)
        for old in executors:
            await asyncio.to_thread(old.shutdown, True)


def _kill(executor: concurrent.futures.ProcessPoolExecutor) -> None:
    """Kill the processes of a pool that was shut down (those still thinking)."""
    processes: dict[int, multiprocessing.process.BaseProcess] | None = getattr(
        executor, "_processes", None
    )
    for process in list((processes or {}).values()):
        if process.is_alive():
            process.kill()
