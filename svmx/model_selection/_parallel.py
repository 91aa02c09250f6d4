"""Run independent fits through joblib when it is installed, else in a loop.

Going through ``joblib.Parallel`` even for ``n_jobs=None`` lets any joblib
backend chosen by the caller (``joblib.parallel_backend("dask")``, threads,
processes) take the work, so the same code runs on one core, many cores or a
cluster.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

from svmx._progress import ProgressBar

try:
    import joblib
except ImportError:  # joblib is optional: without it, work runs sequentially
    joblib = None


def check_n_jobs(n_jobs: object) -> int | None:
    """Validate ``n_jobs``: None (one job, unless a joblib backend says otherwise) or a
    non-zero integer, as in joblib and scikit-learn."""
    if n_jobs is None:
        return None
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral):
        raise TypeError(f"n_jobs must be None or an integer, got {type(n_jobs).__name__}")
    if n_jobs == 0:
        raise ValueError("n_jobs must not be 0; use None or 1 for one job, -1 for all cores")
    return int(n_jobs)


def effective_jobs(n_jobs: int | None) -> int:
    """The workers ``n_jobs`` stands for: joblib's count under the active backend
    (``n_jobs=None`` is 1 unless a backend says otherwise), 1 without joblib.

    Examples
    --------
    >>> effective_jobs(1)
    1
    """
    if joblib is None:
        return 1
    return max(1, int(joblib.effective_n_jobs(n_jobs)))


def parallel_map(
    function: Callable[..., Any],
    tasks: Sequence[tuple[Any, ...]],
    n_jobs: int | None,
    progress: ProgressBar,
    pre_dispatch: int | str = "2*n_jobs",
    steps: Sequence[int] | None = None,
) -> list[Any]:
    """Return ``[function(*task) for task in tasks]``, possibly in parallel, in order.

    Each finished task advances `progress` by one, or by ``steps[i]`` (the fits
    task i stands for).
    """
    advance = [1] * len(tasks) if steps is None else list(steps)
    if joblib is None:
        results = []
        for task, step in zip(tasks, advance, strict=True):
            results.append(function(*task))
            progress.update(step)
        return results
    parallel = joblib.Parallel(n_jobs=n_jobs, pre_dispatch=pre_dispatch, return_as="generator")
    results = []
    for result, step in zip(parallel(joblib.delayed(function)(*task) for task in tasks),
                            advance, strict=True):
        results.append(result)
        progress.update(step)
    return results
