"""Running the arena's deals: in this process, in a multiprocessing pool or as
Ray tasks; the results are aggregated in deal order, so the figures never
depend on where the deals ran."""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable, Iterator, Sequence

from ..rules import Rules
from .report import ArenaResult, aggregate
from .tasks import DealResult, DealTask, arena_tasks, check_lineup, play_deal, play_deals

__all__ = ["ProgressFn", "run_arena"]

ProgressFn = Callable[[int], None]
"""Called with the number of deals just finished."""


def _chunks(tasks: Sequence[DealTask], size: int) -> list[list[DealTask]]:
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def _chunk_size(n: int, workers: int) -> int:
    return max(1, min(16, math.ceil(n / (workers * 4))))


def _run_local(tasks: Sequence[DealTask], progress: ProgressFn | None) -> Iterator[DealResult]:
    for t in tasks:
        yield play_deal(t)
        if progress:
            progress(1)


def _run_pool(
    tasks: Sequence[DealTask], jobs: int, progress: ProgressFn | None
) -> Iterator[DealResult]:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")  # no fork under a progress thread
    chunks = _chunks(tasks, _chunk_size(len(tasks), jobs))
    with ctx.Pool(jobs) as pool:
        for batch in pool.imap_unordered(play_deals, chunks):
            yield from batch
            if progress:
                progress(len(batch))


def _package_dir() -> str:
    """The directory of the ``euchre`` package (this module's grandparent),
    which a Ray cluster run ships to the workers (pure Python, no dependencies)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run_ray(
    tasks: Sequence[DealTask], address: str, jobs: int | None, progress: ProgressFn | None
) -> Iterator[DealResult]:
    """Run the deals as Ray tasks. ``address`` is a cluster address (this
    ``euchre`` package is shipped to the workers with the job's
    ``runtime_env``; the workers need a Python ≥ 3.11 with Ray) or ``local``
    for a local Ray started here (``jobs`` CPUs, default all). A Ray already
    initialised in this process is used as it is and left running; one
    started here is shut down at the end."""
    import ray

    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(
                num_cpus=jobs or os.cpu_count() or 1,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        else:
            ray.init(
                address=address,
                runtime_env={"py_modules": [_package_dir()]},
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        started = True
    try:
        resources: Callable[[], dict[str, float]] = ray.cluster_resources
        workers = max(1, int(resources().get("CPU", 1)))
        remote = ray.remote(play_deals)
        pending = [remote.remote(c) for c in _chunks(tasks, _chunk_size(len(tasks), workers))]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                batch: list[DealResult] = ray.get(ref)
                yield from batch
                if progress:
                    progress(len(batch))
    finally:
        if started:
            ray.shutdown()


def run_arena(
    lineup: Sequence[str],
    rules: Rules,
    deals: int,
    seed: int = 0,
    *,
    jobs: int | None = None,
    ray: str | None = None,
    progress: ProgressFn | None = None,
) -> ArenaResult:
    """Play ``deals`` deals of master ``seed`` in duplicate and aggregate.

    ``jobs``: worker processes (default 1: in this process); ``ray``: a Ray
    cluster address or ``"local"`` (then ``jobs`` is the local Ray's CPUs).
    ``progress`` is called with the number of deals finished each time some
    finish. The figures (all but the times) are the same whatever ``jobs``
    and ``ray``.
    """
    lineup = check_lineup(lineup, rules)
    if deals < 2:
        raise ValueError("the arena needs at least 2 deals for its intervals")
    if jobs is not None and jobs < 1:
        raise ValueError("jobs must be at least 1")
    tasks = arena_tasks(lineup, rules, deals, seed)
    start = time.perf_counter()
    if ray is not None:
        results = list(_run_ray(tasks, ray, jobs, progress))
    elif jobs is not None and jobs > 1:
        results = list(_run_pool(tasks, jobs, progress))
    else:
        results = list(_run_local(tasks, progress))
    return aggregate(results, lineup, rules, seed, time.perf_counter() - start)
