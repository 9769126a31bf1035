"""The arena's batches as Ray tasks (``pip install tapete[ray]``): the same batches, the same
results as the local backend, checked for the SPRT in the same order."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from ..errors import InvalidOptionError

if TYPE_CHECKING:
    import numpy as np

    from .runner import Batches, Plan


def _batch_task(plan: Plan, g0: int, g1: int, threads: int, record: str | None) -> dict[str, np.ndarray]:
    from .runner import run_batch

    return run_batch(plan, g0, g1, threads, record)


def run_ray(work: Batches, address: str | None) -> list[dict[str, np.ndarray]]:
    """Runs every batch as a task, keeping a window of them in flight; results are taken in batch
    order, so the SPRT stops at the batch edge the local backend stops at (later tasks are
    cancelled and their results dropped). A task plays on one thread unless told (Ray gives it
    one CPU). Ray retries a task whose worker died; a retried batch
    rewrites its own record part, so each game is kept once."""
    try:
        import ray
    except ImportError:
        raise InvalidOptionError("backend='ray' needs Ray: pip install 'tapete[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)
    task = ray.remote(max_retries=3)(_batch_task)
    plan_ref = ray.put(work.plan)
    cluster_resources: Any = ray.cluster_resources  # untyped in Ray's own stubs
    window = max(2, 2 * int(cluster_resources().get("CPU", 1)))
    pending: deque[Any] = deque()
    todo = deque(work.edges)
    parts: list[dict[str, np.ndarray]] = []
    while todo or pending:
        while todo and len(pending) < window:
            g0, g1 = todo.popleft()
            pending.append(task.remote(plan_ref, g0, g1, work.threads or 1, work.record))
        parts.append(ray.get(pending.popleft()))
        if work.after_batch(parts):
            _drop_after_stop(ray, pending, work.edges[len(parts) : len(parts) + len(pending)], work.record)
            break
    return parts


def _drop_after_stop(ray: Any, pending: deque[Any], dropped: list[tuple[int, int]], record: str | None) -> None:
    """Cancels the batches past the SPRT's stop, waits for them, and removes any record part they
    wrote: the record holds exactly the games of the result, as the local backend's does."""
    for ref in pending:
        ray.cancel(ref)
    for ref in pending:
        try:
            ray.get(ref)
        except Exception:  # cancelled, as asked
            pass
    if record is not None:
        from .record import remove_part

        for g0, g1 in dropped:
            remove_part(record, g0, g1)
